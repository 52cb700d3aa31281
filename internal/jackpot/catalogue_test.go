package jackpot_test

import (
	"testing"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// TestMajorsAreTheDescriptions_R5_R6_R7: how a pool pays several major
// hits at one table is its ruleset's Majors, whatever the id or casino.
// Three descriptions of SSP v6 under new ids, each pool at 10,000,200
// (10,000,000 reset + 2 x 500 x 20% contributed) with two Royal Flushes:
//   - shared (R5): pool + one reset = 20,000,200, 10,000,100 each;
//   - sequential without a settle window (R6): paid at once in dealing
//     order, 10,000,200 then 10,000,000 (the pool after the first reset);
//   - sequential with a settle window (R6, R7): both held, nothing paid.
func TestMajorsAreTheDescriptions_R5_R6_R7(t *testing.T) {
	base, _ := ruleset.Get(ruleset.SSPv6)
	cat := ruleset.Standard()
	for _, c := range []struct {
		id     ruleset.ID
		majors ruleset.Majors
		status string
		paid   []money.Amount
		window int64
	}{
		{"test-shared", ruleset.Majors{Rule: "3.15", OrderRule: "3.14"}, "paid", []money.Amount{10_000_100, 10_000_100}, 0},
		{"test-sequential", ruleset.Majors{Sequential: true, Rule: "3.15", OrderRule: "3.14"}, "paid", []money.Amount{10_000_200, 10_000_000}, 0},
		{"test-held", ruleset.Majors{Sequential: true, SettleWindow: true, Rule: "3.15", OrderRule: "3.14"}, "held", []money.Amount{0, 0}, 5000},
	} {
		r := base
		r.ID, r.Majors = c.id, c.majors
		var err error
		if cat, err = cat.With(r); err != nil {
			t.Fatal(err)
		}
		t.Run(string(c.id), func(t *testing.T) {
			k := jackpot.Rules{Rulesets: cat}
			s := jackpot.Settings{Currency: money.SGD, Rulesets: []string{string(c.id)}, Unit: 500, ContributionBP: 2000, ReserveBP: 500, Reset: 10_000_000}
			p, _, err := k.New("p", s, jackpottest.Admin, jackpottest.T0)
			if err != nil {
				t.Fatal(err)
			}
			if p.Settings.SettleWindowMS != c.window {
				t.Errorf("settle window %d ms, want %d", p.Settings.SettleWindowMS, c.window)
			}
			id := string(c.id)
			round := jackpottest.RoundOf(id, "t", "r1", jackpottest.T0, 500, []int{1, 2},
				jackpottest.Royal(id, 2, 2, 500), jackpottest.Royal(id, 1, 1, 500))
			_, _, res, err := k.Apply(p, round, jackpottest.T0)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Payouts) != 2 {
				t.Fatalf("payouts %+v", res.Payouts)
			}
			for i, po := range res.Payouts {
				if po.Seat != i+1 || po.Status != c.status || po.Amount != c.paid[i] {
					t.Errorf("payout %d: seat %d %s %d, want seat %d %s %d", i, po.Seat, po.Status, po.Amount, i+1, c.status, c.paid[i])
				}
			}
			if _, _, _, err := jackpot.Apply(p, round, jackpottest.T0); err == nil {
				t.Error("the standard rules applied a round of a ruleset they do not know")
			}
		})
	}
}
