package ruleset

import (
	"slices"
	"sort"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/rules"
)

// Catalogue is a set of rulesets looked up by id: the one place settlement,
// irregularities and the pools find a ruleset's description. Standard is
// the five documents; With returns a catalogue with one more (a new
// document version, or a test's ruleset), leaving the one it was called on
// as it was. A Catalogue is a value: there is no registry to mutate.
type Catalogue struct {
	sets []Ruleset // read-only: shared between copies, never written
}

// Standard is the catalogue of the five rule documents
// (../shared/rules/README.md). It shares their data: no copy is made.
func Standard() Catalogue { return Catalogue{sets: rulesets[:]} }

// With returns a catalogue of c's rulesets and r (copied). An empty id or
// one c already has is refused, naming the field "id".
func (c Catalogue) With(r Ruleset) (Catalogue, error) {
	if r.ID == "" {
		return c, fault.InvalidField("id", r.ID, "a ruleset needs an id")
	}
	if _, ok := c.Lookup(r.ID); ok {
		return c, fault.InvalidField("id", r.ID, "the catalogue already has ruleset %s: a new document version is a new id", r.ID)
	}
	sets := make([]Ruleset, len(c.sets), len(c.sets)+1)
	copy(sets, c.sets)
	return Catalogue{sets: append(sets, r.clone())}, nil
}

// Lookup returns the ruleset with the given id itself, not a copy: for
// code that only reads it, on a hot path (settlement looks its ruleset up
// on every round). The caller must not modify it or anything it reaches;
// Get returns a copy to modify.
func (c Catalogue) Lookup(id ID) (*Ruleset, bool) {
	for i := range c.sets {
		if c.sets[i].ID == id {
			return &c.sets[i], true
		}
	}
	return nil, false
}

// Document returns the rule document of the ruleset with the given id:
// the one its description carries (Ruleset.Rules).
func (c Catalogue) Document(id string) (rules.Document, bool) {
	if r, ok := c.Lookup(ID(id)); ok {
		return r.Rules, true
	}
	return rules.Document{}, false
}

// Resolve resolves a citation in the form the service writes it ("ruling
// R12", "mbs-megalink-tcp-v6 3.11.2") against the rulings and the
// documents of c's rulesets.
func (c Catalogue) Resolve(citation string) (rules.Citation, bool) {
	return rules.Resolve(citation, c.Document)
}

// Get returns a copy of the ruleset with the given id.
func (c Catalogue) Get(id ID) (Ruleset, bool) {
	if r, ok := c.Lookup(id); ok {
		return r.clone(), true
	}
	return Ruleset{}, false
}

// All returns a copy of every ruleset, sorted by id.
func (c Catalogue) All() []Ruleset {
	out := make([]Ruleset, len(c.sets))
	for i := range c.sets {
		out[i] = c.sets[i].clone()
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// IDs returns the ruleset ids, sorted.
func (c Catalogue) IDs() []ID {
	ids := make([]ID, len(c.sets))
	for i := range c.sets {
		ids[i] = c.sets[i].ID
	}
	slices.Sort(ids)
	return ids
}

// Listed returns the ruleset ids in the order the catalogue lists them:
// the standard ones in document order, then each one With added. The
// API's ruleset id enum is this list.
func (c Catalogue) Listed() []ID {
	ids := make([]ID, len(c.sets))
	for i := range c.sets {
		ids[i] = c.sets[i].ID
	}
	return ids
}

// Get returns a copy of the standard ruleset with the given id.
func Get(id ID) (Ruleset, bool) { return Standard().Get(id) }

// Lookup returns the standard ruleset with the given id itself (see
// Catalogue.Lookup): the caller must not modify it.
func Lookup(id ID) (*Ruleset, bool) { return Standard().Lookup(id) }

// All returns a copy of every standard ruleset, sorted by id.
func All() []Ruleset { return Standard().All() }

// IDs returns the standard ruleset ids, sorted.
func IDs() []ID { return Standard().IDs() }
