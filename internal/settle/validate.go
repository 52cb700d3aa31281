package settle

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/tablesettle/tablesettle/internal/card"
	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// MaxAmount is the largest amount a wager or a limit may carry, in minor
// units (10,000,000,000.00 of a two-digit currency). Anything larger is an
// absurd amount and refused; the bound also keeps every payment (at most
// 1000 to 1 on seven positions) far inside int64.
const MaxAmount money.Amount = 1_000_000_000_000

// fieldErr is a request settlement refuses: a *fault.Error of kind
// Invalid naming the field at fault as a path below the request body
// ("positions[2].wagers.bet"). The HTTP layer places it under "body".
func fieldErr(field string, value any, format string, args ...any) *fault.Error {
	return fault.InvalidField(field, value, format, args...)
}

// round is a validated Round.
type round struct {
	rs        *ruleset.Ruleset // shared: never modified
	citer     ruleset.Citer    // rs.Cite, its table looked up once
	in        *Round
	currency  money.Currency
	dealer    []card.Card
	community []card.Card
	limits    map[ruleset.Wager]Limit
	magic     card.Card
	hasMagic  bool
	pos       []position // sorted by seat
	// Arenas: what the positions of a settlement need, allocated once per
	// round, not once per position or line (see arena.go).
	citeArena []string
	cardArena []card.Card
	hands     []Hand
	lines     []Line
}

// position is a validated Position.
type position struct {
	*Position
	idx   int // index in the request's positions, for field names
	cards []card.Card
	// stakes are the wagers placed (a few: a slice searched in order
	// costs less than a map to build).
	stakes []wagerStake
	// multiplier is THB's progressive multiplier, 1 elsewhere.
	multiplier int
}

// folds reports whether the hand has folded: explicitly, by ruling R20 (an
// Ante with no continuation wager), or by RWS 5.5 (walked away with the
// BET decision to make).
func (p *position) folds(rs *ruleset.Ruleset) bool {
	if p.Folded {
		return true
	}
	if p.stake(ruleset.Ante) == 0 || p.stake(continuation(rs.Game)) > 0 {
		return false
	}
	return !p.Absent || rs.Decisions.AbsentFolds
}

// absentReturned reports whether the hand is the invalid hand of an MBS
// player absent at the Bet (Play, Flop) decision: 5.11 returns the Ante
// (TCP: and Pair Plus) and the progressive whatever the cards, so the
// cards decide nothing and may be left out, unless a THB Bonus is placed
// (it still settles on the hole cards, ruling R16). RWS deems a fold
// instead (5.5) and SSP v4 has no such clause.
func (p *position) absentReturned(rs *ruleset.Ruleset) bool {
	return p.Absent && !rs.Decisions.AbsentFolds && rs.Clauses.Absent != "" &&
		p.stake(ruleset.Ante) > 0 && p.stake(continuation(rs.Game)) == 0
}

// cardless reports whether the hand may come without its cards: not
// exposed (ruling R8), folded (ruling R14) or invalidated by an MBS
// absence (5.11). Validation refuses it when a wager still needs them.
func (p *position) cardless(rs *ruleset.Ruleset) bool {
	return !p.IsExposed() || p.folds(rs) || p.absentReturned(rs)
}

// f names a field of the position: f(".seat") is "positions[2].seat".
func (p *position) f(suffix string) string {
	return "positions[" + strconv.Itoa(p.idx) + "]" + suffix
}

func (p *position) wagerField(name string) string { return p.f(".wagers." + name) }

func (p *position) wagerErr(w ruleset.Wager, value any, format string, args ...any) *fault.Error {
	return fieldErr(p.wagerField(string(w)), value, format, args...)
}

func (p *position) stake(w ruleset.Wager) money.Amount {
	for i := range p.stakes {
		if p.stakes[i].wager == w {
			return p.stakes[i].amount
		}
	}
	return 0
}

// wagerStake is one wager placed on a position.
type wagerStake struct {
	wager  ruleset.Wager
	amount money.Amount
}

// continuation is the wager that keeps a hand in play (ruling R20): Bet,
// Play or Flop.
func continuation(g ruleset.Game) ruleset.Wager {
	switch g {
	case ruleset.GameThreeCard:
		return ruleset.Play
	case ruleset.GameHoldem:
		return ruleset.Flop
	}
	return ruleset.Bet
}

