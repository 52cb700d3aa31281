package analysis

import (
	"context"
	"errors"
	"fmt"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/hand"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// OfRuleset answers the published figures of ruleset id, its
// progressives' at the wager unit (0: DefaultUnit). An unknown id is
// fault.NotFound naming field "id"; a failure to compute is fault.Internal
// whose detail says what could not be done.
func OfRuleset(ctx context.Context, cat ruleset.Catalogue, id string, unit int64) (Figures, error) {
	rep, ok, err := PublishedFigures(id)
	if err != nil {
		return Figures{}, fault.Wrap(fault.Internal, err, "the precomputed figures cannot be read")
	}
	if !ok {
		return Figures{}, &fault.Error{Kind: fault.NotFound, Detail: "no such ruleset",
			Fields: []fault.Problem{{Field: "id", Message: "unknown ruleset id", Value: id}}}
	}
	if unit != 0 && unit != DefaultUnit {
		r, _ := cat.Get(ruleset.ID(id))
		spec, err := FromRuleset(r, unit)
		if err != nil {
			return Figures{}, fault.Wrap(fault.Internal, err, "the ruleset cannot be analysed")
		}
		progs, err := Compute(ctx, []Spec{{Ruleset: spec.Ruleset, Game: spec.Game, Progressives: spec.Progressives}})
		if err != nil {
			return Figures{}, fault.Wrap(fault.Internal, err, "the progressive figures cannot be computed")
		}
		rep.Progressives = progs[0].Progressives
	}
	return rep, nil
}

// ProposedOddsLine is one line of a proposed fixed-odds paytable.
type ProposedOddsLine struct {
	Hand string `json:"hand" example:"straight_flush" doc:"A hand category (snake_case, e.g. straight_flush, one_pair, high_card) or, for the THB Bonus, a hole-card hand: aa_player_and_dealer, aa, ak_suited, aq_or_aj_suited, ak_unsuited, kk_qq_jj, aq_or_aj_unsuited, tt_to_22."`
	// OrLower lets a stud Bet line cover every lower category ("One Pair or Lower").
	OrLower bool  `json:"orLower,omitempty" doc:"Stud Bet only: the line also covers every lower category."`
	Num     int64 `json:"num" minimum:"0" maximum:"1000000" doc:"Pays num to den (ruling R2: the stake is returned on top)."`
	Den     int64 `json:"den,omitempty" minimum:"0" maximum:"1000000" doc:"Defaults to 1."`
}

// ProposedPrizeLine is one line of a proposed progressive paytable.
type ProposedPrizeLine struct {
	Hand        string `json:"hand" example:"four_of_a_kind" doc:"A five-card category, snake_case."`
	Kind        string `json:"kind" enum:"to_one,for_one,fixed,pool_percent" doc:"to_one: odds, stake returned; for_one: odds times the stake in all; fixed: amount per wager of the unit; pool_percent: basis points of the pool."`
	Num         int64  `json:"num,omitempty" minimum:"0" maximum:"1000000" doc:"PayOdds numerator (to_one, for_one)."`
	Den         int64  `json:"den,omitempty" minimum:"0" maximum:"1000000" doc:"PayOdds denominator, default 1."`
	Amount      int64  `json:"amount,omitempty" minimum:"0" maximum:"1000000000000" doc:"Minor units (fixed)."`
	BasisPoints int64  `json:"basisPoints,omitempty" minimum:"0" maximum:"10000" doc:"10000 = 100% of the pool (pool_percent)."`
	Multiplied  bool   `json:"multiplied,omitempty" doc:"THB 3.5.3.1: the line scales with the wager's multiple of the unit."`
}

// ProgressiveProposal replaces one progressive wager's paytable.
type ProgressiveProposal struct {
	Wager  string              `json:"wager,omitempty" example:"progressive" doc:"Which progressive wager of the ruleset (progressive; SSP v4: progressivePlayer or progressiveDealer). Default: the ruleset's first."`
	Prizes []ProposedPrizeLine `json:"prizes" minItems:"1" maxItems:"10"`
}

// Proposal is a what-if paytable (POST /v1/paytables/analyze): a ruleset
// with some of its paytables replaced.
type Proposal struct {
	Ruleset     string               `json:"ruleset" example:"mbs-megalink-tcp-v6" doc:"The ruleset whose other rules and paytables the proposal keeps."`
	PairPlus    []ProposedOddsLine   `json:"pairPlus,omitempty" maxItems:"6" doc:"TCP: a Pair Plus table (replaces 4.3). Hands not listed lose."`
	AnteBonus   []ProposedOddsLine   `json:"anteBonus,omitempty" maxItems:"6" doc:"TCP: an Ante Bonus table (replaces 4.2)."`
	Bonus       []ProposedOddsLine   `json:"bonus,omitempty" maxItems:"8" doc:"THB: a Bonus table (replaces 4.1.1's Bonus lines). Hands not listed lose."`
	StudBet     []ProposedOddsLine   `json:"studBet,omitempty" maxItems:"10" doc:"Stud: a Bet table; it must pay every category from high_card to royal_flush (use orLower for \"One Pair or Lower\")."`
	Progressive *ProgressiveProposal `json:"progressive,omitempty"`
	Unit        int64                `json:"unit,omitempty" minimum:"0" maximum:"100000000" doc:"The progressive wager unit, minor units; default 100."`
}

// invalid is the refusal of a proposal naming its field.
func invalid(field, msg string, value any) error {
	return fault.InvalidFields(msg, fault.Problem{Field: field, Message: msg, Value: value})
}

func oddsOf(l ProposedOddsLine) PayOdds {
	d := l.Den
	if d == 0 {
		d = 1
	}
	return PayOdds{Num: l.Num, Den: d}
}

var threeCard = map[hand.Category]bool{hand.StraightFlush: true, hand.ThreeOfAKind: true, hand.Straight: true, hand.Flush: true, hand.OnePair: true, hand.HighCard: true}

func table3Of(field string, lines []ProposedOddsLine) (Table3, error) {
	t := Table3{}
	for i, l := range lines {
		loc := fmt.Sprintf("%s[%d]", field, i)
		c, ok := hand.ParseCategory(l.Hand)
		if !ok || !threeCard[c] {
			return nil, invalid(loc+".hand", "not a three-card hand (TCP v6 3.14): straight_flush, three_of_a_kind, straight, flush, one_pair or high_card", l.Hand)
		}
		if _, dup := t[c]; dup {
			return nil, invalid(loc+".hand", "this hand is listed twice", l.Hand)
		}
		if l.OrLower {
			return nil, invalid(loc+".orLower", "orLower is for the stud Bet table only", true)
		}
		o := oddsOf(l)
		if !o.Valid() {
			return nil, invalid(loc, "odds must be num to den with 0 <= num <= 1000000 and 0 < den <= 1000000", l)
		}
		t[c] = o
	}
	return t, nil
}

func applyProposal(r ruleset.Ruleset, req Proposal, spec *Spec) error {
	game := r.Game
	if req.PairPlus != nil || req.AnteBonus != nil {
		if game != ruleset.GameThreeCard {
			f := "pairPlus"
			if req.PairPlus == nil {
				f = "anteBonus"
			}
			return invalid(f, "only Three Card Poker (mbs-megalink-tcp-v6) has this wager", req.Ruleset)
		}
	}
	if req.PairPlus != nil {
		t, err := table3Of("pairPlus", req.PairPlus)
		if err != nil {
			return err
		}
		spec.PairPlus, spec.PairPlusRule = t, "proposed"
	}
	if req.AnteBonus != nil {
		t, err := table3Of("anteBonus", req.AnteBonus)
		if err != nil {
			return err
		}
		spec.AnteBonus, spec.AnteBonusRule = t, "proposed"
	}
	if req.Bonus != nil {
		if game != ruleset.GameHoldem {
			return invalid("bonus", "only Texas Hold'em Bonus (mbs-megalink-thb-v9) has the Bonus wager", req.Ruleset)
		}
		t := Table2{}
		for i, l := range req.Bonus {
			loc := fmt.Sprintf("bonus[%d]", i)
			t[l.Hand] = oddsOf(l)
			if err := (Table2{l.Hand: oddsOf(l)}).Validate(); err != nil {
				return invalid(loc, err.Error(), l)
			}
			if l.OrLower {
				return invalid(loc+".orLower", "orLower is for the stud Bet table only", true)
			}
		}
		if len(t) != len(req.Bonus) {
			return invalid("bonus", "a Bonus hand is listed twice", nil)
		}
		spec.Bonus, spec.BonusRule = t, "proposed"
	}
	if req.StudBet != nil {
		if game != ruleset.GameStud {
			return invalid("studBet", "only the five-card stud rulesets have the Bet wager", req.Ruleset)
		}
		var b StudBet
		set := map[hand.Category]bool{}
		for i, l := range req.StudBet {
			loc := fmt.Sprintf("studBet[%d]", i)
			c, ok := hand.ParseCategory(l.Hand)
			if !ok {
				return invalid(loc+".hand", "not a five-card category (high_card ... royal_flush)", l.Hand)
			}
			o := oddsOf(l)
			if !o.Valid() {
				return invalid(loc, "odds must be num to den with 0 <= num <= 1000000 and 0 < den <= 1000000", l)
			}
			lo := c
			if l.OrLower {
				lo = hand.HighCard
			}
			for k := lo; k <= c; k++ {
				if set[k] {
					return invalid(loc+".hand", fmt.Sprintf("%s is already paid by an earlier line", k), l.Hand)
				}
				set[k] = true
				b[k] = o
			}
		}
		for _, c := range hand.Categories() {
			if !set[c] {
				return invalid("studBet", fmt.Sprintf("the Bet table must pay every category; %s is missing (a winning Bet always pays)", c), nil)
			}
		}
		spec.StudBet, spec.StudRule = &b, "proposed"
	}
	if req.Progressive != nil {
		if len(spec.Progressives) == 0 {
			return invalid("progressive", "the ruleset has no progressive wager", req.Ruleset)
		}
		idx := 0
		if req.Progressive.Wager != "" {
			idx = -1
			for i, p := range spec.Progressives {
				if p.Wager == req.Progressive.Wager {
					idx = i
				}
			}
			if idx < 0 {
				return invalid("progressive.wager", "the ruleset has no such progressive wager", req.Progressive.Wager)
			}
		}
		p := spec.Progressives[idx]
		p.Prizes = nil
		for i, z := range req.Progressive.Prizes {
			loc := fmt.Sprintf("progressive.prizes[%d]", i)
			c, ok := hand.ParseCategory(z.Hand)
			if !ok {
				return invalid(loc+".hand", "not a five-card category (high_card ... royal_flush)", z.Hand)
			}
			d := z.Den
			if d == 0 {
				d = 1
			}
			p.Prizes = append(p.Prizes, Prize{Category: c, Hand: z.Hand, Kind: PrizeKind(z.Kind),
				Odds: PayOdds{Num: z.Num, Den: d}, Amount: z.Amount, BasisPoints: z.BasisPoints, Multiplied: z.Multiplied, Rule: "proposed"})
			one := Progressive{Unit: p.Unit, Prizes: p.Prizes[len(p.Prizes)-1:]}
			if err := one.Validate(); err != nil {
				return invalid(loc, err.Error(), z)
			}
		}
		if err := p.Validate(); err != nil {
			return invalid("progressive.prizes", err.Error(), nil)
		}
		p.Rule = "proposed"
		spec.Progressives = []Progressive{p}
	}
	return nil
}

// Analyze answers the figures of proposal req: the same figures as the
// ruleset's (OfRuleset) with the proposed paytables in place of the
// document's, each proposed line's rule "proposed". A proposal that cannot
// be analysed is refused as fault.Invalid naming its field
// ("pairPlus[2].hand"; "" for the whole proposal), a stud Bet table whose
// analysis ctx ends before it finishes too (the caller bounds it: the HTTP
// edge gives it StudBudget); a failure to compute is fault.Internal whose
// detail says what could not be done.
func Analyze(ctx context.Context, cat ruleset.Catalogue, req Proposal) (Figures, error) {
	r, ok := cat.Get(ruleset.ID(req.Ruleset))
	if !ok {
		return Figures{}, invalid("ruleset", "unknown ruleset id", req.Ruleset)
	}
	if req.PairPlus == nil && req.AnteBonus == nil && req.Bonus == nil && req.StudBet == nil && req.Progressive == nil {
		return Figures{}, invalid("", "propose at least one paytable: pairPlus, anteBonus, bonus, studBet or progressive", nil)
	}
	unit := req.Unit
	if unit == 0 {
		unit = DefaultUnit
	}
	spec, err := FromRuleset(r, unit)
	if err != nil {
		return Figures{}, fault.Wrap(fault.Internal, err, "the ruleset cannot be analysed")
	}
	published, _, err := PublishedFigures(req.Ruleset)
	if err != nil {
		return Figures{}, fault.Wrap(fault.Internal, err, "the precomputed figures cannot be read")
	}
	proposedStud := req.StudBet != nil
	if err := applyProposal(r, req, &spec); err != nil {
		return Figures{}, err
	}
	if !proposedStud {
		spec.StudBet = nil // the document's Bet table: its figures are precomputed
	}
	reps, err := Compute(ctx, []Spec{spec})
	if errors.Is(err, ErrTooSlow) {
		return Figures{}, invalid("studBet", "the analysis would not finish inside its time budget, well inside an API Gateway request (29 s); try again when the service is less busy", nil)
	}
	if err != nil {
		return Figures{}, fault.Wrap(fault.Internal, err, "the analysis failed")
	}
	rep := reps[0]
	if !proposedStud && r.Game == ruleset.GameStud {
		rep.AnteBet, rep.StudBetTable, rep.StudBetRule, rep.DealerQualifies = published.AnteBet, published.StudBetTable, published.StudBetRule, published.DealerQualifies
		rep.Notes = append(published.Notes, rep.Notes...)
	}
	rep.Notes = append(rep.Notes, "What-if analysis of a proposed paytable; lines marked rule \"proposed\" are the caller's, the rest are the ruleset's.")
	return rep, nil
}
