package irregularity_test

import (
	"fmt"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/irregularity"
	"github.com/tablesettle/tablesettle/internal/money"
)

// The same power failure, no outcome established, at MBS and at RWS.
func ExampleDecide() {
	round := &irregularity.Round{Currency: money.SGD, Positions: []irregularity.Position{
		{Seat: 2, Wagers: map[string]money.Amount{"ante": 1000, "progressive": 100}},
	}}
	mbs, _ := irregularity.Catalogue("mbs-megalink-ssp-v6")
	out, _ := irregularity.Decide(mbs, "power_failure", map[string]any{"outcomeEstablished": false, "withdrawnSeats": []any{2}}, round)
	fmt.Println(out.Action, out.Options, out.Rules, out.Settlement.TotalReturned)

	rws, _ := irregularity.Catalogue("rws-mlp-csp-v2")
	out, _ = irregularity.Decide(rws, "power_failure", map[string]any{"outcomeEstablished": false}, round)
	fmt.Println(out.Action, out.Rules, out.Settlement.TotalReturned)

	_, err := irregularity.Decide(rws, "power_failure", map[string]any{}, nil)
	fe, _ := fault.As(err)
	fmt.Printf("%s: %s: %s\n", fe.Detail, fe.Field(), fe.Fields[0].Message)
	// Output:
	// offer_options [withdraw continue] [mbs-megalink-ssp-v6 5.16 mbs-megalink-ssp-v6 5.16.1] 1100
	// round_void [rws-mlp-csp-v2 5.7 rws-mlp-csp-v2 5.7.2 rws-mlp-csp-v2 5.22] 1100
	// the facts of the irregularity are missing, mistyped or contradict each other: facts.outcomeEstablished: required fact missing: any of the available bets has conclusively won or lost
}