func validate(cat ruleset.Catalogue, r *Round) (*round, error) {
	rs, ok := cat.Lookup(ruleset.ID(r.Ruleset)) // read only, never modified
	if !ok {
		return nil, fieldErr("ruleset", r.Ruleset, "unknown ruleset %q (want one of %v)", r.Ruleset, cat.IDs())
	}
	v := &round{rs: rs, citer: rs.Citer(), in: r, currency: money.Currency(r.Currency)}
	if v.currency == "" {
		v.currency = money.SGD
	}
	if !v.currency.Valid() {
		return nil, fieldErr("currency", r.Currency, "unknown currency %q", r.Currency)
	}
	if v.currency != rs.Currency && rs.UsesDocCurrency() {
		return nil, fieldErr("currency", r.Currency, "%s's fixed prizes and caps are in %s; the round must be in %s", rs.ID, rs.Currency, rs.Currency)
	}
	var err error
	if v.dealer, err = parseCards(r.Dealer); err != nil {
		return nil, fieldErr("dealer", r.Dealer, "%v", err)
	}
	if v.community, err = parseCards(r.Community); err != nil {
		return nil, fieldErr("community", r.Community, "%v", err)
	}
	if rs.Hands.CommunityCards == 0 && len(v.community) > 0 {
		return nil, fieldErr("community", r.Community, "%s has no community cards", rs.ID)
	}
	if err := v.validateLimits(); err != nil {
		return nil, err
	}
	if err := v.validateUnit(); err != nil {
		return nil, err
	}
	if len(r.Positions) == 0 {
		return nil, fieldErr("positions", nil, "a round needs at least one position")
	}
	if len(r.Positions) > 7 {
		return nil, fieldErr("positions", len(r.Positions), "at most 7 positions, got %d", len(r.Positions))
	}
	var seats [8]bool
	v.pos = make([]position, len(r.Positions))
	nWagers := 0
	for i := range r.Positions {
		nWagers += len(r.Positions[i].Wagers)
	}
	stakes := make([]wagerStake, 0, nWagers) // every position's, one allocation
	for i := range r.Positions {
		p := &v.pos[i]
		p.Position = &r.Positions[i]
		p.idx = i
		p.stakes = stakes[len(stakes):len(stakes):cap(stakes)]
		if p.Seat < 1 || p.Seat > 7 {
			return nil, fieldErr(p.f(".seat"), p.Seat, "seat must be 1 to 7")
		}
		if seats[p.Seat] {
			return nil, fieldErr(p.f(".seat"), p.Seat, "two positions on seat %d", p.Seat)
		}
		seats[p.Seat] = true
		if err := v.validatePosition(p); err != nil {
			return nil, err
		}
		stakes = stakes[:len(stakes)+len(p.stakes)]
	}
	// Seats are distinct: any sort gives the one order. slices.SortFunc
	// allocates nothing (sort.Slice's swapper did).
	slices.SortFunc(v.pos, func(a, b position) int { return a.Seat - b.Seat })
	if err := v.validateSelections(); err != nil {
		return nil, err
	}
	return v, nil
}

func parseCards(s string) ([]card.Card, error) {
	if s == "" {
		return nil, nil
	}
	return card.ParseList(s)
}

func (v *round) validateLimits() error {
	if len(v.in.Limits) == 0 {
		return nil
	}
	v.limits = make(map[ruleset.Wager]Limit, len(v.in.Limits))
	// One request, one answer: with several bad limits the error names the
	// first in sorted name order, whatever order the map is visited in
	// (firstErr keeps it without sorting, so no allocation).
	var first firstErr
	for name, l := range v.in.Limits {
		if err := v.checkLimit(name, l); err != nil {
			first.keep(name, err)
			continue
		}
		v.limits[ruleset.Wager(name)] = l
	}
	return first.err()
}

// firstErr keeps, of the errors found while visiting a map, the one of the
// name first in sorted order, so that a request with several bad entries
// always gets the same answer (Go randomizes map iteration).
type firstErr struct {
	name string
	e    *fault.Error
}

