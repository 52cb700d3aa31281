package settle

import (
	"github.com/tablesettle/tablesettle/internal/card"
	"github.com/tablesettle/tablesettle/internal/hand"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// decision is how one wager settles before its money is counted.
type decision struct {
	result Result
	pay    ruleset.Pay // the price of a win (ToOne)
	rules  []string
	note   string // Line.Note: what the rules leave open
}

// playerEval is a position's evaluated hands.
type playerEval struct {
	ok   bool // the cards make a hand (given, right count)
	v5   hand.Value
	v3   hand.Value3
	best []card.Card
	// prog is the progressive (jackpot) hand: the category and its cards.
	progCat  hand.Category
	progBest []card.Card
}

// state is what the order of play made of a position.
type state struct {
	declined     bool // did not expose the hand (ruling R8)
	folded       bool // folded, explicitly, by ruling R20, or deemed (RWS 5.5, 4.3)
	foldRules    []string
	absentReturn bool // MBS 5.11: hand invalid, Ante (Pair Plus) and progressive returned
	noAnte       bool // a progressive wager without its Ante (5.12.2, RWS 5.4)
	outcome      Outcome
}

func (v *round) evalPlayer(p *position) playerEval {
	rs := v.rs
	var e playerEval
	if len(p.cards) != rs.Hands.PlayerCards {
		return e
	}
	e.ok = true
	switch rs.Game {
	case ruleset.GameThreeCard:
		e.v3 = hand.Eval3(p.cards[0], p.cards[1], p.cards[2])
		e.best = v.sorted(p.cards)
		five := append(append(make([]card.Card, 0, 5), p.cards...), v.community...)
		e.progCat = hand.EvalHand(five).Category()
		e.progBest = v.sorted(five)
	case ruleset.GameHoldem:
		all := append(append(make([]card.Card, 0, 7), p.cards...), v.community...)
		var best [5]card.Card
		e.v5, best = hand.Best(all)
		e.best = v.sorted(best[:])
		// The jackpot hand is exactly the hole cards and the flop (3.9.2, 4.2).
		five := all[:5]
		e.progCat = hand.EvalHand(five).Category()
		e.progBest = v.sorted(five)
	default:
		e.v5 = hand.EvalHand(p.cards)
		e.best = v.sorted(p.cards)
		e.progCat = e.v5.Category()
		e.progBest = e.best
	}
	return e
}

func (v *round) settlePosition(p *position, d *dealerEval, removed bool, irrs *[]Irregularity) PositionResult {
	rs := v.rs
	pr := PositionResult{Seat: p.Seat, Jackpot: []Eligibility{}}
	add := func(l Line) {
		l.Rules = distinct(l.Rules)
		l.Net = l.Returned - l.Stake
		pr.Lines = append(pr.Lines, l)
		pr.Staked += l.Stake
		pr.Net += l.Net
	}
	if removed {
		pr.Outcome = OutcomeRemoved
		rules := v.cites(rs.Clauses.PlayerCount, rulingR12)
		for _, w := range rs.Wagers {
			if st := p.stake(w.Name); st > 0 {
				add(Line{Wager: w.Name, Stake: st, Result: Returned, Returned: st, Rules: rules})
			}
		}
		return pr
	}
	e := v.evalPlayer(p)
	pr.Lines = v.newLines(v.linesRoom(p))
	if e.ok {
		cat := e.v5.Category()
		if rs.Game == ruleset.GameThreeCard {
			cat = e.v3.Category()
		}
		cards, best := formatPair(p.cards, e.best)
		pr.Hand = v.newHand(Hand{Cards: cards, Category: cat.String(), Best: best})
		if rs.Hands.Progressive != rs.Hands.Main {
			progBest := formatCards(e.progBest)
			pr.Progressive = v.newHand(Hand{Cards: progBest, Category: e.progCat.String(), Best: progBest})
		}
	}
	st := v.positionState(p, irrs)
	pr.Outcome = st.outcome

	// Main wagers.
	for _, w := range rs.Wagers {
		if w.Progressive || w.PaidOn != "" {
			continue
		}
		stake := p.stake(w.Name)
		if stake == 0 {
			continue
		}
		settled, excess := v.applyLimits(p, w.Name, stake, irrs)
		dec := v.decide(p, w.Name, &e, d, &st, &pr)
		l := Line{Wager: w.Name, Stake: settled, Result: dec.result, Rules: dec.rules, Note: dec.note}
		switch dec.result {
		case Lose:
		case Push, Returned, Void:
			l.Returned = settled
		case Win:
			win, _ := dec.pay.Winnings(settled)
			l.Odds = dec.pay.String()
			if c, ok := rs.Cap(w.Name); ok && win > c.Amount {
				// RWS 4.1.1, ruling R11: the BET's winnings are capped per
				// betting box; the stake is returned on top.
				win = c.Amount
				l.Flags = append(l.Flags, "capped")
				l.Rules = append(l.Rules, v.cite(c.Rule), rulingR11)
			}
			l.Returned = settled + win
		}
		if l.Stake < v.limits[w.Name].Min {
			l.Flags = append(l.Flags, "under_minimum")
		}
		add(l)
		for _, x := range excess {
			add(x)
		}
		if w.Name == ruleset.Ante && rs.Game == ruleset.GameThreeCard {
			if l, ok := v.anteBonus(p, settled, &e, d, &st); ok {
				add(l)
			}
		}
	}

	// Progressive wagers.
	for _, w := range rs.Wagers {
		if !w.Progressive {
			continue
		}
		stake := p.stake(w.Name)
		if stake == 0 {
			continue
		}
		if st.noAnte {
			rules, note := v.noAnteRules()
			add(Line{Wager: w.Name, Stake: stake, Result: Returned, Returned: stake, Rules: rules, Note: note})
			continue
		}
		if st.absentReturn {
			add(Line{Wager: w.Name, Stake: stake, Result: Returned, Returned: stake, Rules: v.cites(rs.Clauses.Absent)})
			continue
		}
		settled, excess := v.applyLimits(p, w.Name, stake, irrs)
		l := v.progressive(p, &w, settled, &e, d, &st, &pr.Jackpot)
		if l.Stake < v.limits[w.Name].Min {
			l.Flags = append(l.Flags, "under_minimum")
		}
		add(l)
		for _, x := range excess {
			add(x)
		}
	}
	if len(pr.Lines) == 0 {
		pr.Lines = nil // no lines: nil, not the arena's empty slice
	}
	return pr
}

// positionState applies the order of play's decisions: declined, folded,
// absent, a progressive without its Ante.
func (v *round) positionState(p *position, irrs *[]Irregularity) state {
	rs := v.rs
	var st state
	cont := continuation(rs.Game)
	ante, contStake := p.stake(ruleset.Ante), p.stake(cont)
	absentFolds, declinedFolds := rs.Decisions.AbsentFolds, rs.Decisions.DeclinedFolds // RWS 5.5, 4.3

	anteOK := ante > 0 || (rs.Game == ruleset.GameThreeCard && p.stake(ruleset.PairPlus) > 0)
	if !anteOK {
		for _, w := range rs.Wagers {
			if w.Progressive && p.stake(w.Name) > 0 {
				st.noAnte = true
				rules, note := v.noAnteRules()
				msg := "a progressive wager without an accompanying ante is returned"
				if note != "" {
					msg += ": " + note
				}
				*irrs = append(*irrs, Irregularity{Code: "progressive_without_ante", Seat: p.Seat, Wager: w.Name,
					Message: msg, Rules: rules})
			}
		}
	}

	if ante == 0 && p.stake(ruleset.Bonus) > 0 {
		// Ruling R26: returned at the end of the round (3.5, 5.12.2).
		*irrs = append(*irrs, Irregularity{Code: "bonus_without_ante", Seat: p.Seat, Wager: ruleset.Bonus,
			Message: "a Bonus wager without an Ante is returned at the end of the round",
			Rules:   v.cites(rs.Clauses.SideWagers, rs.Clauses.NoAnte, rulingR26)})
	}
	st.declined = !p.IsExposed()
	switch {
	case p.Absent && ante > 0 && contStake == 0 && !absentFolds:
		// MBS 5.11: the hand is invalid; Ante (TCP: and Pair Plus) and
		// progressive returned.
		st.absentReturn = true
		st.outcome = OutcomeAbsent
		*irrs = append(*irrs, Irregularity{Code: "absent_player", Seat: p.Seat,
			Message: "the player was not present for the " + string(cont) + " decision: the hand is invalid",
			Rules:   v.cites(rs.Clauses.Absent)})
		return st
	case p.Absent && contStake == 0 && absentFolds && ante > 0:
		// RWS 5.5: deemed to have folded.
		st.folded = true
		st.foldRules = v.cites(rs.Clauses.Absent, rs.Clauses.Fold)
		*irrs = append(*irrs, Irregularity{Code: "absent_player", Seat: p.Seat,
			Message: "the player walked away with the BET decision to make: deemed folded", Rules: st.foldRules})
	case p.Absent && absentFolds:
		*irrs = append(*irrs, Irregularity{Code: "absent_player", Seat: p.Seat,
			Message: "the player walked away with no decision left: the bets settle as usual", Rules: v.cites(rs.Clauses.AbsentSettled)})
	case p.Absent && rs.Game == ruleset.GameHoldem && contStake > 0 && (p.stake(ruleset.Turn) == 0 || p.stake(ruleset.River) == 0):
		*irrs = append(*irrs, Irregularity{Code: "absent_player", Seat: p.Seat,
			Message: "the player was not present for the Turn/River decision: deemed to have checked", Rules: v.cites(rs.Clauses.Absent)})
	case p.Absent:
		// MBS: 5.11 invalidates a hand only when the Bet (Play, Flop)
		// decision is pending, and THB 5.11 deems a check only when a Turn
		// or River is; this player had no decision left (the continuation
		// placed, or TCP Pair Plus only, 3.9.3). The wagers settle as
		// usual, and the absence is still reported (ruling R12), as RWS
		// 5.6 reports it. SSP v4 has no absent-player clause: the ruling
		// alone.
		rules := v.cites(rs.Clauses.Absent)
		msg := "the player was not present, with no decision left to make: the wagers settle as usual"
		if rs.Clauses.Absent != "" {
			msg = "the player was not present, with no decision left to make (" + v.cite(rs.Clauses.Absent) +
				" applies to a pending " + string(cont) + " decision): the wagers settle as usual"
		}
		if ante == 0 && rs.Game == ruleset.GameThreeCard && p.stake(ruleset.PairPlus) > 0 {
			rules = append(rules, v.cite(rs.Clauses.PairPlusOnly))
		}
		*irrs = append(*irrs, Irregularity{Code: "absent_player", Seat: p.Seat, Message: msg, Rules: append(rules, rulingR12)})
	}
	switch {
	case st.folded:
	case st.declined && declinedFolds:
		// RWS 4.3, ruling R8: refusing to reveal the cards is a fold.
		st.folded = true
		st.foldRules = v.cites(rs.Clauses.Declined, rulingR8)
	case p.Folded:
		st.folded = true
		st.foldRules = v.cites(rs.Clauses.Fold)
	case ante > 0 && contStake == 0:
		// Ruling R20: an Ante with no continuation wager has folded.
		st.folded = true
		st.foldRules = v.cites(rs.Clauses.Fold, rulingR20)
	}
	switch {
	case st.declined && !declinedFolds:
		st.outcome = OutcomeDeclined
	case st.folded:
		st.outcome = OutcomeFolded
	case ante == 0:
		st.outcome = OutcomeNoContest
	}
	return st
}

// noAnteRules are the rules of a progressive wager returned for want of
// its Ante: the clause that says so (MBS 5.12.2, TCP/THB 5.12.2, RWS 5.4).
// SSP v4 has none: its 3.5 places a jackpot wager after an Ante and says
// nothing of one without; the wager is returned as MBS 5.12.2 and RWS 5.4
// prescribe, under ruling R25, and the note says the document is silent.
func (v *round) noAnteRules() ([]string, string) {
	c := v.rs.Clauses
	if c.NoAnte != "" {
		return v.cites(c.NoAnte), ""
	}
	return v.cites(c.SideWagers, rulingR25), "document silent: " + v.cite(c.SideWagers) +
		" places a jackpot wager after an Ante and has no clause for one without; returned as MBS 5.12.2 and RWS 5.4 do (ruling R25)"
}

// declinedRules: MBS 3.10.1 (SSP v4 has no such clause: ruling R8) and
// ruling R19.
func (v *round) declinedRules() []string {
	if v.rs.Clauses.Declined == "" {
		return v.cites(rulingR8, rulingR19)
	}
	return v.cites(v.rs.Clauses.Declined, rulingR19)
}

// decide settles one main wager: Ante, Bet, Play, Pair Plus, Bonus, Flop,
// Turn, River.
func (v *round) decide(p *position, w ruleset.Wager, e *playerEval, d *dealerEval, st *state, pr *PositionResult) decision {
	rs := v.rs
	c := &rs.Clauses
	spec, _ := rs.Wager(w)

	// Wagers that settle on the player's cards whatever the comparison.
	switch w {
	case ruleset.PairPlus:
		// TCP 3.11.4 / 3.12.5, ruling R10: on the player's three cards,
		// fold included; R19: lost when the cards are not shown; 5.11:
		// returned with an absent player's hand.
		if st.absentReturn {
			return decision{result: Returned, rules: v.cites(c.Absent)}
		}
		if st.declined {
			return decision{result: Lose, rules: v.declinedRules()}
		}
		clause := c.PairPlusQualify
		if !d.qualifies {
			clause = c.PairPlusNoQualify
		}
		rules := v.cites(clause, spec.PaytableRule, rulingR10)
		if st.folded {
			rules = append(rules, v.cite(c.PairPlusFold))
		}
		if p.stake(ruleset.Ante) == 0 {
			rules = append(rules, v.cite(c.PairPlusOnly))
		}
		if en, ok := spec.Paytable.Lookup3(e.v3.Category()); ok {
			return decision{result: Win, pay: en.Pay, rules: rules}
		}
		return decision{result: Lose, rules: rules}
	case ruleset.Bonus:
		// Ruling R26: a Bonus without an Ante (3.5 places it after the
		// Ante) is returned at the end of the round, as 5.12.2 returns a
		// Progressive without an Ante.
		if p.stake(ruleset.Ante) == 0 {
			return decision{result: Returned, rules: v.cites(c.SideWagers, c.NoAnte, rulingR26)}
		}
		// THB 4.1.1, ruling R16: on the hole cards whatever the outcome;
		// lost on a fold (3.9.1) or when the cards are not shown (R19).
		if st.declined {
			return decision{result: Lose, rules: v.declinedRules()}
		}
		if st.folded {
			return decision{result: Lose, rules: append(append([]string{}, st.foldRules...), rulingR16)}
		}
		rules := v.cites(spec.PaytableRule, rulingR16)
		note := ""
		if st.absentReturn {
			// THB 5.11 makes an absent player's hand invalid and returns
			// "the Ante and Progressive Jackpot wager": it names no Bonus
			// (TCP 5.11, by contrast, names its Pair Plus). The Bonus is
			// decided by the hole cards alone, whatever the hand's outcome,
			// and is lost only on a fold (1.1.3, 4.1, 3.9.1, ruling R16);
			// an absent player has not folded (5.11 does not deem it). So
			// it settles on the hole cards, and the line cites both the
			// clause that invalidated the hand and the ruling that keeps
			// the Bonus standing.
			rules = v.cites(c.Absent, spec.PaytableRule, rulingR16, rulingR26)
			note = v.cite(c.Absent) + " returns the Ante and progressive only; the Bonus settles on the hole cards (ruling R16, R26)"
		}
		if name := ruleset.HoleBonusHand(p.cards, v.dealer); name != "" {
			en, _ := spec.Paytable.Named(name)
			return decision{result: Win, pay: en.Pay, rules: rules, note: note}
		}
		return decision{result: Lose, rules: rules, note: note}
	}

	// Wagers the comparison decides.
	switch {
	case st.absentReturn:
		return decision{result: Returned, rules: v.cites(c.Absent)}
	case st.declined && !rs.Decisions.DeclinedFolds:
		return decision{result: Lose, rules: v.declinedRules()}
	case st.folded:
		// Only the Ante can be on a folded hand (validation refuses a
		// continuation wager with a fold), except at RWS, where a hand not
		// shown or left behind is deemed folded with its BET.
		return decision{result: Lose, rules: st.foldRules}
	}

	if rs.Game != ruleset.GameHoldem && !d.qualifies {
		pr.Outcome = OutcomeNoHand
		// The dealer does not qualify: the Ante is paid, the Bet/Play
		// returned (SSP 3.10.2, TCP 3.11 with ruling R10, RWS 3.13).
		if w == ruleset.Ante {
			return decision{result: Win, pay: spec.Paytable[0].Pay, rules: v.cites(c.NoQualifyAnte, spec.PaytableRule)}
		}
		rules := v.cites(c.NoQualifyBet)
		if rs.Game == ruleset.GameThreeCard {
			rules = append(rules, rulingR10)
		}
		return decision{result: Returned, rules: rules}
	}

	cmp, ties := v.compare(e, d)
	tie := ties.rules()
	switch {
	case cmp > 0:
		pr.Outcome = OutcomeWin
		rules := v.citesThen(tie, c.Win, spec.PaytableRule)
		switch {
		case rs.Game == ruleset.GameHoldem && w == ruleset.Ante:
			// THB 3.10.2: the Ante wins on a Straight or better, else push.
			if en, ok := spec.Paytable.Lookup(e.v5.Category()); ok {
				return decision{result: Win, pay: en.Pay, rules: rules}
			}
			return decision{result: Push, rules: v.citesThen(tie, c.Win)}
		case w == ruleset.Bet:
			en, _ := spec.Paytable.Lookup(e.v5.Category())
			return decision{result: Win, pay: en.Pay, rules: rules}
		}
		return decision{result: Win, pay: spec.Paytable[0].Pay, rules: rules}
	case cmp < 0:
		pr.Outcome = OutcomeLose
		return decision{result: Lose, rules: v.citesThen(tie, c.Lose)}
	}
	pr.Outcome = OutcomeStandOff
	return decision{result: Push, rules: v.citesThen(tie, c.StandOff)}
}

// ties are the tie-break clauses that decided a comparison (one or two),
// held by value: they are copied into the line's rules.
type ties struct {
	s [2]string
	n int
}

func (t *ties) add(rule string) {
	t.s[t.n] = rule
	t.n++
}

// rules are the clauses, each once.
func (t *ties) rules() []string {
	if t.n == 2 && t.s[0] == t.s[1] {
		return t.s[:1]
	}
	return t.s[:t.n]
}

// compare ranks the player's main hand against the dealer's, and returns
// the tie-break clauses that decided it when the two are of the same order
// of hands (3.12 and its kin).
func (v *round) compare(e *playerEval, d *dealerEval) (int, ties) {
	c := v.rs.Clauses
	var cmp int
	var pc, dc hand.Category
	if v.rs.Game == ruleset.GameThreeCard {
		pc, dc = e.v3.Category(), d.v3.Category()
		switch {
		case e.v3 > d.v3:
			cmp = 1
		case e.v3 < d.v3:
			cmp = -1
		}
	} else {
		pc, dc = e.v5.Category(), d.v5.Category()
		switch {
		case e.v5 > d.v5:
			cmp = 1
		case e.v5 < d.v5:
			cmp = -1
		}
	}
	var rules ties
	if pc != dc {
		return cmp, rules
	}
	pick := func(specific string) {
		if specific != "" {
			rules.add(v.cite(specific))
		} else {
			rules.add(v.cite(c.TieBreak))
		}
	}
	switch pc {
	case hand.TwoPair:
		pick(c.TieTwoPairs)
	case hand.OnePair:
		pick(c.TieOnePair)
	case hand.FullHouse:
		pick(c.TieFullHouse)
	case hand.Straight, hand.StraightFlush:
		if cmp == 0 {
			pick(c.TieSameStraight)
		} else if v.isWheel(e.best) || v.isWheel(d.best) {
			pick(c.TieWheel)
		} else {
			pick("")
		}
	default:
		pick("")
	}
	if cmp == 0 && c.TieSame != "" {
		rules.add(v.cite(c.TieSame))
	}
	return cmp, rules
}

// isWheel reports whether a straight is the lowest one: A-2-3-4-5 (TCP:
// A-2-3), where the Ace counts as 1 (3.3.1.2).
func (v *round) isWheel(best []card.Card) bool {
	low := card.Five
	if v.rs.Game == ruleset.GameThreeCard {
		low = card.Three
	}
	var ace, top bool
	for _, c := range best {
		switch c.Rank() {
		case card.Ace:
			ace = true
		case low:
			top = true
		}
	}
	return ace && top
}

// distinct returns s without repeated rules, in order: s itself when
// nothing repeats, else a new slice (s may be shared with other lines).
func distinct(s []string) []string {
	for i, x := range s {
		for _, y := range s[:i] {
			if x == y {
				return dedup(append([]string(nil), s...))
			}
		}
	}
	return s
}

func dedup(s []string) []string {
	out := s[:0]
	for i, x := range s {
		dup := false
		for _, y := range s[:i] {
			if x == y {
				dup = true
			}
		}
		if !dup {
			out = append(out, x)
		}
	}
	return out
}

// anteBonus is TCP's Ante Bonus (4.2): paid on the Ante whatever the
// dealer holds (3.11.3, 3.12.4) to a player who placed Play (ruling R10),
// on a Straight or better. It is a line of its own with stake 0: the Ante's
// stake is already on the Ante's line.
func (v *round) anteBonus(p *position, ante money.Amount, e *playerEval, d *dealerEval, st *state) (Line, bool) {
	rs := v.rs
	if st.declined || st.folded || st.absentReturn || p.stake(ruleset.Play) == 0 || !e.ok {
		return Line{}, false
	}
	spec, _ := rs.Wager(ruleset.AnteBonus)
	en, ok := spec.Paytable.Lookup3(e.v3.Category())
	if !ok {
		return Line{}, false
	}
	clause := rs.Clauses.AnteBonusQualify
	if !d.qualifies {
		clause = rs.Clauses.AnteBonusNoQualify
	}
	win, _ := en.Pay.Winnings(ante)
	return Line{Wager: ruleset.AnteBonus, Stake: 0, Result: Win, Returned: win, Odds: en.Pay.String(),
		Rules: v.cites(clause, spec.PaytableRule, rulingR10)}, true
}

// applyLimits applies the table limits (ruling R11, MBS 5.13-5.14, RWS
// 5.1-5.2) and RWS 5.3 to a wager: it returns the amount that settles and
// the lines returning any excess.
func (v *round) applyLimits(p *position, w ruleset.Wager, stake money.Amount, irrs *[]Irregularity) (money.Amount, []Line) {
	rs := v.rs
	var extra []Line
	settled := stake
	if w == ruleset.Bet {
		if spec, _ := rs.Wager(ruleset.Bet); !spec.Multiple.Fixed {
			// RWS 5.3: a BET above twice the Ante returns the excess and
			// settles at twice the Ante; below it settles on its own amount.
			//
			// The Ante is the one placed, not the one the table maximum
			// settles (ruling R11, 5.1.1): 1.3 and 3.12.2 define the BET as
			// twice "the Player's Ante", the wager on the layout, and 5.1.1
			// says how an over-maximum wager is paid, not that the Ante
			// becomes smaller; a BET over its own maximum is cut by
			// limits.bet below. MBS does the same through ruling R20
			// (validation compares the Bet with the Ante placed) and 5.14.
			// TestBetComparedWithAnteAsPlaced pins it.
			twice := 2 * p.stake(ruleset.Ante)
			if settled > twice {
				extra = append(extra, Line{Wager: w, Stake: settled - twice, Result: Returned, Returned: settled - twice,
					Rules: v.cites(spec.Multiple.Rule+".1", rulingR11)})
				*irrs = append(*irrs, Irregularity{Code: "bet_not_twice_ante", Seat: p.Seat, Wager: w,
					Message: "the BET is more than twice the Ante: the excess is returned", Rules: v.cites(spec.Multiple.Rule+".1", rulingR11)})
				settled = twice
			} else if settled < twice {
				*irrs = append(*irrs, Irregularity{Code: "bet_not_twice_ante", Seat: p.Seat, Wager: w,
					Message: "the BET is less than twice the Ante: it settles on its own amount", Rules: v.cites(spec.Multiple.Rule+".2", rulingR11)})
			}
		}
	}
	l, ok := v.limits[w]
	if !ok {
		return settled, extra
	}
	if l.Max > 0 && settled > l.Max {
		excess := settled - l.Max
		extra = append(extra, Line{Wager: w, Stake: excess, Result: Returned, Returned: excess,
			Rules: v.cites(rs.Clauses.OverMax, rulingR11)})
		*irrs = append(*irrs, Irregularity{Code: "over_maximum", Seat: p.Seat, Wager: w,
			Message: "the wager is over the table maximum: it settles as the maximum and the excess is returned",
			Rules:   v.cites(rs.Clauses.OverMax, rulingR11)})
		settled = l.Max
	}
	if settled < l.Min {
		*irrs = append(*irrs, Irregularity{Code: "under_minimum", Seat: p.Seat, Wager: w,
			Message: "the wager is under the table minimum: it settles once; the table should refuse the player's next under-minimum wager",
			Rules:   v.cites(rs.Clauses.UnderMin, rulingR11)})
	}
	return settled, extra
}
