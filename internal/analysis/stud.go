package analysis

import (
	"context"
	"fmt"
	"math/big"
	"runtime"

	"github.com/tablesettle/tablesettle/internal/hand"
)

// StudBet is a five-card stud Bet paytable: the odds the Bet wins at by the
// player's category (SSP v6 4.1.2, SSP v4 4.1.2, RWS 4.1). The Ante pays
// 1 to 1 whenever the player who bet wins or the dealer does not qualify;
// the Bet is twice the Ante (SSP v6 3.9.2, RWS 3.12.2) and is returned when
// the dealer does not qualify (SSP v6 3.10.2.1).
type StudBet [hand.RoyalFlush + 1]PayOdds

// Valid reports whether every category from high card to royal flush has
// usable odds.
func (b StudBet) Valid() error {
	for _, c := range hand.Categories() {
		if !b[c].Valid() {
			return fmt.Errorf("the odds for %s (%d to %d) must have 0 <= num <= %d and 0 < den <= %d", c, b[c].Num, b[c].Den, MaxOddsTerm, MaxOddsTerm)
		}
	}
	return nil
}

// StudStrategy names a Bet/fold strategy.
type StudStrategy string

// The strategies analysed.
const (
	StudOptimal    StudStrategy = "optimal"
	StudPairOrBest StudStrategy = "pair_or_better"
)

// StudTally is how the StudDeals deals end under one strategy, in deals.
type StudTally struct {
	Fold     uint64                      `json:"fold" doc:"Deals the player folds (loses the Ante)."`
	NoQual   uint64                      `json:"dealerNoQualify" doc:"Deals the player bets and the dealer does not qualify (Ante wins 1 to 1, Bet returned)."`
	Win      [hand.RoyalFlush + 1]uint64 `json:"win" doc:"Deals the player bets, the dealer qualifies and the player wins, by the player's category (index: 1 high card ... 10 royal flush)."`
	Tie      uint64                      `json:"tie" doc:"Deals the player bets and ties a qualifying dealer (stand-off)."`
	Lose     uint64                      `json:"lose" doc:"Deals the player bets and loses to a qualifying dealer."`
	BetHands [hand.RoyalFlush + 1]uint64 `json:"betHands" doc:"(player hand, up card) pairs the strategy bets, by the player's category; out of C(52,5) x 47."`
	AllHands [hand.RoyalFlush + 1]uint64 `json:"allHands" doc:"(player hand, up card) pairs, by the player's category."`
	// The high-card hands split at the dealer's qualifier (Ace-King).
	BetAceKing      uint64 `json:"betAceKing" doc:"(player hand, up card) pairs with an Ace-King high hand (no pair) that the strategy bets."`
	AllAceKing      uint64 `json:"allAceKing"`
	BetAceKingMatch uint64 `json:"betAceKingMatch" doc:"Of the Ace-King pairs, those whose up card pairs one of the player's ranks, bet."`
	AllAceKingMatch uint64 `json:"allAceKingMatch"`
	BetBelowAceKing uint64 `json:"betBelowAceKing" doc:"(player hand, up card) pairs ranked below Ace-King that the strategy bets."`
	AllBelowAceKing uint64 `json:"allBelowAceKing"`
}

// Net returns the player's total net result over all StudDeals deals, in
// Antes, for the Bet table b: the exact numerator of the expected return.
func (t *StudTally) Net(b StudBet) *big.Rat {
	n := new(big.Rat)
	add := func(count uint64, per *big.Rat) {
		n.Add(n, new(big.Rat).Mul(ratioU(count, 1), per))
	}
	add(t.NoQual, big.NewRat(1, 1))
	for _, c := range hand.Categories() {
		// Ante 1 to 1 plus the Bet (2 Antes) at the table's odds
		per := new(big.Rat).Mul(b[c].Rat(), big.NewRat(2, 1))
		per.Add(per, big.NewRat(1, 1))
		add(t.Win[c], per)
	}
	add(t.Lose, big.NewRat(-3, 1))
	add(t.Fold, big.NewRat(-1, 1))
	return n
}

