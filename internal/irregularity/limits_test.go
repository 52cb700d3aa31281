package irregularity

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/tablesettle/tablesettle/internal/fault"
)

// TestProgressiveNeverOverOrUnderALimit_R22: under ruling R22 a
// progressive wager at MBS is the pool's unit (THB v9 3.5.3: 1 to 5 units,
// ruling R17; SSP v4 3.5: credits), so it is never "over the table
// maximum" (MBS 5.14) or "under the table minimum" (MBS 5.13). A report
// that says so is refused naming facts.wager and citing ruling R22, with
// or without the round attached, in every MBS kind that names a wager and
// a limit. The same reports on the Ante are decided as before.
func TestProgressiveNeverOverOrUnderALimit_R22(t *testing.T) {
	type report struct {
		kind  string
		facts map[string]any
		round *Round
	}
	over := func(w string, r *Round) report {
		return report{"wager_over_maximum", map[string]any{"seat": 1, "wager": w, "maximum": 400}, r}
	}
	under := func(w string, r *Round) report {
		return report{"wager_under_minimum", map[string]any{"seat": 1, "wager": w, "minimum": 1000, "previouslyUnderMinimum": false}, r}
	}
	for _, c := range []struct {
		name, ruleset string
		report        report
		cites         string // a rule the refusal cites besides ruling R22
	}{
		{"SSPv6 5.14 over the maximum", MBSMegalinkSSPv6, over("progressive", nil), ""},
		{"SSPv6 5.14 over the maximum, with the round", MBSMegalinkSSPv6, over("progressive", round(pos(1, "ante=1000", "bet=2000", "progressive=500"))), ""},
		{"SSPv6 5.13 under the minimum", MBSMegalinkSSPv6, under("progressive", nil), ""},
		{"SSPv6 5.13 under the minimum, with the round", MBSMegalinkSSPv6, under("progressive", round(pos(1, "ante=1000", "bet=2000", "progressive=500"))), ""},
		{"TCPv6 over the maximum", MBSMegalinkTCPv6, over("progressive", nil), ""},
		{"TCPv6 under the minimum, with the round", MBSMegalinkTCPv6, under("progressive", round(pos(1, "ante=1000", "play=1000", "progressive=500"))), ""},
		{"THBv9 3.5.3.1 over the maximum", MBSMegalinkTHBv9, over("progressive", nil), "ruling R17"},
		{"THBv9 3.5.3.1 under the minimum, with the round", MBSMegalinkTHBv9, under("progressive", round(pos(1, "ante=1000", "flop=2000", "progressive=500"))), "ruling R17"},
		{"SSPv4 3.5 player jackpot over the maximum", MBSSSPv4, over("progressivePlayer", nil), "mbs-ssp-v4 3.5"},
		{"SSPv4 3.5 dealer jackpot under the minimum", MBSSSPv4, report{"wager_under_minimum", map[string]any{"seat": 1, "wager": "progressiveDealer", "minimum": 1000}, nil}, "mbs-ssp-v4 3.5"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rs, _ := Catalogue(c.ruleset)
			_, err := Decide(rs, c.report.kind, c.report.facts, c.report.round)
			if f := problems(t, err); !slices.Equal(f, []string{"facts.wager"}) {
				t.Fatalf("fields %q (%v), want facts.wager", f, err)
			}
			var e *fault.Error
			errors.As(err, &e)
			if !slices.Contains(e.Rules, "ruling R22") || (c.cites != "" && !slices.Contains(e.Rules, c.cites)) {
				t.Fatalf("the refusal cites %v", e.Rules)
			}
			// The same report in the same report of several (ruling R28),
			// as an additional event: refused under additional[0].
			_, err = DecideReport(rs, Event{Kind: "foreign_card", Facts: map[string]any{}}, []Event{{Kind: c.report.kind, Facts: c.report.facts}}, c.report.round)
			if f := problems(t, err); !slices.Equal(f, []string{"additional[0].facts.wager"}) {
				t.Fatalf("as an additional event: fields %q (%v)", f, err)
			}
		})
	}
	// The Ante over the maximum (5.14) and under the minimum (5.13) are
	// still decided.
	rs, _ := Catalogue(MBSMegalinkSSPv6)
	if o, err := Decide(rs, "wager_over_maximum", map[string]any{"seat": 1, "wager": "ante", "maximum": 400}, nil); err != nil || o.Action != SettledToMaximum {
		t.Fatalf("the ante over the maximum: %+v %v", o, err)
	}
	if o, err := Decide(rs, "wager_under_minimum", map[string]any{"seat": 1, "wager": "ante", "minimum": 1000, "previouslyUnderMinimum": true}, round(pos(1, "ante=500", "bet=1000"))); err != nil || o.Action != WagerReturned {
		t.Fatalf("the ante under the minimum: %+v %v", o, err)
	}
}

