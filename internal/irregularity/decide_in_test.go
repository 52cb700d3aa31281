package irregularity_test

import (
	"testing"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/irregularity"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// A report under a catalogue's ruleset: SSP v6 5.16.1, a power failure
// before any outcome, seat 2 withdraws and takes back its 1,100; the round
// sent without a currency is in SGD. An unknown ruleset and a round of
// another ruleset are refused naming their fields.
func TestDecideIn(t *testing.T) {
	cat := ruleset.Standard()
	power := irregularity.Event{Kind: "power_failure", Facts: map[string]any{"outcomeEstablished": false, "withdrawnSeats": []any{2}}}
	round := func() *irregularity.Round {
		return &irregularity.Round{Positions: []irregularity.Position{{Seat: 2, Wagers: map[string]money.Amount{"ante": 1000, "progressive": 100}}}}
	}
	r := round()
	out, err := irregularity.DecideIn(cat, "mbs-megalink-ssp-v6", "", power, nil, r)
	if err != nil || out.Settlement == nil || out.Settlement.TotalReturned != 1100 || r.Currency != money.SGD {
		t.Fatalf("%v %+v (currency %q)", err, out.Settlement, r.Currency)
	}
	if _, err := irregularity.DecideIn(cat, "mbs-megalink-ssp-v6", "mbs-megalink-ssp-v6", power, nil, round()); err != nil {
		t.Errorf("a round naming the report's ruleset: %v", err)
	}
	for _, c := range []struct{ id, roundRuleset, field string }{
		{"nope", "", "ruleset"},
		{"mbs-megalink-ssp-v6", "rws-mlp-csp-v2", "round.ruleset"},
	} {
		_, err := irregularity.DecideIn(cat, c.id, c.roundRuleset, power, nil, round())
		if e, ok := fault.As(err); !ok || e.Kind != fault.Invalid || e.Field() != c.field {
			t.Errorf("%s/%s: %v, want invalid at %s", c.id, c.roundRuleset, err, c.field)
		}
	}
}

// A ruleset's irregularity catalogue; an unknown id is not found at "id".
func TestFind(t *testing.T) {
	if rs, err := irregularity.Find(ruleset.Standard(), "rws-mlp-csp-v2"); err != nil || rs == nil {
		t.Fatalf("%v", err)
	}
	if _, err := irregularity.Find(ruleset.Standard(), "nope"); !fault.Is(err, fault.NotFound) {
		t.Errorf("unknown: %v", err)
	} else if e, _ := fault.As(err); e.Field() != "id" {
		t.Errorf("unknown names %q", e.Field())
	}
}
