package analysis

import (
	"context"
	"fmt"
	"math/big"
	"slices"

	"github.com/tablesettle/tablesettle/internal/card"
	"github.com/tablesettle/tablesettle/internal/hand"
)

// THB main game (mbs-megalink-thb-v9 3.9-3.10, 4.1.1) under optimal play.
//
// The player sees two hole cards and folds (losing the Ante, 3.9.1) or
// bets the Flop, twice the Ante (3.9.2). Before the Turn card and before
// the River card they may bet the Ante again or check. At the showdown a
// higher hand wins the Flop, Turn and River bets 1 to 1 and the Ante 1 to 1
// only with a Straight or better, else the Ante stands off (3.10.2); a
// lower hand loses everything (3.10.3); equal hands stand off (3.10.4). The
// dealer never has to qualify.
//
// Backward induction. Given the seven cards the player sees at the
// showdown, let W, L be how many of the 990 dealer holdings (two of the 45
// unseen cards) the player beats and loses to. The showdown is worth, per
// Ante and times 990,
//
//	W*(a + 2 + T + R) - L*(1 + 2 + T + R) = base + (T + R)*(W - L)
//
// with a = 1 for a Straight or better (else 0) and T, R the Turn and River
// bets (0 or 1). A bet of 1 adds W-L whatever came before, so each bet is
// made exactly when the expected W-L over what is still unseen is positive:
// the River bet when the sum of W-L over the 46 river cards is, the Turn bet
// when the sum over the 47x46 turn and river cards is. The Flop bet is
// made when the expected value of going on beats -1, the fold. A zero sum
// checks (the bet would change nothing on average; checking risks less).
//
// The enumeration: the 22,100 flops fall into 1,755 classes under the 24
// permutations of suits (a class's members give the same figures to the
// correspondingly permuted hole cards, and a class of hole cards is closed
// under the permutations). For each class representative, every unordered
// pair {t, r} of the 49 other cards completes a board; the 1,081 holdings
// from the 47 cards left are ranked once (hand.Partial: the board's keys
// are added once), sorted, and W, L of every holding against every other
// that shares no card follow from running counts per card
// (inclusion-exclusion). The board {t, r} serves both turn t then river r
// and turn r then river t.

// THBMain is the main game's figures under optimal strategy, per Ante.
type THBMain struct {
	Rule          string        `json:"rule"`
	Deals         string        `json:"deals" doc:"Deals enumerated: C(52,2) hole cards x C(50,3) flops x 47 turns x 46 rivers x C(45,2) dealer holdings."`
	Return        ExactFraction `json:"returnToPlayer" doc:"Expected net result per Ante (negative: the house's)."`
	HouseEdge     ExactFraction `json:"houseEdge" doc:"Expected loss per Ante."`
	AverageWager  ExactFraction `json:"averageWager" doc:"Expected total staked (Ante, Flop, Turn, River) per Ante."`
	ElementOfRisk ExactFraction `json:"elementOfRisk" doc:"Expected loss per unit staked: houseEdge / averageWager."`
	FoldRate      ExactFraction `json:"foldRate" doc:"Probability the player folds at the Flop decision."`
	TurnBetRate   ExactFraction `json:"turnBetRate" doc:"Probability the player bets the Turn (over all deals)."`
	RiverBetRate  ExactFraction `json:"riverBetRate" doc:"Probability the player bets the River (over all deals)."`
	// FlopBet is the Flop decision for each of the 169 kinds of hole cards.
	FlopBet   []THBHoleDecision `json:"flopBet" doc:"The Flop decision (bet 2x or fold) for each of the 169 kinds of hole cards, best first."`
	FoldHands []string          `json:"foldHands" doc:"The hole cards the optimal strategy folds; every other hand bets the Flop."`
	TurnRule  string            `json:"turnRule"`
	RiverRule string            `json:"riverRule"`
	Notes     []string          `json:"notes,omitempty"`
}

// THBHoleDecision is one kind of hole cards: its expected result per Ante
// if it bets the Flop and then plays optimally, and the decision.
type THBHoleDecision struct {
	Hand       string        `json:"hand" doc:"e.g. \"AKs\" (suited), \"AKo\" (offsuit), \"77\"."`
	Combos     int           `json:"combos" doc:"How many of the 1,326 two-card hands are of this kind."`
	BetFlop    bool          `json:"betFlop"`
	IfFlopBet  ExactFraction `json:"ifFlopBet" doc:"Expected result per Ante after betting the Flop (folding is -1)."`
	TurnBetPct string        `json:"turnBetPercent" doc:"Of the flops, the share (percent, 2 decimals) on which this hand then bets the Turn."`
}

