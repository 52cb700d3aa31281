package analysis

import (
	"fmt"
	"math/big"

	"sort"
	"strings"

	"github.com/tablesettle/tablesettle/internal/card"
	"github.com/tablesettle/tablesettle/internal/hand"
)

// Three Card Poker deals: the player's three cards (C(52,3) = 22,100) and
// the dealer's three from the other 49 (C(49,3) = 18,424).
const (
	Hands3                = 22100
	tcpCompletions        = 18424
	TCPDeals       uint64 = Hands3 * tcpCompletions
)

// Table3 is a three-card paytable: the odds by the hand's category (TCP v6
// 4.2 Ante Bonus, 4.3 Pair Plus). A category not in the table loses.
type Table3 map[hand.Category]PayOdds

// Validate reports the first unusable line.
func (t Table3) Validate() error {
	for c, o := range t {
		switch c {
		case hand.StraightFlush, hand.ThreeOfAKind, hand.Straight, hand.Flush, hand.OnePair, hand.HighCard:
		default:
			return fmt.Errorf("%s is not a three-card hand (TCP v6 3.14)", c)
		}
		if !o.Valid() {
			return fmt.Errorf("the odds for %s (%d to %d) must have 0 <= num <= %d and 0 < den <= %d", c, o.Num, o.Den, MaxOddsTerm, MaxOddsTerm)
		}
	}
	return nil
}

// categories3 are the three-card categories, highest first (TCP v6 3.14).
var categories3 = []hand.Category{hand.StraightFlush, hand.ThreeOfAKind, hand.Straight, hand.Flush, hand.OnePair, hand.HighCard}

type hand3 struct {
	cards [3]card.Card
	mask  uint64
	v     hand.Value3
}

// tcpEngine holds the paytable-independent counts of Three Card Poker: for
// every class of player hand under suit permutations, how its 18,424
// dealer hands fall.
type tcpEngine struct {
	all     []hand3
	classes []tcpClass
	qualify uint64 // dealer hands (of 22,100) that qualify
}

type tcpClass struct {
	rep    hand3
	weight uint64
	c      studCounts // nq, win, tie, lose over 18,424 dealer hands
}

func newTCPEngine() *tcpEngine {
	e := &tcpEngine{}
	for a := 0; a < 52; a++ {
		for b := a + 1; b < 52; b++ {
			for c := b + 1; c < 52; c++ {
				h := hand3{cards: [3]card.Card{card.Card(a), card.Card(b), card.Card(c)},
					mask: 1<<a | 1<<b | 1<<c}
				h.v = hand.Eval3(h.cards[0], h.cards[1], h.cards[2])
				if hand.QualifiesTCP(h.v) {
					e.qualify++
				}
				e.all = append(e.all, h)
			}
		}
	}
	idx := map[uint64]int{}
	for _, h := range e.all {
		var m [4]uint16
		for _, c := range h.cards {
			m[c.Suit()] |= 1 << (c.Rank() - 2)
		}
		sort.Slice(m[:], func(i, j int) bool { return m[i] > m[j] })
		key := uint64(m[0])<<39 | uint64(m[1])<<26 | uint64(m[2])<<13 | uint64(m[3])
		if i, ok := idx[key]; ok {
			e.classes[i].weight++
			continue
		}
		idx[key] = len(e.classes)
		e.classes = append(e.classes, tcpClass{rep: h, weight: 1})
	}
	for i := range e.classes {
		cl := &e.classes[i]
		for _, d := range e.all {
			if d.mask&cl.rep.mask != 0 {
				continue
			}
			switch {
			case !hand.QualifiesTCP(d.v):
				cl.c.nq++ // 3.11: Ante paid, Play returned (ruling R10)
			case d.v < cl.rep.v:
				cl.c.win++ // 3.12.1
			case d.v == cl.rep.v:
				cl.c.tie++ // 3.12.3
			default:
				cl.c.lose++ // 3.12.2
			}
		}
	}
	return e
}

// OutcomeFrequency is one outcome of a wager: how many of the equally likely
// deals end in it, its probability, what it pays, and its part of the
// return.
type OutcomeFrequency struct {
	Outcome      string        `json:"outcome" doc:"The hand or event, e.g. straight_flush."`
	Count        uint64        `json:"count" doc:"Equally likely deals ending in this outcome."`
	Probability  ExactFraction `json:"probability"`
	Pays         string        `json:"pays" doc:"What the outcome pays, e.g. \"40 to 1\"; \"loses\" for a lost stake."`
	Contribution ExactFraction `json:"contribution" doc:"probability x net result per unit staked."`
	Rule         string        `json:"rule,omitempty"`
}

