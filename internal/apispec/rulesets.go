package apispec

import (
	"reflect"

	"github.com/danielgtaylor/huma/v2"

	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// RulesetEnum makes the "ruleset" property of each request type an enum of
// the catalogue's ids, in its order: the spec and the request check say
// what the catalogue holds, and nothing in the edge lists rulesets.
// Called before the operations that use the types are registered, so that
// their examples and checks see the enum.
func RulesetEnum(api huma.API, cat ruleset.Catalogue, types ...reflect.Type) {
	ids := cat.Listed()
	enum := make([]any, len(ids))
	for i, id := range ids {
		enum[i] = string(id)
	}
	reg := api.OpenAPI().Components.Schemas
	for _, t := range types {
		s := reg.Schema(t, true, "")
		if s.Ref != "" {
			s = reg.SchemaFromRef(s.Ref)
		}
		p := s.Properties["ruleset"]
		if p == nil {
			panic("apispec: " + t.Name() + " has no ruleset property")
		}
		p.Enum = enum
		p.PrecomputeMessages()
	}
}