// thbHoleClass is the index of a hole-card kind: 13*hi + lo for a suited
// hand (hi > lo, rank indexes 0-12), 13*lo + hi for an offsuit one, and
// 14*r for a pair.
func thbHoleClass(a, b card.Card) int {
	ra, rb := int(a>>2), int(b>>2)
	if ra < rb {
		ra, rb = rb, ra
	}
	if ra != rb && a&3 == b&3 {
		return 13*ra + rb
	}
	return 13*rb + ra
}

func thbClassName(k int) (string, int) {
	hi, lo := k/13, k%13
	const ranks = "23456789TJQKA"
	switch {
	case hi == lo:
		return ranks[hi:hi+1] + ranks[hi:hi+1], 6
	case hi > lo:
		return ranks[hi:hi+1] + ranks[lo:lo+1] + "s", 4
	default:
		return ranks[lo:lo+1] + ranks[hi:hi+1] + "o", 12
	}
}

// thbFlopClasses returns one representative of each class of flops under
// suit permutations, and the class's size.
func thbFlopClasses() (reps [][3]card.Card, weights []int64) {
	var perms [][4]card.Card
	p := []card.Card{0, 1, 2, 3}
	var rec func(int)
	rec = func(i int) {
		if i == 4 {
			perms = append(perms, [4]card.Card(p))
			return
		}
		for j := i; j < 4; j++ {
			p[i], p[j] = p[j], p[i]
			rec(i + 1)
			p[i], p[j] = p[j], p[i]
		}
	}
	rec(0)
	count := map[[3]card.Card]int64{}
	var order [][3]card.Card
	for a := card.Card(0); a < 52; a++ {
		for b := a + 1; b < 52; b++ {
			for c := b + 1; c < 52; c++ {
				var best [3]card.Card
				for i, pm := range perms {
					x := [3]card.Card{a&^3 | pm[a&3], b&^3 | pm[b&3], c&^3 | pm[c&3]}
					slices.Sort(x[:])
					if i == 0 || slices.Compare(x[:], best[:]) < 0 {
						best = x
					}
				}
				if count[best] == 0 {
					order = append(order, best)
				}
				count[best]++
			}
		}
	}
	for _, f := range order {
		reps = append(reps, f)
		weights = append(weights, count[f])
	}
	return reps, weights
}

// thbFlopTally is what one flop class adds, per hole-card kind and weighted
// by the class's size: the value of going on (times 990 x 47 x 46), the
// stakes staked going on (times 47 x 46), and how many (hole, flop) pairs,
// Turn bets and River bets (times 47) there were.
type thbTally struct {
	cont, stakes, pairs, turnBets, riverBets [169]int64
}

// thbFlop runs the backward induction for one flop and adds it, times w,
// to t.
func thbFlop(flop [3]card.Card, w int64, t *thbTally, sc *thbScratch) {
	var rest []card.Card
	for c := card.Card(0); c < 52; c++ {
		if c != flop[0] && c != flop[1] && c != flop[2] {
			rest = append(rest, c)
		}
	}
	// The 1,176 holdings of two of the 49 cards.
	holes := sc.holes[:0]
	for i := range rest {
		for j := i + 1; j < len(rest); j++ {
			holes = append(holes, [2]card.Card{rest[i], rest[j]})
		}
	}
	sc.holes = holes
	hp := sc.hp[:0]
	for _, h := range holes {
		hp = append(hp, hand.Partial{}.Add(h[0]).Add(h[1]))
	}
	sc.hp = hp
	base, diff := sc.base[:], sc.diff[:]
	clear(base)
	clear(diff)
	fp := hand.Partial{}.Add(flop[0]).Add(flop[1]).Add(flop[2])
	for i, tc := range rest {
		for _, rc := range rest[i+1:] {
			board := fp.Add(tc).Add(rc)
			sc.rankBoard(board, tc, rc)
			for k, h := range holes {
				if h[0] == tc || h[0] == rc || h[1] == tc || h[1] == rc {
					continue
				}
				b, d := sc.base0[k], sc.diff0[k]
				base[k*52+int(tc)] += b
				diff[k*52+int(tc)] += d
				base[k*52+int(rc)] += b
				diff[k*52+int(rc)] += d
			}
		}
	}
	for k, h := range holes {
		var cont, turnSum, riverBets int64
		for _, tc := range rest {
			if tc == h[0] || tc == h[1] {
				continue
			}
			i := k*52 + int(tc)
			cont += int64(base[i])
			if diff[i] > 0 { // the River bet, seeing the turn
				cont += int64(diff[i])
				riverBets++
			}
			turnSum += int64(diff[i])
		}
		turnBet := int64(0)
		if turnSum > 0 { // the Turn bet, seeing the flop
			cont += turnSum
			turnBet = 1
		}
		c := thbHoleClass(h[0], h[1])
		t.cont[c] += w * cont
		t.stakes[c] += w * (3*47*46 + turnBet*47*46 + riverBets*46)
		t.pairs[c] += w
		t.turnBets[c] += w * turnBet
		t.riverBets[c] += w * riverBets
	}
}