func (f *firstErr) keep(name string, e *fault.Error) {
	if f.e == nil || name < f.name {
		f.name, f.e = name, e
	}
}

func (f *firstErr) err() error {
	if f.e == nil {
		return nil
	}
	return f.e
}

func (v *round) checkLimit(name string, l Limit) *fault.Error {
	f := "limits." + name
	if !v.rs.Placeable(ruleset.Wager(name)) {
		return fieldErr(f, name, "%s has no wager %q", v.rs.ID, name)
	}
	if ruleset.Wager(name) == ruleset.Progressive && unitGoverned(v.rs) {
		// Ruling R22: a progressive wager is the pool's unit and the
		// pool refuses any other amount, so no table minimum or
		// maximum can apply to it (RWS 3.3-3.4 keep the "prescribed
		// Progressive Jackpot betting amount" apart from the betting
		// limits; THB 3.5.3 allows 1-5 times the minimum, the unit).
		return fieldErr(f, l, "a progressive wager is not limited by a table minimum or maximum: it is the pool's unit (THB: 1-5 times it), given as progressiveUnit (ruling R22%s)", citeSuffix(v.rs, v.rs.Clauses.ProgressiveUnit))
	}
	if l.Min < 0 || l.Max < 0 || l.Min > MaxAmount || l.Max > MaxAmount {
		return fieldErr(f, l, "limits must be %s to %s (0-%s minor units)", v.currency.Format(0), v.currency.Format(MaxAmount), money.Grouped(MaxAmount))
	}
	if l.Max != 0 && l.Max < l.Min {
		return fieldErr(f+".max", l.Max, "maximum %s is below the minimum %s", v.currency.Format(l.Max), v.currency.Format(l.Min))
	}
	return nil
}

// unitGoverned reports whether the ruleset's progressive wager is governed
// by the pool's unit (ruling R22; THB: 1-5 times it, R17): every ruleset
// with a "progressive" wager. SSP v4's jackpot wagers are credits paid at
// odds (3.5, 4.2) and are not.
func unitGoverned(rs *ruleset.Ruleset) bool { return rs.Placeable(ruleset.Progressive) }

// citeSuffix is ", <rule>" when the document has the clause, else "".
func citeSuffix(rs *ruleset.Ruleset, rule string) string {
	if rule == "" {
		return ""
	}
	return ", " + rs.Cite(rule)
}

// validateUnit checks the progressive pool's unit (ruling R22): within
// range, given only where a unit governs the progressive wager, and small
// enough that every fixed prize of the paytable pays more than the wager
// (ruling R2: a fixed prize is paid per accepted wager of the unit; a unit
// at or above a prize would make a "win" that returns no more than the
// stake, which no paytable of the documents is written for).
func (v *round) validateUnit() error {
	u := v.in.ProgressiveUnit
	rs := v.rs
	switch {
	case u == 0:
		return nil
	case u < 0 || u > MaxAmount:
		return fieldErr("progressiveUnit", u, "the progressive pool's unit (ruling R22) must be %s to %s (1-%s minor units)", v.currency.Format(1), v.currency.Format(MaxAmount), money.Grouped(MaxAmount))
	case !unitGoverned(rs):
		return fieldErr("progressiveUnit", u, "%s has no progressive pool unit: its jackpot wagers are credits (%s) paid at odds (ruling R22)", rs.ID, rs.Cite(rs.Clauses.SideWagers))
	}
	spec, _ := rs.Wager(ruleset.Progressive)
	for _, e := range spec.Paytable {
		if e.Pay.Kind == ruleset.Fixed && u >= e.Pay.Amount {
			return fieldErr("progressiveUnit", u, "a progressive unit of %s is not below the %s prize of %s (%s): that prize is paid per accepted wager of the unit and would not pay more than the wager (ruling R2, R22)",
				v.currency.Format(u), e.Label, e.Pay, rs.Cite(e.Rule))
		}
	}
	return nil
}

