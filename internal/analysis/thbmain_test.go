package analysis

import (
	"context"
	"encoding/json"
	"math/big"
	"os"
	"slices"
	"testing"

	"github.com/tablesettle/tablesettle/internal/card"
	"github.com/tablesettle/tablesettle/internal/hand"
)

// The suit classes of flops cover all C(52,3) = 22,100 flops, in 1,755
// classes.
func TestTHBFlopClasses(t *testing.T) {
	reps, w := thbFlopClasses()
	var sum int64
	for _, x := range w {
		sum += x
	}
	if len(reps) != 1755 || sum != 22100 {
		t.Fatalf("%d classes of %d flops, want 1755 of 22100", len(reps), sum)
	}
}

// thbBrute is the value of going on (times 990 x 47 x 46) of one holding
// and flop, its Turn decision and its River bets, computed the plain way:
// every turn, river and dealer holding, each hand ranked with hand.Eval7,
// each decision taken on the sums it depends on (mbs-megalink-thb-v9
// 3.9.2, 3.10.2-3.10.4).
func thbBrute(h [2]card.Card, flop [3]card.Card) (cont int64, turnBet bool, riverBets int) {
	used := map[card.Card]bool{h[0]: true, h[1]: true, flop[0]: true, flop[1]: true, flop[2]: true}
	var turnSum int64
	for tc := card.Card(0); tc < 52; tc++ {
		if used[tc] {
			continue
		}
		var base, diff int64
		for rc := card.Card(0); rc < 52; rc++ {
			if used[rc] || rc == tc {
				continue
			}
			pv := hand.Eval7(h[0], h[1], flop[0], flop[1], flop[2], tc, rc)
			var win, lose int64
			for a := card.Card(0); a < 52; a++ {
				for b := a + 1; b < 52; b++ {
					if used[a] || used[b] || a == tc || a == rc || b == tc || b == rc {
						continue
					}
					dv := hand.Eval7(a, b, flop[0], flop[1], flop[2], tc, rc)
					if pv > dv {
						win++
					} else if pv < dv {
						lose++
					}
				}
			}
			ante := int64(0)
			if pv.Category() >= hand.Straight {
				ante = 1
			}
			base += ante*win + 2*win - 3*lose
			diff += win - lose
		}
		cont += base
		if diff > 0 {
			cont += diff
			riverBets++
		}
		turnSum += diff
	}
	if turnSum > 0 {
		cont += turnSum
		turnBet = true
	}
	return cont, turnBet, riverBets
}

// The fast induction (one ranking per board, card-removal counts) agrees
// with the plain enumeration on one flop for a few holdings: a made hand,
// a draw, a weak hand. The whole enumeration runs in `make analysis`
// (about a minute); TestTHBMainPublished checks what it wrote.
func TestTHBFlopAgreesWithBruteForce(t *testing.T) {
	flop := [3]card.Card(card.MustParseList("Kh 9h 4c"))
	var tally thbTally
	thbFlop(flop, 1, &tally, new(thbScratch))
	for _, hs := range []string{"Ah Qh", "Kd Ks", "7c 2d"} {
		h := [2]card.Card(card.MustParseList(hs))
		k := thbHoleClass(h[0], h[1])
		// The tally holds the whole class; rebuild it from the members
		// that miss the flop, by brute force.
		var want, stakes int64
		var members int64
		for a := card.Card(0); a < 52; a++ {
			for b := a + 1; b < 52; b++ {
				if thbHoleClass(a, b) != k || a == flop[0] || a == flop[1] || a == flop[2] || b == flop[0] || b == flop[1] || b == flop[2] {
					continue
				}
				members++
				if testing.Short() && members > 1 {
					continue
				}
				c, tb, rb := thbBrute([2]card.Card{a, b}, flop)
				want += c
				st := int64(3 * 47 * 46)
				if tb {
					st += 47 * 46
				}
				stakes += st + int64(rb)*46
			}
		}
		if testing.Short() {
			continue
		}
		if tally.pairs[k] != members || tally.cont[k] != want || tally.stakes[k] != stakes {
			t.Errorf("%s: %d pairs, value %d, stakes %d; brute force %d, %d, %d", hs, tally.pairs[k], tally.cont[k], tally.stakes[k], members, want, stakes)
		}
	}
}

// The embedded THB main-game figures (written by `make analysis`, which
// enumerates every deal) hang together: each kind of hole cards bets the
// Flop exactly when betting is worth more than the fold's -1 (3.9.1), the
// return is the combos-weighted best of the two, the house edge is its
// negation and the element of risk is the house edge over the average
// wager. With THB_FULL=1 the whole enumeration is rerun and must give the
// same figures (about a minute on one core).
func TestTHBMainPublished(t *testing.T) {
	r, ok, err := PublishedFigures("mbs-megalink-thb-v9")
	if !ok || err != nil || r.HoldemMain == nil {
		t.Fatalf("no THB main-game figures embedded (%v, %v); run make analysis", ok, err)
	}
	m := r.HoldemMain
	if len(m.FlopBet) != 169 {
		t.Fatalf("%d kinds of hole cards, want 169", len(m.FlopBet))
	}
	ev := new(big.Rat)
	combos := 0
	var folds []string
	for _, d := range m.FlopBet {
		v := d.IfFlopBet.Rat()
		if bet := v.Cmp(big.NewRat(-1, 1)) > 0; bet != d.BetFlop {
			t.Errorf("%s: betFlop %v with %s per Ante if bet", d.Hand, d.BetFlop, v.FloatString(6))
		}
		if !d.BetFlop {
			v = big.NewRat(-1, 1)
			folds = append(folds, d.Hand)
		}
		ev.Add(ev, new(big.Rat).Mul(v, big.NewRat(int64(d.Combos), 1326)))
		combos += d.Combos
	}
	if combos != 1326 {
		t.Fatalf("%d combos, want 1326", combos)
	}
	if ev.Cmp(m.Return.Rat()) != 0 || new(big.Rat).Neg(ev).Cmp(m.HouseEdge.Rat()) != 0 {
		t.Errorf("return %s, house edge %s; the decisions give %s", m.Return.Percent, m.HouseEdge.Percent, ev.FloatString(8))
	}
	if eor := new(big.Rat).Quo(m.HouseEdge.Rat(), m.AverageWager.Rat()); eor.Cmp(m.ElementOfRisk.Rat()) != 0 {
		t.Errorf("element of risk %s, want house edge / average wager %s", m.ElementOfRisk.Percent, eor.FloatString(8))
	}
	slices.Sort(folds)
	got := slices.Clone(m.FoldHands)
	slices.Sort(got)
	if !slices.Equal(got, folds) {
		t.Errorf("foldHands %v, the decisions fold %v", m.FoldHands, folds)
	}
	if os.Getenv("THB_FULL") == "" {
		t.Log("set THB_FULL=1 to rerun the whole enumeration")
		return
	}
	full, err := THBMainGame(context.Background(), m.Rule)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(full)
	b, _ := json.Marshal(m)
	if string(a) != string(b) {
		t.Errorf("the enumeration gives different figures from the embedded ones; run make analysis")
	}
}

// BenchmarkAnalysisTHBMainFlop is one flop class of THB's main game: the
// whole enumeration is 1,755 of them.
func BenchmarkAnalysisTHBMainFlop(b *testing.B) {
	reps, w := thbFlopClasses()
	sc := new(thbScratch)
	var t thbTally
	for b.Loop() {
		thbFlop(reps[1000], w[1000], &t, sc)
	}
}
