package main

import (
	"math/rand/v2"
	"slices"

	"github.com/tablesettle/tablesettle/internal/card"
)

// Request is one generated request and how to judge its answer.
type Request struct {
	// Label groups requests in the report (the ruleset, for rounds).
	Label  string
	Method string
	Path   string
	Body   []byte
	// Check judges the answer: "" when it is right, else the kind of
	// mismatch ("mismatch: total", ...). It is called only for a 2xx answer.
	Check func(status int, body []byte) string
}

// Scenario makes request i of a seeded run. It must be a pure function of
// (seed, i): the same seed replays the same requests, and the checker can
// rebuild request i from its index alone.
type Scenario interface {
	Name() string
	Request(seed uint64, i uint64) Request
}

// rng is the random source of request i of a run seeded with seed.
func rng(seed, i uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, i))
}

// deal shuffles a fresh deck with r and returns it; callers take cards off
// the front, so no card is dealt twice in a round.
func deal(r *rand.Rand) []card.Card {
	d := card.Deck()
	r.Shuffle(len(d), func(a, b int) { d[a], d[b] = d[b], d[a] })
	return d
}

// scenarios are the -scenario choices.
var scenarios = map[string]Scenario{
	"evaluate": evaluateScenario{},
	"settle":   settleScenario{},
}

func scenarioNames() []string {
	var out []string
	for k := range scenarios {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
