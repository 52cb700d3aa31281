package jackpot_test

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/money"
)

// Rounds committed beside the pool (Contribute) and folded into it
// (FoldRounds) each get their own entry with their own sequence number,
// time, table, round, commit and principal, crediting exactly what the
// round's answer told its table (issue 34: the answer and its entry agree
// to the minor unit): the whole units of its own sum(wager x rate), split
// at the ceiling (R4), its own fraction added to the pool's carry (R1),
// which keeps it until the pool's next round applied to the pool itself
// credits its whole units. Without a ceiling, 1, 3 and 2 unit wagers at
// 17.33% (5.17% to the reserve) answer 86 (0.65 carried), 259 (0.95) and
// 173 (0.30): 518 credited and 1.90 kept (the serial path: 519 and
// 0.90); the reserve 25, 77, 51: 153 and 2.10 kept. A fourth round of one
// wager applied to the pool then credits 86.65 + 1.90 = 88 and keeps 0.55
// (reserve 25.85 + 2.10 = 27, 0.95): 606 and 0.55 in all, the serial
// path's 519 + 87 = 606 and 0.55. Fold (the sums alone) gives the same
// meters, and reconcile is ok throughout.
func TestFoldRoundsCreditWhatTheAnswersSaid_R1_R4(t *testing.T) {
	const rs = "mbs-megalink-ssp-v6"
	for _, tc := range []struct {
		name      string
		ceiling   money.Amount
		credits   []money.Amount // what each round's answer and entry credit
		displayed []money.Amount // of which to the displayed meter
	}{
		{"no ceiling", 0, []money.Amount{86, 259, 173}, []money.Amount{86, 259, 173}},
		{"at the ceiling: every credit to the overflow", 10_000_000, []money.Amount{86, 259, 173}, []money.Amount{0, 0, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := jackpottest.MBSSettings()
			s.Ceiling = tc.ceiling
			p, ledger, err := jackpot.New("p", s, ops, t0)
			if err != nil {
				t.Fatal(err)
			}
			var beside []jackpot.Entry
			var pend jackpot.Pending
			for i, seats := range [][]int{{1}, {1, 2, 3}, {1, 2}} {
				at := t0.Add(time.Duration(i) * time.Second)
				rd := jackpottest.RoundOf(rs, fmt.Sprint("T", i%3), fmt.Sprint("r", i), at, 500, seats)
				e, res, ok, err := jackpot.Standard().Contribute(p, rd, at)
				if err != nil || !ok || e == nil {
					t.Fatalf("beside %d: %v %v %+v", i, err, ok, e)
				}
				if got := res.Contribution.Displayed + res.Contribution.Overflow; got != tc.credits[i] || res.Contribution.Displayed != tc.displayed[i] {
					t.Fatalf("round %d answered %+v, want %d (displayed %d)", i, res.Contribution, tc.credits[i], tc.displayed[i])
				}
				e.Commit, e.Actor = fmt.Sprint("commit-", i), &jackpot.Actor{ID: fmt.Sprint("table:T", i%3), Role: "table"}
				beside = append(beside, *e)
				if pend, err = pend.Add(jackpot.Pending{Rounds: 1, Wagers: e.Wagers, WagerAmount: e.WagerAmount, CarryDisplayed: e.CarryDisplayed, CarryReserve: e.CarryReserve}); err != nil {
					t.Fatal(err)
				}
			}
			folded, got, err := jackpot.Standard().FoldRounds(p, beside)
			if err != nil || len(got) != len(beside) {
				t.Fatalf("fold: %v %d entries", err, len(got))
			}
			for i, g := range got {
				w := beside[i]
				if g.Seq != p.Seq+int64(i)+1 || !g.At.Equal(t0.Add(time.Duration(i)*time.Second)) || g.Table != w.Table || g.Round != w.Round || g.Kind != w.Kind ||
					g.Displayed != w.Displayed || g.Overflow != w.Overflow || g.Reserve != w.Reserve ||
					g.CarryDisplayed != w.CarryDisplayed || g.CarryReserve != w.CarryReserve ||
					g.Wagers != w.Wagers || g.WagerAmount != w.WagerAmount || g.RateSum != w.RateSum || g.RateSumReserve != w.RateSumReserve ||
					g.Contributed != w.Contributed || g.ContributedReserve != w.ContributedReserve || !g.DealtAt.Equal(*w.DealtAt) ||
					!reflect.DeepEqual(g.Rules, w.Rules) || g.Commit != w.Commit || g.Actor == nil || *g.Actor != *w.Actor {
					t.Fatalf("entry %d is not the round's answer:\n got %+v\nwant %+v", i, g, w)
				}
			}
			m := folded.Meters
			if m.Contributed != 518 || m.CarryDisplayed != 19_000 || m.ContributedReserve != 153 || m.CarryReserve != 21_000 || m.Displayed+m.Overflow != p.Meters.Displayed+518 {
				t.Fatalf("folded meters %+v", m)
			}
			sum, err := jackpot.Standard().Fold(p, pend, int64(len(beside)))
			if err != nil || !reflect.DeepEqual(sum.Meters, folded.Meters) || sum.Seq != folded.Seq || sum.Version != p.Version {
				t.Fatalf("the sums fold to %+v (seq %d) %v, the rounds %+v (seq %d)", sum.Meters, sum.Seq, err, folded.Meters, folded.Seq)
			}
			ledger = append(ledger, got...)
			if rec := jackpot.Reconcile(folded, ledger); !rec.OK {
				t.Fatalf("the fold's entries: %v %v", rec.Problems, rec.Differences)
			}
			// The next round applied to the pool credits the kept units.
			at := t0.Add(3 * time.Second)
			next, es, _, err := jackpot.Apply(folded, jackpottest.RoundOf(rs, "T0", "r3", at, 500, []int{1}), at)
			if err != nil || len(es) != 1 {
				t.Fatal(err, es)
			}
			if es[0].Contributed != 88 || es[0].ContributedReserve != 27 || next.Meters.Contributed != 606 || next.Meters.CarryDisplayed != 5_500 ||
				next.Meters.ContributedReserve != 180 || next.Meters.CarryReserve != 9_500 {
				t.Fatalf("the next round credited %d and %d: meters %+v", es[0].Contributed, es[0].ContributedReserve, next.Meters)
			}
			if rec := jackpot.Reconcile(next, append(ledger, es...)); !rec.OK {
				t.Fatalf("after the next round: %v %v", rec.Problems, rec.Differences)
			}
		})
	}
}

// A round whose rate sums are not the pool's settings' (computed under
// other settings) is refused, never credited at the wrong rate.
func TestFoldRoundsRefusesOtherRates(t *testing.T) {
	p := poolAt(t, jackpottest.MBSSettings(), 10_000_000, 0, 0)
	r := jackpottest.RoundOf("mbs-megalink-ssp-v6", "T0", "r0", t0, 500, []int{1})
	e, _, ok, err := jackpot.Standard().Contribute(p, r, t0)
	if err != nil || !ok {
		t.Fatal(err, ok)
	}
	e.RateSum++
	if _, _, err := jackpot.Standard().FoldRounds(p, []jackpot.Entry{*e}); err == nil {
		t.Fatal("a round at another rate was folded")
	}
}
