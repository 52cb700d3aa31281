package analysis

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"fmt"

	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// published holds the figures `make analysis` computed for every ruleset,
// one JSON file per ruleset id (data/<id>.json). They are read-only.
//
//go:embed data/*.json
var published embed.FS

// Published returns the precomputed figures of a ruleset as JSON, as
// `make analysis` wrote them.
func Published(id string) ([]byte, bool) {
	b, err := published.ReadFile("data/" + id + ".json")
	return b, err == nil
}

// PublishedFigures decodes the precomputed figures of a ruleset.
func PublishedFigures(id string) (Figures, bool, error) {
	b, ok := Published(id)
	if !ok {
		return Figures{}, false, nil
	}
	var r Figures
	if err := json.Unmarshal(b, &r); err != nil {
		return Figures{}, true, fmt.Errorf("analysis: decode data/%s.json: %w", id, err)
	}
	return r, true, nil
}

// Rulesets computes the figures of every ruleset as the service settles it,
// with the progressive wager unit given (minor units).
func Rulesets(ctx context.Context, unit int64) ([]Figures, error) {
	var en Engines
	return en.Rulesets(ctx, unit)
}

// Rulesets is Rulesets with the caller's engines (`make analysis` sets
// RecomputeHoldem).
func (en *Engines) Rulesets(ctx context.Context, unit int64) ([]Figures, error) {
	var specs []Spec
	for _, r := range ruleset.All() {
		s, err := FromRuleset(r, unit)
		if err != nil {
			return nil, err
		}
		specs = append(specs, s)
	}
	return en.Compute(ctx, specs)
}

// Encode writes a report as the embedded files hold it: indented JSON and a
// final newline.
func Encode(r Figures) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