func (t *StudTally) merge(o *StudTally) {
	t.Fold += o.Fold
	t.NoQual += o.NoQual
	t.Tie += o.Tie
	t.Lose += o.Lose
	t.BetAceKing += o.BetAceKing
	t.AllAceKing += o.AllAceKing
	t.BetAceKingMatch += o.BetAceKingMatch
	t.AllAceKingMatch += o.AllAceKingMatch
	t.BetBelowAceKing += o.BetBelowAceKing
	t.AllBelowAceKing += o.AllBelowAceKing
	for i := range t.Win {
		t.Win[i] += o.Win[i]
		t.BetHands[i] += o.BetHands[i]
		t.AllHands[i] += o.AllHands[i]
	}
}

func (t *StudTally) add(w uint64, c studCounts, bet bool, cat hand.Category, aceKing, belowAceKing, match bool) {
	t.AllHands[cat] += w
	if aceKing {
		t.AllAceKing += w
		if bet {
			t.BetAceKing += w
		}
		if match {
			t.AllAceKingMatch += w
			if bet {
				t.BetAceKingMatch += w
			}
		}
	}
	if belowAceKing {
		t.AllBelowAceKing += w
		if bet {
			t.BetBelowAceKing += w
		}
	}
	if !bet {
		t.Fold += w * studCompletions
		return
	}
	t.BetHands[cat] += w
	t.NoQual += w * uint64(c.nq)
	t.Win[cat] += w * uint64(c.win)
	t.Tie += w * uint64(c.tie)
	t.Lose += w * uint64(c.lose)
}

// studTallies runs the engine once for several Bet tables at the same time,
// returning for each the tally of the optimal strategy and of "bet on a
// pair or better".
func (e *studEngine) tallies(tables []StudBet) (opt, pair []StudTally) {
	opt, pair, _ = e.talliesCtx(context.Background(), tables)
	return opt, pair
}

// talliesCtx is tallies, abandoned with ErrTooSlow when ctx ends.
func (e *studEngine) talliesCtx(ctx context.Context, tables []StudBet) (opt, pair []StudTally, err error) {
	workers := runtime.GOMAXPROCS(0)
	accO := make([][]StudTally, workers)
	accP := make([][]StudTally, workers)
	for g := range accO {
		accO[g] = make([]StudTally, len(tables))
		accP[g] = make([]StudTally, len(tables))
	}
	err = e.visit(ctx, workers, func(g int, cl *studClass, ru int, c studCounts) {
		cat := e.category(cl)
		w := uint64(cl.weight)
		pairUp := cat >= hand.OnePair
		below := cl.x < e.ft.qualify
		ak := cat == hand.HighCard && !below
		match := e.ft.sets[cl.set].counts[ru] > 0
		for k := range tables {
			o := tables[k][cat]
			// Bet iff its expected result beats the fold's -1 Ante:
			// D*(nq - 3*lose + C) + win*(D + 2N) > 0.
			bet := o.Den*(c.nq-3*c.lose+studCompletions)+c.win*(o.Den+2*o.Num) > 0
			accO[g][k].add(w, c, bet, cat, ak, below, match)
			accP[g][k].add(w, c, pairUp, cat, ak, below, match)
		}
	})
	if err != nil {
		return nil, nil, err
	}
	opt = make([]StudTally, len(tables))
	pair = make([]StudTally, len(tables))
	for g := range accO {
		for k := range tables {
			opt[k].merge(&accO[g][k])
			pair[k].merge(&accP[g][k])
		}
	}
	return opt, pair, nil
}

