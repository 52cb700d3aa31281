package pools_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/filestore"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/ruleset"
	"github.com/tablesettle/tablesettle/internal/ruleset/rulesettest"
	"github.com/tablesettle/tablesettle/internal/settle"
)

// sixthID is the sixth, test-only ruleset (internal/ruleset/rulesettest):
// SSP v6 with Full House 8 to 1 on the Bet and RWS-style major prizes.
const sixthID = rulesettest.SixthID

// sixthCatalogue registers the sixth ruleset from its one place.
func sixthCatalogue(t *testing.T) ruleset.Catalogue {
	t.Helper()
	cat, err := rulesettest.SixthCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// poolSettings is one pool's settings: SGD 5 unit, 20% to the displayed
// meter, 5% to the reserve, SGD 100,000 reset.
func poolSettings(rs ...ruleset.ID) jackpot.Settings {
	ids := make([]string, len(rs))
	for i, r := range rs {
		ids[i] = string(r)
	}
	return jackpot.Settings{Currency: money.SGD, Rulesets: ids, Unit: 500, ContributionBP: 2000, ReserveBP: 500, Reset: 10_000_000, Tables: jackpottest.Tables()}
}

// twoRoyals is a round with two Royal Flushes at one table, each on a
// progressive wager of the unit; the positions are sent seat 3 first, so
// that the dealing order (seat 1 first, from the dealer's left) is not the
// order of the request.
func twoRoyals(rs ruleset.ID) settle.Round {
	w := map[string]money.Amount{"ante": 1000, "bet": 2000, "progressive": 500}
	return settle.Round{Ruleset: string(rs), RoundID: "r1", Dealer: "2c 3d 5c 8d 9h", ProgressiveUnit: 500,
		Positions: []settle.Position{{Seat: 3, Cards: "Ah Kh Qh Jh Th", Wagers: w}, {Seat: 1, Cards: "As Ks Qs Js Ts", Wagers: w}}}
}

type paid struct {
	seat    int
	status  string
	amount  money.Amount
	funding []jackpot.Funding
}

func paidOf(ps []jackpot.Payout) []paid {
	out := make([]paid, len(ps))
	for i, p := range ps {
		out[i] = paid{p.Seat, p.Status, p.Amount, p.Funding}
	}
	return out
}

func samePaid(a, b []paid) bool {
	return slices.EqualFunc(a, b, func(x, y paid) bool {
		return x.seat == y.seat && x.status == y.status && x.amount == y.amount && slices.Equal(x.funding, y.funding)
	})
}

// TestSixthRulesetPoolPaysInSequence_R6_R7_versusShared_R5: a pool for a
// ruleset registered as data alone settles its rounds under its own
// description (RoundOf with the service's catalogue), holds its major hits
// for the settle window (R7) and pays two Royal Flushes at one table one
// after the other in dealing order, each from the pool as the previous
// payout and reset left it (R6); the standard SSP v6 on an otherwise
// identical pool shares them (R5).
func TestSixthRulesetPoolPaysInSequence_R6_R7_versusShared_R5(t *testing.T) {
	ctx := context.Background()
	st, err := filestore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := pools.NewServiceIn(sixthCatalogue(t), st, clock.Now, 1)

	// Both pools open at the reset, SGD 100,000.00 (house, R21). The round
	// has two accepted progressive wagers of 500: 1000 x 20% = 200 to the
	// displayed meter (10,000,200), 1000 x 5% = 50 to the reserve (R4).
	seq, _, err := svc.Create(ctx, "sixth", poolSettings(sixthID), jackpottest.Admin)
	if err != nil {
		t.Fatal(err)
	}
	if seq.Settings.SettleWindowMS != 5000 || svc.Rules().Casino(seq.Settings) != "MBS" {
		t.Fatalf("window %d ms (want the R7 default 5000), casino %q (want the description's MBS)", seq.Settings.SettleWindowMS, svc.Rules().Casino(seq.Settings))
	}
	if _, _, err := svc.Create(ctx, "ssp", poolSettings(ruleset.SSPv6), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}

	t.Run("sixth_R6_R7_HeldThenPaidInDealingOrder", func(t *testing.T) {
		r, places, err := svc.RoundOf(twoRoyals(sixthID), "T1", jackpottest.T0)
		if err != nil || len(r.Hits) != 2 || len(places) != 2 {
			t.Fatalf("round %+v places %v: %v", r, places, err)
		}
		res, _, err := svc.ApplyRound(ctx, "sixth", r, "", "")
		if err != nil {
			t.Fatal(err)
		}
		// R7: both held for the 5 s window, in dealing order; nothing paid.
		payAfter := jackpottest.T0.Add(5 * time.Second)
		if len(res.Payouts) != 2 || res.Meters.Displayed != 10_000_200 || res.Meters.Reserve != 50 {
			t.Fatalf("payouts %+v meters %+v", res.Payouts, res.Meters)
		}
		for i, seat := range []int{1, 3} {
			po := res.Payouts[i]
			if po.Seat != seat || po.Status != "held" || po.Amount != 0 || po.PayAfter == nil || !po.PayAfter.Equal(payAfter) {
				t.Errorf("payout %d: %+v, want seat %d held until %s", i, po, seat, payAfter)
			}
			// The clauses come from the description: Majors.Rule for
			// several winners at one table, Majors.OrderRule across tables.
			for _, rule := range []string{"ruling R6", "ruling R7", string(sixthID) + " 3.15", string(sixthID) + " 3.14"} {
				if !slices.Contains(po.Rules, rule) {
					t.Errorf("payout %d rules %v lack %q", i, po.Rules, rule)
				}
			}
			if slices.Contains(po.Rules, "rws-mlp-csp-v2 4.5.2") {
				t.Errorf("payout %d cites another document: %v", i, po.Rules)
			}
		}

		clock.Advance(5 * time.Second)
		p, out, err := svc.Release(ctx, "sixth")
		if err != nil {
			t.Fatal(err)
		}
		// R6: seat 1 (dealt first) takes the whole pool, 10,000,200. The
		// reset (R3) refills the pool to 10,000,000 from the reserve (50)
		// and the house (9,999,950) (R21). Seat 3 then takes the pool as it
		// stands, 10,000,000, and the second reset is the house's alone.
		want := []paid{
			{1, "paid", 10_000_200, []jackpot.Funding{{Source: jackpot.SourcePool, Amount: 10_000_200}}},
			{3, "paid", 10_000_000, []jackpot.Funding{{Source: jackpot.SourcePool, Amount: 10_000_000}}},
		}
		if got := paidOf(out); !samePaid(got, want) {
			t.Fatalf("released %+v, want %+v", got, want)
		}
		// House: the opening 10,000,000 + 9,999,950 + 10,000,000.
		if m := p.Meters; m.Displayed != 10_000_000 || m.Reserve != 0 || m.HouseFunded != 29_999_950 || m.Hits["royal_flush"] != (jackpot.CategoryMeter{Count: 2, Paid: 20_000_200, FromPool: 20_000_200}) {
			t.Fatalf("meters %+v", m)
		}
		jackpottest.MustReconcile(t, svc, "sixth")
	})

	t.Run("standard_SSPv6_R5_Shared", func(t *testing.T) {
		r, _, err := svc.RoundOf(twoRoyals(ruleset.SSPv6), "T1", jackpottest.T0)
		if err != nil {
			t.Fatal(err)
		}
		res, _, err := svc.ApplyRound(ctx, "ssp", r, "", "")
		if err != nil {
			t.Fatal(err)
		}
		// R5 (SSP v6 3.15.1): two Royal Flushes share the pool plus one
		// more reset, 10,000,200 + 10,000,000 = 20,000,200: 10,000,100
		// each, paid at once. Seat 1 is paid from the pool; seat 3 from
		// the pool's last 100, then the reserve (50) and the house
		// (9,999,950) (R21). The reset is then the house's: 10,000,000.
		want := []paid{
			{1, "paid", 10_000_100, []jackpot.Funding{{Source: jackpot.SourcePool, Amount: 10_000_100}}},
			{3, "paid", 10_000_100, []jackpot.Funding{{Source: jackpot.SourcePool, Amount: 100}, {Source: jackpot.SourceReserve, Amount: 50}, {Source: jackpot.SourceHouse, Amount: 9_999_950}}},
		}
		if got := paidOf(res.Payouts); !samePaid(got, want) {
			t.Fatalf("paid %+v, want %+v", got, want)
		}
		for _, po := range res.Payouts {
			if po.Shared != 2 || !slices.Contains(po.Rules, "ruling R5") || !slices.Contains(po.Rules, "mbs-megalink-ssp-v6 3.15.1") {
				t.Errorf("seat %d: shared %d rules %v", po.Seat, po.Shared, po.Rules)
			}
		}
		p, err := svc.Get(ctx, "ssp")
		if err != nil {
			t.Fatal(err)
		}
		if m := p.Meters; m.Displayed != 10_000_000 || m.Reserve != 0 || m.HouseFunded != 29_999_950 || m.Hits["royal_flush"].Paid != 20_000_200 {
			t.Fatalf("meters %+v", m)
		}
		jackpottest.MustReconcile(t, svc, "ssp")
	})

	t.Run("standard_catalogue_does_not_know_it", func(t *testing.T) {
		std := pools.NewService(st, clock.Now, 1)
		if _, _, err := std.RoundOf(twoRoyals(sixthID), "T1", jackpottest.T0); err == nil {
			t.Error("the standard service settled the test ruleset")
		}
		if _, _, err := pools.RoundOf(twoRoyals(sixthID), "T1", jackpottest.T0); err == nil {
			t.Error("pools.RoundOf settled the test ruleset")
		}
		r, _, err := svc.RoundOf(twoRoyals(sixthID), "T2", jackpottest.T0)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = std.ApplyRound(ctx, "sixth", r, "", "")
		if fe, ok := fault.As(err); !ok || fe.Kind != fault.Invalid || len(fe.Fields) != 1 || fe.Fields[0].Field != "ruleset" {
			t.Errorf("a round of the sixth ruleset under the standard catalogue: %v", err)
		}
		if p, err := std.Get(ctx, "sixth"); err != nil || std.Rules().Casino(p.Settings) != "" {
			t.Errorf("the standard catalogue names a casino for the sixth pool: %v", err)
		}
	})
}

// TestPoolRulesetsFromTheCatalogue_R7: a pool's rulesets are looked up in
// the service's catalogue and must be of one casino and pay their major
// hits alike (ruling R7); each refusal names the ruleset at fault.
func TestPoolRulesetsFromTheCatalogue_R7(t *testing.T) {
	ctx := context.Background()
	st, err := filestore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	clock := jackpottest.NewClock(jackpottest.T0)
	cat := sixthCatalogue(t)
	for _, c := range []struct {
		name     string
		svc      *pools.Service
		rulesets []ruleset.ID
		field    string // "" when accepted
		message  string
	}{
		{"sixth_alone", pools.NewServiceIn(cat, st, clock.Now, 1), []ruleset.ID{sixthID}, "", ""},
		{"standard_MBS_alike", pools.NewServiceIn(cat, st, clock.Now, 1), []ruleset.ID{ruleset.SSPv6, ruleset.TCPv6}, "", ""},
		{"unknown_to_standard", pools.NewService(st, clock.Now, 1), []ruleset.ID{ruleset.SSPv6, sixthID}, "rulesets[1]",
			`unknown ruleset "test-ssp-v6-sequential"`},
		{"one_casino_majors_differ", pools.NewServiceIn(cat, st, clock.Now, 1), []ruleset.ID{ruleset.SSPv6, sixthID}, "rulesets[1]",
			`a pool links rulesets that pay major hits alike: "test-ssp-v6-sequential" pays them one after the other at one table (R6), held for the settle window (R7), "mbs-megalink-ssp-v6" shared at one table (R5), in commit order (R7) (ruling R7)`},
		{"one_casino_majors_differ_reversed", pools.NewServiceIn(cat, st, clock.Now, 1), []ruleset.ID{sixthID, ruleset.THBv9}, "rulesets[1]",
			`a pool links rulesets that pay major hits alike: "mbs-megalink-thb-v9" pays them shared at one table (R5), in commit order (R7), "test-ssp-v6-sequential" one after the other at one table (R6), held for the settle window (R7) (ruling R7)`},
		{"two_casinos_majors_alike", pools.NewServiceIn(cat, st, clock.Now, 1), []ruleset.ID{sixthID, ruleset.RWSCSPv2}, "rulesets[1]",
			`a pool links tables of one casino: "rws-mlp-csp-v2" is not MBS (ruling R7)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := c.svc.Create(ctx, c.name, poolSettings(c.rulesets...), jackpottest.Admin)
			if c.field == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			fe, ok := fault.As(err)
			if !ok || fe.Kind != fault.Invalid || len(fe.Fields) != 1 || fe.Fields[0].Field != c.field {
				t.Fatalf("%v, want a refusal of %s", err, c.field)
			}
			if fe.Fields[0].Message != c.message {
				t.Fatalf("message %q, want %q", fe.Fields[0].Message, c.message)
			}
		})
	}
}

// TestSixthPoolStaysWithItsMajors_R7: a settings change keeps a pool's
// rulesets of one casino paying major hits alike (ruling R7): the sixth
// ruleset's pool (MBS, sequential and held) cannot turn to the standard
// SSP v6 (MBS, shared), though both are MBS; a change within it can.
func TestSixthPoolStaysWithItsMajors_R7(t *testing.T) {
	ctx := context.Background()
	st, err := filestore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	svc := pools.NewServiceIn(sixthCatalogue(t), st, jackpottest.NewClock(jackpottest.T0).Now, 1)
	if _, _, err := svc.Create(ctx, "sixth", poolSettings(sixthID), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	_, _, err = svc.ChangeSettings(ctx, "sixth", jackpot.SettingsPatch{Rulesets: []string{string(ruleset.SSPv6)}}, jackpottest.Admin, jackpottest.Controller, "", "k1")
	fe, ok := fault.As(err)
	if !ok || fe.Kind != fault.Invalid || len(fe.Fields) != 1 || fe.Fields[0].Field != "rulesets" ||
		fe.Fields[0].Message != "a pool stays with one casino's rulesets, which pay major hits alike (ruling R7)" {
		t.Fatalf("turning the sixth pool to SSP v6: %v", err)
	}
	unit := money.Amount(1000)
	p, _, err := svc.ChangeSettings(ctx, "sixth", jackpot.SettingsPatch{Unit: &unit}, jackpottest.Admin, jackpottest.Controller, "", "k2")
	if err != nil || p.Pending == nil || p.Pending.Settings.Unit != 1000 || p.Pending.Settings.SettleWindowMS != 5000 {
		t.Fatalf("pending %+v: %v", p.Pending, err)
	}
}