// thbScratch holds one flop's working arrays.
type thbScratch struct {
	holes        [][2]card.Card
	hp           []hand.Partial
	base, diff   [1176 * 52]int32 // per holding and turn card: sums over rivers
	base0, diff0 [1176]int32      // per holding: this board's showdown
	keys, tmp    [1176]uint32
	lowCard      [52]int32
	eqCard       [52]int32
}

// straightFloor is the lowest Value of a Straight.
var straightFloor = func() hand.Value {
	v := hand.Value(1)
	for v.Category() < hand.Straight {
		v++
	}
	return v
}()

// rankBoard ranks every holding that misses the board's turn and river
// cards tc, rc, and sets base0 and diff0 of each: a*W + 2*W - 3*L and W - L
// against the 990 dealer holdings that share no card with it.
func (sc *thbScratch) rankBoard(board hand.Partial, tc, rc card.Card) {
	n := 0
	for k, h := range sc.holes {
		if h[0] == tc || h[0] == rc || h[1] == tc || h[1] == rc {
			continue
		}
		v := board.Join(sc.hp[k]).Value()
		sc.keys[n] = uint32(v)<<11 | uint32(k)
		n++
	}
	// LSD radix sort on the value (13 bits): 7 bits, then 6.
	keys, tmp := sc.keys[:n], sc.tmp[:n]
	var c1 [128]int32
	var c2 [64]int32
	for _, x := range keys {
		c1[x>>11&127]++
		c2[x>>18&63]++
	}
	var s1, s2 int32
	for i := range c1 {
		c1[i], s1 = s1, s1+c1[i]
	}
	for i := range c2 {
		c2[i], s2 = s2, s2+c2[i]
	}
	for _, x := range keys {
		d := x >> 11 & 127
		tmp[c1[d]] = x
		c1[d]++
	}
	for _, x := range tmp {
		d := x >> 18 & 63
		keys[c2[d]] = x
		c2[d]++
	}
	// Sweep groups of equal value, lowest first.
	clear(sc.lowCard[:])
	var low int32
	total := int32(n) // 1,081
	for i := 0; i < n; {
		j := i
		v := keys[i] >> 11
		for j < n && keys[j]>>11 == v {
			h := sc.holes[keys[j]&2047]
			sc.eqCard[h[0]]++
			sc.eqCard[h[1]]++
			j++
		}
		eq := int32(j - i)
		for _, x := range keys[i:j] {
			k := x & 2047
			h := sc.holes[k]
			win := low - sc.lowCard[h[0]] - sc.lowCard[h[1]]
			tie := eq - sc.eqCard[h[0]] - sc.eqCard[h[1]] + 1
			lose := total - 2*46 + 1 - win - tie // 990 dealer holdings
			a := int32(0)
			if hand.Value(v) >= straightFloor {
				a = 1 // 3.10.2: the Ante wins only with a Straight or better
			}
			sc.base0[k] = a*win + 2*win - 3*lose
			sc.diff0[k] = win - lose
		}
		for _, x := range keys[i:j] {
			h := sc.holes[x&2047]
			sc.eqCard[h[0]] = 0
			sc.eqCard[h[1]] = 0
			sc.lowCard[h[0]]++
			sc.lowCard[h[1]]++
		}
		low += eq
		i = j
	}
}