// StudReturn is the exact return of the Ante and Bet together under one
// strategy.
type StudReturn struct {
	Strategy      StudStrategy       `json:"strategy"`
	Net           ExactFraction      `json:"net" doc:"The player's total net result over all deals, in Antes (den 1)."`
	Return        ExactFraction      `json:"expectedReturn" doc:"Expected net result per Ante: net / deals."`
	HouseEdge     ExactFraction      `json:"houseEdge" doc:"Minus the expected return, per Ante."`
	ElementOfRisk ExactFraction      `json:"elementOfRisk" doc:"House edge per unit wagered: the loss over the average total wager (Ante + 2 x Ante when betting)."`
	BetRate       ExactFraction      `json:"betProbability" doc:"Probability the strategy bets."`
	Description   []string           `json:"description" doc:"What the strategy does, read from the enumeration."`
	Outcomes      []OutcomeFrequency `json:"outcomes" doc:"How the deals end, with the net result per Ante of each."`
	Tally         StudTally          `json:"tally"`
}

// StudFigures turns a tally into the exact figures.
func StudFigures(t *StudTally, b StudBet) StudReturn {
	net := t.Net(b)
	ret := new(big.Rat).Quo(net, ratioU(StudDeals, 1))
	edge := new(big.Rat).Neg(ret)
	var bets uint64
	for _, n := range t.BetHands {
		bets += n
	}
	rate := ratioU(bets, uint64(Hands5)*studUpCards)
	avg := new(big.Rat).Add(big.NewRat(1, 1), new(big.Rat).Mul(big.NewRat(2, 1), rate))
	var pairs, pairsBet uint64
	for c := hand.OnePair; c <= hand.RoyalFlush; c++ {
		pairs += t.AllHands[c]
		pairsBet += t.BetHands[c]
	}
	desc := []string{
		fmt.Sprintf("bets %d of the %d (hand, up card) pairs holding a pair or better", pairsBet, pairs),
		fmt.Sprintf("bets %d of the %d (hand, up card) pairs holding Ace-King high (no pair): %d of %d when the up card's rank is one of the player's, %d of %d when it is not",
			t.BetAceKing, t.AllAceKing, t.BetAceKingMatch, t.AllAceKingMatch, t.BetAceKing-t.BetAceKingMatch, t.AllAceKing-t.AllAceKingMatch),
		fmt.Sprintf("bets %d of the %d (hand, up card) pairs ranked below Ace-King", t.BetBelowAceKing, t.AllBelowAceKing),
	}
	var outs []OutcomeFrequency
	add := func(name string, n uint64, per *big.Rat, pays string) {
		p := ratioU(n, StudDeals)
		outs = append(outs, OutcomeFrequency{Outcome: name, Count: n, Probability: NewExactFraction(p), Pays: pays, Contribution: NewExactFraction(new(big.Rat).Mul(p, per))})
	}
	add("fold", t.Fold, big.NewRat(-1, 1), "Ante loses")
	add("dealer_does_not_qualify", t.NoQual, big.NewRat(1, 1), "Ante 1 to 1, Bet returned")
	for c := hand.RoyalFlush; c >= hand.HighCard; c-- {
		per := new(big.Rat).Mul(b[c].Rat(), big.NewRat(2, 1))
		per.Add(per, big.NewRat(1, 1))
		add("player_wins_"+c.String(), t.Win[c], per, "Ante 1 to 1, Bet "+b[c].String())
	}
	add("stand_off", t.Tie, new(big.Rat), "stand-off")
	add("dealer_wins", t.Lose, big.NewRat(-3, 1), "Ante and Bet lose")
	return StudReturn{
		Outcomes:      outs,
		Description:   desc,
		Net:           NewExactFraction(net),
		Return:        NewExactFraction(ret),
		HouseEdge:     NewExactFraction(edge),
		ElementOfRisk: NewExactFraction(new(big.Rat).Quo(edge, avg)),
		BetRate:       NewExactFraction(rate),
		Tally:         *t,
	}
}
