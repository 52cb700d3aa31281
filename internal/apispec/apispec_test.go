package apispec

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/humatest"

	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// Enum constants are named for generators (issue 15 section 5): prefix +
// the value in CamelCase, an all-capitals value kept as it is.
func TestEnumVarNames(t *testing.T) {
	type enum struct {
		prefix string
		values []string
		want   []any
	}
	for _, c := range []enum{
		{"RulesetId", []string{"mbs-megalink-ssp-v6", "rws-mlp-csp-v2"}, []any{"RulesetIdMbsMegalinkSspV6", "RulesetIdRwsMlpCspV2"}},
		{"Casino", []string{"MBS", "RWS"}, []any{"CasinoMBS", "CasinoRWS"}},
		{"SettleEligibilityPaidBy", []string{"pool", "ace_king"}, []any{"SettleEligibilityPaidByPool", "SettleEligibilityPaidByAceKing"}},
	} {
		if got := enumVarNames(c.prefix, c.values); !reflect.DeepEqual(got, c.want) {
			t.Errorf("enumVarNames(%q, %q) = %q, want %q", c.prefix, c.values, got, c.want)
		}
	}
}

// The published documents keep huma's key order, and a JSON document
// survives decodeOrdered and encodeOrdered unchanged.
func TestOrderedRoundTrip(t *testing.T) {
	in := `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"a":[1,2.5,"x",true,null,{}],"big":9007199254740993}`
	v, err := decodeOrdered([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := encodeOrdered(&buf, v); err != nil {
		t.Fatal(err)
	}
	if buf.String() != in {
		t.Errorf("round trip:\n got %s\nwant %s", buf.String(), in)
	}
	if _, err := decodeOrdered([]byte(in + "{}")); err == nil {
		t.Error("trailing data accepted")
	}
}

// rewrite runs rewriteSpec over a document given as JSON and answers it as JSON.
func rewrite(t *testing.T, doc string, v30 bool) string {
	t.Helper()
	root, err := decodeOrdered([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	rewriteSpec(root.(*object), v30, namedEnums(ruleset.Standard()))
	var buf bytes.Buffer
	if err := encodeOrdered(&buf, root); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestRewriteSpec(t *testing.T) {
	const doc = `{"components":{"schemas":{"Pool":{"type":"object","properties":{` +
		`"casino":{"type":"string","description":"whose","enum":["RWS","MBS"]},` +
		`"state":{"type":"string","enum":["open","all"]},` +
		`"meter":{"type":"integer","format":"int64","description":"Minor units."},` +
		`"seat":{"type":"integer","format":"int64","minimum":1,"maximum":7}}}}}}`
	got31 := rewrite(t, doc, false)
	for _, want := range []string{
		// A casino enum becomes a reference to the named schema, keeping its description (3.1).
		`"casino":{"$ref":"#/components/schemas/Casino","description":"whose"}`,
		// Every other enum names its constants by schema and property.
		`"state":{"type":"string","enum":["open","all"],"x-enum-varnames":["PoolStateOpen","PoolStateAll"]}`,
		// An unbounded int64 tells JavaScript clients what to do; a bounded one does not.
		`"meter":{"type":"integer","format":"int64","description":"Minor units. ` + int64Note + `"}`,
		`"seat":{"type":"integer","format":"int64","minimum":1,"maximum":7}`,
		`"Casino":{"type":"string","description":"The casino whose rules apply`,
		`"RulesetId":{"type":"string"`,
	} {
		if !strings.Contains(got31, want) {
			t.Errorf("3.1 lacks %s\nin %s", want, got31)
		}
	}
	// 3.0: a $ref stands alone.
	if got30 := rewrite(t, doc, true); !strings.Contains(got30, `"casino":{"$ref":"#/components/schemas/Casino"}`) {
		t.Errorf("3.0: the $ref keeps siblings: %s", got30)
	}
}

// A whole-body example is built from the fields' examples; a required
// field without one leaves the body without an example.
func TestExampleOf(t *testing.T) {
	reg := huma.NewMapRegistry("#/components/schemas/", huma.DefaultSchemaNamer)
	type item struct {
		Seat int `json:"seat" example:"3"`
	}
	type body struct {
		Ruleset string `json:"ruleset" example:"mbs-megalink-ssp-v6"`
		Kind    string `json:"kind" enum:"a,b"`
		Items   []item `json:"items"`
		Note    string `json:"note,omitempty"`
	}
	got, ok := exampleOf(reg, reg.Schema(reflect.TypeFor[body](), true, ""), 0)
	want := map[string]any{"ruleset": "mbs-megalink-ssp-v6", "kind": "a", "items": []any{map[string]any{"seat": 3}}}
	if !ok || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("exampleOf = %v %v, want %v", got, ok, want)
	}
	type bare struct {
		Name string `json:"name"`
	}
	if got, ok := exampleOf(reg, reg.Schema(reflect.TypeFor[bare](), true, ""), 0); ok {
		t.Errorf("a required field without example gave %v", got)
	}
}

// Domain types are prefixed by their package; a kept type keeps its name.
func TestSchemaName(t *testing.T) {
	type local struct{}
	name := namer(map[reflect.Type]string{reflect.TypeFor[ruleset.Pay](): "Price"})
	for _, c := range []struct {
		t    reflect.Type
		want string
	}{
		{reflect.TypeFor[money.Ratio](), "MoneyRatio"},
		{reflect.TypeFor[ruleset.Ruleset](), "Ruleset"}, // its name starts with its package's
		{reflect.TypeFor[*ruleset.Pay](), "Price"},
		{reflect.TypeFor[local](), "ApispecLocal"}, // only httpapi's types go unprefixed
	} {
		if got := name(c.t, ""); got != c.want {
			t.Errorf("SchemaName(%v) = %q, want %q", c.t, got, c.want)
		}
	}
	// The kept names: types that moved out of httpapi keep theirs.
	if got := SchemaName(reflect.TypeFor[pools.View](), ""); got != "PoolView" {
		t.Errorf("pools.View is named %q, want PoolView", got)
	}
}

// Every operation with a body takes at most maxBodyBytes (huma refuses a
// body that reaches its limit: one more byte) and declares 413, 415, 422;
// every response declares the request id header.
func TestEveryOperation(t *testing.T) {
	oapi := &huma.OpenAPI{Components: &huma.Components{Schemas: huma.NewMapRegistry("#/components/schemas/", huma.DefaultSchemaNamer)}}
	op := &huma.Operation{MaxBodyBytes: 1 << 20, RequestBody: &huma.RequestBody{},
		Responses: map[string]*huma.Response{"200": {Description: "ok"}}}
	EveryOperation(100, "X-Request-Id")(oapi, op)
	if op.MaxBodyBytes != 101 || op.BodyReadTimeout != -1 {
		t.Errorf("MaxBodyBytes %d BodyReadTimeout %v, want 101 and -1", op.MaxBodyBytes, op.BodyReadTimeout)
	}
	for _, code := range []string{"200", "413", "415", "422", "500"} {
		r := op.Responses[code]
		if r == nil || r.Headers["X-Request-Id"] == nil {
			t.Errorf("response %s missing or without X-Request-Id: %+v", code, r)
		}
	}
	get := &huma.Operation{}
	EveryOperation(100, "X-Request-Id")(oapi, get)
	if get.Responses["413"] != nil || get.Responses["500"] == nil {
		t.Errorf("an operation without a body: %v", get.Responses)
	}
}

func TestPagesAndSchemaLinks(t *testing.T) {
	pages := Pages()
	if len(pages) != 3 || pages[0].Path != "/docs" || !bytes.Contains(pages[0].Body, []byte("app.js")) {
		t.Fatalf("pages: %d, first %q", len(pages), pages[0].Path)
	}
	for _, p := range pages {
		if len(p.Body) == 0 || p.ContentType == "" {
			t.Errorf("%s: empty", p.Path)
		}
	}
	got := string(SchemaLinks([]byte(`{"$ref":"#/components/schemas/PoolView"}`)))
	if got != `{"$ref":"/schemas/PoolView.json"}` {
		t.Errorf("SchemaLinks = %s", got)
	}
}

// The "ruleset" property of a request type is the catalogue's ids, in its
// order; a type without one is a programming error.
func TestRulesetEnum(t *testing.T) {
	_, api := humatest.New(t, huma.DefaultConfig("t", "1"))
	type req struct {
		Ruleset string `json:"ruleset"`
	}
	cat := ruleset.Standard()
	RulesetEnum(api, cat, reflect.TypeFor[req]())
	reg := api.OpenAPI().Components.Schemas
	s := reg.SchemaFromRef(reg.Schema(reflect.TypeFor[req](), true, "").Ref)
	var want []any
	for _, id := range cat.Listed() {
		want = append(want, string(id))
	}
	if got := s.Properties["ruleset"].Enum; len(want) == 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("enum %v, want %v", got, want)
	}
	defer func() {
		if recover() == nil {
			t.Error("a type without ruleset was accepted")
		}
	}()
	type other struct {
		Name string `json:"name"`
	}
	RulesetEnum(api, cat, reflect.TypeFor[other]())
}

// A conditional read declares its 304 with the ETag header; a whole-body
// example is the example of the JSON body.
func TestConditionalAndBodyExample(t *testing.T) {
	op := &huma.Operation{}
	Conditional(op)
	if r := op.Responses["304"]; r == nil || r.Headers["ETag"] == nil || r.Content != nil {
		t.Errorf("304: %+v", r)
	}
	rb := BodyExample(map[string]any{"a": 1})
	if ex := rb.Content["application/json"].Example; fmt.Sprint(ex) != "map[a:1]" {
		t.Errorf("example %v", ex)
	}
}

// The published documents are served at four paths, each picking its own
// document.
func TestDocuments(t *testing.T) {
	d := Docs{V31JSON: []byte("a"), V31YAML: []byte("b"), V30JSON: []byte("c"), V30YAML: []byte("d")}
	var got []string
	for _, doc := range Documents() {
		got = append(got, doc.Path+" "+doc.ContentType+" "+string(doc.Of(d)))
	}
	want := []string{"/openapi.json application/openapi+json a", "/openapi.yaml application/openapi+yaml b",
		"/openapi-3.0.json application/openapi+json c", "/openapi-3.0.yaml application/openapi+yaml d"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("documents %q", got)
	}
}
