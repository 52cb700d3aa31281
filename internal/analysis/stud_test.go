package analysis

import (
	"context"
	"errors"
	"math/big"
	"testing"

	"github.com/tablesettle/tablesettle/internal/hand"
)

// caribbean is the Caribbean Stud Poker Raise table Wizard of Odds analyses
// (royal 100, straight flush 50, quads 20, full house 7, flush 5, straight 4,
// trips 3, two pair 2, pair / ace-king 1 to 1).
func caribbean() StudBet {
	var b StudBet
	for c, n := range map[hand.Category]int64{hand.HighCard: 1, hand.OnePair: 1, hand.TwoPair: 2, hand.ThreeOfAKind: 3,
		hand.Straight: 4, hand.Flush: 5, hand.FullHouse: 7, hand.FourOfAKind: 20, hand.StraightFlush: 50, hand.RoyalFlush: 100} {
		b[c] = To(n)
	}
	return b
}

// Wizard of Odds, Caribbean Stud Poker, "Strategy Statistics in Caribbean
// Stud Poker" (https://wizardofodds.com/games/caribbean-stud-poker/): over
// all 19,933,230,517,200 combinations the perfect strategy loses
// 1,041,372,912,372 Antes (house edge 5.224%, element of risk 2.555%) and
// "raise on any pair or better" loses 1,090,272,101,460 (5.470%, 2.738%).
// The engine must reproduce every digit when given that paytable.
func TestStudCaribbeanMatchesWizardOfOdds(t *testing.T) {
	if StudDeals != 19933230517200 {
		t.Fatalf("StudDeals = %d, want 19,933,230,517,200", StudDeals)
	}
	e := sharedStudEngine()
	opt, pair := e.tallies([]StudBet{caribbean()})
	for _, tc := range []struct {
		name  string
		tally *StudTally
		net   string
		edge  string
		risk  string
	}{
		{"perfect strategy", &opt[0], "-1041372912372", "5.224", "2.555"},
		{"raise on any pair or better", &pair[0], "-1090272101460", "5.470", "2.738"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := StudFigures(tc.tally, caribbean())
			if got := tc.tally.Net(caribbean()).RatString(); got != tc.net {
				t.Errorf("net = %s, want %s", got, tc.net)
			}
			if got := Percent(r.HouseEdge.Rat(), 3); got != tc.edge {
				t.Errorf("house edge = %s%%, want %s%%", got, tc.edge)
			}
			if got := Percent(r.ElementOfRisk.Rat(), 3); got != tc.risk {
				t.Errorf("element of risk = %s%%, want %s%%", got, tc.risk)
			}
		})
	}
}

// The outcomes of the optimal strategy cover every deal exactly once, and
// their contributions sum to the expected return.
func TestStudOutcomesCoverEveryDeal(t *testing.T) {
	r, ok, err := PublishedFigures("mbs-megalink-ssp-v6")
	if !ok || err != nil {
		t.Fatal(ok, err)
	}
	for _, s := range r.AnteBet {
		var n uint64
		sum := new(big.Rat)
		for _, o := range s.Outcomes {
			n += o.Count
			sum.Add(sum, o.Contribution.Rat())
		}
		if n != StudDeals {
			t.Errorf("%s: outcomes cover %d deals, want %d", s.Strategy, n, StudDeals)
		}
		if sum.Cmp(s.Return.Rat()) != 0 {
			t.Errorf("%s: contributions sum to %s, expected return %s", s.Strategy, sum.RatString(), s.Return.Rat().RatString())
		}
	}
}

// A stud pass that runs out of time is abandoned with ErrTooSlow (the HTTP
// layer answers 422: the proposal cannot be analysed inside a request).
func TestStudPassAbandonedWhenOutOfTime(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b := caribbean()
	_, err := Compute(ctx, []Spec{{Ruleset: "what-if", Game: "stud", StudBet: &b}})
	if !errors.Is(err, ErrTooSlow) {
		t.Errorf("err = %v, want ErrTooSlow", err)
	}
}
