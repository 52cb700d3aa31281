package jackpot_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/ruleset"
	"github.com/tablesettle/tablesettle/internal/ruleset/rulesettest"
)

// descriptions is the standard catalogue, the sixth ruleset and variants
// of it that differ from it in one field each (issue 12 item 3): what a
// pool takes and cites follows these fields, not the ruleset's id.
func descriptions(t *testing.T) jackpot.Rules {
	t.Helper()
	cat, err := rulesettest.SixthCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	sspv4, _ := ruleset.Get(ruleset.SSPv4)
	dealer, _ := sspv4.Wager(ruleset.ProgressiveDealer)
	for _, edit := range []func(r *ruleset.Ruleset){
		// Any whole number of units, as SSP v4 3.5 (ruling R22).
		func(r *ruleset.Ruleset) {
			r.ID, r.Short, r.Clauses.ProgressiveCredits = "test-credits", "Credits", "3.5"
		},
		// 1-3 units, as THB 3.5.3 takes 1-5 (ruling R17).
		func(r *ruleset.Ruleset) {
			r.ID, r.Short, r.MaxProgressiveMultiplier, r.Clauses.ProgressiveUnit = "test-multiplier", "Triple", 3, "3.5.3"
		},
		// SSP v6 with a dealer-hand jackpot wager, as SSP v4 3.5, sharing
		// its majors (R5) and a reset clause of its own.
		func(r *ruleset.Ruleset) {
			r.ID = "test-dealer"
			r.Majors = ruleset.Majors{Rule: "3.15", OrderRule: "3.14"}
			r.Wagers = append(r.Wagers, *dealer)
			r.Clauses.JackpotRoyalShare, r.Clauses.JackpotReset = "7.7", "9.9"
		},
	} {
		r := rulesettest.Sixth()
		edit(&r)
		if cat, err = cat.With(r); err != nil {
			t.Fatal(err)
		}
	}
	return jackpot.Rules{Rulesets: cat}
}

func newPool(t *testing.T, k jackpot.Rules, id string) jackpot.Pool {
	t.Helper()
	s := jackpot.Settings{Currency: money.SGD, Rulesets: []string{id}, Unit: 500, ContributionBP: 2000, ReserveBP: 500, Reset: 10_000_000}
	p, _, err := k.New("p", s, jackpottest.Admin, jackpottest.T0)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestStakesAreTheDescription_R17_R22: the progressive stake a pool of
// unit 500 takes is its ruleset's description: one unit (ruling R22),
// 1-MaxProgressiveMultiplier units (THB 3.5.3, ruling R17), or any whole
// number of credits (SSP v4 3.5, ruling R22), with the refusals as they
// were when the pools decided by id; and a dealer-hand wager only where
// the ruleset offers one (SSP v4 3.5).
func TestStakesAreTheDescription_R17_R22(t *testing.T) {
	k := descriptions(t)
	for _, c := range []struct {
		name, ruleset, wager string
		amount               money.Amount
		field, msg           string // "" : accepted
	}{
		{"SSP v6 one unit", "mbs-megalink-ssp-v6", "", 500, "", ""},
		{"SSP v6 two units", "mbs-megalink-ssp-v6", "", 1000, "wagers[0].amount", "a progressive wager must equal the pool's unit SGD 5.00 (ruling R22), got SGD 10.00"},
		{"sixth two units", string(rulesettest.SixthID), "", 1000, "wagers[0].amount", "a progressive wager must equal the pool's unit SGD 5.00 (ruling R22), got SGD 10.00"},
		{"THB five units", "mbs-megalink-thb-v9", "", 2500, "", ""},
		{"THB six units", "mbs-megalink-thb-v9", "", 3000, "wagers[0].amount", "THB takes 1-5 times the pool's unit SGD 5.00 (mbs-megalink-thb-v9 3.5.3, ruling R17), got SGD 30.00"},
		{"THB part of a unit", "mbs-megalink-thb-v9", "", 750, "wagers[0].amount", "THB takes 1-5 times the pool's unit SGD 5.00 (mbs-megalink-thb-v9 3.5.3, ruling R17), got SGD 7.50"},
		{"variant three units", "test-multiplier", "", 1500, "", ""},
		{"variant four units", "test-multiplier", "", 2000, "wagers[0].amount", "Triple takes 1-3 times the pool's unit SGD 5.00 (test-multiplier 3.5.3, ruling R17), got SGD 20.00"},
		{"SSP v4 nine credits", "mbs-ssp-v4", "", 4500, "", ""},
		{"SSP v4 part of a credit", "mbs-ssp-v4", "", 750, "wagers[0].amount", "SSP v4 jackpot wagers are whole credits of the pool's unit SGD 5.00 (mbs-ssp-v4 3.5), got SGD 7.50"},
		{"variant nine credits", "test-credits", "", 4500, "", ""},
		{"variant part of a credit", "test-credits", "", 750, "wagers[0].amount", "Credits jackpot wagers are whole credits of the pool's unit SGD 5.00 (test-credits 3.5), got SGD 7.50"},
		{"SSP v4 dealer hand", "mbs-ssp-v4", jackpot.WagerDealer, 500, "", ""},
		{"variant dealer hand", "test-dealer", jackpot.WagerDealer, 500, "", ""},
		{"SSP v6 dealer hand", "mbs-megalink-ssp-v6", jackpot.WagerDealer, 500, "wagers[0].wager", "only SSP v4 takes a dealer-hand jackpot wager (mbs-ssp-v4 3.5)"},
		{"sixth dealer hand", string(rulesettest.SixthID), jackpot.WagerDealer, 500, "wagers[0].wager", "only SSP v4 takes a dealer-hand jackpot wager (mbs-ssp-v4 3.5)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := jackpottest.RoundOf(c.ruleset, "t", "r1", jackpottest.T0, c.amount, []int{1})
			r.Wagers[0].Wager = c.wager
			_, _, res, err := k.Apply(newPool(t, k, c.ruleset), r, jackpottest.T0)
			if c.msg == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if res.Contribution.Wagers != 1 || res.Contribution.WagerAmount != c.amount {
					t.Errorf("contribution %+v, want one wager of %d", res.Contribution, c.amount)
				}
				return
			}
			var fe *fault.Error
			if !errors.As(err, &fe) || fe.Kind != fault.Invalid || len(fe.Fields) == 0 {
				t.Fatalf("err %v, want an Invalid fault", err)
			}
			if f := fe.Fields[0]; f.Field != c.field || f.Message != c.msg {
				t.Errorf("refusal %s: %q\nwant %s: %q", f.Field, f.Message, c.field, c.msg)
			}
		})
	}
}

