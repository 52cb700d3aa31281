// Package contract checks that the API's OpenAPI spec keeps its contract
// with the clients generated from the last released spec (issue 33 item
// 8): every breaking change since that release, as oasdiff
// (github.com/oasdiff/oasdiff) finds it, is recorded in CHANGELOG.md with
// its migration note, under a version newer than the release.
//
// It is its own module (as test/e2e is) so that oasdiff and its
// dependencies, pinned by this module's go.sum, stay out of the service's
// module: nothing the service builds links them.
package contract

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/oasdiff/checker"
	"github.com/oasdiff/oasdiff/diff"
	"github.com/oasdiff/oasdiff/load"
)

// ClientParamsAdded is the id of a breaking change oasdiff does not call
// breaking: an operation that had no query, header or cookie parameter
// gains one, optional or not. A generated client's method then takes a
// params argument it did not take (oapi-codegen's GetPoolWithResponse),
// so code written against the release no longer compiles.
const ClientParamsAdded = "generated-client-params-added"

// ClientSchemaRemoved is the id of another: a schema of
// components/schemas that is gone (removed, or renamed: JackpotEntry
// became LedgerEntry). oasdiff compares the documents with their
// references resolved, so the wire may be the same, but a generated
// client's type of that name is gone.
const ClientSchemaRemoved = "generated-client-schema-removed"

// Change is one breaking change: oasdiff's id (or ClientParamsAdded), what
// it is about (Target: "GET /v1/pools/{id}" for an operation, the
// component's name otherwise) and oasdiff's words.
type Change struct {
	ID, Target, Text string
}

func (c Change) String() string { return fmt.Sprintf("`%s` `%s`: %s", c.ID, c.Target, c.Text) }

// Report is what Check found.
type Report struct {
	Released, Current string   // info.version of the released spec and of the current one
	Breaking          []Change // every breaking change since the release
	Unrecorded        []Change // those CHANGELOG.md does not record
	Problems          []string // the versions and the changelog's own order
}

// OK reports whether the contract is kept: every breaking change recorded,
// the versions in order.
func (r Report) OK() bool { return len(r.Unrecorded) == 0 && len(r.Problems) == 0 }

// Check compares the current spec rev with the released spec base and
// the changelog. Additions (an operation, an optional request field, a
// response field) are not breaking and need no entry.
func Check(base, rev, changelog []byte) (Report, error) {
	loader := openapi3.NewLoader()
	s1, err := load.NewSpecInfoFromData(loader, base, "released")
	if err != nil {
		return Report{}, fmt.Errorf("the released spec: %w", err)
	}
	s2, err := load.NewSpecInfoFromData(loader, rev, "current")
	if err != nil {
		return Report{}, fmt.Errorf("the current spec: %w", err)
	}
	d, sources, err := diff.GetWithOperationsSourcesMap(diff.NewConfig(), s1, s2)
	if err != nil {
		return Report{}, fmt.Errorf("oasdiff: %w", err)
	}
	r := Report{Released: s1.Spec.Info.Version, Current: s2.Spec.Info.Version}
	l := checker.NewDefaultLocalizer()
	for _, c := range checker.CheckBackwardCompatibilityUntilLevel(checker.NewConfig(checker.GetAllChecks()), d, sources, checker.ERR) {
		target := c.GetPath()
		if target != "" {
			target = c.GetOperation() + " " + target
		} else if args := c.GetArgs(); len(args) > 0 {
			target = fmt.Sprint(args[0])
		}
		r.Breaking = append(r.Breaking, Change{ID: c.GetId(), Target: target, Text: c.GetUncolorizedText(l)})
	}
	r.Breaking = append(r.Breaking, paramsAdded(s1.Spec, s2.Spec)...)
	r.Breaking = append(r.Breaking, schemasRemoved(s1.Spec, s2.Spec)...)

	rel, okR := parseVersion(r.Released)
	cur, okC := parseVersion(r.Current)
	switch {
	case !okR:
		r.Problems = append(r.Problems, fmt.Sprintf("the released spec's info.version %q is not a semantic version", r.Released))
	case !okC:
		r.Problems = append(r.Problems, fmt.Sprintf("info.version %q is not a semantic version (MAJOR.MINOR.PATCH)", r.Current))
	case cur.less(rel):
		r.Problems = append(r.Problems, fmt.Sprintf("info.version %s is older than the released %s", r.Current, r.Released))
	case len(r.Breaking) > 0 && rel.less(cur) && cur.major == rel.major:
		r.Problems = append(r.Problems, fmt.Sprintf("info.version %s: a breaking change since %s needs a new major version", r.Current, r.Released))
	}
	sections, err := parseChangelog(changelog)
	if err != nil {
		return r, err
	}
	if okR && !slices.ContainsFunc(sections, func(s section) bool { return s.version == r.Released }) {
		r.Problems = append(r.Problems, fmt.Sprintf("CHANGELOG.md has no section for the released %s", r.Released))
	}
	recorded := map[string]bool{}
	for _, s := range sections {
		v, ok := parseVersion(s.version)
		if s.version != "Unreleased" && (!ok || !rel.less(v)) {
			continue // released with or before the release: not this change
		}
		for _, e := range s.entries {
			recorded[e] = true
		}
	}
	for _, c := range r.Breaking {
		if !recorded[c.ID+" "+c.Target] {
			r.Unrecorded = append(r.Unrecorded, c)
		}
	}
	return r, nil
}

