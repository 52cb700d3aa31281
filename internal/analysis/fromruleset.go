package analysis

import (
	"fmt"
	"math/big"

	"github.com/tablesettle/tablesettle/internal/hand"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// DefaultUnit is the progressive wager unit the published figures assume
// when none is given: 1.00 of the ruleset's currency (100 minor units). The
// documents state fixed prizes ("$2,000") per wager but not the wager's
// size; a pool's unit is its own setting (ruling R22).
const DefaultUnit = 100

// FromRuleset builds the Spec of a ruleset exactly as the service settles
// it: the paytables of package ruleset and its Bonus classifier.
func FromRuleset(r ruleset.Ruleset, unit int64) (Spec, error) {
	s := Spec{Ruleset: string(r.ID), Game: string(r.Game)}
	cite := r.Cite
	switch r.Game {
	case ruleset.GameStud:
		if err := checkEvenMoney(r, ruleset.Ante); err != nil {
			return s, err
		}
		w, ok := r.Wager(ruleset.Bet)
		if !ok {
			return s, fmt.Errorf("%s: no Bet wager", r.ID)
		}
		var b StudBet
		for _, c := range hand.Categories() {
			e, ok := w.Paytable.Lookup(c)
			if !ok || e.Pay.Kind != ruleset.ToOne {
				return s, fmt.Errorf("%s: the Bet paytable has no 'to 1' line for %s", r.ID, c)
			}
			b[c] = PayOdds{Num: e.Pay.Odds.Num, Den: e.Pay.Odds.Den}
		}
		s.StudBet = &b
		s.StudRule = cite(w.PaytableRule)
		if c, ok := r.Cap(ruleset.Bet); ok {
			s.StudCapNote = fmt.Sprintf("%s caps a BET's winnings per betting box (ruling R11); the figures are per unit staked and leave the cap out: it binds only on a BET large enough that its winnings pass %d minor units.", cite(c.Rule), c.Amount)
		}
	case ruleset.GameThreeCard:
		if err := checkEvenMoney(r, ruleset.Ante); err != nil {
			return s, err
		}
		if err := checkEvenMoney(r, ruleset.Play); err != nil {
			return s, err
		}
		pp, ok := r.Wager(ruleset.PairPlus)
		if !ok {
			return s, fmt.Errorf("%s: no Pair Plus wager", r.ID)
		}
		t, err := table3(pp.Paytable)
		if err != nil {
			return s, fmt.Errorf("%s Pair Plus: %w", r.ID, err)
		}
		s.PairPlus, s.PairPlusRule = t, cite(pp.PaytableRule)
		ab, ok := r.Wager(ruleset.AnteBonus)
		if !ok {
			return s, fmt.Errorf("%s: no Ante Bonus", r.ID)
		}
		if t, err = table3(ab.Paytable); err != nil {
			return s, fmt.Errorf("%s Ante Bonus: %w", r.ID, err)
		}
		s.AnteBonus, s.AnteBonusRule = t, cite(ab.PaytableRule)
		if a, ok := r.Wager(ruleset.Ante); ok {
			s.AntePlayRule = cite(a.PaytableRule)
		}
	case ruleset.GameHoldem:
		bw, ok := r.Wager(ruleset.Bonus)
		if !ok {
			return s, fmt.Errorf("%s: no Bonus wager", r.ID)
		}
		s.Bonus = Table2{}
		for _, e := range bw.Paytable {
			if e.Pay.Kind != ruleset.ToOne {
				return s, fmt.Errorf("%s Bonus: %s is not paid 'to 1'", r.ID, e.Hand)
			}
			s.Bonus[e.Hand] = PayOdds{Num: e.Pay.Odds.Num, Den: e.Pay.Odds.Den}
		}
		s.BonusRule = cite(bw.PaytableRule)
		s.Classify = ruleset.HoleBonusHand
		// The main game's model (thbmain.go) is the document's: the Flop,
		// Turn and River win 1 to 1, the Ante 1 to 1 with a Straight or
		// better (4.1.1).
		for _, w := range []ruleset.Wager{ruleset.Flop, ruleset.Turn, ruleset.River} {
			if err := checkEvenMoney(r, w); err != nil {
				return s, err
			}
		}
		aw, ok := r.Wager(ruleset.Ante)
		if !ok || len(aw.Paytable) != 1 || aw.Paytable[0].Hand != "straight" || !aw.Paytable[0].OrHigher ||
			aw.Paytable[0].Pay.Kind != ruleset.ToOne || aw.Paytable[0].Pay.Odds.Num != aw.Paytable[0].Pay.Odds.Den {
			return s, fmt.Errorf("%s: the analysis assumes the Ante wins 1 to 1 with a Straight or better", r.ID)
		}
		s.HoldemMainRule = cite("3.9-3.10, 4.1.1")
	}
	for _, w := range r.Wagers {
		if !w.Progressive {
			continue
		}
		p, err := progressiveOf(r, w, unit)
		if err != nil {
			return s, err
		}
		s.Progressives = append(s.Progressives, p)
	}
	return s, nil
}

func checkEvenMoney(r ruleset.Ruleset, name ruleset.Wager) error {
	w, ok := r.Wager(name)
	if !ok {
		return fmt.Errorf("%s: no %s wager", r.ID, name)
	}
	e, ok := w.Paytable.Named("win")
	if !ok || e.Pay.Kind != ruleset.ToOne || e.Pay.Odds.Num != e.Pay.Odds.Den {
		return fmt.Errorf("%s: the analysis assumes the %s wins 1 to 1", r.ID, name)
	}
	return nil
}

func table3(p ruleset.Paytable) (Table3, error) {
	t := Table3{}
	for _, c := range categories3 {
		e, ok := p.Lookup3(c)
		if !ok {
			continue
		}
		if e.Pay.Kind != ruleset.ToOne {
			return nil, fmt.Errorf("%s is not paid 'to 1'", c)
		}
		t[c] = PayOdds{Num: e.Pay.Odds.Num, Den: e.Pay.Odds.Den}
	}
	return t, nil
}

var handNotes = map[ruleset.HandSource]string{
	ruleset.FiveDealt:         "the player's five dealt cards",
	ruleset.DealerFiveDealt:   "the dealer's five dealt cards",
	ruleset.ThreeAndCommunity: "the player's three cards and the two community cards, as one five-card hand",
	ruleset.HoleAndFlop:       "the player's two hole cards and the flop, as one five-card hand",
}

func progressiveOf(r ruleset.Ruleset, w ruleset.WagerSpec, unit int64) (Progressive, error) {
	p := Progressive{Wager: string(w.Name), Rule: r.Cite(w.PaytableRule), Unit: unit, HandNote: handNotes[w.Hand]}
	for m := 1; m <= r.MaxProgressiveMultiplier; m++ {
		p.Multiples = append(p.Multiples, int64(m))
	}
	for _, e := range w.Paytable {
		c, ok := e.Category()
		if !ok {
			return p, fmt.Errorf("%s %s: %q is not a hand category", r.ID, w.Name, e.Hand)
		}
		z := Prize{Category: c, Hand: e.Hand, Multiplied: e.Multiplied, Rule: r.Cite(e.Rule)}
		switch e.Pay.Kind {
		case ruleset.ToOne:
			z.Kind, z.Odds = PrizeToOne, PayOdds{Num: e.Pay.Odds.Num, Den: e.Pay.Odds.Den}
		case ruleset.ForOne:
			z.Kind, z.Odds = PrizeForOne, PayOdds{Num: e.Pay.Odds.Num, Den: e.Pay.Odds.Den}
		case ruleset.Fixed:
			z.Kind, z.Amount = PrizeFixed, int64(e.Pay.Amount)
		case ruleset.PoolPercent:
			z.Kind, z.BasisPoints = PrizePercent, int64(e.Pay.BasisPoints)
		default:
			return p, fmt.Errorf("%s %s: unknown pay kind %q", r.ID, w.Name, e.Pay.Kind)
		}
		p.Prizes = append(p.Prizes, z)
	}
	for _, sel := range r.Selections {
		if sel.Wager != w.Name {
			continue
		}
		if sel.Name != "magic_card" {
			p.excluded = append(p.excluded, fmt.Sprintf("%s (%s) is left out: its chance is the number of boxes or dealers the system chooses among, which the document does not fix.", sel.Label, r.Cite(sel.Rule)))
			continue
		}
		p.Selections = append(p.Selections, Selection{
			Name: sel.Name, Odds: PayOdds{Num: sel.Pay.Odds.Num, Den: sel.Pay.Odds.Den},
			Probability: big.NewRat(5, 52),
			Basis:       "the Magic Card is one of the 52 cards drawn uniformly by the jackpot system (ruling R13), so it is among the hand's five cards with probability 5/52, whatever the hand; it pays its own odds and the stake is returned once (ruling R18).",
			Rule:        r.Cite(sel.Rule),
		})
	}
	return p, nil
}