// validateProgressive checks a position's progressive stake against the
// pool's unit (ruling R22) and THB's multiplier (3.5.3, 3.5.3.1, ruling
// R17), and sets p.multiplier.
func (v *round) validateProgressive(p *position) error {
	rs := v.rs
	p.multiplier = 1
	s := p.stake(ruleset.Progressive)
	if p.ProgressiveMultiplier != 0 {
		f := p.f(".progressiveMultiplier") // THB only: not on the common path
		if rs.MaxProgressiveMultiplier == 0 {
			return fieldErr(f, p.ProgressiveMultiplier, "%s has no progressive multiplier", rs.ID)
		}
		if p.ProgressiveMultiplier < 1 || p.ProgressiveMultiplier > rs.MaxProgressiveMultiplier {
			return fieldErr(f, p.ProgressiveMultiplier, "the multiplier is 1 to %d (%s)", rs.MaxProgressiveMultiplier, rs.Cite(rs.MultiplierRule))
		}
		if s == 0 {
			return fieldErr(f, p.ProgressiveMultiplier, "a progressive multiplier without a progressive wager (%s, ruling R17)", rs.Cite(rs.MultiplierRule))
		}
	}
	if s == 0 || !unitGoverned(rs) {
		return nil
	}
	u := v.in.ProgressiveUnit
	if u == 0 {
		return fieldErr("progressiveUnit", nil, "positions[%d] places a progressive wager: settlement pays its fixed prizes per accepted progressive wager of the pool's unit, so progressiveUnit is required (ruling R2, R22%s)",
			p.idx, citeSuffix(rs, rs.Clauses.ProgressiveUnit))
	}
	const prog = string(ruleset.Progressive) // the field is named only when refused
	if rs.MaxProgressiveMultiplier == 0 {
		if s != u {
			return fieldErr(p.wagerField(prog), s, "a progressive wager must be the pool's unit %s, not %s: the pool refuses any other amount (ruling R22%s)", v.currency.Format(u), v.currency.Format(s), citeSuffix(rs, rs.Clauses.ProgressiveUnit)).Cite(rulingR22)
		}
		return nil
	}
	// THB 3.5.3: 1-5 times the minimum progressive wager, the unit.
	if m := p.ProgressiveMultiplier; m != 0 {
		if s != money.Amount(m)*u {
			return fieldErr(p.wagerField(prog), s, "with multiplier %d the progressive wager is %s (%d times the unit %s), not %s (%s, ruling R17)",
				m, v.currency.Format(money.Amount(m)*u), m, v.currency.Format(u), v.currency.Format(s), rs.Cite(rs.MultiplierRule))
		}
		p.multiplier = m
		return nil
	}
	if s%u != 0 || s/u < 1 || s/u > money.Amount(rs.MaxProgressiveMultiplier) {
		return fieldErr(p.wagerField(prog), s, "a progressive wager of %s is not 1 to %d times the unit %s (%s, ruling R17)",
			v.currency.Format(s), rs.MaxProgressiveMultiplier, v.currency.Format(u), rs.Cite(rs.MultiplierRule)).Cite(rs.Cite(rs.MultiplierRule), rulingR17, rulingR22)
	}
	p.multiplier = int(s / u)
	return nil
}

