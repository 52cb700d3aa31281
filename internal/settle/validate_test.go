package settle

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tablesettle/tablesettle/internal/card"
	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/money"
)

// Bad input is refused with a *fault.Error naming the field, never settled
// by guess.
func TestSettleRefusesBadInput(t *testing.T) {
	base := func(id string, ps ...Position) Round {
		r := Round{Ruleset: id, Dealer: dealerAK, Positions: ps}
		switch id {
		case "mbs-megalink-tcp-v6":
			r.Dealer, r.Community = tcpDealerQ, tcpCommunity
		case "mbs-megalink-thb-v9":
			r.Dealer, r.Community = "Kh Qd", thbBoard
		}
		return r
	}
	ssp := "mbs-megalink-ssp-v6"
	yes := true
	cases := []struct {
		name  string
		round Round
		field string
	}{
		{"unknown ruleset", Round{Ruleset: "nope", Dealer: dealerAK, Positions: []Position{pos(1, "3c 3d 8s 9h Jd", "ante=1")}}, "ruleset"},
		{"unknown currency", func() Round { r := base(ssp, pos(1, "3c 3d 8s 9h Jd", "ante=1000")); r.Currency = "XXX"; return r }(), "currency"},
		{"SGD fixed prizes need an SGD round", func() Round { r := base(ssp, pos(1, "3c 3d 8s 9h Jd", "ante=1000")); r.Currency = "USD"; return r }(), "currency"},
		{"a token that is not a card (ruling R12: malformed, not foreign)", base(ssp, pos(1, "3c 3d 8s 9h Xx", "ante=1000")), "positions[0].cards"},
		{"dealer card unreadable", func() Round {
			r := base(ssp, pos(1, "3c 3d 8s 9h Jd", "ante=1000"))
			r.Dealer = "As Kd 7h 4c 1s"
			return r
		}(), "dealer"},
		{"community in a stud game", func() Round { r := base(ssp, pos(1, "3c 3d 8s 9h Jd", "ante=1000")); r.Community = "2c"; return r }(), "community"},
		{"a wager the ruleset does not have", base(ssp, pos(1, "3c 3d 8s 9h Jd", "ante=1000 play=1000")), "positions[0].wagers.play"},
		{"ante bonus is not placed", base("mbs-megalink-tcp-v6", pos(1, "Kh 8c 4d", "ante=1000 anteBonus=1000")), "positions[0].wagers.anteBonus"},
		{"a negative wager", base(ssp, pos(1, "3c 3d 8s 9h Jd", "ante=-1000")), "positions[0].wagers.ante"},
		{"an absurd wager", base(ssp, pos(1, "3c 3d 8s 9h Jd", "ante=10000000000000")), "positions[0].wagers.ante"},
		{"no wager", base(ssp, pos(1, "3c 3d 8s 9h Jd", "ante=0")), "positions[0].wagers"},
		{"seat out of range", base(ssp, pos(8, "3c 3d 8s 9h Jd", "ante=1000")), "positions[0].seat"},
		{"seat 0", base(ssp, pos(0, "3c 3d 8s 9h Jd", "ante=1000")), "positions[0].seat"},
		{"two positions on one seat", base(ssp, pos(2, "3c 3d 8s 9h Jd", "ante=1000"), pos(2, "Qh Qd Qs 9c 9d", "ante=1000")), "positions[1].seat"},
		{"no positions", base(ssp), "positions"},
		{"ruling R20 a bet that is not twice the ante", base(ssp, pos(1, "3c 3d 8s 9h Jd", "ante=1000 bet=1500")), "positions[0].wagers.bet"},
		{"ruling R20 TCP play equal to the ante", base("mbs-megalink-tcp-v6", pos(1, "Kh 8c 4d", "ante=1000 play=2000")), "positions[0].wagers.play"},
		{"ruling R20 THB flop twice the ante", base("mbs-megalink-thb-v9", pos(1, "Ah Ad", "ante=1000 flop=1000")), "positions[0].wagers.flop"},
		{"ruling R20 THB turn equal to the ante", base("mbs-megalink-thb-v9", pos(1, "Ah Ad", "ante=1000 flop=2000 turn=2000")), "positions[0].wagers.turn"},
		{"THB river without flop", base("mbs-megalink-thb-v9", pos(1, "Ah Ad", "ante=1000 river=1000")), "positions[0].wagers.river"},
		// THB 3.5 bonus without ante: returned under ruling R26, see TestRulingR26_THBBonusWithoutAnteReturned.
		{"a bet that a fold forbids", base(ssp, folded(pos(1, "3c 3d 8s 9h Jd", "ante=1000 bet=2000"))), "positions[0].wagers.bet"},
		{"a bet without an ante", base(ssp, pos(1, "3c 3d 8s 9h Jd", "bet=2000")), "positions[0].wagers.bet"},
		{"folded and absent", base(ssp, absent(folded(pos(1, "3c 3d 8s 9h Jd", "ante=1000")))), "positions[0].absent"},
		{"multiplier outside THB", base(ssp, mult(pos(1, "3c 3d 8s 9h Jd", "ante=1000"), 2)), "positions[0].progressiveMultiplier"},
		{"THB multiplier above 5", base("mbs-megalink-thb-v9", mult(pos(1, "Ah Ad", "ante=1000 flop=2000 progressive=600"), 6)), "positions[0].progressiveMultiplier"},
		{"ruling R17 a stake that is not m times the unit", unit(base("mbs-megalink-thb-v9", mult(pos(1, "Ah Ad", "ante=1000 flop=2000 progressive=250"), 3)), 100), "positions[0].wagers.progressive"},
		{"ruling R17 a stake that is not the multiplier times the unit", unit(base("mbs-megalink-thb-v9", mult(pos(1, "Ah Ad", "ante=1000 flop=2000 progressive=300"), 2)), 100), "positions[0].wagers.progressive"},
		{"limits of a wager the ruleset does not have", func() Round {
			r := base(ssp, pos(1, "3c 3d 8s 9h Jd", "ante=1000"))
			r.Limits = map[string]Limit{"flop": {Min: 100}}
			return r
		}(), "limits.flop"},
		{"a maximum below the minimum", func() Round {
			r := base(ssp, pos(1, "3c 3d 8s 9h Jd", "ante=1000"))
			r.Limits = map[string]Limit{"ante": {Min: 100, Max: 50}}
			return r
		}(), "limits.ante.max"},
		{"a Magic Card outside SSP v4", func() Round { r := base(ssp, pos(1, "3c 3d 8s 9h Jd", "ante=1000")); r.MagicCard = "As"; return r }(), "magicCard"},
		{"a Lucky Dealer outside SSP v4", func() Round { r := base(ssp, pos(1, "3c 3d 8s 9h Jd", "ante=1000")); r.LuckyDealer = &yes; return r }(), "luckyDealer"},
		{"ruling R13 SSP v4 jackpot wager without the Magic Card", base("mbs-ssp-v4", pos(1, "3c 3d 8s 9h Jd", "ante=1000 progressivePlayer=100")), "magicCard"},
		{"ruling R13 SSP v4 jackpot wager without the Lucky Player", func() Round {
			r := base("mbs-ssp-v4", pos(1, "3c 3d 8s 9h Jd", "ante=1000 progressivePlayer=100"))
			r.MagicCard = "2c"
			return r
		}(), "luckyPlayerSeat"},
		{"ruling R13 SSP v4 jackpot wager without the Lucky Dealer", func() Round {
			r := base("mbs-ssp-v4", pos(1, "3c 3d 8s 9h Jd", "ante=1000 progressiveDealer=100"))
			r.MagicCard, r.LuckyPlayerSeat = "2c", 3
			return r
		}(), "luckyDealer"},
		{"SSP v4 has no absent-player rule", base("mbs-ssp-v4", absent(pos(1, "3c 3d 8s 9h Jd", "ante=1000"))), "positions[0].absent"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Settle(tc.round)
			fe, ok := fault.As(err)
			if !ok {
				t.Fatalf("err = %v, want a FieldError on %s", err, tc.field)
			}
			if fe.Field() != tc.field {
				t.Errorf("field %q (%s), want %q", fe.Field(), fe.Detail, tc.field)
			}
		})
	}
}

