package settle

import (
	"slices"
	"strings"
	"testing"

	"github.com/tablesettle/tablesettle/internal/fault"
)

// Ruling R26 (THB 3.5, 5.12.2): a Bonus without an Ante is returned at the
// end of the round, not refused; a Progressive without an Ante beside it
// is returned too (5.12.2).
func TestRulingR26_THBBonusWithoutAnteReturned(t *testing.T) {
	for _, tc := range []struct {
		name   string
		p      Position
		lines  string
		staked int64
	}{
		{"bonus only", pos(1, "Ah Ad", "bonus=1000"), "1 bonus returned 1000>1000\n", 1000},
		{"bonus and progressive", pos(1, "Ah Ad", "bonus=1000 progressive=100"), "1 bonus returned 1000>1000\n1 progressive returned 100>100\n", 1100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Settle(Round{Ruleset: "mbs-megalink-thb-v9", Dealer: "Kh Qd", Community: thbBoard, ProgressiveUnit: 100,
				Positions: []Position{tc.p, pos(2, "8c 8d", "ante=1000 flop=2000")}})
			if err != nil {
				t.Fatal(err)
			}
			if got := lines(seatOnly(s, 1)); got != tc.lines {
				t.Errorf("lines %q, want %q", got, tc.lines)
			}
			if want := []string{"mbs-megalink-thb-v9 3.5", "mbs-megalink-thb-v9 5.12.2", "ruling R26"}; !slices.Equal(lineRules(t, s, 1, "bonus"), want) {
				t.Errorf("bonus rules %v, want %v", lineRules(t, s, 1, "bonus"), want)
			}
			p := seatOf(t, s, 1)
			if int64(p.Staked) != tc.staked || p.Net != 0 {
				t.Errorf("staked %d net %d", p.Staked, p.Net)
			}
			if !slices.ContainsFunc(s.Irregularities, func(i Irregularity) bool {
				return i.Code == "bonus_without_ante" && i.Seat == 1 && slices.Contains(i.Rules, "ruling R26")
			}) {
				t.Errorf("irregularities %+v", s.Irregularities)
			}
		})
	}
}

// Ruling R26 (THB 5.11): absent at the Flop decision, the Ante and the
// Progressive are returned and the Bonus settles on the hole cards: A-A
// pays 30 to 1 (4.1.1), 500 + 15000.
func TestRulingR26_THBAbsentAtFlopBonusOnHoleCards(t *testing.T) {
	s, err := Settle(Round{Ruleset: "mbs-megalink-thb-v9", Dealer: "Kh Qd", Community: thbBoard, ProgressiveUnit: 100,
		Positions: []Position{absent(pos(1, "Ah Ad", "ante=1000 bonus=500 progressive=100"))}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := lines(s), "1 ante returned 1000>1000\n1 bonus win 500>15500\n1 progressive returned 100>100\n"; got != want {
		t.Errorf("lines %q, want %q", got, want)
	}
	if r := lineRules(t, s, 1, "bonus"); !slices.Contains(r, "ruling R26") || !slices.Contains(r, "mbs-megalink-thb-v9 5.11") {
		t.Errorf("bonus rules %v", r)
	}
	if s.Totals.PlayerNet != 15000 {
		t.Errorf("player net %d, want 15000", s.Totals.PlayerNet)
	}
}

// Ruling R25: an SSP v4 player absent at his Bet decision is refused,
// naming the seat, until the manager's decision is sent; the refusal cites
// the ruling.
func TestRulingR25_SSPv4AbsentRefusedNamingTheSeat(t *testing.T) {
	_, err := Settle(Round{Ruleset: "mbs-ssp-v4", Dealer: "Ad Kc 9h 4s 5d",
		Positions: []Position{pos(2, "2h 2d 2c Jh Jd", "ante=100 bet=200"), absent(pos(5, "3h 3d 8c Qh Jc", "ante=100"))}})
	fe, ok := fault.As(err)
	if !ok || fe.Field() != "positions[1].absent" || !strings.Contains(fe.Detail, "seat 5") || !slices.Equal(fe.Rules, []string{"ruling R25"}) {
		t.Fatalf("err %v (rules %v), want positions[1].absent naming seat 5 citing ruling R25", err, fe.Rules)
	}
	// The manager's decision sent as a fold settles: the Ante lost.
	s, err := Settle(Round{Ruleset: "mbs-ssp-v4", Dealer: "Ad Kc 9h 4s 5d",
		Positions: []Position{folded(pos(5, "3h 3d 8c Qh Jc", "ante=100"))}})
	if err != nil || lines(s) != "5 ante lose 100>0\n" {
		t.Fatalf("%q %v", lines(s), err)
	}
}

// seatOnly is s with only the given seat's position.
func seatOnly(s Settlement, seat int) Settlement {
	out := s
	out.Positions = nil
	for _, p := range s.Positions {
		if p.Seat == seat {
			out.Positions = append(out.Positions, p)
		}
	}
	return out
}
