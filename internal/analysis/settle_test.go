package analysis

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tablesettle/tablesettle/internal/card"
	"github.com/tablesettle/tablesettle/internal/hand"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/ruleset"
	"github.com/tablesettle/tablesettle/internal/settle"
)

// The analysis counts outcomes and prices each with its own model of the
// rules (stud.go, tcp.go, thb.go). These tests deal seeded random rounds and
// check that the model's net result of each is exactly what package settle,
// which settles real rounds, pays.

func deal(rng *rand.Rand, n int) []card.Card {
	perm := rng.Perm(card.NumCards)
	out := make([]card.Card, n)
	for i := range out {
		out[i] = card.Card(perm[i])
	}
	return out
}

func fmtCards(cs []card.Card) string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = c.String()
	}
	return strings.Join(s, " ")
}

func settleOne(t *testing.T, r settle.Round) settle.PositionResult {
	t.Helper()
	s, err := settle.Settle(r)
	if err != nil {
		t.Fatalf("Settle %+v: %v", r, err)
	}
	if len(s.Positions) != 1 {
		t.Fatalf("%d positions", len(s.Positions))
	}
	return s.Positions[0]
}

// Stud (SSP v6 3.9-3.10, 4.1; SSP v4 3.9-3.13, 4.1; RWS 3.12-3.14, 4.1):
// Ante 100 and, when betting, Bet 200.
func TestStudModelMatchesSettlement(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	for _, id := range []ruleset.ID{ruleset.SSPv6, ruleset.SSPv4, ruleset.RWSCSPv2} {
		rs, _ := ruleset.Get(id)
		spec, err := FromRuleset(rs, DefaultUnit)
		if err != nil {
			t.Fatal(err)
		}
		b := *spec.StudBet
		for i := 0; i < 3000; i++ {
			cs := deal(rng, 10)
			p, d := cs[:5], cs[5:]
			pv, dv := hand.EvalHand(p), hand.EvalHand(d)
			fold := i%4 == 0
			wagers := map[string]money.Amount{"ante": 100}
			var want int64
			switch {
			case fold:
				want = -100
			case !hand.QualifiesStud(dv):
				want = 100
			case pv > dv:
				o := b[pv.Category()]
				want = 100 + 200*o.Num/o.Den
			case pv == dv:
				want = 0
			default:
				want = -300
			}
			if !fold {
				wagers["bet"] = 200
			}
			pr := settleOne(t, settle.Round{Ruleset: string(id), RoundID: "x", Dealer: fmtCards(d),
				Positions: []settle.Position{{Seat: 1, Cards: fmtCards(p), Wagers: wagers, Folded: fold}}})
			if int64(pr.Net) != want {
				t.Fatalf("%s: player %s dealer %s fold %v: settlement net %d, analysis model %d", id, fmtCards(p), fmtCards(d), fold, pr.Net, want)
			}
		}
	}
}

// TCP v6 3.9-3.12, 4.1-4.3, ruling R10: Ante, Play and Pair Plus 100 each.
func TestTCPModelMatchesSettlement(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	pp, ab := tcpDoc()
	for i := 0; i < 5000; i++ {
		cs := deal(rng, 8)
		p, d, comm := cs[:3], cs[3:6], cs[6:8]
		pv, dv := hand.Eval3(p[0], p[1], p[2]), hand.Eval3(d[0], d[1], d[2])
		fold := i%3 == 0
		wagers := map[string]money.Amount{"ante": 100, "pairPlus": 100}
		var want int64
		if o, ok := pp[pv.Category()]; ok {
			want += 100 * o.Num / o.Den
		} else {
			want -= 100
		}
		if fold {
			want -= 100
		} else {
			wagers["play"] = 100
			switch {
			case !hand.QualifiesTCP(dv):
				want += 100
			case pv > dv:
				want += 200
			case pv < dv:
				want -= 200
			}
			if o, ok := ab[pv.Category()]; ok {
				want += 100 * o.Num / o.Den
			}
		}
		pr := settleOne(t, settle.Round{Ruleset: string(ruleset.TCPv6), RoundID: "x", Dealer: fmtCards(d), Community: fmtCards(comm),
			Positions: []settle.Position{{Seat: 1, Cards: fmtCards(p), Wagers: wagers, Folded: fold}}})
		if int64(pr.Net) != want {
			t.Fatalf("player %s dealer %s fold %v: settlement net %d, analysis model %d", fmtCards(p), fmtCards(d), fold, pr.Net, want)
		}
	}
}

