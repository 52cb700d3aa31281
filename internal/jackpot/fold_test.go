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
// round's answer told its table (issue 34 item 3: the answer and its
// entry agree to the minor unit): the whole units of its own
// sum(wager x rate), its own fraction carried (R1), split at the ceiling
// (R4). Whenever the carried fractions reach a whole unit, a carry entry
// of its own credits it right after the round that made it. The meters
// are then the serial path's and Fold's (the sums alone) to the fraction,
// and reconcile is ok. Without a ceiling, 1, 3 and 2 unit wagers at
// 17.33% (5.17% to the reserve) answer 86 (0.65 carried), 259 (0.95) and
// 173 (0.30): the displayed carry reaches 1.60 after the second round
// (a carry entry of 1, 0.60 left) and ends at 0.90: 86 + 259 + 1 + 173 =
// 519 and 0.90 carried, as 3,000 x 17.33% = 519.90, the serial path's.
func TestFoldRoundsCreditWhatTheAnswersSaid_R1_R4(t *testing.T) {
	const rs = "mbs-megalink-ssp-v6"
	const c, d, r = jackpot.KindContribution, "carry-displayed", "carry-reserve"
	for _, tc := range []struct {
		name      string
		ceiling   money.Amount
		seats     [][]int
		credits   []money.Amount // what each round's answer and entry credit
		displayed []money.Amount // of which to the displayed meter
		kinds     []string       // the fold's entries in ledger order
	}{
		{"no ceiling", 0, [][]int{{1}, {1, 2, 3}, {1, 2}}, []money.Amount{86, 259, 173}, []money.Amount{86, 259, 173},
			[]string{string(c), string(c), d, r, string(c), r}},
		{"at the ceiling: every credit to the overflow", 10_000_000, [][]int{{1}, {1, 2, 3}, {1, 2}}, []money.Amount{86, 259, 173}, []money.Amount{0, 0, 0},
			[]string{string(c), string(c), d, r, string(c), r}},
		{"many rounds", 0, [][]int{{1}, {1, 2, 3, 4, 5, 6, 7}, {2}, {3, 4}, {1, 2, 3}, {5}, {6, 7}, {1, 2, 3, 4}, {7}},
			// 22 wagers x 86.65 = 1,906.30: 1,906 credited (1,899 by the
			// rounds, 7 by carry entries), 0.30 carried.
			[]money.Amount{86, 606, 86, 173, 259, 86, 173, 346, 86}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := jackpottest.MBSSettings()
			s.Ceiling = tc.ceiling
			p, ledger, err := jackpot.New("p", s, ops, t0)
			if err != nil {
				t.Fatal(err)
			}
			if a := 10_000_000 - p.Meters.Displayed; a != 0 {
				var es []jackpot.Entry
				if p, es, err = jackpot.Adjust(p, jackpot.Adjustment{Meter: "displayed", Amount: a, Reason: "fixture"}, ops, t0); err != nil {
					t.Fatal(err)
				}
				ledger = append(ledger, es...)
			}
			serial, beside := p, []jackpot.Entry{}
			var pend jackpot.Pending
			for i, seats := range tc.seats {
				at := t0.Add(time.Duration(i) * time.Second)
				rd := jackpottest.RoundOf(rs, fmt.Sprint("T", i%3), fmt.Sprint("r", i), at, 500, seats)
				var err error
				if serial, _, _, err = jackpot.Apply(serial, rd, at); err != nil {
					t.Fatalf("serial %d: %v", i, err)
				}
				e, res, ok, err := jackpot.Standard().Contribute(p, rd, at)
				if err != nil || !ok || e == nil {
					t.Fatalf("beside %d: %v %v %+v", i, err, ok, e)
				}
				if got := res.Contribution.Displayed + res.Contribution.Overflow; got != tc.credits[i] {
					t.Fatalf("round %d answered %d, want %d", i, got, tc.credits[i])
				}
				e.Commit, e.Actor = fmt.Sprint("commit-", i), &jackpot.Actor{ID: fmt.Sprint("table:T", i%3), Role: "table"}
				beside = append(beside, *e)
				if pend, err = pend.Add(jackpot.Pending{Rounds: 1, Wagers: e.Wagers, WagerAmount: e.WagerAmount, CarryDisplayed: e.CarryDisplayed, CarryReserve: e.CarryReserve}); err != nil {
					t.Fatal(err)
				}
			}
			folded, got, err := jackpot.Standard().FoldRounds(p, beside)
			if err != nil {
				t.Fatalf("fold: %v", err)
			}
			var kinds []string
			i := 0
			for j, g := range got {
				if g.Seq != p.Seq+int64(j)+1 {
					t.Fatalf("entry %d has seq %d", j, g.Seq)
				}
				if g.Kind == jackpot.KindCarry {
					if g.Contributed+g.ContributedReserve != 1 || g.Table != "" || g.Wagers != 0 || g.RateSum != 0 {
						t.Fatalf("carry entry %+v", g)
					}
					if g.Contributed == 1 {
						kinds = append(kinds, d)
						if g.CarryDisplayed != -10000 || (tc.ceiling > 0 && g.Overflow != 1) {
							t.Fatalf("carry entry %+v", g)
						}
					} else {
						kinds = append(kinds, r)
						if g.CarryReserve != -10000 || g.Reserve != 1 {
							t.Fatalf("carry entry %+v", g)
						}
					}
					continue
				}
				kinds = append(kinds, string(g.Kind))
				w := beside[i]
				if !g.At.Equal(t0.Add(time.Duration(i)*time.Second)) || g.Table != w.Table || g.Round != w.Round || g.Kind != w.Kind ||
					g.Displayed != w.Displayed || g.Overflow != w.Overflow || g.Reserve != w.Reserve ||
					g.CarryDisplayed != w.CarryDisplayed || g.CarryReserve != w.CarryReserve ||
					g.Wagers != w.Wagers || g.WagerAmount != w.WagerAmount || g.RateSum != w.RateSum || g.RateSumReserve != w.RateSumReserve ||
					g.Contributed != w.Contributed || g.ContributedReserve != w.ContributedReserve || !g.DealtAt.Equal(*w.DealtAt) ||
					!reflect.DeepEqual(g.Rules, w.Rules) || g.Commit != w.Commit || g.Actor == nil || *g.Actor != *w.Actor {
					t.Fatalf("entry %d is not the round's answer:\n got %+v\nwant %+v", j, g, w)
				}
				if g.Contributed != tc.credits[i] || (tc.displayed != nil && (g.Displayed != tc.displayed[i] || g.Overflow != tc.credits[i]-tc.displayed[i])) {
					t.Fatalf("entry %d credits %d (displayed %d, overflow %d), want %d", j, g.Contributed, g.Displayed, g.Overflow, tc.credits[i])
				}
				i++
			}
			if tc.kinds != nil && !reflect.DeepEqual(kinds, tc.kinds) {
				t.Fatalf("entries %v, want %v", kinds, tc.kinds)
			}
			if !reflect.DeepEqual(folded.Meters, serial.Meters) {
				t.Fatalf("folded %+v, serial %+v", folded.Meters, serial.Meters)
			}
			sum, err := jackpot.Standard().Fold(p, pend, int64(len(beside)))
			if err != nil || !reflect.DeepEqual(sum.Meters, serial.Meters) || sum.Seq != folded.Seq || sum.Version != p.Version {
				t.Fatalf("the sums fold to %+v (seq %d) %v, the rounds %+v (seq %d)", sum.Meters, sum.Seq, err, folded.Meters, folded.Seq)
			}
			if rec := jackpot.Reconcile(folded, append(ledger, got...)); !rec.OK {
				t.Fatalf("the fold's entries: %v %v", rec.Problems, rec.Differences)
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