func (v *round) validatePosition(p *position) error {
	rs := v.rs
	var err error
	if p.cards, err = parseCards(p.Cards); err != nil {
		return fieldErr(p.f(".cards"), p.Cards, "%v", err)
	}
	// As with the limits: with several bad wagers the error names the
	// first in sorted name order (firstErr), one answer per request. The
	// order of p.stakes does not matter (stake looks a wager up by name).
	var first firstErr
	for name, a := range p.Wagers {
		if fe := checkWager(rs, v.currency, p, name, a); fe != nil {
			first.keep(name, fe)
			continue
		}
		if a > 0 {
			p.stakes = append(p.stakes, wagerStake{ruleset.Wager(name), a})
		}
	}
	if err := first.err(); err != nil {
		return err
	}
	if len(p.stakes) == 0 {
		return fieldErr(p.f(".wagers"), p.Wagers, "a position needs at least one wager")
	}
	if p.Folded && p.Absent {
		return fieldErr(p.f(".absent"), p.Absent, "a position cannot be both folded and absent")
	}
	if p.Absent && !p.IsExposed() {
		return fieldErr(p.f(".exposed"), false, "an absent player cannot have declined the comparison")
	}
	if cont := continuation(rs.Game); p.Absent && rs.Clauses.Absent == "" && p.stake(cont) == 0 && p.stake(ruleset.Ante) > 0 {
		// Ruling R25: SSP v4 has no clause for it; the Gaming Shift
		// Manager decides, and the round waits for his decision.
		return fieldErr(p.f(".absent"), true, "%s has no rule for a player absent at the %s decision: seat %d waits for the %s's decision, sent as the hand's fold or %s (ruling R25)",
			rs.ID, cont, p.Seat, rs.Irregularities.ReferTo, cont).Cite(rulingR25)
	}
	if p.Folded && p.stake(ruleset.Ante) == 0 {
		// A fold gives up the Ante (ruling R20; TCP 3.9.1.1 "Fold the
		// Ante"): a hand without one (TCP's Pair-Plus-only player, 3.9.3)
		// has nothing to fold.
		return fieldErr(p.f(".folded"), true, "nothing to fold: no Ante (%s)", rs.Cite(rs.Clauses.Fold))
	}
	if len(p.cards) == 0 && p.IsExposed() && !p.folds(rs) && !p.absentReturned(rs) {
		// An exposed hand still in play is decided by its cards (ruling
		// R14). Cards left out are a malformed request, not a dealing
		// irregularity (ruling R12 concerns the cards dealt).
		if p.Absent {
			return fieldErr(p.f(".cards"), p.Cards, "an absent player's hand that is still in play needs its %d cards: %s",
				rs.Hands.PlayerCards, absentNeedsCards(rs, p))
		}
		return fieldErr(p.f(".cards"), p.Cards, "an exposed hand needs its %d cards: they may be left out only when exposed is false (ruling R8) or for a folded hand (ruling R14)", rs.Hands.PlayerCards)
	}
	if len(p.cards) == 0 && p.folds(rs) && p.IsExposed() {
		// A folded hand's cards may be left out only if no wager it keeps
		// is decided by them: the jackpot (ruling R9, R14) or TCP's Pair
		// Plus (ruling R10).
		for _, w := range rs.Wagers {
			if p.stake(w.Name) > 0 && (w.Name == ruleset.PairPlus || (w.Progressive && w.Hand != ruleset.DealerFiveDealt)) {
				if p.Absent {
					return fieldErr(p.f(".cards"), p.Cards, "an absent player deemed to have folded (%s) keeps its %s, which its cards decide (ruling R9, R14): give the cards", rs.Cite(rs.Clauses.Absent), w.Name)
				}
				return fieldErr(p.f(".cards"), p.Cards, "a folded hand keeps its %s, which its cards decide (ruling R9, R14): give the cards", w.Name)
			}
		}
	}
	if len(p.cards) == 0 && p.absentReturned(rs) && p.stake(ruleset.Bonus) > 0 {
		// THB 5.11 returns the Ante and progressive only: the Bonus still
		// settles on the hole cards (ruling R16).
		return fieldErr(p.f(".cards"), p.Cards, "an absent player's hand is invalid (%s) but its Bonus still settles on the hole cards (ruling R16): give the cards", rs.Cite(rs.Clauses.Absent))
	}
	ante := p.stake(ruleset.Ante)
	for _, w := range rs.Wagers {
		s := p.stake(w.Name)
		if s == 0 {
			continue
		}
		if w.Multiple.Of != "" { // a continuation wager: Bet, Play, Flop, Turn, River
			if ante == 0 {
				return p.wagerErr(w.Name, s, "%s needs an ante (%s)", w.Name, rs.Cite(rs.Clauses.Continue))
			}
			if p.Folded {
				return p.wagerErr(w.Name, s, "a folded hand has no %s (%s)", w.Name, rs.Cite(rs.Clauses.Fold))
			}
			if w.Multiple.Fixed && s != ante*money.Amount(w.Multiple.Times) {
				return p.wagerErr(w.Name, s, "%s must be %d times the ante (%s), not %s (%s, ruling R20)",
					w.Name, w.Multiple.Times, v.currency.Format(ante*money.Amount(w.Multiple.Times)), v.currency.Format(s), rs.Cite(w.Multiple.Rule)).Cite(rs.Cite(w.Multiple.Rule), rulingR20)
			}
			if (w.Name == ruleset.Turn || w.Name == ruleset.River) && p.stake(ruleset.Flop) == 0 {
				return p.wagerErr(w.Name, s, "%s needs a flop wager (%s)", w.Name, rs.Cite(rs.Clauses.Continue))
			}
		}
	}
	if err := v.validateProgressive(p); err != nil {
		return err
	}
	return nil
}

