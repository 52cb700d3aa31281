package analysis

import (
	"context"
	"errors"
	"math/big"
	"time"

	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// Spec is what to analyse for one ruleset: its paytables, as the service
// settles them (see FromRuleset) or as a caller proposes them.
type Spec struct {
	Ruleset string
	Game    string // "stud", "three_card", "holdem"

	// Stud: the Bet table (SSP v6 4.1.2, SSP v4 4.1.2, RWS 4.1).
	StudBet     *StudBet
	StudRule    string
	StudCapNote string

	// TCP: Pair Plus (4.3), Ante Bonus (4.2), Ante and Play (4.1).
	PairPlus      Table3
	PairPlusRule  string
	AnteBonus     Table3
	AnteBonusRule string
	AntePlayRule  string

	// THB: the Bonus (4.1.1), classified by the settlement's own function.
	Bonus     Table2
	BonusRule string
	Classify  BonusClassifier

	// THB: the main game (Ante, Flop, Turn, River) under optimal strategy
	// (3.9-3.10, 4.1.1); the rule cited. Paytable-independent: Compute
	// serves the precomputed figures unless Engines.RecomputeHoldem.
	HoldemMainRule string

	Progressives []Progressive
}

// Figures is every figure of one ruleset's wagers.
type Figures struct {
	Ruleset         string              `json:"ruleset"`
	Game            string              `json:"game"`
	AnteBet         []StudReturn        `json:"anteBet,omitempty" doc:"Stud: the Ante and Bet together, per Ante, under the optimal bet/fold decision (given the player's five cards and the dealer's up card) and under \"bet on a pair or better\"."`
	StudBetRule     string              `json:"studBetRule,omitempty" doc:"The Bet paytable's rule, or \"proposed\"."`
	StudBetTable    *StudBet            `json:"studBetTable,omitempty" doc:"Stud: the Bet odds analysed, by category index (1 high card ... 10 royal flush)."`
	AntePlay        *TCPAntePlay        `json:"antePlay,omitempty" doc:"TCP: the Ante and Play together under the optimal play/fold decision, Ante Bonus included."`
	HoldemMain      *THBMain            `json:"holdemMain,omitempty" doc:"THB: the Ante, Flop, Turn and River together under the optimal strategy, per Ante, and the strategy."`
	Wagers          []WagerReturn       `json:"wagers,omitempty" doc:"Fixed-odds side wagers: TCP Pair Plus and Ante Bonus, THB Bonus."`
	DealerQualifies *ExactFraction      `json:"dealerQualifies,omitempty" doc:"Probability the dealer's hand qualifies."`
	DealerRule      string              `json:"dealerQualifierRule,omitempty"`
	Progressives    []ProgressiveReturn `json:"progressives,omitempty"`
	Notes           []string            `json:"notes,omitempty"`
}

// Engines caches the paytable-independent enumerations within one
// computation. It is not safe for concurrent use; build one per request.
type Engines struct {
	// RecomputeHoldem makes Compute enumerate THB's main game (about a
	// minute on one core) instead of serving the figures `make analysis`
	// embedded.
	RecomputeHoldem bool

	five *fiveTables
	stud *studEngine
	tcp  *tcpEngine
}

func (e *Engines) fiveT() *fiveTables {
	if e.five == nil {
		e.five = newFiveTables()
	}
	return e.five
}

// ErrTooSlow is returned when a computation would not finish inside its
// budget.
var ErrTooSlow = errors.New("analysis: the computation would not finish inside its time budget")

// Compute analyses every spec. The stud specs share one enumeration pass.
// ctx bounds the stud pass (checked between player hand classes).
func Compute(ctx context.Context, specs []Spec) ([]Figures, error) {
	var en Engines
	return en.Compute(ctx, specs)
}

// Compute is Compute with the caller's engine cache.
func (en *Engines) Compute(ctx context.Context, specs []Spec) ([]Figures, error) {
	out := make([]Figures, len(specs))
	var tables []StudBet
	var owners []int
	for i, s := range specs {
		out[i] = Figures{Ruleset: s.Ruleset, Game: s.Game}
		if s.StudBet != nil {
			tables = append(tables, *s.StudBet)
			owners = append(owners, i)
		}
	}
	if len(tables) > 0 {
		if ctx.Err() != nil {
			return nil, ErrTooSlow
		}
		if en.stud == nil {
			en.stud = newStudEngine(en.fiveT())
		}
		opt, pair, err := en.stud.talliesCtx(ctx, tables)
		if err != nil {
			return nil, err
		}
		for k, i := range owners {
			o := StudFigures(&opt[k], tables[k])
			o.Strategy = StudOptimal
			p := StudFigures(&pair[k], tables[k])
			p.Strategy = StudPairOrBest
			b := tables[k]
			out[i].AnteBet = []StudReturn{o, p}
			out[i].StudBetTable = &b
			out[i].StudBetRule = specs[i].StudRule
			q := NewExactFraction(ratioU(en.fiveT().qualifyingHands(), Hands5))
			out[i].DealerQualifies = &q
			out[i].Notes = append(out[i].Notes,
				"Ante and Bet: every one of the 19,933,230,517,200 deals (C(52,5) player hands x 47 up cards x C(46,4) dealer completions) counted exactly, grouped by suit pattern and rank multiset; hand values from the service's evaluator.",
				"The Bet is twice the Ante; when the dealer does not qualify the Ante wins 1 to 1 and the Bet is returned; when the player beats a qualifying dealer the Ante wins 1 to 1 and the Bet wins at its paytable odds.")
			if specs[i].StudCapNote != "" {
				out[i].Notes = append(out[i].Notes, specs[i].StudCapNote)
			}
		}
	}
	for i, s := range specs {
		r := &out[i]
		if s.PairPlus != nil || s.AnteBonus != nil {
			if en.tcp == nil {
				en.tcp = newTCPEngine()
			}
		}
		if s.AnteBonus != nil || s.AntePlayRule != "" {
			if en.tcp == nil {
				en.tcp = newTCPEngine()
			}
			ap := en.tcp.AntePlay(s.AnteBonus, s.AntePlayRule, s.AnteBonusRule)
			r.AntePlay = &ap
			q := en.tcp.dealerQualifies()
			r.DealerQualifies = &q
		}
		if s.PairPlus != nil {
			r.Wagers = append(r.Wagers, en.tcp.PairPlus(s.PairPlus, s.PairPlusRule))
		}
		if s.AnteBonus != nil {
			r.Wagers = append(r.Wagers, anteBonusReturn(en.tcp, s.AnteBonus, s.AnteBonusRule))
		}
		if s.HoldemMainRule != "" {
			m, err := en.holdemMain(ctx, s)
			if err != nil {
				return nil, err
			}
			r.HoldemMain = m
		}
		if s.Bonus != nil {
			cl := s.Classify
			if cl == nil {
				cl = ruleset.HoleBonusHand
			}
			r.Wagers = append(r.Wagers, THBBonus(cl, s.Bonus, s.BonusRule))
		}
		if len(s.Progressives) > 0 {
			counts := en.fiveT().categoryCounts()
			for _, p := range s.Progressives {
				r.Progressives = append(r.Progressives, AnalyzeProgressive(counts, p))
			}
		}
	}
	return out, nil
}

// holdemMain is THB's main game: the embedded figures, or with
// RecomputeHoldem (or none embedded yet) the full enumeration.
func (en *Engines) holdemMain(ctx context.Context, s Spec) (*THBMain, error) {
	if !en.RecomputeHoldem {
		if pub, ok, err := PublishedFigures(s.Ruleset); ok && err == nil && pub.HoldemMain != nil && pub.HoldemMain.Rule == s.HoldemMainRule {
			return pub.HoldemMain, nil
		}
	}
	m, err := THBMainGame(ctx, s.HoldemMainRule)
	if err != nil {
		return nil, ErrTooSlow
	}
	return m, nil
}

// anteBonusReturn is the Ante Bonus on its own, per Ante: what it adds to
// a hand that plays (ruling R10); every hand it pays is played.
func anteBonusReturn(e *tcpEngine, t Table3, rule string) WagerReturn {
	counts := e.categoryCounts3()
	w := WagerReturn{Wager: "ante_bonus", Rule: rule, Deals: Hands3}
	sum := new(big.Rat)
	for _, c := range categories3 {
		o, ok := t[c]
		if !ok {
			continue
		}
		p := ratioU(counts[c], Hands3)
		v := new(big.Rat).Mul(p, o.Rat())
		sum.Add(sum, v)
		w.Outcomes = append(w.Outcomes, OutcomeFrequency{Outcome: c.String(), Count: counts[c], Probability: NewExactFraction(p), Pays: o.String(), Contribution: NewExactFraction(v), Rule: rule})
	}
	w.Return = NewExactFraction(sum)
	w.HouseEdge = NewExactFraction(new(big.Rat).Neg(sum))
	w.Notes = []string{"The Ante Bonus is a payment to the Ante, not a stake of its own: returnToPlayer here is what it adds per Ante (paid only to a hand that plays, ruling R10; the optimal strategy plays every hand it pays). Its houseEdge is that addition negated; the Ante and Play figure includes it."}
	return w
}

// StudBudget is the most a stud Bet table analysis may take in a request
// before it is abandoned (the HTTP edge imposes it: httpapi
// Deps.AnalysisBudget); POST /v1/paytables/analyze allows a proposed stud
// table only because the whole pass takes about 1-2 s on two cores
// (BenchmarkAnalyzeStudProposal holds it to that).
const StudBudget = 15 * time.Second