// thbDenominator: the value of going on is summed over 990 dealer holdings
// x 47 turns x 46 rivers.
const thbDenominator = 990 * 47 * 46

// THBMainGame computes the main game's optimal strategy and figures by
// full enumeration (about a minute on one core). ctx is checked between
// flop classes.
func THBMainGame(ctx context.Context, rule string) (*THBMain, error) {
	reps, weights := thbFlopClasses()
	var t thbTally
	sc := new(thbScratch)
	for i, f := range reps {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		thbFlop(f, weights[i], &t, sc)
	}
	return thbFigures(&t, rule), nil
}

// thbFigures turns the tallies into the decisions and figures.
func thbFigures(t *thbTally, rule string) *THBMain {
	const flops = 19600 // C(50,3) flops per holding
	ev := new(big.Rat)
	stakes := new(big.Rat)
	fold, turn, river := new(big.Rat), new(big.Rat), new(big.Rat)
	m := &THBMain{Rule: rule}
	type row struct {
		d  THBHoleDecision
		ev *big.Rat
	}
	var rows []row
	for k := range 169 {
		name, combos := thbClassName(k)
		pairs := int64(combos) * flops
		if t.pairs[k] != pairs {
			panic(fmt.Sprintf("analysis: THB class %s tallied %d (hole, flop) pairs, want %d", name, t.pairs[k], pairs))
		}
		cont := new(big.Rat).SetFrac(big.NewInt(t.cont[k]), big.NewInt(pairs*thbDenominator))
		bet := cont.Cmp(big.NewRat(-1, 1)) > 0
		share := big.NewRat(int64(combos), 1326)
		if bet {
			ev.Add(ev, new(big.Rat).Mul(share, cont))
			st := new(big.Rat).SetFrac(big.NewInt(t.stakes[k]), big.NewInt(pairs*47*46))
			stakes.Add(stakes, new(big.Rat).Mul(share, st))
			turn.Add(turn, new(big.Rat).Mul(share, big.NewRat(t.turnBets[k], pairs)))
			river.Add(river, new(big.Rat).Mul(share, big.NewRat(t.riverBets[k], pairs*47)))
		} else {
			ev.Sub(ev, share)
			stakes.Add(stakes, share)
			fold.Add(fold, share)
			m.FoldHands = append(m.FoldHands, name)
		}
		rows = append(rows, row{THBHoleDecision{Hand: name, Combos: combos, BetFlop: bet, IfFlopBet: NewExactFraction(cont),
			TurnBetPct: new(big.Rat).SetFrac(big.NewInt(100*t.turnBets[k]), big.NewInt(pairs)).FloatString(2)}, cont})
	}
	slices.SortStableFunc(rows, func(a, b row) int { return b.ev.Cmp(a.ev) })
	for _, r := range rows {
		m.FlopBet = append(m.FlopBet, r.d)
	}
	m.Deals = new(big.Int).Mul(big.NewInt(1326*19600*47*46), big.NewInt(990)).String()
	m.Return = NewExactFraction(ev)
	he := new(big.Rat).Neg(ev)
	m.HouseEdge = NewExactFraction(he)
	m.AverageWager = NewExactFraction(stakes)
	m.ElementOfRisk = NewExactFraction(new(big.Rat).Quo(he, stakes))
	m.FoldRate = NewExactFraction(fold)
	m.TurnBetRate = NewExactFraction(turn)
	m.RiverBetRate = NewExactFraction(river)
	m.TurnRule = "Bet the Turn when, over the turn and river cards still to come and the dealer's unseen hole cards, the player's hand wins more often than it loses (expected wins minus losses above zero); otherwise check."
	m.RiverRule = "Bet the River when, over the river card still to come and the dealer's unseen hole cards, the player's hand wins more often than it loses; otherwise check. (An exact tie in expectation checks.)"
	m.Notes = []string{
		"Every deal counted exactly: flops grouped into 1,755 classes by suit permutation; at each of the 1,176 turn-and-river boards of a flop every dealer holding is ranked once with the service's evaluator.",
		"3.10.2: a winning hand wins the Flop, Turn and River 1 to 1 and the Ante 1 to 1 only with a Straight or better (else the Ante stands off); 3.10.3 a losing hand loses all; 3.10.4 equal hands stand off; the dealer does not qualify. The Bonus and the progressive are separate wagers.",
	}
	return m
}
