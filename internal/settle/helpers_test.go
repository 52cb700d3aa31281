package settle

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// pos builds a position from "ante=1000 bet=2000".
func pos(seat int, cards, wagers string) Position {
	w := map[string]money.Amount{}
	for _, f := range strings.Fields(wagers) {
		k, val, _ := strings.Cut(f, "=")
		n, err := strconv.ParseInt(val, 10, 64)
		if err != nil {
			panic(err)
		}
		w[k] = money.Amount(n)
	}
	return Position{Seat: seat, Cards: cards, Wagers: w}
}

func folded(p Position) Position   { p.Folded = true; return p }
func absent(p Position) Position   { p.Absent = true; return p }
func declined(p Position) Position { f := false; p.Exposed = &f; return p }
func mult(p Position, m int) Position {
	p.ProgressiveMultiplier = m
	return p
}

// lines writes a settlement's lines compactly, one per line, in seat order:
// "1 ante win 1000>2000".
func lines(s Settlement) string {
	var b strings.Builder
	for _, p := range s.Positions {
		for _, l := range p.Lines {
			fmt.Fprintf(&b, "%d %s %s %d>%d\n", p.Seat, l.Wager, l.Result, l.Stake, l.Returned)
		}
	}
	return b.String()
}

// allRules collects every rule a settlement cites.
func allRules(s Settlement) map[string]bool {
	m := map[string]bool{}
	for _, p := range s.Positions {
		for _, l := range p.Lines {
			for _, r := range l.Rules {
				m[r] = true
			}
		}
		for _, e := range p.Jackpot {
			for _, r := range e.Rules {
				m[r] = true
			}
		}
	}
	for _, irr := range s.Irregularities {
		for _, r := range irr.Rules {
			m[r] = true
		}
	}
	if s.Dealer != nil {
		for _, r := range s.Dealer.Rules {
			m[r] = true
		}
	}
	return m
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// settleCase is one row of a ruleset's table: a round, the lines it must
// settle to exactly, and rules that must be cited.
type settleCase struct {
	name  string
	round Round
	want  string   // lines(), trimmed
	cites []string // must each be cited somewhere
	check func(t *testing.T, s Settlement)
}

func runCases(t *testing.T, id string, cases []settleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.round
			r.Ruleset = id
			s, err := Settle(r)
			if err != nil {
				t.Fatalf("Settle: %v", err)
			}
			got := strings.TrimSpace(lines(s))
			want := strings.TrimSpace(dedent(tc.want))
			if got != want {
				t.Errorf("lines:\n%s\nwant:\n%s", got, want)
			}
			rules := allRules(s)
			for _, c := range tc.cites {
				if !strings.HasPrefix(c, "ruling ") {
					c = id + " " + c
				}
				if !rules[c] {
					t.Errorf("does not cite %q; cites %v", c, sortedKeys(rules))
				}
			}
			checkMoney(t, s)
			if tc.check != nil {
				tc.check(t, s)
			}
		})
	}
}

func dedent(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// checkMoney asserts that every line's result agrees with its money and
// that the totals add up.
func checkMoney(t *testing.T, s Settlement) {
	t.Helper()
	var staked, net money.Amount
	for _, p := range s.Positions {
		var pst, pnet money.Amount
		for _, l := range p.Lines {
			if l.Net != l.Returned-l.Stake {
				t.Errorf("seat %d %s: net %d != returned %d - stake %d", p.Seat, l.Wager, l.Net, l.Returned, l.Stake)
			}
			switch l.Result {
			case Lose:
				if l.Returned != 0 {
					t.Errorf("seat %d %s: lose returns %d", p.Seat, l.Wager, l.Returned)
				}
			case Push, Returned, Void:
				if l.Returned != l.Stake {
					t.Errorf("seat %d %s: %s returns %d, stake %d", p.Seat, l.Wager, l.Result, l.Returned, l.Stake)
				}
			case Win:
				// win returns more than the stake, with one named exception
				// (ruling R2, R3): a progressive line whose only prize is a
				// percentage of the pool keeps no stake and returns 0 here;
				// the pools service pays the share. It is flagged
				// pool_prize, and anything else on it (an SSP v4 Magic Card
				// or Lucky prize, R18) returns more than the stake as usual.
				poolOnly := isProgressive(l.Wager) && hasFlag(l, "pool_prize") && l.Returned == 0
				if l.Returned <= l.Stake && !poolOnly {
					t.Errorf("seat %d %s: win returns %d on stake %d", p.Seat, l.Wager, l.Returned, l.Stake)
				}
			default:
				t.Errorf("seat %d %s: result %q", p.Seat, l.Wager, l.Result)
			}
			if len(l.Rules) == 0 {
				t.Errorf("seat %d %s: a line with no rule", p.Seat, l.Wager)
			}
			for i, r := range l.Rules {
				if slices.Contains(l.Rules[:i], r) {
					t.Errorf("seat %d %s: cites %q twice: %v", p.Seat, l.Wager, r, l.Rules)
				}
			}
			pst += l.Stake
			pnet += l.Net
		}
		if pst != p.Staked || pnet != p.Net {
			t.Errorf("seat %d: staked %d net %d, lines say %d %d", p.Seat, p.Staked, p.Net, pst, pnet)
		}
		staked += pst
		net += pnet
	}
	if s.Totals.Staked != staked || s.Totals.PlayerNet != net || s.Totals.HouseNet != -net || s.Totals.Returned != staked+net {
		t.Errorf("totals %+v, lines say staked %d net %d", s.Totals, staked, net)
	}
}

func isProgressive(w ruleset.Wager) bool {
	return w == ruleset.Progressive || w == ruleset.ProgressivePlayer || w == ruleset.ProgressiveDealer
}

func hasFlag(l Line, f string) bool {
	for _, x := range l.Flags {
		if x == f {
			return true
		}
	}
	return false
}

func seatOf(t *testing.T, s Settlement, seat int) PositionResult {
	t.Helper()
	for _, p := range s.Positions {
		if p.Seat == seat {
			return p
		}
	}
	t.Fatalf("no seat %d", seat)
	return PositionResult{}
}

func jackpot(t *testing.T, s Settlement, seat int) string {
	t.Helper()
	var parts []string
	for _, e := range seatOf(t, s, seat).Jackpot {
		parts = append(parts, fmt.Sprintf("%s %s %s %s x%d %s", e.Wager, e.Kind, e.Category, e.Prize, e.Multiplier, e.PaidBy))
	}
	return strings.Join(parts, "; ")
}