func resetRules(t *testing.T, es []jackpot.Entry) []string {
	t.Helper()
	for _, e := range es {
		if e.Kind == jackpot.KindReset {
			return e.Rules
		}
	}
	t.Fatalf("no reset entry in %+v", es)
	return nil
}

// TestJackpotClausesAreTheDescription_R3_R5_R21_R22: two Royal Flushes at
// one table of a shared pool at 10,000,200 (10,000,000 reset + 2 x 500 x
// 20%) are paid 10,000,100 each (R5) citing the ruleset's own share clause
// (Clauses.JackpotRoyalShare: SSP v6 3.15.1) and, where the ruleset has a
// dealer-hand jackpot wager, ruling R22; the reset after them cites R3,
// R21 and the ruleset's own reset clause (Clauses.JackpotReset), which
// only RWS has (1.13).
func TestJackpotClausesAreTheDescription_R3_R5_R21_R22(t *testing.T) {
	k := descriptions(t)
	for _, c := range []struct {
		ruleset    string
		dealer     bool // the second Royal Flush is on seat 2's dealer-hand wager
		cites, not []string
		resetCites []string
	}{
		{"mbs-megalink-ssp-v6", false, []string{"ruling R5", "ruling R21", "mbs-megalink-ssp-v6 3.15.1"}, []string{"ruling R22"}, []string{"ruling R3", "ruling R21"}},
		{"mbs-ssp-v4", false, []string{"ruling R5", "ruling R21", "ruling R22"}, nil, []string{"ruling R3", "ruling R21"}},
		{"mbs-ssp-v4", true, []string{"ruling R5", "ruling R21", "ruling R22"}, nil, []string{"ruling R3", "ruling R21"}},
		{"test-dealer", true, []string{"ruling R5", "ruling R21", "ruling R22", "test-dealer 7.7"}, []string{"test-dealer 3.15.1"}, []string{"ruling R3", "ruling R21", "test-dealer 9.9"}},
	} {
		name := c.ruleset
		if c.dealer {
			name += " dealer hand"
		}
		t.Run(name, func(t *testing.T) {
			second := jackpottest.Royal(c.ruleset, 2, 2, 500)
			r := jackpottest.RoundOf(c.ruleset, "t", "r1", jackpottest.T0, 500, []int{1, 2}, jackpottest.Royal(c.ruleset, 1, 1, 500), second)
			if c.dealer {
				r.Wagers[1].Wager, r.Hits[1].Wager = jackpot.WagerDealer, jackpot.WagerDealer
			}
			_, es, res, err := k.Apply(newPool(t, k, c.ruleset), r, jackpottest.T0)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Payouts) != 2 {
				t.Fatalf("payouts %+v", res.Payouts)
			}
			for _, po := range res.Payouts {
				if po.Status != "paid" || po.Amount != 10_000_100 {
					t.Errorf("seat %d: %s %d, want paid 10000100", po.Seat, po.Status, po.Amount)
				}
				for _, rule := range c.cites {
					if !slices.Contains(po.Rules, rule) {
						t.Errorf("seat %d cites %q, want %q among them", po.Seat, po.Rules, rule)
					}
				}
				for _, rule := range c.not {
					if slices.Contains(po.Rules, rule) {
						t.Errorf("seat %d cites %q, want no %q", po.Seat, po.Rules, rule)
					}
				}
			}
			if got := resetRules(t, es); !slices.Equal(got, c.resetCites) {
				t.Errorf("reset cites %q, want %q", got, c.resetCites)
			}
		})
	}
	// RWS: the Royal Flush is held for the settle window (R7), then paid and
	// the pool reset citing rws-mlp-csp-v2 1.13.
	t.Run("rws-mlp-csp-v2", func(t *testing.T) {
		const rws = "rws-mlp-csp-v2"
		p, _, res, err := k.Apply(newPool(t, k, rws), jackpottest.RoundOf(rws, "t", "r1", jackpottest.T0, 500, []int{1}, jackpottest.Royal(rws, 1, 1, 500)), jackpottest.T0)
		if err != nil || len(res.Payouts) != 1 || res.Payouts[0].Status != "held" {
			t.Fatalf("apply: %v %+v", err, res.Payouts)
		}
		_, es, paid, _, err := k.Release(p, jackpottest.T0.Add(time.Hour))
		if err != nil || len(paid) != 1 || paid[0].Amount != 10_000_100 {
			t.Fatalf("release: %v %+v, want one payout of 10000100", err, paid)
		}
		if got, want := resetRules(t, es), []string{"ruling R3", "ruling R21", "rws-mlp-csp-v2 1.13"}; !slices.Equal(got, want) {
			t.Errorf("reset cites %q, want %q", got, want)
		}
	})
}
