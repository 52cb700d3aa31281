package irregularity

import (
	"slices"
	"strings"
	"testing"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/money"
)

// problems' fields and messages, for the refusals below.
func refusal(t *testing.T, err error) (string, string) {
	t.Helper()
	f := problems(t, err)
	if len(f) != 1 {
		t.Fatalf("fields %q (%v), want one", f, err)
	}
	fe, _ := fault.As(err)
	return f[0], fe.Fields[0].Message
}

// Ruling R20: a round attached to a report is held to the fixed multiples
// settlement holds it to (an MBS Bet is twice the Ante, SSP v6 1.1.2; a TCP
// Play equal to it, 1.1.7; a THB Flop twice it, 3.9.2); RWS 5.3 settles
// another BET and is not refused.
func TestAttachedRoundFixedMultiples_R20(t *testing.T) {
	for _, c := range []struct {
		name, ruleset string
		round         *Round
		field         string
	}{
		{"SSPv6_1.1.2_Bet3xAnte", MBSMegalinkSSPv6, round(pos(1, "ante=1000", "bet=2000"), pos(3, "ante=1000", "bet=3000")), "round.positions[1].wagers.bet"},
		{"TCPv6_1.1.7_PlayNotAnte", MBSMegalinkTCPv6, round(pos(2, "ante=1000", "play=500")), "round.positions[0].wagers.play"},
		{"THBv9_3.9.2_FlopNotTwice", MBSMegalinkTHBv9, round(pos(2, "ante=1000", "flop=1000")), "round.positions[0].wagers.flop"},
		{"THBv9_3.9.2_TurnNotAnte", MBSMegalinkTHBv9, round(pos(2, "ante=1000", "flop=2000", "turn=2000")), "round.positions[0].wagers.turn"},
		{"SSPv4_1.1.2_Bet3xAnte", MBSSSPv4, round(pos(1, "ante=1000", "bet=3000")), "round.positions[0].wagers.bet"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rs, _ := Catalogue(c.ruleset)
			_, err := Decide(rs, "power_failure", map[string]any{"outcomeEstablished": true}, c.round)
			if c.ruleset == MBSSSPv4 {
				_, err = Decide(rs, "foreign_card", nil, c.round)
			}
			field, msg := refusal(t, err)
			if field != c.field || !strings.Contains(msg, "ruling R20") {
				t.Fatalf("%s %q, want %s citing ruling R20", field, msg, c.field)
			}
			if fe, _ := fault.As(err); !slices.Equal(fe.Rules, []string{"ruling R20"}) {
				t.Fatalf("rules %v, want [ruling R20]", fe.Rules)
			}
		})
	}
	// RWS 5.3: a BET of three times the Ante is an irregularity to decide.
	rs, _ := Catalogue(RWSMLPCSPv2)
	out, err := Decide(rs, "bet_not_twice_ante", map[string]any{"seat": 1, "betComparedToTwiceAnte": "above"}, round(pos(1, "ante=1000", "bet=3000")))
	if err != nil || out.Settlement.TotalReturned != 1000 {
		t.Fatalf("RWS 5.3.1: %+v %v, want the excess 1000 returned", out.Settlement, err)
	}
}

// Ruling R22 (RWS 3.4; THB 3.5.3, ruling R17): progressive stakes in an
// attached round are the pool's unit, THB 1-5 units; without the unit the
// stakes of one round must agree. SSP v4's credits take no unit.
func TestAttachedRoundProgressiveUnit_R22(t *testing.T) {
	unit := func(r *Round, u int64) *Round { r.ProgressiveUnit = money.Amount(u); return r }
	for _, c := range []struct {
		name, ruleset string
		round         *Round
		field         string
	}{
		{"SSPv6_NotTheUnit", MBSMegalinkSSPv6, unit(round(pos(1, "ante=1000", "bet=2000", "progressive=200")), 100), "round.positions[0].wagers.progressive"},
		{"RWS_3.4_NotTheUnit", RWSMLPCSPv2, unit(round(pos(1, "ante=1000", "progressive=150")), 100), "round.positions[0].wagers.progressive"},
		{"THBv9_3.5.3_SixUnits", MBSMegalinkTHBv9, unit(round(pos(1, "ante=1000", "progressive=600")), 100), "round.positions[0].wagers.progressive"},
		{"THBv9_3.5.3_NotWholeUnits", MBSMegalinkTHBv9, unit(round(pos(1, "ante=1000", "progressive=250")), 100), "round.positions[0].wagers.progressive"},
		{"TCPv6_StakesDisagree", MBSMegalinkTCPv6, round(pos(1, "ante=1000", "progressive=100"), pos(2, "ante=1000", "progressive=200")), "round.positions[1].wagers.progressive"},
		{"SSPv4_CreditsNoUnit", MBSSSPv4, unit(round(pos(1, "ante=1000", "progressivePlayer=100")), 100), "round.progressiveUnit"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rs, _ := Catalogue(c.ruleset)
			_, err := Decide(rs, "foreign_card", nil, c.round)
			field, msg := refusal(t, err)
			if field != c.field || !strings.Contains(msg, "ruling R22") {
				t.Fatalf("%s %q, want %s citing ruling R22", field, msg, c.field)
			}
			if fe, _ := fault.As(err); !slices.Equal(fe.Rules, []string{"ruling R22"}) {
				t.Fatalf("rules %v, want [ruling R22]", fe.Rules)
			}
		})
	}
	// Within the rules: the unit, and THB 3 units, void and returned whole.
	for _, c := range []struct {
		ruleset string
		round   *Round
		total   int64
	}{
		{MBSMegalinkSSPv6, unit(round(pos(1, "ante=1000", "bet=2000", "progressive=100")), 100), 3100},
		{MBSMegalinkTHBv9, unit(round(pos(1, "ante=1000", "progressive=300")), 100), 1300},
		{MBSMegalinkTCPv6, round(pos(1, "ante=1000", "progressive=100"), pos(2, "ante=500", "progressive=100")), 1700},
	} {
		rs, _ := Catalogue(c.ruleset)
		out, err := Decide(rs, "foreign_card", nil, c.round)
		if err != nil || out.Settlement.TotalReturned != money.Amount(c.total) {
			t.Errorf("%s: %v returned %v, want %d", c.ruleset, err, out.Settlement, c.total)
		}
	}
}
