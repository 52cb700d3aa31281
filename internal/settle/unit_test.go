package settle

import (
	"strings"
	"testing"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/money"
)

// unit gives a round the progressive pool's unit (ruling R22).
func unit(r Round, u int64) Round {
	r.ProgressiveUnit = money.Amount(u)
	return r
}

// Ruling R22: outside THB (R17) and SSP v4 (credits) a progressive wager
// must equal the pool's unit, and ruling R2 pays a fixed prize "per
// accepted progressive wager of the pool's unit": settlement needs the
// unit and refuses any other stake, never guesses one.
func TestProgressiveUnitRefusals(t *testing.T) {
	ssp := func(ps ...Position) Round {
		return Round{Ruleset: "mbs-megalink-ssp-v6", Dealer: "Ad Kc 9h 4s 5d", Positions: ps}
	}
	rws := func(ps ...Position) Round {
		return Round{Ruleset: "rws-mlp-csp-v2", Dealer: "Ad Kc 9h 4s 5d", Positions: ps}
	}
	tcp := func(ps ...Position) Round {
		return Round{Ruleset: "mbs-megalink-tcp-v6", Dealer: tcpDealerQ, Community: tcpCommunity, Positions: ps}
	}
	thb := func(ps ...Position) Round {
		return Round{Ruleset: "mbs-megalink-thb-v9", Dealer: "Kh Qd", Community: thbBoard, Positions: ps}
	}
	withLimits := func(r Round, l map[string]Limit) Round { r.Limits = l; return r }
	cases := []struct {
		name  string
		round Round
		field string
	}{
		// Without the unit nothing can be paid per unit: refused.
		{"ruling R22 mbs-megalink-ssp-v6 progressive without progressiveUnit", ssp(pos(1, "2h 2s 2c Jh Jd", "ante=100 bet=200 progressive=100")), "progressiveUnit"},
		{"ruling R22 mbs-megalink-tcp-v6 progressive without progressiveUnit", tcp(pos(1, "Ks Kd 2h", "ante=1000 play=1000 progressive=100")), "progressiveUnit"},
		{"ruling R17 R22 mbs-megalink-thb-v9 progressive without progressiveUnit", thb(pos(1, "Ah Ad", "ante=1000 flop=2000 progressive=100")), "progressiveUnit"},
		{"ruling R22 rws-mlp-csp-v2 3.4 progressive without progressiveUnit", rws(pos(1, "2h 5h 7h Jh 8h", "ante=100 bet=200 progressive=50000")), "progressiveUnit"},
		// The review's cases: a stake other than the unit.
		{"ruling R22 rws-mlp-csp-v2 3.4 a progressive of 50000 against a unit of 100", unit(rws(pos(1, "2h 5h 7h Jh 8h", "ante=100 bet=200 progressive=50000")), 100), "positions[0].wagers.progressive"},
		{"ruling R22 mbs-megalink-ssp-v6 a progressive of 1 against a unit of 100", unit(ssp(pos(1, "2h 2s 2c Jh Jd", "ante=100 bet=200 progressive=1")), 100), "positions[0].wagers.progressive"},
		{"ruling R22 mbs-megalink-tcp-v6 a progressive of 200 against a unit of 100", unit(tcp(pos(1, "Ks Kd 2h", "ante=1000 play=1000 progressive=200")), 100), "positions[0].wagers.progressive"},
		{"ruling R22 5.12.2 the unit is checked even on a progressive returned for want of an ante", unit(ssp(pos(1, "2h 2s 2c Jh Jd", "progressive=300")), 100), "positions[0].wagers.progressive"},
		{"ruling R22 limits.progressive is refused: the unit governs", withLimits(unit(ssp(pos(1, "2h 2s 2c Jh Jd", "ante=100 bet=200 progressive=100")), 100), map[string]Limit{"progressive": {Min: 100, Max: 100}}), "limits.progressive"},
		{"ruling R22 THB limits.progressive is refused: 1-5 times the unit governs", withLimits(unit(thb(pos(1, "Ah Ad", "ante=1000 flop=2000 progressive=1500")), 500), map[string]Limit{"progressive": {Min: 500, Max: 500}}), "limits.progressive"},
		// THB: m times the unit, m 1 to 5 (3.5.3, ruling R17).
		{"3.5.3 ruling R17 THB a stake that is not a whole multiple of the unit", unit(thb(pos(1, "Ah Ad", "ante=1000 flop=2000 progressive=250")), 100), "positions[0].wagers.progressive"},
		{"3.5.3 ruling R17 THB six times the unit", unit(thb(pos(1, "Ah Ad", "ante=1000 flop=2000 progressive=600")), 100), "positions[0].wagers.progressive"},
		{"3.5.3.1 ruling R17 THB a multiplier that disagrees with the stake", unit(thb(mult(pos(1, "Ah Ad", "ante=1000 flop=2000 progressive=300"), 2)), 100), "positions[0].wagers.progressive"},
		{"3.5.3.1 ruling R17 THB a multiplier without a progressive wager", unit(thb(mult(pos(1, "Ah Ad", "ante=1000 flop=2000"), 2)), 100), "positions[0].progressiveMultiplier"},
		// The unit itself.
		{"ruling R2 R22 a unit not below the SGD 100 flush prize (4.2)", unit(ssp(pos(1, "2h 2s 2c Jh Jd", "ante=100 bet=200 progressive=10000")), 10000), "progressiveUnit"},
		{"mbs-ssp-v4 3.5 credits: no unit", unit(Round{Ruleset: "mbs-ssp-v4", Dealer: "Ad Kc 9h 4s 5d", Positions: []Position{pos(1, "2h 2s 2c Jh Jd", "ante=100 bet=200")}}, 100), "progressiveUnit"},
		{"a negative unit", unit(ssp(pos(1, "2h 2s 2c Jh Jd", "ante=100 bet=200")), -100), "progressiveUnit"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Settle(tc.round)
			fe, ok := fault.As(err)
			if !ok {
				t.Fatalf("err = %v, want a FieldError on %s; settled:\n%s", err, tc.field, lines(s))
			}
			if fe.Field() != tc.field {
				t.Errorf("field %q (%s), want %q", fe.Field(), fe.Detail, tc.field)
			}
			if tc.field != "positions[0].progressiveMultiplier" && !strings.Contains(fe.Detail, "R17") && !strings.Contains(fe.Detail, "R22") && !strings.Contains(fe.Detail, "3.5") {
				t.Errorf("message %q cites neither ruling R22 nor R17", fe.Detail)
			}
		})
	}
}

