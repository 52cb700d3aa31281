package apispec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/yaml"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// The spec as generated clients use it (issue 15 section 5). huma's model
// of the API also validates requests, so it is left as it is; the
// published documents are made from it by rewriting its JSON:
//   - the ruleset id and the casino are each one named schema (RulesetId,
//     Casino) instead of an enum written out in every type that has one;
//   - every enum carries x-enum-varnames, names a generator uses for its
//     constants (SettleEligibilityPaidByPool, CasinoMBS), so that no two
//     enums give bare constants such as None, Pool, MBS and Mbs;
//   - meters and other int64 amounts say what a JavaScript client must do
//     above 2^53;
//   - in the 3.0 file a $ref has no siblings (3.0 ignores them, and linters
//     refuse them); the 3.1 file keeps each field's description beside it.

// Docs are the published documents, as JSON and as YAML: OpenAPI 3.1,
// and 3.0 for generators that read only 3.0.
type Docs struct {
	V31JSON, V31YAML, V30JSON, V30YAML []byte
}

// Document is where one of the published documents is served, as what.
type Document struct {
	Path, ContentType string
	Of                func(Docs) []byte
}

// Documents are the published documents as the service serves them (the
// files `make openapi` commits are the YAML ones).
func Documents() []Document {
	return []Document{
		{"/openapi.json", "application/openapi+json", func(d Docs) []byte { return d.V31JSON }},
		{"/openapi.yaml", "application/openapi+yaml", func(d Docs) []byte { return d.V31YAML }},
		{"/openapi-3.0.json", "application/openapi+json", func(d Docs) []byte { return d.V30JSON }},
		{"/openapi-3.0.yaml", "application/openapi+yaml", func(d Docs) []byte { return d.V30YAML }},
	}
}

// jsonSafeMax is the largest integer a JavaScript number holds exactly.
const jsonSafeMax = 1<<53 - 1

// int64Note is added to the description of every int64 whose bounds (if
// any) pass what a JavaScript number holds exactly: meters, amounts.
const int64Note = "int64: JavaScript clients need a BigInt-aware JSON parser for values beyond ±(2^53-1)."

// namedEnum is a named enum schema: a property whose enum has exactly
// these values becomes a $ref to the named schema.
type namedEnum struct {
	name, description string
	values            []string
}

// namedEnums are the named enums of a spec served over cat: the ruleset
// id (the catalogue's ids, in its order) and the casino.
func namedEnums(cat ruleset.Catalogue) []namedEnum {
	ids := make([]string, 0, len(cat.Listed()))
	for _, id := range cat.Listed() {
		ids = append(ids, string(id))
	}
	return []namedEnum{
		{"RulesetId", "A ruleset id: one version of one casino's rule document (GET /v1/rulesets).", ids},
		{"Casino", "The casino whose rules apply: MBS (Marina Bay Sands) or RWS (Resorts World Sentosa).",
			[]string{"MBS", "RWS"}},
	}
}

// Publish makes the published documents from huma's model of the API
// served over cat (see the rewrites above).
func Publish(oapi *huma.OpenAPI, cat ruleset.Catalogue) (Docs, error) {
	var d Docs
	raw31, err := json.Marshal(oapi)
	if err != nil {
		return d, err
	}
	raw30, err := oapi.Downgrade()
	if err != nil {
		return d, err
	}
	for _, doc := range []struct {
		raw        []byte
		v30        bool
		json, yaml *[]byte
	}{{raw31, false, &d.V31JSON, &d.V31YAML}, {raw30, true, &d.V30JSON, &d.V30YAML}} {
		root, err := decodeOrdered(doc.raw)
		if err != nil {
			return d, err
		}
		rewriteSpec(root.(*object), doc.v30, namedEnums(cat))
		var buf bytes.Buffer
		if err := encodeOrdered(&buf, root); err != nil {
			return d, err
		}
		*doc.json = bytes.Clone(buf.Bytes())
		var y bytes.Buffer
		if err := yaml.Convert(&y, bytes.NewReader(buf.Bytes())); err != nil {
			return d, err
		}
		*doc.yaml = y.Bytes()
	}
	return d, nil
}

