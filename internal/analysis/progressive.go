package analysis

import (
	"fmt"
	"math/big"

	"github.com/tablesettle/tablesettle/internal/hand"
)

// PrizeKind is how a progressive paytable line pays (ruling R2).
type PrizeKind string

// The kinds, named as package ruleset names them.
const (
	PrizeToOne   PrizeKind = "to_one"       // odds times the stake, stake returned
	PrizeForOne  PrizeKind = "for_one"      // odds times the stake in all
	PrizeFixed   PrizeKind = "fixed"        // an amount per wager of the pool's unit
	PrizePercent PrizeKind = "pool_percent" // basis points of the pool
)

// Prize is one line of a progressive paytable.
type Prize struct {
	Category    hand.Category `json:"-"`
	Hand        string        `json:"hand"`
	Kind        PrizeKind     `json:"kind"`
	Odds        PayOdds       `json:"odds,omitzero"`
	Amount      int64         `json:"amount,omitempty"`      // Minor units, for kind fixed.
	BasisPoints int64         `json:"basisPoints,omitempty"` // For kind pool_percent: 10000 is 100% of the pool.
	Multiplied  bool          `json:"multiplied,omitempty"`  // THB 3.5.3.1: the line is multiplied by the wager's multiple of the minimum.
	Rule        string        `json:"rule,omitempty"`
}

// Selection is a prize paid on a chance the deal does not decide: the SSP
// v4 Magic Card (4.3-4.5, 5 to 1), with its probability.
type Selection struct {
	Name        string  `json:"name"`
	Odds        PayOdds `json:"odds"`
	Probability *big.Rat
	Basis       string `json:"basis"`
	Rule        string `json:"rule,omitempty"`
}

// Progressive is a progressive wager to analyse.
type Progressive struct {
	Wager      string      // e.g. "progressive"
	Rule       string      // the paytable's rule
	Unit       int64       // the pool's wager unit, minor units
	Multiples  []int64     // the stakes as multiples of the unit (THB 1-5, else 1)
	Prizes     []Prize     // hand lines
	Selections []Selection // SSP v4 Magic Card
	HandNote   string      // what the five cards are
	excluded   []string    // prizes left out of the figure, and why
}

// Validate reports the first unusable prize.
func (p *Progressive) Validate() error {
	if p.Unit <= 0 {
		return fmt.Errorf("the wager unit must be positive minor units")
	}
	seen := map[hand.Category]bool{}
	for _, z := range p.Prizes {
		if z.Category < hand.HighCard || z.Category > hand.RoyalFlush {
			return fmt.Errorf("%q is not a five-card hand", z.Hand)
		}
		if seen[z.Category] {
			return fmt.Errorf("%s is paid twice", z.Category)
		}
		seen[z.Category] = true
		switch z.Kind {
		case PrizeToOne, PrizeForOne:
			if !z.Odds.Valid() {
				return fmt.Errorf("the odds for %s must have 0 <= num <= %d and 0 < den <= %d", z.Category, MaxOddsTerm, MaxOddsTerm)
			}
		case PrizeFixed:
			if z.Amount < 0 || z.Amount > 1e12 {
				return fmt.Errorf("the fixed amount for %s must be 0 to 10^12 minor units", z.Category)
			}
		case PrizePercent:
			if z.BasisPoints < 0 || z.BasisPoints > 10000 {
				return fmt.Errorf("the percentage for %s must be 0 to 10000 basis points", z.Category)
			}
		default:
			return fmt.Errorf("unknown prize kind %q for %s", z.Kind, z.Category)
		}
	}
	return nil
}

// ProgressiveAtMultiple is the return of a progressive wager staked at m
// units.
type ProgressiveAtMultiple struct {
	Multiple        int64         `json:"multiple" doc:"The stake as a multiple of the unit (THB 3.5.3: 1 to 5)."`
	Stake           int64         `json:"stake" doc:"Minor units."`
	FixedReturn     ExactFraction `json:"fixedReturn" doc:"What the fixed, to-1 and for-1 prizes (and selections) return per unit staked, stake included."`
	MeterReturn     ExactFraction `json:"returnPerMeterMinorUnit" doc:"What each minor unit in the meter adds to the return per unit staked: meterShare / stake."`
	BreakEvenMeter  ExactAmount   `json:"breakEvenMeter" doc:"The meter, in minor units (an amount, so no percent), at which the wager returns exactly 100% (0 when the fixed prizes already return 100% or more)."`
	BreakEvenMinor  string        `json:"breakEvenMeterRoundedUp" doc:"breakEvenMeter rounded up to a whole minor unit."`
	MeterIsRequired bool          `json:"meterNeeded" doc:"False when the fixed prizes alone return 100% or more."`
}

// ProgressiveReturn is the exact return of a progressive wager.
type ProgressiveReturn struct {
	Wager      string                  `json:"wager"`
	Rule       string                  `json:"rule"`
	Hand       string                  `json:"hand"`
	Unit       int64                   `json:"unit" doc:"The wager unit the fixed prizes are paid per, minor units."`
	Deals      uint64                  `json:"deals"`
	Outcomes   []OutcomeFrequency      `json:"outcomes"`
	MeterShare ExactFraction           `json:"meterShare" doc:"Expected payment from percentage prizes, as a fraction of the meter: sum of probability x percentage. Paid once per winning wager whatever its size (ruling R22)."`
	ByMultiple []ProgressiveAtMultiple `json:"byMultiple"`
	Notes      []string                `json:"notes,omitempty"`
}