// Ruling R22, R2, R17: with the unit given, the stake settles exactly.
func TestProgressiveUnitSettles(t *testing.T) {
	cases := []struct {
		name    string
		round   Round
		want    string
		jackpot string
		cites   []string
	}{
		{"rws-mlp-csp-v2 3.4 4.2 ruling R22 a flush pays SGD 100 on a wager of the unit",
			unit(Round{Ruleset: "rws-mlp-csp-v2", Dealer: "Ad Kc 9h 4s 5d", Positions: []Position{pos(1, "2h 5h 7h Jh 8h", "ante=100 bet=200 progressive=500")}}, 500),
			`1 ante win 100>200
			 1 bet win 200>1200
			 1 progressive win 500>10000`,
			"progressive hand flush SGD 100.00 x1 house",
			[]string{"rws-mlp-csp-v2 4.2", "ruling R2", "ruling R22"}},
		{"mbs-megalink-ssp-v6 4.2 ruling R22 a full house pays SGD 200 on a wager of the unit",
			unit(Round{Ruleset: "mbs-megalink-ssp-v6", Dealer: "Ad Kc 9h 4s 5d", Positions: []Position{pos(1, "2h 2s 2c Jh Jd", "ante=100 bet=200 progressive=100")}}, 100),
			`1 ante win 100>200
			 1 bet win 200>1600
			 1 progressive win 100>20000`,
			"progressive hand full_house SGD 200.00 x1 house",
			[]string{"mbs-megalink-ssp-v6 4.2", "ruling R22"}},
		{"mbs-megalink-thb-v9 3.5.3 ruling R17 no multiplier given: three times the unit is m 3, full house 80 for 1",
			unit(Round{Ruleset: "mbs-megalink-thb-v9", Dealer: "Kh Qd", Community: "Ac As 7d 2c 3h", Positions: []Position{pos(1, "Ah 7s", "ante=1000 flop=2000 progressive=1500")}}, 500),
			`1 ante win 1000>2000
			 1 flop win 2000>4000
			 1 progressive win 1500>120000`,
			"progressive hand full_house 80 for 1 x3 house",
			[]string{"mbs-megalink-thb-v9 3.5.3.1", "ruling R17"}},
		{"mbs-megalink-thb-v9 3.5.3.1 ruling R17 multiplier 3 agrees with the stake",
			unit(Round{Ruleset: "mbs-megalink-thb-v9", Dealer: "Kh Qd", Community: "Ac As 7d 2c 3h", Positions: []Position{mult(pos(1, "Ah 7s", "ante=1000 flop=2000 progressive=1500"), 3)}}, 500),
			`1 ante win 1000>2000
			 1 flop win 2000>4000
			 1 progressive win 1500>120000`,
			"progressive hand full_house 80 for 1 x3 house",
			[]string{"mbs-megalink-thb-v9 3.5.3.1"}},
		{"mbs-ssp-v4 3.5 credits: the jackpot wager needs no unit",
			Round{Ruleset: "mbs-ssp-v4", Dealer: "Ad Kc 9h 4s 5d", MagicCard: "Qc", LuckyPlayerSeat: 5, LuckyDealer: new(bool),
				Positions: []Position{pos(1, "2h 2s 2c Jh Jd", "ante=100 bet=200 progressivePlayer=300")}},
			`1 ante win 100>200
			 1 bet win 200>1600
			 1 progressivePlayer win 300>30300`,
			"progressivePlayer hand full_house 100 to 1 x1 house",
			[]string{"mbs-ssp-v4 4.2"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Settle(tc.round)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := strings.TrimSpace(lines(s)), dedent(tc.want); got != want {
				t.Errorf("lines:\n%s\nwant:\n%s", got, want)
			}
			if got := jackpot(t, s, 1); got != tc.jackpot {
				t.Errorf("jackpot %q, want %q", got, tc.jackpot)
			}
			rules := allRules(s)
			for _, c := range tc.cites {
				if !rules[c] {
					t.Errorf("does not cite %q: %v", c, sortedKeys(rules))
				}
			}
			checkMoney(t, s)
		})
	}
}