// THB v9 4.1.1 and ruling R16: the Bonus line alone, the player playing
// (Flop 200, Turn and River checked).
func TestTHBBonusModelMatchesSettlement(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 7))
	rs, _ := ruleset.Get(ruleset.THBv9)
	spec, err := FromRuleset(rs, DefaultUnit)
	if err != nil {
		t.Fatal(err)
	}
	aces := card.MustParseList("Ac Ad Ah As")
	for i := 0; i < 3000; i++ {
		cs := deal(rng, 9)
		if i%50 == 0 { // A-A against A-A is too rare to meet by chance
			cs = append(append([]card.Card{}, aces...), card.MustParseList("2c 7d 9h Js Kd")...)
		}
		p, d, board := cs[:2], cs[2:4], cs[4:9]
		want := int64(-100)
		if h := ruleset.HoleBonusHand(p, d); h != "" {
			o := spec.Bonus[h]
			want = 100 * o.Num / o.Den
		}
		pr := settleOne(t, settle.Round{Ruleset: string(ruleset.THBv9), RoundID: "x", Dealer: fmtCards(d), Community: fmtCards(board),
			Positions: []settle.Position{{Seat: 1, Cards: fmtCards(p), Wagers: map[string]money.Amount{"ante": 100, "flop": 200, "bonus": 100}}}})
		var got int64
		found := false
		for _, l := range pr.Lines {
			if l.Wager == ruleset.Bonus {
				got, found = int64(l.Net), true
			}
		}
		if !found || got != want {
			t.Fatalf("player %s dealer %s: settlement Bonus net %d (found %v), analysis model %d", fmtCards(p), fmtCards(d), got, found, want)
		}
	}
}

// The progressive prizes (SSP v6 4.2, SSP v4 4.2-4.5, TCP v6 4.4, THB v9
// 4.2 with 3.5.3.1, RWS 4.2; rulings R2, R3, R17, R18): what the model
// counts as returned on the wager is what settlement returns on its line.
func TestProgressiveModelMatchesSettlement(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	forced := []string{"Ah Kh Qh Jh Th", "9c 8c 7c 6c 5c", "Qs Qh Qd Qc 2d", "Jc Jd Js 4h 4c", "Kd 9d 7d 4d 2d", "9s 8d 7c 6h 5s"}
	for _, rs := range ruleset.All() {
		spec, err := FromRuleset(rs, DefaultUnit)
		if err != nil {
			t.Fatal(err)
		}
		p := spec.Progressives[0]
		paid := 0
		for i := 0; i < 1500; i++ {
			var five []card.Card
			if i < len(forced) {
				five = card.MustParseList(forced[i])
			} else {
				five = deal(rng, 5)
			}
			// the other cards of the round, away from the five
			var used uint64
			for _, c := range five {
				used |= 1 << c
			}
			var rest []card.Card
			for _, j := range rng.Perm(card.NumCards) {
				if used&(1<<j) == 0 {
					rest = append(rest, card.Card(j))
				}
			}
			m := int64(1)
			if len(p.Multiples) > 0 {
				m = int64(1 + i%len(p.Multiples))
			}
			stake := m * p.Unit
			r := settle.Round{Ruleset: string(rs.ID), RoundID: "x"}
			if p.Wager == string(ruleset.Progressive) {
				// ruling R22 (THB: 1-5 times it, R17): the stake is in the
				// pool's unit, which settlement must be told.
				r.ProgressiveUnit = money.Amount(p.Unit)
			}
			pos := settle.Position{Seat: 1, Wagers: map[string]money.Amount{"ante": 100, p.Wager: money.Amount(stake)}, Folded: true}
			var magic card.Card
			switch rs.Game {
			case ruleset.GameStud:
				pos.Cards, r.Dealer = fmtCards(five), fmtCards(rest[:5])
				if rs.ID == ruleset.SSPv4 {
					magic = card.Card(rng.IntN(card.NumCards))
					no := false
					r.MagicCard, r.LuckyPlayerSeat, r.LuckyDealer = magic.String(), 2, &no
				}
			case ruleset.GameThreeCard:
				pos.Cards, r.Community, r.Dealer = fmtCards(five[:3]), fmtCards(five[3:]), fmtCards(rest[:3])
			case ruleset.GameHoldem:
				pos.Cards, r.Dealer = fmtCards(five[:2]), fmtCards(rest[:2])
				r.Community = fmtCards(append(append([]card.Card{}, five[2:]...), rest[2:4]...))
				pos.ProgressiveMultiplier = int(m)
			}
			r.Positions = []settle.Position{pos}
			pr := settleOne(t, r)
			cat := hand.EvalHand(five).Category()
			var want int64
			stakeBack := false
			for _, z := range p.Prizes {
				if z.Category != cat {
					continue
				}
				switch z.Kind {
				case PrizeToOne:
					want += stake * z.Odds.Num / z.Odds.Den
					stakeBack = true
				case PrizeForOne:
					want += stake * z.Odds.Num / z.Odds.Den
				case PrizeFixed:
					want += z.Amount
				}
			}
			for _, s := range p.Selections {
				for _, c := range five {
					if c == magic && s.Name == "magic_card" {
						want += stake * s.Odds.Num / s.Odds.Den
						stakeBack = true
					}
				}
			}
			if stakeBack {
				want += stake
			}
			var got int64
			for _, l := range pr.Lines {
				if string(l.Wager) == p.Wager {
					got += int64(l.Returned)
				}
			}
			if want > 0 {
				paid++
			}
			if got != want {
				t.Fatalf("%s: %s (%s) x%d magic %v: settlement returns %d, analysis model %d; lines %+v", rs.ID, fmtCards(five), cat, m, magic, got, want, pr.Lines)
			}
		}
		if paid < 3 { // the forced quads, full house and flush at least
			t.Errorf("%s: only %d paying rounds checked", rs.ID, paid)
		}
	}
}