func rewriteSpec(root *object, v30 bool, namedEnums []namedEnum) {
	comps, _ := root.get("components").(*object)
	schemas, _ := comps.get("schemas").(*object)
	if schemas == nil {
		return
	}
	// Named enums first, so that their uses become references.
	for _, ne := range namedEnums {
		values := make([]any, len(ne.values))
		for i, v := range ne.values {
			values[i] = v
		}
		s := &object{}
		s.set("type", "string")
		s.set("description", ne.description)
		s.set("enum", values)
		s.set("x-enum-varnames", enumVarNames(ne.name, ne.values))
		walk(root, func(o *object) {
			if o.get("$ref") == nil && sameStrings(o.get("enum"), ne.values) {
				desc := o.get("description")
				o.keys, o.vals = nil, nil
				o.set("$ref", "#/components/schemas/"+ne.name)
				if desc != nil {
					o.set("description", desc)
				}
			}
		})
		schemas.set(ne.name, s)
	}
	// Every other enum: names for its constants, prefixed by the schema
	// and property it belongs to.
	for i, name := range schemas.keys {
		s, _ := schemas.vals[i].(*object)
		if s == nil {
			continue
		}
		props, _ := s.get("properties").(*object)
		if props == nil {
			continue
		}
		for j, prop := range props.keys {
			p, _ := props.vals[j].(*object)
			if p == nil {
				continue
			}
			if items, ok := p.get("items").(*object); ok && items.get("enum") != nil {
				p = items
			}
			if vals := strs(p.get("enum")); vals != nil && p.get("x-enum-varnames") == nil {
				p.set("x-enum-varnames", enumVarNames(name+camel(prop), vals))
			}
		}
	}
	// int64s: say what JavaScript clients must do.
	walk(root, func(o *object) {
		if o.get("format") == "int64" && (o.get("type") == "integer" || sameStrings(o.get("type"), []string{"integer"})) && !jsSafe(o) {
			if desc, _ := o.get("description").(string); !strings.Contains(desc, "2^53") {
				o.set("description", strings.TrimSpace(desc+" "+int64Note))
			}
		}
	})
	if v30 {
		// 3.0: a $ref stands alone.
		walk(root, func(o *object) {
			if o.get("$ref") != nil && len(o.keys) > 1 {
				ref := o.get("$ref")
				o.keys, o.vals = nil, nil
				o.set("$ref", ref)
			}
		})
	}
}

// jsSafe reports whether an integer schema's bounds keep it within what a
// JavaScript number holds exactly.
func jsSafe(o *object) bool {
	bound := func(k string) (float64, bool) {
		n, ok := o.get(k).(json.Number)
		if !ok {
			return 0, false
		}
		f, err := n.Float64()
		return f, err == nil
	}
	hi, okHi := bound("maximum")
	lo, okLo := bound("minimum")
	return okHi && okLo && hi <= jsonSafeMax && lo >= -jsonSafeMax
}

// enumVarNames names each value's constant: prefix + the value in
// CamelCase ("SettleEligibilityPaidBy" + "pool").
func enumVarNames(prefix string, values []string) []any {
	out := make([]any, len(values))
	for i, v := range values {
		c := camel(v)
		if v == strings.ToUpper(v) {
			c = v // MBS stays MBS
		}
		out[i] = prefix + c
	}
	return out
}

// camel turns "ace_king", "mbs-megalink-ssp-v6" or "paidBy" into AceKing,
// MbsMegalinkSspV6, PaidBy.
func camel(s string) string {
	var b strings.Builder
	up := true
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			up = true
			continue
		}
		if up {
			r = unicode.ToUpper(r)
			up = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

func strs(v any) []string {
	a, ok := v.([]any)
	if !ok {
		return nil
	}
	out := make([]string, 0, len(a))
	for _, e := range a {
		s, ok := e.(string)
		if !ok {
			return nil
		}
		out = append(out, s)
	}
	return out
}

func sameStrings(v any, want []string) bool {
	got := strs(v)
	if len(got) != len(want) {
		return false
	}
	a, b := slices.Clone(got), slices.Clone(want)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// walk calls fn on every object of the document, depth first.
func walk(v any, fn func(*object)) {
	switch v := v.(type) {
	case *object:
		fn(v)
		for _, e := range v.vals {
			walk(e, fn)
		}
	case []any:
		for _, e := range v {
			walk(e, fn)
		}
	}
}

// object is a JSON object that keeps its keys' order, so that the
// published documents read in huma's order (openapi, info, ...).
type object struct {
	keys []string
	vals []any
}

func (o *object) get(k string) any {
	if o == nil {
		return nil
	}
	if i := slices.Index(o.keys, k); i >= 0 {
		return o.vals[i]
	}
	return nil
}

func (o *object) set(k string, v any) {
	if i := slices.Index(o.keys, k); i >= 0 {
		o.vals[i] = v
		return
	}
	o.keys = append(o.keys, k)
	o.vals = append(o.vals, v)
}

func decodeOrdered(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("spec: trailing data after the document")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := &object{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				o.keys = append(o.keys, k.(string))
				o.vals = append(o.vals, v)
			}
			_, err := dec.Token() // }
			return o, err
		case '[':
			a := []any{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				a = append(a, v)
			}
			_, err := dec.Token() // ]
			return a, err
		}
	}
	return tok, nil
}

func encodeOrdered(buf *bytes.Buffer, v any) error {
	switch v := v.(type) {
	case *object:
		buf.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			buf.Write(kb)
			buf.WriteByte(':')
			if err := encodeOrdered(buf, v.vals[i]); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	case []any:
		buf.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := encodeOrdered(buf, e); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		buf.Write(b)
	}
	return nil
}