// A zero amount is no wager; the currency defaults to SGD.
func TestSettleDefaults(t *testing.T) {
	s, err := Settle(Round{Ruleset: "mbs-megalink-thb-v9", Dealer: "Kh Qd", Community: thbBoard,
		Positions: []Position{{Seat: 1, Cards: "Ah Ad", Wagers: map[string]money.Amount{"ante": 1000, "flop": 2000, "turn": 0}}}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Currency != "SGD" || len(s.Positions[0].Lines) != 2 {
		t.Errorf("currency %s lines %+v", s.Currency, s.Positions[0].Lines)
	}
	// THB has no SGD amounts: another currency is fine.
	s, err = Settle(Round{Ruleset: "mbs-megalink-thb-v9", Currency: "USD", Dealer: "Kh Qd", Community: thbBoard,
		Positions: []Position{{Seat: 1, Cards: "Ah Ad", Wagers: map[string]money.Amount{"ante": 1000, "flop": 2000}}}})
	if err != nil || s.Currency != "USD" {
		t.Errorf("USD THB: %v %s", err, s.Currency)
	}
}

func TestFormatCardsIsCardFormat(t *testing.T) {
	d := card.Deck()
	if got, want := formatCards(d), card.Format(d); got != want {
		t.Errorf("formatCards %q, card.Format %q", got, want)
	}
	if formatCards(nil) != "" {
		t.Error("empty")
	}
}

// A folded hand may come without its cards when no wager it keeps needs
// them: the Ante is lost (3.9.1) and nothing else is decided.
func TestFoldedHandWithoutCards(t *testing.T) {
	s, err := Settle(Round{Ruleset: "mbs-megalink-ssp-v6", Dealer: dealerAK, Positions: []Position{folded(pos(1, "", "ante=1000"))}})
	if err != nil {
		t.Fatal(err)
	}
	if got := lines(s); got != "1 ante lose 1000>0\n" {
		t.Errorf("lines %q", got)
	}
	// Ruling R20: an Ante alone has folded, with or without the flag.
	s, err = Settle(Round{Ruleset: "mbs-megalink-thb-v9", Dealer: "Kh Qd", Community: thbBoard, Positions: []Position{pos(1, "", "ante=1000 bonus=500")}})
	if err != nil {
		t.Fatal(err)
	}
	if got := lines(s); got != "1 ante lose 1000>0\n1 bonus lose 500>0\n" {
		t.Errorf("lines %q", got)
	}
	for _, tc := range []struct{ id, wagers string }{
		{"mbs-megalink-ssp-v6", "ante=1000 progressive=100"},
		{"rws-mlp-csp-v2", "ante=1000 progressive=100"},
	} {
		_, err := Settle(Round{Ruleset: tc.id, Dealer: dealerAK, Positions: []Position{folded(pos(1, "", tc.wagers))}})
		if fe, ok := fault.As(err); !ok || fe.Field() != "positions[0].cards" {
			t.Errorf("%s %s: %v, want a FieldError on positions[0].cards (ruling R9, R14)", tc.id, tc.wagers, err)
		}
	}
	_, err = Settle(Round{Ruleset: "mbs-megalink-tcp-v6", Dealer: tcpDealerQ, Community: tcpCommunity, Positions: []Position{folded(pos(1, "", "ante=1000 pairPlus=500"))}})
	if fe, ok := fault.As(err); !ok || fe.Field() != "positions[0].cards" {
		t.Errorf("TCP pair plus: %v", err)
	}
}

// An exposed hand (the default) that is not folded is decided by its cards
// (ruling R14: nothing claimed is trusted): without them the request is
// refused on positions[i].cards, not settled as a dealing irregularity
// (ruling R12 is about cards dealt, not cards left out). Only a declined
// hand (exposed false, ruling R8) or a folded one may omit them.
func TestExposedHandWithoutCardsRefused(t *testing.T) {
	for _, tc := range []struct {
		name  string
		round Round
	}{
		{"mbs-ssp-v4 3.13 exposed hand with ante and bet", Round{Ruleset: "mbs-ssp-v4", Dealer: "Ac Qd Jh Ts 8c",
			Positions: []Position{pos(1, "", "ante=100 bet=200"), pos(2, "2c 2d 9h 5s 7h", "ante=100 bet=200")}}},
		{"mbs-megalink-ssp-v6 3.10.3 exposed hand with ante and bet", Round{Ruleset: "mbs-megalink-ssp-v6", Dealer: "Ac Qd Jh Ts 8c",
			Positions: []Position{pos(2, "2c 2d 9h 5s 7h", "ante=100 bet=200"), pos(1, "", "ante=100 bet=200")}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Settle(tc.round)
			want := "positions[0].cards"
			if tc.round.Positions[0].Cards != "" {
				want = "positions[1].cards"
			}
			if fe, ok := fault.As(err); !ok || fe.Field() != want {
				t.Fatalf("err = %v, want a FieldError on %s", err, want)
			}
		})
	}
	// A declined hand (ruling R8, R19) may come without its cards: it loses
	// what its cards decide.
	s, err := Settle(Round{Ruleset: "mbs-ssp-v4", Dealer: "Ac Qd Jh Ts 8c", Positions: []Position{declined(pos(1, "", "ante=100 bet=200"))}})
	if err != nil {
		t.Fatal(err)
	}
	if got := lines(s); got != "1 ante lose 100>0\n1 bet lose 200>0\n" {
		t.Errorf("declined lines %q", got)
	}
}

// Ruling R20 (SSP v6 1.1.2): a Bet that is not twice the Ante is refused as
// an Invalid fault naming the wager's path and citing the rules that decide.
func TestRefusalCitesTheRule_R20(t *testing.T) {
	_, err := Settle(Round{Ruleset: "mbs-megalink-ssp-v6", Dealer: "As Kd 7h 4c 2s",
		Positions: []Position{{Seat: 1, Cards: "Qh Qd Qs 9c 9d", Wagers: map[string]money.Amount{"ante": 1000, "bet": 3000}}}})
	fe, ok := fault.As(err)
	if !ok || fe.Kind != fault.Invalid || fe.Field() != "positions[0].wagers.bet" || fe.Fields[0].Value != money.Amount(3000) {
		t.Fatalf("err = %#v, want Invalid on positions[0].wagers.bet with value 3000", err)
	}
	if want := []string{"mbs-megalink-ssp-v6 1.1.2", "ruling R20"}; !reflect.DeepEqual(fe.Rules, want) {
		t.Fatalf("rules %v, want %v", fe.Rules, want)
	}
}

// The refusals that state an amount state it in money, grouped by
// thousands, as the irregularity service does (ruling R20: the Bet is twice
// the Ante; ruling R22: the progressive wager is the pool's unit; ruling
// R17: THB's is 1 to 5 units).
func TestRefusalsStateAmountsInMoney(t *testing.T) {
	for _, tc := range []struct {
		name  string
		round Round
		want  string
	}{
		{"ruling R20 mbs-megalink-ssp-v6 1.1.2", Round{Ruleset: "mbs-megalink-ssp-v6", Dealer: "Ad Kd 7h 4c 2s",
			Positions: []Position{pos(3, "Ts Js Qs Ks As", "ante=100000 bet=150000")}},
			"bet must be 2 times the ante (SGD 2,000.00), not SGD 1,500.00 (mbs-megalink-ssp-v6 1.1.2, ruling R20)"},
		{"ruling R22 the pool's unit", unit(Round{Ruleset: "mbs-megalink-ssp-v6", Dealer: "Ad Kc 9h 4s 5d",
			Positions: []Position{pos(1, "2h 2s 2c Jh Jd", "ante=100 bet=200 progressive=150000")}}, 100),
			"a progressive wager must be the pool's unit SGD 1.00, not SGD 1,500.00: the pool refuses any other amount"},
		{"ruling R17 THB six units", unit(Round{Ruleset: "mbs-megalink-thb-v9", Dealer: "Kh Qd", Community: thbBoard,
			Positions: []Position{pos(1, "Ah Ad", "ante=1000 flop=2000 progressive=600000")}}, 100000),
			"a progressive wager of SGD 6,000.00 is not 1 to 5 times the unit SGD 1,000.00"},
		{"ruling R17 THB a multiplier that disagrees", unit(Round{Ruleset: "mbs-megalink-thb-v9", Dealer: "Kh Qd", Community: thbBoard,
			Positions: []Position{mult(pos(1, "Ah Ad", "ante=1000 flop=2000 progressive=300000"), 2)}}, 100000),
			"with multiplier 2 the progressive wager is SGD 2,000.00 (2 times the unit SGD 1,000.00), not SGD 3,000.00"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Settle(tc.round)
			fe, ok := fault.As(err)
			if !ok || !strings.Contains(fe.Detail, tc.want) {
				t.Fatalf("err = %v; want a refusal saying %q", err, tc.want)
			}
		})
	}
}