// WagerReturn is the exact return of one fixed-odds wager.
type WagerReturn struct {
	Wager     string             `json:"wager"`
	Rule      string             `json:"rule"`
	Deals     uint64             `json:"deals" doc:"The equally likely deals enumerated."`
	Outcomes  []OutcomeFrequency `json:"outcomes"`
	Return    ExactFraction      `json:"returnToPlayer" doc:"What a unit staked returns on average, stake included."`
	HouseEdge ExactFraction      `json:"houseEdge" doc:"1 - returnToPlayer."`
	Notes     []string           `json:"notes,omitempty"`
}

// oddsReturn builds a WagerReturn from per-outcome counts: each outcome pays
// its odds ("to 1", stake returned), the rest lose the stake.
func oddsReturn(wager, rule string, deals uint64, names []string, counts []uint64, odds []*PayOdds) WagerReturn {
	w := WagerReturn{Wager: wager, Rule: rule, Deals: deals}
	net := new(big.Rat)
	for i, name := range names {
		p := ratioU(counts[i], deals)
		o := OutcomeFrequency{Outcome: name, Count: counts[i], Probability: NewExactFraction(p), Rule: rule}
		per := big.NewRat(-1, 1)
		o.Pays = "loses"
		if odds[i] != nil {
			per = odds[i].Rat()
			o.Pays = odds[i].String()
		}
		c := new(big.Rat).Mul(p, per)
		o.Contribution = NewExactFraction(c)
		net.Add(net, c)
		w.Outcomes = append(w.Outcomes, o)
	}
	w.Return = NewExactFraction(new(big.Rat).Add(big.NewRat(1, 1), net))
	w.HouseEdge = NewExactFraction(new(big.Rat).Neg(net))
	return w
}

// categoryCounts3 counts the 22,100 three-card hands by category.
func (e *tcpEngine) categoryCounts3() map[hand.Category]uint64 {
	out := map[hand.Category]uint64{}
	for _, h := range e.all {
		out[h.v.Category()]++
	}
	return out
}

// PairPlus is the Pair Plus return (TCP v6 4.3; it settles on the player's
// three cards whatever else happens, ruling R10).
func (e *tcpEngine) PairPlus(t Table3, rule string) WagerReturn {
	counts := e.categoryCounts3()
	var names []string
	var cs []uint64
	var odds []*PayOdds
	for _, c := range categories3 {
		names = append(names, c.String())
		cs = append(cs, counts[c])
		if o, ok := t[c]; ok {
			odds = append(odds, &o)
		} else {
			odds = append(odds, nil)
		}
	}
	return oddsReturn("pair_plus", rule, Hands3, names, cs, odds)
}

// TCPAntePlay is the Ante and Play together under the optimal play/fold
// decision, with the Ante Bonus (paid only to a hand that plays, ruling
// R10).
type TCPAntePlay struct {
	Rule          string             `json:"rule"`
	OptimalRule   string             `json:"optimalRule" doc:"The play/fold rule the enumeration finds."`
	LowestPlayed  string             `json:"lowestPlayed" doc:"The lowest hand the optimal strategy plays, ranks high to low."`
	Deals         uint64             `json:"deals"`
	Outcomes      []OutcomeFrequency `json:"outcomes"`
	Return        ExactFraction      `json:"expectedReturn" doc:"Expected net result per Ante, Ante Bonus included."`
	HouseEdge     ExactFraction      `json:"houseEdge" doc:"Minus expectedReturn."`
	ElementOfRisk ExactFraction      `json:"elementOfRisk" doc:"House edge over the average total wager (Ante + Play when playing)."`
	PlayRate      ExactFraction      `json:"playProbability"`
	AnteBonus     ExactFraction      `json:"anteBonusContribution" doc:"The Ante Bonus part of expectedReturn, per Ante."`
	AnteBonusLine []OutcomeFrequency `json:"anteBonus" doc:"The Ante Bonus outcomes, per Ante (paid to hands that play)."`
}

