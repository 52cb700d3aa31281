package httpapi

import (
	"sort"

	"github.com/danielgtaylor/huma/v2"
)

// Spec returns the OpenAPI document of every operation: 3.1 as huma writes
// it, and huma's downgrade to 3.0 for generators that read only 3.0. Both
// are committed in openapi/ by `make openapi`; a test fails when they
// drift from the code.
func Spec() (v31, v30 []byte, err error) {
	_, api := New(Deps{})
	if v31, err = api.OpenAPI().YAML(); err != nil {
		return nil, nil, err
	}
	if v30, err = api.OpenAPI().DowngradeYAML(); err != nil {
		return nil, nil, err
	}
	return v31, v30, nil
}

// addRequestExample gives an operation's JSON request body a whole-body
// example built from the examples of its fields (the `example:` tags), so
// that every request body in the spec has one without each operation
// writing it twice. An operation that sets its own example keeps it.
func addRequestExample(oapi *huma.OpenAPI, op *huma.Operation) {
	if op.RequestBody == nil {
		return
	}
	mt := op.RequestBody.Content["application/json"]
	if mt == nil || mt.Schema == nil || mt.Example != nil || len(mt.Examples) > 0 {
		return
	}
	if ex, ok := exampleOf(oapi.Components.Schemas, mt.Schema, 0); ok {
		mt.Example = ex
	}
}

// exampleOf builds an example value of s from the examples, defaults and
// enums of its parts; ok is false when a required part has none.
func exampleOf(reg huma.Registry, s *huma.Schema, depth int) (any, bool) {
	if s == nil || depth > 12 {
		return nil, false
	}
	if s.Ref != "" {
		return exampleOf(reg, reg.SchemaFromRef(s.Ref), depth+1)
	}
	if len(s.Examples) > 0 {
		return s.Examples[0], true
	}
	if s.Default != nil {
		return s.Default, true
	}
	if len(s.Enum) > 0 {
		return s.Enum[0], true
	}
	for _, alt := range [][]*huma.Schema{s.OneOf, s.AnyOf} {
		for _, sub := range alt {
			if ex, ok := exampleOf(reg, sub, depth+1); ok {
				return ex, true
			}
		}
	}
	switch s.Type {
	case huma.TypeObject:
		if len(s.Properties) == 0 {
			return nil, false
		}
		required := map[string]bool{}
		for _, r := range s.Required {
			required[r] = true
		}
		names := make([]string, 0, len(s.Properties))
		for name := range s.Properties {
			names = append(names, name)
		}
		sort.Strings(names)
		obj := map[string]any{}
		for _, name := range names {
			ex, ok := exampleOf(reg, s.Properties[name], depth+1)
			if !ok {
				if required[name] {
					return nil, false
				}
				continue
			}
			obj[name] = ex
		}
		return obj, true
	case huma.TypeArray:
		ex, ok := exampleOf(reg, s.Items, depth+1)
		if !ok {
			if s.MinItems == nil || *s.MinItems == 0 {
				return []any{}, true
			}
			return nil, false
		}
		return []any{ex}, true
	case huma.TypeBoolean:
		return false, true
	}
	return nil, false
}