func checkWager(rs *ruleset.Ruleset, c money.Currency, p *position, name string, a money.Amount) *fault.Error {
	if !rs.Placeable(ruleset.Wager(name)) {
		return fieldErr(p.wagerField(name), name, "%s has no wager %q", rs.ID, name)
	}
	if a < 0 {
		return fieldErr(p.wagerField(name), a, "a wager cannot be negative")
	}
	if a > MaxAmount {
		return fieldErr(p.wagerField(name), a, "%s is beyond any table (at most %s, %s minor units)", c.Format(a), c.Format(MaxAmount), money.Grouped(MaxAmount))
	}
	return nil
}

// absentNeedsCards says why an absent player's hand still in play is
// decided by its cards.
func absentNeedsCards(rs *ruleset.Ruleset, p *position) string {
	cont := continuation(rs.Game)
	switch {
	case rs.Clauses.Absent == "":
		return fmt.Sprintf("%s has no absent-player clause, so the wagers settle on the cards (ruling R12)", rs.ID)
	case rs.Game == ruleset.GameHoldem && p.stake(cont) > 0:
		return fmt.Sprintf("with the Ante and Flop placed the player is deemed to have checked (%s) and the hand plays on", rs.Cite(rs.Clauses.Absent))
	case rs.Decisions.AbsentFolds:
		return fmt.Sprintf("with no decision left to make the bets settle as usual (%s)", rs.Cite(rs.Clauses.AbsentSettled))
	}
	return fmt.Sprintf("with no decision left to make the wagers settle as usual (%s applies only to a pending %s decision, ruling R12)", rs.Cite(rs.Clauses.Absent), cont)
}

// validateSelections checks SSP v4's system selections (ruling R13): given
// whenever a jackpot wager is placed, and refused in the other rulesets.
func (v *round) validateSelections() error {
	r := v.in
	if len(v.rs.Selections) == 0 {
		switch {
		case r.MagicCard != "":
			return fieldErr("magicCard", r.MagicCard, "%s has no Magic Card", v.rs.ID)
		case r.LuckyPlayerSeat != 0:
			return fieldErr("luckyPlayerSeat", r.LuckyPlayerSeat, "%s has no Lucky Player", v.rs.ID)
		case r.LuckyDealer != nil:
			return fieldErr("luckyDealer", *r.LuckyDealer, "%s has no Lucky Dealer", v.rs.ID)
		}
		return nil
	}
	if r.MagicCard != "" {
		c, err := card.Parse(r.MagicCard)
		if err != nil {
			return fieldErr("magicCard", r.MagicCard, "%v", err)
		}
		v.magic, v.hasMagic = c, true
	}
	if r.LuckyPlayerSeat < 0 || r.LuckyPlayerSeat > 7 {
		return fieldErr("luckyPlayerSeat", r.LuckyPlayerSeat, "seat must be 1 to 7")
	}
	jackpot := false
	for i := range v.pos {
		if v.pos[i].stake(ruleset.ProgressivePlayer) > 0 || v.pos[i].stake(ruleset.ProgressiveDealer) > 0 {
			jackpot = true
		}
	}
	if !jackpot {
		return nil
	}
	switch {
	case !v.hasMagic:
		return fieldErr("magicCard", r.MagicCard, "a jackpot wager is placed: the system's Magic Card is required (%s, ruling R13)", v.rs.Cite("4.3"))
	case r.LuckyPlayerSeat == 0:
		return fieldErr("luckyPlayerSeat", r.LuckyPlayerSeat, "a jackpot wager is placed: the system's Lucky Player seat is required (%s, ruling R13)", v.rs.Cite("4.4"))
	case r.LuckyDealer == nil:
		return fieldErr("luckyDealer", nil, "a jackpot wager is placed: whether the dealer is the Lucky Dealer is required (%s, ruling R13)", v.rs.Cite("4.4.1"))
	}
	return nil
}
