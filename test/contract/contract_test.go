package contract

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// read reads a file of the repository.
func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile("../../" + path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSpecKeepsItsContract (issue 33 item 8): every breaking change of
// openapi/openapi.yaml since the release kept in openapi/released/ is
// recorded in CHANGELOG.md under a newer version, and the versions are in
// order. The message lists what to record.
func TestSpecKeepsItsContract(t *testing.T) {
	r, err := Check(read(t, "openapi/released/openapi.yaml"), read(t, "openapi/openapi.yaml"), read(t, "CHANGELOG.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range r.Problems {
		t.Error(p)
	}
	if len(r.Unrecorded) > 0 {
		var b strings.Builder
		for _, c := range r.Unrecorded {
			b.WriteString("\n- " + c.String())
		}
		t.Errorf("breaking changes since the released %s (openapi/released/openapi.yaml) that CHANGELOG.md does not record under ## Unreleased "+
			"or a version after %s (see its \"How a breaking change is recorded\"), each with a migration note:%s", r.Released, r.Released, b.String())
	}
}

// edit loads the released spec, changes it with fn and returns it as the
// current one (JSON, which the check reads as it reads YAML).
func edit(t *testing.T, fn func(s *openapi3.T)) []byte {
	t.Helper()
	s, err := openapi3.NewLoader().LoadFromData(read(t, "openapi/released/openapi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	fn(s)
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// withEntry is the repository's CHANGELOG.md with a section for version
// (newer than the release) holding lines under ### Breaking.
func withEntry(t *testing.T, version string, lines ...string) []byte {
	t.Helper()
	log := string(read(t, "CHANGELOG.md"))
	sec := "## " + version + " - 2026-12-08\n\n### Breaking\n\n" + strings.Join(lines, "\n") + "\n\n"
	i := strings.Index(log, "## 2.0.0")
	if i < 0 {
		t.Fatal("CHANGELOG.md has no 2.0.0 section")
	}
	return []byte(log[:i] + sec + log[i:])
}

// TestCheckItself (issue 33 item 8): the check fails a deliberately
// breaking spec (an operation removed, a required response property
// removed, a first header parameter added, a schema renamed), each named
// by its id and target, and passes the same spec once the changelog
// records them under a new major version; it fails a breaking change
// recorded under a minor version, or under the release itself; additions
// (an operation, an optional response property, an optional request
// property) pass with no entry and no new version.
func TestCheckItself(t *testing.T) {
	released := read(t, "openapi/released/openapi.yaml")
	changelog := read(t, "CHANGELOG.md")
	breaking := func(version string) []byte {
		b := edit(t, func(s *openapi3.T) {
			s.Info.Version = version
			s.Paths.Find("/v1/rulesets/{id}").Get = nil
			pool := s.Components.Schemas["PoolView"].Value
			pool.Required = removeString(pool.Required, "casino")
			delete(pool.Properties, "casino")
			s.Paths.Find("/v1/rulesets").Get.AddParameter(&openapi3.Parameter{Name: "X-Trace", In: "header", Schema: openapi3.NewStringSchema().NewRef()})
		})
		// LedgerEntry renamed, as JackpotEntry was (references too).
		return bytes.ReplaceAll(b, []byte(`LedgerEntry"`), []byte(`PoolEntry"`))
	}
	want := []string{
		"api-removed-without-deprecation GET /v1/rulesets/{id}",
		"response-required-property-removed GET /v1/pools/{id}",
		ClientParamsAdded + " GET /v1/rulesets",
		ClientSchemaRemoved + " LedgerEntry",
	}
	r, err := Check(released, breaking("3.0.0"), changelog)
	if err != nil {
		t.Fatal(err)
	}
	if r.OK() {
		t.Fatalf("a breaking spec passed: %+v", r)
	}
	got := map[string]string{}
	for _, c := range r.Unrecorded {
		got[c.ID+" "+c.Target] = c.Text
	}
	for _, w := range want {
		if _, ok := got[w]; !ok {
			t.Errorf("the check did not report %s; it reported %v", w, got)
		}
	}
	var lines []string
	seen := map[string]bool{}
	for _, c := range r.Unrecorded {
		if k := c.ID + " " + c.Target; !seen[k] {
			seen[k] = true
			lines = append(lines, "- `"+c.ID+"` `"+c.Target+"`: the migration note.")
		}
	}
	if r, err := Check(released, breaking("3.0.0"), withEntry(t, "3.0.0", lines...)); err != nil || !r.OK() {
		t.Fatalf("recorded under 3.0.0: %+v, %v; want it to pass", r, err)
	}
	if r, err := Check(released, breaking("2.1.0"), withEntry(t, "2.1.0", lines...)); err != nil || r.OK() || len(r.Problems) != 1 || !strings.Contains(r.Problems[0], "new major version") {
		t.Fatalf("recorded under a minor version: %+v, %v; want a problem", r, err)
	}
	// Recorded under the release itself (2.0.0), as if it were old news.
	log := strings.Replace(string(changelog), "## 2.0.0 - 2026-12-07\n", "## 2.0.0 - 2026-12-07\n\n### Breaking\n\n"+strings.Join(lines, "\n")+"\n", 1)
	r, err = Check(released, breaking("3.0.0"), []byte(log))
	if err != nil {
		t.Fatal(err)
	}
	unrecorded := map[string]bool{}
	for _, c := range r.Unrecorded {
		unrecorded[c.ID+" "+c.Target] = true
	}
	if len(unrecorded) != len(seen) {
		t.Fatalf("recorded under the release: %d of %d changes unrecorded; want every one", len(unrecorded), len(seen))
	}

	additions := edit(t, func(s *openapi3.T) {
		s.Paths.Set("/v1/pools/{id}/notes", &openapi3.PathItem{Get: &openapi3.Operation{OperationID: "list-notes",
			Parameters: openapi3.Parameters{{Value: openapi3.NewPathParameter("id").WithSchema(openapi3.NewStringSchema())}},
			Responses:  openapi3.NewResponses(openapi3.WithStatus(200, &openapi3.ResponseRef{Value: openapi3.NewResponse().WithDescription("notes").WithJSONSchema(openapi3.NewStringSchema())}))}})
		s.Components.Schemas["PoolView"].Value.Properties["note"] = openapi3.NewStringSchema().NewRef()
		s.Components.Schemas["AdjustmentRequest"].Value.Properties["note"] = openapi3.NewStringSchema().NewRef()
	})
	if r, err := Check(released, additions, changelog); err != nil || !r.OK() || len(r.Breaking) != 0 {
		t.Fatalf("additions: %+v, %v; want no breaking change", r, err)
	}
}

func removeString(xs []string, x string) []string {
	var out []string
	for _, y := range xs {
		if y != x {
			out = append(out, y)
		}
	}
	return out
}
