package irregularity

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"testing"
)

// rulesDir is the repository's rules/ (the rule documents, kept in the repo)
// seen from this package: the test reads nothing outside the repository.
const rulesDir = "../../rules"

var docFiles = map[string]string{
	MBSMegalinkSSPv6: "mbs-megalink-singapore-stud-poker-v6.txt",
	MBSSSPv4:         "mbs-singapore-stud-poker-v4.txt",
	MBSMegalinkTCPv6: "mbs-megalink-three-card-poker-v6.txt",
	MBSMegalinkTHBv9: "mbs-megalink-texas-holdem-bonus-progressive-v9.txt",
	RWSMLPCSPv2:      "rws-multi-link-progressive-casino-stud-poker-v2.txt",
}

// clauseLine matches a numbered clause of section 5 at the start of a line:
// "- 5.16.1 If ...", " - 5.1.1. The ...", "5.2 Where ...".
var clauseLine = regexp.MustCompile(`^\s*(?:-\s*)?(5\.\d+(?:\.\d+)*)\.?\s`)

// section5Clauses returns the numbered clauses (5.x, 5.x.y, ...) of a
// document's section 5, in document order.
func section5Clauses(t *testing.T, id string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(rulesDir, docFiles[id]))
	if err != nil {
		t.Fatalf("read the rule document of %s: %v", id, err)
	}
	var out []string
	for _, line := range regexp.MustCompile(`\r?\n`).Split(string(b), -1) {
		if m := clauseLine.FindStringSubmatch(line); m != nil && !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	return out
}

// TestSection5EveryClauseAccountedFor fails when a numbered clause of a
// section 5 has no catalogue entry (a kind's case, or a General entry
// saying why it names no event), and when the catalogue cites a section-5
// clause the document does not have.
func TestSection5EveryClauseAccountedFor(t *testing.T) {
	// The number of numbered clauses of each section 5, counted by hand, so
	// that a parser that misses lines fails here.
	wantCount := map[string]int{MBSMegalinkSSPv6: 26, MBSSSPv4: 9, MBSMegalinkTCPv6: 26, MBSMegalinkTHBv9: 26, RWSMLPCSPv2: 43}
	for _, id := range IDs {
		t.Run(id, func(t *testing.T) {
			doc := section5Clauses(t, id)
			if len(doc) != wantCount[id] {
				t.Errorf("parsed %d clauses of section 5, want %d: %v", len(doc), wantCount[id], doc)
			}
			rs, _ := Catalogue(id)
			have := rs.Clauses()
			for _, c := range doc {
				if len(have[c]) == 0 {
					t.Errorf("%s %s: no catalogue entry (no kind cites it, no General entry explains it)", id, c)
				}
			}
			var cited []string
			for c := range have {
				cited = append(cited, c)
			}
			sort.Strings(cited)
			for _, c := range cited {
				if !slices.Contains(doc, c) && !otherSections[id][c] {
					t.Errorf("%s: the catalogue cites %s, which is not a clause of the document's section 5 (nor a clause of another section it may cite)", id, c)
				}
			}
			for _, g := range rs.General {
				if g.Reason == "" {
					t.Errorf("%s %s: a General entry needs a reason", id, g.Clause)
				}
			}
		})
	}
}

// otherSections are the clauses outside section 5 the catalogue cites: the
// general provisions, the fold rule behind RWS 5.5, and SSP v4's 3.5 (a
// Jackpot Wager follows an Ante).
var otherSections = map[string]map[string]bool{
	MBSMegalinkSSPv6: {"6.1": true},
	MBSMegalinkTCPv6: {"6.1": true},
	MBSMegalinkTHBv9: {"6.1": true},
	MBSSSPv4:         {"3.5": true},
	RWSMLPCSPv2:      {"3.12.1": true},
}

// TestOtherSectionsExist checks the clauses outside section 5 the
// catalogue cites are in the documents.
func TestOtherSectionsExist(t *testing.T) {
	for id, cs := range otherSections {
		b, err := os.ReadFile(filepath.Join(rulesDir, docFiles[id]))
		if err != nil {
			t.Fatal(err)
		}
		for c := range cs {
			if !regexp.MustCompile(`(?m)^\s*(?:-\s*)?` + regexp.QuoteMeta(c) + `\.?\s`).Match(b) {
				t.Errorf("%s: %s is not a clause of the document", id, c)
			}
		}
	}
}