// AntePlay analyses the Ante and Play with the given Ante Bonus table.
func (e *tcpEngine) AntePlay(bonus Table3, rule, bonusRule string) TCPAntePlay {
	var fold, nq, win, tie, lose, plays uint64
	bonusCount := map[hand.Category]uint64{}
	lowest := -1
	highestFold := -1
	for i := range e.classes {
		cl := &e.classes[i]
		cat := cl.rep.v.Category()
		// play iff D*(nq + 2 win - 2 lose + C) + C*N > 0 (fold loses 1 Ante)
		lhs := cl.c.nq + 2*cl.c.win - 2*cl.c.lose + tcpCompletions
		play := false
		if o, ok := bonus[cat]; ok {
			play = o.Den*lhs+tcpCompletions*o.Num > 0
		} else {
			play = lhs > 0
		}
		w := cl.weight
		if !play {
			fold += w * tcpCompletions
			if highestFold < 0 || cl.rep.v > e.classes[highestFold].rep.v {
				highestFold = i
			}
			continue
		}
		if lowest < 0 || cl.rep.v < e.classes[lowest].rep.v {
			lowest = i
		}
		plays += w
		nq += w * uint64(cl.c.nq)
		win += w * uint64(cl.c.win)
		tie += w * uint64(cl.c.tie)
		lose += w * uint64(cl.c.lose)
		if _, ok := bonus[cat]; ok {
			bonusCount[cat] += w
		}
	}
	r := TCPAntePlay{Rule: rule, Deals: TCPDeals}
	deals := TCPDeals
	net := new(big.Rat)
	add := func(name string, n uint64, per *big.Rat, pays, rl string) {
		p := ratioU(n, deals)
		c := new(big.Rat).Mul(p, per)
		net.Add(net, c)
		r.Outcomes = append(r.Outcomes, OutcomeFrequency{Outcome: name, Count: n, Probability: NewExactFraction(p), Pays: pays, Contribution: NewExactFraction(c), Rule: rl})
	}
	add("fold", fold, big.NewRat(-1, 1), "Ante loses", "3.9.1")
	add("dealer_does_not_qualify", nq, big.NewRat(1, 1), "Ante 1 to 1, Play returned", "3.11")
	add("player_wins", win, big.NewRat(2, 1), "Ante and Play 1 to 1", "3.12.1")
	add("stand_off", tie, new(big.Rat), "stand-off", "3.12.3")
	add("dealer_wins", lose, big.NewRat(-2, 1), "Ante and Play lose", "3.12.2")
	bonusNet := new(big.Rat)
	for _, c := range categories3 {
		o, ok := bonus[c]
		if !ok {
			continue
		}
		p := ratioU(bonusCount[c], Hands3)
		v := new(big.Rat).Mul(p, o.Rat())
		bonusNet.Add(bonusNet, v)
		r.AnteBonusLine = append(r.AnteBonusLine, OutcomeFrequency{Outcome: c.String(), Count: bonusCount[c], Probability: NewExactFraction(p), Pays: o.String(), Contribution: NewExactFraction(v), Rule: bonusRule})
	}
	ret := new(big.Rat).Add(net, bonusNet)
	edge := new(big.Rat).Neg(ret)
	rate := ratioU(plays, Hands3)
	r.Return = NewExactFraction(ret)
	r.HouseEdge = NewExactFraction(edge)
	r.ElementOfRisk = NewExactFraction(new(big.Rat).Quo(edge, new(big.Rat).Add(big.NewRat(1, 1), rate)))
	r.PlayRate = NewExactFraction(rate)
	r.AnteBonus = NewExactFraction(bonusNet)
	if lowest >= 0 {
		r.LowestPlayed = ranks3(e.classes[lowest].rep)
		if highestFold < 0 || e.classes[highestFold].rep.v < e.classes[lowest].rep.v {
			r.OptimalRule = "play " + r.LowestPlayed + " or better, fold anything lower"
		} else {
			r.OptimalRule = fmt.Sprintf("no single threshold: the lowest hand played is %s, the highest folded %s", r.LowestPlayed, ranks3(e.classes[highestFold].rep))
		}
	} else {
		r.OptimalRule = "fold every hand"
	}
	return r
}

// ranks3 prints a hand's ranks high to low, e.g. "Q-6-4".
func ranks3(h hand3) string {
	rs := []int{int(h.cards[0].Rank()), int(h.cards[1].Rank()), int(h.cards[2].Rank())}
	sort.Sort(sort.Reverse(sort.IntSlice(rs)))
	var parts []string
	for _, r := range rs {
		s := card.Rank(r).String()
		if s == "T" {
			s = "10"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "-")
}

// dealerQualifies3 is the probability the dealer's three cards qualify
// (TCP v6 3.11, ruling R15).
func (e *tcpEngine) dealerQualifies() ExactFraction {
	return NewExactFraction(ratioU(e.qualify, Hands3))
}
