package ruleset

import (
	"strings"

	"github.com/tablesettle/tablesettle/internal/fault"
)

// Find returns a copy of the ruleset with id, or a fault.NotFound at field
// "id" that lists the ids the catalogue holds, sorted.
func (c Catalogue) Find(id string) (Ruleset, error) {
	if r, ok := c.Get(ID(id)); ok {
		return r, nil
	}
	ids := make([]string, 0, len(c.sets))
	for _, id := range c.IDs() {
		ids = append(ids, string(id))
	}
	return Ruleset{}, &fault.Error{Kind: fault.NotFound, Detail: "no such ruleset", Fields: []fault.Problem{{
		Field: "id", Value: id, Message: "unknown ruleset id; known: " + strings.Join(ids, ", "),
	}}}
}