// Issue 24 "errors worded in money, not cents": settlement's refusals of
// an amount state it, and its bound, in the round's currency with the
// thousands grouped (money.Currency.Format), the field's own minor units
// in brackets where the bound is the field's.
func TestRefusalsWordedInMoney(t *testing.T) {
	ssp := func(ps ...Position) Round {
		return Round{Ruleset: "mbs-megalink-ssp-v6", Dealer: "Ad Kc 9h 4s 5d", Positions: ps}
	}
	for _, c := range []struct {
		name, field, want string
		r                 Round
	}{
		{"a maximum below the minimum", "limits.ante.max", "maximum SGD 500.00 is below the minimum SGD 1,000.00", func() Round {
			r := ssp(pos(1, "3c 3d 8s 9h Jd", "ante=1000"))
			r.Limits = map[string]Limit{"ante": {Min: 100000, Max: 50000}}
			return r
		}()},
		{"limits beyond any table", "limits.ante", "limits must be SGD 0.00 to SGD 10,000,000,000.00 (0-1,000,000,000,000 minor units)", func() Round {
			r := ssp(pos(1, "3c 3d 8s 9h Jd", "ante=1000"))
			r.Limits = map[string]Limit{"ante": {Min: 100, Max: MaxAmount + 1}}
			return r
		}()},
		{"a wager beyond any table", "positions[0].wagers.ante", "SGD 10,000,000,000.01 is beyond any table (at most SGD 10,000,000,000.00, 1,000,000,000,000 minor units)",
			ssp(pos(1, "3c 3d 8s 9h Jd", "ante=1000000000001"))},
		{"ruling R22 a unit beyond any pool", "progressiveUnit", "the progressive pool's unit (ruling R22) must be SGD 0.01 to SGD 10,000,000,000.00 (1-1,000,000,000,000 minor units)",
			unit(ssp(pos(1, "3c 3d 8s 9h Jd", "ante=1000")), int64(MaxAmount)+1)},
		{"ruling R2 R22 a unit at the fixed prize", "progressiveUnit", "a progressive unit of SGD 2,000.00 is not below the Four of a Kind prize of SGD 2000.00",
			unit(ssp(pos(1, "3c 3d 8s 9h Jd", "ante=1000 progressive=200000")), 200000)},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Settle(c.r)
			fe, ok := fault.As(err)
			if !ok || len(fe.Fields) != 1 || fe.Fields[0].Field != c.field || !strings.HasPrefix(fe.Fields[0].Message, c.want) {
				t.Fatalf("err %v (%+v), want %s %q", err, fe, c.field, c.want)
			}
		})
	}
}