// TestBoxTotalIsTheRounds_RWS_5_1: the box total a report of RWS 5.1
// gives is the total of the box's wagers in the round attached to it
// (here 40,000 + 20,000): a box total that the round does not show, less
// as well as more, contradicts the round and is refused naming
// facts.boxTotal; the round's own total is decided (the excess 10,000 over
// the 50,000 maximum returned from the Ante).
func TestBoxTotalIsTheRounds_RWS_5_1(t *testing.T) {
	rs, _ := Catalogue(RWSMLPCSPv2)
	r := round(pos(2, "ante=40000", "progressive=20000"))
	for _, c := range []struct {
		box   int
		field string
	}{
		{55000, "facts.boxTotal"}, {70000, "facts.boxTotal"}, {60000, ""},
	} {
		o, err := Decide(rs, "wager_over_maximum", map[string]any{"seat": 2, "wager": "ante", "maximum": 50000, "boxTotal": c.box, "noticedBeforeClose": true}, r)
		if c.field == "" {
			if err != nil || o.Settlement == nil || o.Settlement.TotalReturned != 10000 {
				t.Fatalf("box total %d: %+v %v", c.box, o.Settlement, err)
			}
			continue
		}
		if f := problems(t, err); !slices.Equal(f, []string{c.field}) {
			t.Errorf("box total %d: fields %q (%v)", c.box, f, err)
		}
	}
}

// TestRefusalsWordedInMoney_RWS_5_1 (issue 24: errors worded in money,
// not cents): a report whose facts contradict its round states the
// round's amounts in its currency with the thousands grouped
// (money.Currency.Format), never as counts of minor units.
func TestRefusalsWordedInMoney_RWS_5_1(t *testing.T) {
	rs, _ := Catalogue(RWSMLPCSPv2)
	r := round(pos(2, "ante=4000000", "bet=2000000"))
	for _, c := range []struct {
		name  string
		facts map[string]any
		field string
		want  string
	}{
		{"box total not the round's", map[string]any{"seat": 2, "wager": "ante", "maximum": 5000000, "boxTotal": 5500000, "noticedBeforeClose": true},
			"facts.boxTotal", "the box total SGD 55,000.00 is not the SGD 60,000.00 the round has on seat 2"},
		{"excess over the wager", map[string]any{"seat": 2, "wager": "bet", "maximum": 3000000, "boxTotal": 6000000, "noticedBeforeClose": true},
			"facts.boxTotal", "the excess SGD 30,000.00 (box total SGD 60,000.00 less maximum SGD 30,000.00) is more than the bet wager of seat 2, SGD 20,000.00"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decide(rs, "wager_over_maximum", c.facts, r)
			if field, msg := refusal(t, err); field != c.field || msg != c.want {
				t.Errorf("%s %q, want %s %q", field, msg, c.field, c.want)
			}
		})
	}
	bad := round(pos(2, "ante=4000000", "bet=2000000"))
	bad.Positions[0].Wagers["bet"] = maxAmount + 1
	_, err := Decide(rs, "wager_over_maximum", map[string]any{"seat": 2, "wager": "bet", "maximum": 3000000, "boxTotal": 6000000, "noticedBeforeClose": true}, bad)
	const want = "a wager is SGD 0.00 to SGD 10,000,000,000.00 (0-1,000,000,000,000 minor units)"
	if field, msg := refusal(t, err); field != "round.positions[0].wagers.bet" || msg != want {
		t.Errorf("a wager beyond any table: %s %q, want %q", field, msg, want)
	}
}

// RWS 5.1: a reported box total that is not over the box maximum is no
// excess; refused naming facts.boxTotal, with or without the round.
func TestRWS_5_1_BoxTotalNotOverMaximumRefused(t *testing.T) {
	rs, _ := Catalogue(RWSMLPCSPv2)
	for _, total := range []int{40000, 50000} {
		for _, r := range []*Round{nil, round(pos(2, "ante=40000", "bet=10000"))} {
			_, err := Decide(rs, "wager_over_maximum", map[string]any{"seat": 2, "wager": "bet", "maximum": 50000, "boxTotal": total, "noticedBeforeClose": true}, r)
			if field, msg := refusal(t, err); field != "facts.boxTotal" || !strings.Contains(msg, "minor units is not over facts.maximum, 50,000 minor units") {
				t.Errorf("box total %d (round %v): %s %q", total, r != nil, field, msg)
			}
		}
	}
}