// AnalyzeProgressive computes the return of a progressive wager on five
// cards dealt from a full deck (the player's five in the stud games, TCP's
// three plus two community cards, THB's two hole cards plus the flop: each
// a uniformly random five-card hand).
func AnalyzeProgressive(counts FiveCardCounts, p Progressive) ProgressiveReturn {
	r := ProgressiveReturn{Wager: p.Wager, Rule: p.Rule, Hand: p.HandNote, Unit: p.Unit, Deals: Hands5}
	meter := new(big.Rat)
	// per unit of stake at multiple m: fixed part = a + b/m, where a gathers
	// the to-1/for-1 lines (scaled with the stake) and b the fixed amounts
	// (paid per wager of the unit, ruling R2) and unmultiplied odds.
	a := new(big.Rat)
	b := new(big.Rat)
	noToOne := big.NewRat(1, 1) // probability no "to 1" prize wins
	for _, z := range p.Prizes {
		pr := ratioU(counts[z.Category], Hands5)
		o := OutcomeFrequency{Outcome: z.Category.String(), Count: counts[z.Category], Probability: NewExactFraction(pr), Rule: z.Rule}
		switch z.Kind {
		case PrizeToOne:
			o.Pays = z.Odds.String()
			a.Add(a, new(big.Rat).Mul(pr, z.Odds.Rat()))
			noToOne.Sub(noToOne, pr)
		case PrizeForOne:
			o.Pays = fmt.Sprintf("%d for %d", z.Odds.Num, z.Odds.Den)
			v := new(big.Rat).Mul(pr, z.Odds.Rat())
			if z.Multiplied || len(p.Multiples) == 0 {
				a.Add(a, v)
			} else {
				b.Add(b, v)
			}
		case PrizeFixed:
			o.Pays = fmt.Sprintf("%d minor units per wager of the unit", z.Amount)
			b.Add(b, new(big.Rat).Mul(pr, big.NewRat(z.Amount, p.Unit)))
		case PrizePercent:
			pct := big.NewRat(z.BasisPoints, 10000)
			o.Pays = Percent(pct, 2) + "% of the pool"
			meter.Add(meter, new(big.Rat).Mul(pr, pct))
		}
		o.Contribution = NewExactFraction(new(big.Rat).Mul(pr, prizeValuePerUnit(z, p.Unit)))
		r.Outcomes = append(r.Outcomes, o)
	}
	// Selections (SSP v4 Magic Card): each pays its own odds; the stake is
	// returned once if any "to 1" prize wins (ruling R18).
	for _, s := range p.Selections {
		a.Add(a, new(big.Rat).Mul(s.Probability, s.Odds.Rat()))
		noToOne.Mul(noToOne, new(big.Rat).Sub(big.NewRat(1, 1), s.Probability))
		r.Outcomes = append(r.Outcomes, OutcomeFrequency{Outcome: s.Name, Probability: NewExactFraction(s.Probability), Pays: s.Odds.String(),
			Contribution: NewExactFraction(new(big.Rat).Mul(s.Probability, s.Odds.Rat())), Rule: s.Rule})
		r.Notes = append(r.Notes, s.Name+": "+s.Basis)
	}
	stakeBack := new(big.Rat).Sub(big.NewRat(1, 1), noToOne)
	hasToOne := len(p.Selections) > 0
	for _, z := range p.Prizes {
		hasToOne = hasToOne || z.Kind == PrizeToOne
	}
	if !hasToOne {
		stakeBack.SetInt64(0)
	}
	a.Add(a, stakeBack)
	r.MeterShare = NewExactFraction(meter)
	ms := p.Multiples
	if len(ms) == 0 {
		ms = []int64{1}
	}
	for _, m := range ms {
		stake := m * p.Unit
		fixed := new(big.Rat).Add(a, new(big.Rat).Quo(b, big.NewRat(m, 1)))
		at := ProgressiveAtMultiple{Multiple: m, Stake: stake, FixedReturn: NewExactFraction(fixed),
			MeterReturn: NewExactFraction(new(big.Rat).Quo(meter, big.NewRat(stake, 1)))}
		short := new(big.Rat).Sub(big.NewRat(1, 1), fixed)
		be := new(big.Rat)
		if short.Sign() > 0 && meter.Sign() > 0 {
			be.Mul(short, big.NewRat(stake, 1))
			be.Quo(be, meter)
			at.MeterIsRequired = true
		}
		at.BreakEvenMeter = NewExactAmount(be)
		at.BreakEvenMinor = ceilRat(be).String()
		r.ByMultiple = append(r.ByMultiple, at)
	}
	r.Notes = append(r.Notes, p.excluded...)
	r.Notes = append(r.Notes,
		"Exact fractions; the pool's rounding of a percentage prize down to the minor unit (ruling R3) and the sharing of simultaneous hits (rulings R5, R6) are left out.",
		"return(meter) = fixedReturn + returnPerMeterMinorUnit x meter, per unit staked.")
	return r
}

// prizeValuePerUnit is a line's payment per unit of a one-unit stake, the
// percentage lines counted as zero (they are in meterShare).
func prizeValuePerUnit(z Prize, unit int64) *big.Rat {
	switch z.Kind {
	case PrizeToOne, PrizeForOne:
		return z.Odds.Rat()
	case PrizeFixed:
		return big.NewRat(z.Amount, unit)
	}
	return new(big.Rat)
}

func ceilRat(r *big.Rat) *big.Int {
	q, m := new(big.Int).DivMod(r.Num(), r.Denom(), new(big.Int))
	if m.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	return q
}
