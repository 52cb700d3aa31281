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
// (FoldRounds) make the serial path's ledger, entry for entry: each
// round's own entry with its own sequence number, time, table and round,
// crediting the whole units of the pool's carry + its own
// sum(wager x rate) (R1), split at the ceiling (R4); and the pool's
// meters are the serial path's and Fold's (the sums alone) to the
// fraction. Without a ceiling, 1, 3 and 2 unit wagers at 17.33% credit
// 86 (0.65 carried), 260 (0.60) and 173 (0.90): 519 and 0.90 carried, as
// 3,000 x 17.33% = 519.90.
func TestFoldRoundsIsTheSerialLedger_R1_R4(t *testing.T) {
	const rs = "mbs-megalink-ssp-v6"
	for _, c := range []struct {
		name      string
		ceiling   money.Amount
		seats     [][]int
		credits   []money.Amount // what each round's entry credits
		displayed []money.Amount // of which to the displayed meter
	}{
		{"no ceiling", 0, [][]int{{1}, {1, 2, 3}, {1, 2}}, []money.Amount{86, 260, 173}, []money.Amount{86, 260, 173}},
		{"at the ceiling: every credit to the overflow", 10_000_000, [][]int{{1}, {1, 2, 3}, {1, 2}}, []money.Amount{86, 260, 173}, []money.Amount{0, 0, 0}},
		{"many rounds", 0, [][]int{{1}, {1, 2, 3, 4, 5, 6, 7}, {2}, {3, 4}, {1, 2, 3}, {5}, {6, 7}, {1, 2, 3, 4}, {7}},
			// 22 wagers x 86.65 = 1,906.30: 1,906 credited, 0.30 carried.
			[]money.Amount{86, 607, 86, 174, 260, 86, 174, 346, 87}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := jackpottest.MBSSettings()
			s.Ceiling = c.ceiling
			p := poolAt(t, s, 10_000_000, 0, 0)
			serial, beside := p, []jackpot.Entry{}
			var want []jackpot.Entry
			var pend jackpot.Pending
			for i, seats := range c.seats {
				at := t0.Add(time.Duration(i) * time.Second)
				r := jackpottest.RoundOf(rs, fmt.Sprint("T", i%3), fmt.Sprint("r", i), at, 500, seats)
				var es []jackpot.Entry
				var err error
				if serial, es, _, err = jackpot.Apply(serial, r, at); err != nil || len(es) != 1 {
					t.Fatalf("serial %d: %v %+v", i, err, es)
				}
				want = append(want, es[0])
				e, _, ok, err := jackpot.Standard().Contribute(p, r, at)
				if err != nil || !ok || e == nil {
					t.Fatalf("beside %d: %v %v %+v", i, err, ok, e)
				}
				e.Commit, e.Actor = fmt.Sprint("commit-", i), &jackpot.Actor{ID: fmt.Sprint("table:T", i%3), Role: "table"}
				beside = append(beside, *e)
				if pend, err = pend.Add(jackpot.Pending{Rounds: 1, Wagers: e.Wagers, WagerAmount: e.WagerAmount}); err != nil {
					t.Fatal(err)
				}
			}
			folded, got, err := jackpot.Standard().FoldRounds(p, beside)
			if err != nil || len(got) != len(want) {
				t.Fatalf("fold: %v %+v", err, got)
			}
			for i, g := range got {
				w := want[i]
				if g.Seq != w.Seq || !g.At.Equal(w.At) || g.Table != w.Table || g.Round != w.Round || g.Kind != w.Kind ||
					g.Displayed != w.Displayed || g.Overflow != w.Overflow || g.Reserve != w.Reserve ||
					g.CarryDisplayed != w.CarryDisplayed || g.CarryReserve != w.CarryReserve ||
					g.Wagers != w.Wagers || g.WagerAmount != w.WagerAmount || g.RateSum != w.RateSum || g.RateSumReserve != w.RateSumReserve ||
					g.Contributed != w.Contributed || g.ContributedReserve != w.ContributedReserve || !g.DealtAt.Equal(*w.DealtAt) ||
					!reflect.DeepEqual(g.Rules, w.Rules) {
					t.Fatalf("entry %d:\n got %+v\nwant %+v", i, g, w)
				}
				if g.Commit != beside[i].Commit || g.Actor == nil || *g.Actor != *beside[i].Actor {
					t.Fatalf("entry %d lost its round's commit or principal: %+v", i, g)
				}
				if g.Contributed != c.credits[i] || (c.displayed != nil && (g.Displayed != c.displayed[i] || g.Overflow != c.credits[i]-c.displayed[i])) {
					t.Fatalf("entry %d credits %d (displayed %d, overflow %d), want %d", i, g.Contributed, g.Displayed, g.Overflow, c.credits[i])
				}
			}
			if !reflect.DeepEqual(folded.Meters, serial.Meters) || folded.Seq != serial.Seq {
				t.Fatalf("folded %+v (seq %d), serial %+v (seq %d)", folded.Meters, folded.Seq, serial.Meters, serial.Seq)
			}
			sum, err := jackpot.Standard().Fold(p, pend, int64(len(beside)))
			if err != nil || !reflect.DeepEqual(sum.Meters, serial.Meters) || sum.Seq != serial.Seq || sum.Version != p.Version {
				t.Fatalf("the sums fold to %+v (seq %d) %v, serial %+v (seq %d)", sum.Meters, sum.Seq, err, serial.Meters, serial.Seq)
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
