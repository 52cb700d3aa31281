// Package rules holds what the service cites: the casino rule documents
// (the .txt files of this directory, unchanged; each ruleset's description
// in internal/ruleset names its own) and the product's rulings
// R1-R29 (RULINGS.md), embedded in every binary so that a citation such as
// "mbs-megalink-tcp-v6 3.11.2" or "ruling R12" resolves for a client
// without anything outside the repository.
package rules

import (
	"embed"
	"io/fs"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

//go:embed *.txt RULINGS.md
var files embed.FS

// Document is a ruleset's rule document. Each ruleset's description
// (internal/ruleset) carries its own: the catalogue of rulesets is the one
// list of documents, and a new ruleset is its description and its
// document, nothing else.
type Document struct {
	RulesetID string // e.g. "mbs-megalink-tcp-v6"
	File      string // the file of this directory
	Title     string // the game, as the document names it
	// Body is the document's text when it is not a file of this directory
	// (a test's ruleset brings its own); empty for the embedded documents.
	Body string
}

// Files are the rule documents embedded here (the .txt files of this
// directory), sorted.
func Files() []string {
	names, _ := fs.Glob(files, "*.txt") // the pattern is valid
	return names
}

// Text returns a document's whole text.
func (d Document) Text() string {
	if d.Body != "" {
		return d.Body
	}
	b, err := files.ReadFile(d.File)
	if err != nil {
		panic("rules: " + d.File + " is not embedded: " + err.Error())
	}
	return string(b)
}

// Clause is one numbered clause of a document: its number ("3.11.2") and
// its text as written: its first line, then each further line of it (a
// wrapped sentence, a pay table) on a line of its own, blank lines left out.
type Clause struct {
	Number string
	Text   string
}

// clauseLine matches a numbered clause at the start of a line, with at least
// two levels ("3.11", "5.1.1"), optionally after a list dash or a markdown
// heading's hashes ("#### 4.2 ..."), and followed by
// an optional dot: "- 3.11.2 There ...", " - 5.1.1. The ...", "2.2.1 The ...".
var clauseLine = regexp.MustCompile(`^\s*(?:#+\s*)?(?:-\s*)?(\d+(?:\.\d+)+)\.?\s+(\S.*)$`)

// sectionLine matches a section heading ("5. Irregularities"), which ends
// the clause before it.
var sectionLine = regexp.MustCompile(`^\s*(?:-\s*)?\d+\.\s`)

// Clauses returns the numbered clauses of the document in document order.
// A number the document repeats keeps its first text.
func (d Document) Clauses() []Clause {
	if d.Body != "" {
		return parseDocument(d.Body)
	}
	clauses.once.Do(parseClauses)
	return clauses.byFile[d.File]
}

// Clause returns one numbered clause of the document.
func (d Document) Clause(number string) (Clause, bool) {
	for _, c := range d.Clauses() {
		if c.Number == number {
			return c, true
		}
	}
	return Clause{}, false
}

// Subclauses returns the clauses numbered under number ("3.11.1" ... under
// "3.11"), in document order.
func (d Document) Subclauses(number string) []Clause {
	var out []Clause
	for _, c := range d.Clauses() {
		if strings.HasPrefix(c.Number, number+".") {
			out = append(out, c)
		}
	}
	return out
}

var clauses struct {
	once   sync.Once
	byFile map[string][]Clause
}

func parseClauses() {
	clauses.byFile = map[string][]Clause{}
	for _, f := range Files() {
		clauses.byFile[f] = parseDocument(Document{File: f}.Text())
	}
}

// parseDocument returns the numbered clauses of a document's text.
func parseDocument(text string) []Clause {
	var out []Clause
	seen := map[string]bool{}
	cur := -1 // index in out of the clause that continuation lines join
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		text := strings.TrimSpace(line)
		if m := clauseLine.FindStringSubmatch(line); m != nil {
			cur = -1
			if !seen[m[1]] {
				seen[m[1]] = true
				out = append(out, Clause{Number: m[1], Text: strings.TrimSpace(m[2])})
				cur = len(out) - 1
			}
			continue
		}
		if sectionLine.MatchString(line) {
			cur = -1
			continue
		}
		if text != "" && cur >= 0 {
			// A clause's own lines (a pay table under its heading,
			// blank lines between included) until the next clause or
			// section, kept as lines.
			out[cur].Text += "\n" + text
		}
	}
	return out
}

// Ruling is one of the product's rulings, cited as "ruling R<n>".
type Ruling struct {
	ID    string // "R12"
	Title string
	Text  string
}

var rulings struct {
	once sync.Once
	all  []Ruling
}

var rulingHeading = regexp.MustCompile(`^## (R(\d+)) (.+)$`)

// Rulings returns the rulings R1, R2, ... in order, as RULINGS.md writes
// them.
func Rulings() []Ruling {
	rulings.once.Do(func() {
		b, err := files.ReadFile("RULINGS.md")
		if err != nil {
			panic("rules: RULINGS.md is not embedded: " + err.Error())
		}
		var cur *Ruling
		var body []string
		flush := func() {
			if cur != nil {
				cur.Text = strings.Join(strings.Fields(strings.Join(body, " ")), " ")
				rulings.all = append(rulings.all, *cur)
			}
		}
		for _, line := range strings.Split(string(b), "\n") {
			if m := rulingHeading.FindStringSubmatch(line); m != nil {
				flush()
				cur, body = &Ruling{ID: m[1], Title: strings.TrimSpace(m[3])}, nil
				continue
			}
			if cur != nil {
				body = append(body, line)
			}
		}
		flush()
	})
	return rulings.all
}

// RulingByID returns a ruling by its id: "R12", "r12" or "12".
func RulingByID(id string) (Ruling, bool) {
	id = strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(id), "R"), "r")
	n, err := strconv.Atoi(id)
	if err != nil || n < 1 {
		return Ruling{}, false
	}
	for _, r := range Rulings() {
		if r.ID == "R"+strconv.Itoa(n) {
			return r, true
		}
	}
	return Ruling{}, false
}

// Citation is what a citation the service makes refers to: a ruling, or a
// clause of a ruleset's document.
type Citation struct {
	Ruling    *Ruling
	RulesetID string
	Clause    *Clause
}

var citationForm = regexp.MustCompile(`^(?:ruling (R\d+)|([a-z0-9-]+) (\d+(?:\.\d+)+))$`)

// Resolve resolves one citation in the form the service writes it:
// "ruling R12", or "<ruleset id> <clause>" ("mbs-megalink-tcp-v6 3.11.2")
// in the document documentOf gives for that ruleset id (a catalogue's:
// ruleset.Catalogue.Resolve).
func Resolve(citation string, documentOf func(rulesetID string) (Document, bool)) (Citation, bool) {
	m := citationForm.FindStringSubmatch(strings.TrimSpace(citation))
	if m == nil {
		return Citation{}, false
	}
	if m[1] != "" {
		r, ok := RulingByID(m[1])
		if !ok {
			return Citation{}, false
		}
		return Citation{Ruling: &r}, true
	}
	d, ok := documentOf(m[2])
	if !ok {
		return Citation{}, false
	}
	c, ok := d.Clause(m[3])
	if !ok {
		return Citation{}, false
	}
	return Citation{RulesetID: d.RulesetID, Clause: &c}, true
}