// paramsAdded is ClientParamsAdded for every operation of both specs that
// had no parameter but its path's and now has one.
func paramsAdded(base, rev *openapi3.T) []Change {
	var out []Change
	for path, item := range rev.Paths.Map() {
		old := base.Paths.Find(path)
		if old == nil {
			continue
		}
		for method, op := range item.Operations() {
			was := old.GetOperation(method)
			if was == nil || clientParams(old, was) > 0 || clientParams(item, op) == 0 {
				continue
			}
			out = append(out, Change{ID: ClientParamsAdded, Target: method + " " + path,
				Text: "the operation had no query, header or cookie parameter and now has one: a generated client's method takes a params argument"})
		}
	}
	slices.SortFunc(out, func(a, b Change) int { return strings.Compare(a.Target, b.Target) })
	return out
}

// schemasRemoved is ClientSchemaRemoved for every schema of base's
// components that rev does not have.
func schemasRemoved(base, rev *openapi3.T) []Change {
	var out []Change
	for name := range base.Components.Schemas {
		if _, ok := rev.Components.Schemas[name]; !ok {
			out = append(out, Change{ID: ClientSchemaRemoved, Target: name,
				Text: "the schema is gone from components/schemas: a generated client's type " + name + " is gone"})
		}
	}
	slices.SortFunc(out, func(a, b Change) int { return strings.Compare(a.Target, b.Target) })
	return out
}

// clientParams counts op's parameters (its own and its path item's) that
// are not in the path.
func clientParams(item *openapi3.PathItem, op *openapi3.Operation) int {
	n := 0
	for _, ps := range []openapi3.Parameters{item.Parameters, op.Parameters} {
		for _, p := range ps {
			if p.Value != nil && p.Value.In != openapi3.ParameterInPath {
				n++
			}
		}
	}
	return n
}

// section is one version's section of the changelog: its version
// ("Unreleased" or MAJOR.MINOR.PATCH) and the breaking changes it records,
// each "ID TARGET".
type section struct {
	version string
	entries []string
}

var (
	heading = regexp.MustCompile("^## \\[?([^]\\s]+)\\]?")
	entry   = regexp.MustCompile("^- `([a-z0-9-]+)` `([^`]+)`")
)

// parseChangelog reads CHANGELOG.md: a "## VERSION" (or "## Unreleased")
// heading per version, newest first, and under it, in its "### Breaking"
// list, one line per breaking change, starting "- `ID` `TARGET`" (oasdiff's
// id, and the operation or component as Check's Change names it),
// followed by the migration note.
func parseChangelog(b []byte) ([]section, error) {
	var out []section
	breaking := false
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := sc.Text()
		if m := heading.FindStringSubmatch(line); m != nil && !strings.HasPrefix(line, "###") {
			out = append(out, section{version: m[1]})
			breaking = false
			continue
		}
		if strings.HasPrefix(line, "### ") {
			breaking = strings.TrimSpace(line[4:]) == "Breaking"
			continue
		}
		if m := entry.FindStringSubmatch(line); m != nil && breaking && len(out) > 0 {
			out[len(out)-1].entries = append(out[len(out)-1].entries, m[1]+" "+m[2])
		}
	}
	return out, sc.Err()
}

// version is a semantic version's MAJOR.MINOR.PATCH.
type version struct{ major, minor, patch int }

func parseVersion(s string) (version, bool) {
	p := strings.Split(s, ".")
	if len(p) != 3 {
		return version{}, false
	}
	var n [3]int
	for i, x := range p {
		v, err := strconv.Atoi(x)
		if err != nil || v < 0 || (len(x) > 1 && x[0] == '0') {
			return version{}, false
		}
		n[i] = v
	}
	return version{n[0], n[1], n[2]}, true
}

func (v version) less(w version) bool {
	if v.major != w.major {
		return v.major < w.major
	}
	if v.minor != w.minor {
		return v.minor < w.minor
	}
	return v.patch < w.patch
}