// Money facts are int64 minor units up to the bound settlement accepts
// (1e12), not int32: an Ante of 50,000,000.00 at a 30,000,000.00 maximum
// (MBS 5.14, ruling R11) returns 20,000,000.00.
func TestMBSSSPv6_5_14_MaximumBeyondInt32(t *testing.T) {
	runSettle(t, settleCase{
		ruleset: MBSMegalinkSSPv6, kind: "wager_over_maximum",
		facts:  map[string]any{"seat": 1, "wager": "ante", "maximum": float64(3_000_000_000)},
		round:  round(pos(1, "ante=5000000000")),
		action: SettledToMaximum,
		lines:  []string{"1 ante 2000000000 returned 2000000000 0"},
		total:  2_000_000_000, pending: []string{"1 ante 3000000000"},
		lineRules: []string{"mbs-megalink-ssp-v6 5.14", "ruling R11"},
	})
	rs, _ := Catalogue(MBSMegalinkSSPv6)
	for _, c := range []struct {
		v    any
		want string
	}{
		{float64(1_000_000_000_001), "must be from 1 to 1,000,000,000,000 minor units"},
		{float64(0), "must be from 1 to 1,000,000,000,000 minor units"},
		{1.5, "must be a whole number of minor units"},
		{"100", "must be a whole number of minor units"},
	} {
		_, err := Decide(rs, "wager_over_maximum", map[string]any{"seat": 1, "wager": "ante", "maximum": c.v}, nil)
		var e *fault.Error
		if !errors.As(err, &e) || len(e.Fields) != 1 || e.Fields[0].Field != "facts.maximum" || e.Fields[0].Message != c.want {
			t.Errorf("maximum %v: %v, want facts.maximum %q", c.v, err, c.want)
		}
	}
	// The RWS minimum (5.2) takes the same amounts.
	rws, _ := Catalogue(RWSMLPCSPv2)
	if _, err := Decide(rws, "wager_under_minimum", map[string]any{"seat": 1, "wager": "ante", "minimum": float64(1_000_000_000_000), "noticedBeforeClose": false}, round(pos(1, "ante=999999999999"))); err != nil {
		t.Errorf("RWS minimum 1e12: %v", err)
	}
}

// RWS 5.1 limits "the total Bets placed on" a betting box: a box with an
// Ante of 400.00 and a progressive of 200.00 (600.00) at a 500.00 box
// maximum has 100.00 of excess, returned from the Ante, though the Ante
// alone is under the maximum; 5.1.1 with ruling R11 returns the same excess
// and settles the rest.
func TestRWSCSPv2_5_1_BoxTotalOverMaximum(t *testing.T) {
	for _, c := range []struct {
		noticed bool
		action  Action
		rules   []string
	}{
		{true, WagerReturned, []string{"rws-mlp-csp-v2 5.1"}},
		{false, SettledToMaximum, []string{"rws-mlp-csp-v2 5.1.1", "ruling R11"}},
	} {
		runSettle(t, settleCase{
			ruleset: RWSMLPCSPv2, kind: "wager_over_maximum",
			facts:  map[string]any{"seat": 2, "wager": "ante", "maximum": 50000, "boxTotal": 60000, "noticedBeforeClose": c.noticed},
			round:  round(pos(2, "ante=40000", "progressive=20000"), pos(4, "ante=1000")),
			action: c.action,
			lines:  []string{"2 ante 10000 returned 10000 0"},
			total:  10000, pending: []string{"2 ante 30000", "2 progressive 20000", "4 ante 1000"},
			lineRules: c.rules,
		})
	}
	rs, _ := Catalogue(RWSMLPCSPv2)
	for _, c := range []struct {
		name  string
		facts map[string]any
		round *Round
		field string
	}{
		{"NotOver", map[string]any{"seat": 2, "wager": "ante", "maximum": 50000, "boxTotal": 50000, "noticedBeforeClose": true}, nil, "facts.boxTotal"},
		{"MoreThanTheRound", map[string]any{"seat": 2, "wager": "ante", "maximum": 50000, "boxTotal": 70000, "noticedBeforeClose": true}, round(pos(2, "ante=40000", "progressive=20000")), "facts.boxTotal"},
		{"ExcessMoreThanTheWager", map[string]any{"seat": 2, "wager": "progressive", "maximum": 30000, "boxTotal": 60000, "noticedBeforeClose": true}, round(pos(2, "ante=40000", "progressive=20000")), "facts.boxTotal"},
		{"BoxTotalRequired", map[string]any{"seat": 2, "wager": "ante", "maximum": 50000, "noticedBeforeClose": true}, nil, "facts.boxTotal"},
	} {
		_, err := Decide(rs, "wager_over_maximum", c.facts, c.round)
		if f := problems(t, err); !slices.Equal(f, []string{c.field}) {
			t.Errorf("%s: fields %q (%v)", c.name, f, err)
		}
	}
}
