package settle

import (
	"strings"

	"github.com/tablesettle/tablesettle/internal/card"
	"github.com/tablesettle/tablesettle/internal/hand"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// progressive settles one progressive (jackpot) wager. The prizes are
// evaluated from the cards (ruling R14):
//
//   - a fixed amount is paid once per wager, not scaled by it, and keeps no
//     stake (ruling R2); the house pays it (ruling R3);
//   - "X for 1" (THB) returns X times the whole stake, which is m times the
//     minimum, so the prize is m times the one-unit prize (3.5.3.1, ruling
//     R17);
//   - "X to 1" (SSP v4) returns the stake plus X times it; several to-1
//     prizes of one wager (a paytable hand, the Magic Card, the Lucky
//     Player or Dealer) each pay their odds and the stake comes back once
//     (ruling R18);
//   - a percentage of the pool is eligibility only (PaidBy pool): its money
//     is the pools service's (ruling R3); the multiplier does not touch it
//     (ruling R17).
//
// It returns the line, and appends the prizes to jackpot.
func (v *round) progressive(p *position, w *ruleset.WagerSpec, stake money.Amount, e *playerEval, d *dealerEval, st *state, jackpot *[]Eligibility) Line {
	rs := v.rs
	c := &rs.Clauses
	declinedFolds := rs.Decisions.DeclinedFolds // RWS 4.3, ruling R8
	var prizesRoom [4]prize                     // a hand, the Magic Card, a Lucky Player or Dealer
	prizes := prizesRoom[:0]

	if w.Hand == ruleset.DealerFiveDealt {
		// SSP v4 dealer-hand jackpot wager (1.1.5, 3.5): the dealer's cards,
		// the Magic Card in the dealer's hand (4.3.1), the Lucky Dealer
		// (4.4.1). Settles whatever the player did with his own hand (R19).
		cat := hand.EvalHand(v.dealer).Category()
		if en, ok := w.Paytable.Lookup(cat); ok {
			prizes = append(prizes, prize{kind: "hand", category: cat, pay: en.Pay, mult: 1, rules: v.cites(en.Rule)})
		}
		if v.hasMagic && contains(v.dealer, v.magic) {
			prizes = append(prizes, v.selection("magic_card", w.Name))
		}
		if v.in.LuckyDealer != nil && *v.in.LuckyDealer {
			prizes = append(prizes, v.selection("lucky_dealer", w.Name))
		}
	} else {
		// The player's jackpot hand. Not counted when the hand was not
		// exposed at MBS (3.10.1, ruling R8, R19); at RWS the hand is
		// deemed folded and counted when its cards are supplied (4.3, R8).
		shown := e.ok && (!st.declined || declinedFolds)
		if shown {
			if en, ok := w.Paytable.Lookup(e.progCat); ok {
				m := 1
				r := v.cites(en.Rule)
				if en.Multiplied {
					m = p.multiplier
					r = append(r, v.cite(rs.MultiplierRule), rulingR17)
				} else if rs.MaxProgressiveMultiplier > 0 {
					r = append(r, v.cite(rs.MultiplierRule), rulingR17)
				}
				prizes = append(prizes, prize{kind: "hand", category: e.progCat, pay: en.Pay, mult: m, rules: r})
			}
			if v.hasMagic && contains(p.cards, v.magic) {
				prizes = append(prizes, v.selection("magic_card", w.Name))
			}
		}
		if len(rs.Selections) > 0 && v.in.LuckyPlayerSeat == p.Seat {
			prizes = append(prizes, v.selection("lucky_player", w.Name))
		}
	}

	paid := c.ProgressivePaid
	switch {
	case !d.qualifies && w.Hand == ruleset.DealerFiveDealt:
		// SSP v4's "No hand" clause for the jackpot (3.12.3) is the player
		// declaring a jackpot hand; the dealer-hand wager (3.5) is paid by
		// its own paytable and selections (4.2, 4.3.1, 4.4.1).
		paid = w.Rule
	case !d.qualifies && c.NoQualifyProgressive != "":
		paid = c.NoQualifyProgressive
	}
	base := v.cites(paid, w.PaytableRule)
	if paid == w.PaytableRule { // THB 4.2 is both
		base = base[:1]
	}
	if len(prizes) > 0 && !paysHand(prizes) {
		// Only an SSP v4 system selection paid (Magic Card 4.3/4.3.1,
		// Lucky Player 4.4, Lucky Dealer 4.4.1, paid under 4.5): the
		// paytable (4.2) paid nothing, nor did the clauses that pay by it
		// (3.12.3, 3.13.3). The line cites the wager (3.5) and the
		// selections' own rules.
		base = v.cites(w.Rule)
	}
	if len(prizes) == 0 {
		if st.declined && w.Hand != ruleset.DealerFiveDealt {
			if declinedFolds {
				// RWS 4.3, ruling R8: no jackpot through the service unless
				// the cards are supplied, and these were not (or make none).
				return Line{Wager: w.Name, Stake: stake, Result: Lose, Rules: v.joined(base, st.foldRules, []string{rulingR14})}
			}
			return Line{Wager: w.Name, Stake: stake, Result: Lose, Rules: v.joined(v.declinedRules(), base)}
		}
		return Line{Wager: w.Name, Stake: stake, Result: Lose, Rules: v.joined(base, []string{rulingR14})}
	}

	l := Line{Wager: w.Name, Stake: stake, Result: Win}
	var rulesRoom [24]string // the line's rules before the repeats go
	rules := append(append(rulesRoom[:0], base...), v.cite(c.ProgressiveExtra))
	if c.ProgressiveExtra == "" {
		rules = rules[:len(rules)-1]
	}
	if st.folded && w.Hand != ruleset.DealerFiveDealt {
		// Ruling R9: a fold keeps progressive eligibility.
		rules = append(rules, st.foldRules...)
		rules = append(rules, rulingR9)
	}
	var returned money.Amount
	stakeBack := false
	var oddsRoom [4]string
	odds := oddsRoom[:0]
	for _, pz := range prizes {
		el := Eligibility{Wager: w.Name, Kind: pz.kind, Prize: pz.pay, Multiplier: pz.mult, Stake: stake, PaidBy: PaidByHouse}
		if pz.kind == "hand" {
			el.Category = pz.category.String()
		}
		switch pz.pay.Kind {
		case ruleset.Fixed:
			// Ruling R2, R22: paid per accepted wager of the pool's unit,
			// which validation made the stake.
			returned += pz.pay.Amount
			el.Rules = v.joined(pz.rules, []string{rulingR2, rulingR3, rulingR22, rulingR14})
		case ruleset.ForOne:
			got, _ := pz.pay.Returned(stake)
			returned += got
			el.Rules = v.joined(pz.rules, []string{rulingR2, rulingR14})
		case ruleset.ToOne:
			win, _ := pz.pay.Winnings(stake)
			returned += win
			stakeBack = true
			el.Rules = v.joined(pz.rules, []string{rulingR2, rulingR14})
		case ruleset.PoolPercent:
			el.PaidBy = PaidByPool
			l.Flags = append(l.Flags, "pool_prize")
			el.Rules = v.joined(pz.rules, []string{rulingR3, rulingR14})
		default:
			el.Rules = v.joined(pz.rules, []string{rulingR14})
		}
		*jackpot = append(*jackpot, el)
		odds = append(odds, pz.pay.String())
		rules = append(rules, pz.rules...)
	}
	if stakeBack {
		returned += stake
	}
	if len(prizes) > 1 {
		rules = append(rules, rulingR18)
	}
	for _, pz := range prizes {
		switch pz.pay.Kind {
		case ruleset.Fixed:
			rules = append(rules, rulingR2, rulingR3, rulingR22)
		case ruleset.PoolPercent:
			rules = append(rules, rulingR3)
		default:
			rules = append(rules, rulingR2)
		}
	}
	rules = append(rules, rulingR14)
	l.Returned = returned
	l.Odds = strings.Join(odds, " + ")
	l.Rules = v.joined(dedup(rules))
	return l
}

// paysHand reports whether a paytable hand is among the prizes.
func paysHand(prizes []prize) bool {
	for i := range prizes {
		if prizes[i].kind == "hand" {
			return true
		}
	}
	return false
}

// prize is one way a jackpot wager wins.
type prize struct {
	kind     string // hand, magic_card, lucky_player, lucky_dealer
	category hand.Category
	pay      ruleset.Pay
	mult     int
	rules    []string
}

// selection is an SSP v4 system selection's prize on wager w (4.3-4.5).
func (v *round) selection(name string, w ruleset.Wager) (pz prize) {
	for _, s := range v.rs.Selections {
		if s.Name == name && s.Wager == w {
			pz.kind, pz.pay, pz.mult = name, s.Pay, 1
			pz.rules = v.cites(s.Rule, s.PayRule, "ruling R13")
			return pz
		}
	}
	return pz
}

func contains(cards []card.Card, c card.Card) bool {
	for _, x := range cards {
		if x == c {
			return true
		}
	}
	return false
}
