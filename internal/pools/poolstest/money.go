package poolstest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// The corrections of issue 21: checked against a pool model written apart
// from the code (model below), and against a twin pool that never saw the
// corrected round.

// CeilingSettings is the pool: SSP v6, SGD 5 unit, 17.33% and
// 5.17%, reset and ceiling SGD 10,000: every contribution past the opening
// goes to the overflow meter.
func CeilingSettings() jackpot.Settings {
	return jackpot.Settings{Currency: money.SGD, Rulesets: []string{ssp}, Unit: 500, ContributionBP: 1733, ReserveBP: 517,
		Reset: 1_000_000, Ceiling: 1_000_000, Tables: jackpottest.Tables()}
}

// model is an independent pool: the meters and carries of rulings R1,
// R3, R4 and R21, with no ledger. Contributions fill the displayed meter
// to the ceiling and the overflow past it; a Royal pays the whole
// displayed meter and the reset is funded by the overflow, the reserve,
// then the house.
type model struct {
	s                                    jackpot.Settings
	displayed, overflow, reserve, house  int64
	carryD, carryR, contributed, contrib int64
}

func newModel(s jackpot.Settings) *model {
	return &model{s: s, displayed: int64(s.Reset), house: int64(s.Reset)}
}

// round contributes n unit wagers and pays a Royal when royal.
func (m *model) round(n int, royal bool) {
	w := int64(n) * int64(m.s.Unit)
	d := m.carryD + w*int64(m.s.ContributionBP)
	r := m.carryR + w*int64(m.s.ReserveBP)
	credit, creditR := d/10000, r/10000
	m.carryD, m.carryR = d%10000, r%10000
	m.contributed += credit
	m.contrib += creditR
	m.reserve += creditR
	room := credit
	if m.s.Ceiling > 0 {
		room = min(credit, max(int64(m.s.Ceiling)-m.displayed, 0))
	}
	m.displayed += room
	m.overflow += credit - room
	if !royal {
		return
	}
	m.displayed = 0
	need := int64(m.s.Reset)
	take := func(have *int64) {
		t := min(*have, need)
		*have -= t
		need -= t
	}
	take(&m.overflow)
	take(&m.reserve)
	m.house += need
	m.displayed = int64(m.s.Reset)
}

// same fails t unless the pool's meters are the model's, to the cent.
func (m *model) same(t *testing.T, what string, got jackpot.Meters) {
	t.Helper()
	if int64(got.Displayed) != m.displayed || int64(got.Overflow) != m.overflow || int64(got.Reserve) != m.reserve ||
		int64(got.HouseFunded) != m.house || got.CarryDisplayed != m.carryD || got.CarryReserve != m.carryR ||
		int64(got.Contributed) != m.contributed || int64(got.ContributedReserve) != m.contrib {
		t.Fatalf("%s: the pool is not the model's:\n pool  displayed %d overflow %d reserve %d house %d carries %d %d contributed %d %d\n model displayed %d overflow %d reserve %d house %d carries %d %d contributed %d %d",
			what, got.Displayed, got.Overflow, got.Reserve, got.HouseFunded, got.CarryDisplayed, got.CarryReserve, got.Contributed, got.ContributedReserve,
			m.displayed, m.overflow, m.reserve, m.house, m.carryD, m.carryR, m.contributed, m.contrib)
	}
}

// seats is 1..n.
func seats(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i + 1
	}
	return out
}

// royalRound is n unit wagers with a Royal Flush on seat 1 (R3).
func royalRound(table, round string, n int) jackpot.Round {
	h := jackpottest.Royal(ssp, 1, 1, 500)
	h.Cards = "As Ks Qs Js Ts"
	return jackpottest.RoundOf(ssp, table, round, jackpottest.T0, 500, seats(n), h)
}

// testCorrectionAfterOverflowSpent: issue 21 item 1, rulings R21 and R28,
// the scenario exactly. R1 contributed 86 to the overflow (the
// displayed meter is at its ceiling) and 25 to the reserve; R2's Royal
// paid 1,000,000 and its reset was funded by the overflow's 173, the
// reserve's 51 and the house's 999,776. The correction of R1 (proposed by
// a supervisor, approved by a controller) takes back 87 and 26 (the
// carries of .30 and .70 back to .65 and .85): both meters hold 0, so the
// house tops up the overflow by 87 and the reserve by 26 (house_top_up,
// 113) before the refund. The displayed meter stays at 1,000,000 and the
// house has funded 1,999,889: the pool that never saw R1.
func testCorrectionAfterOverflowSpent(t *testing.T, st pools.Store) {
	ctx := context.Background()
	defer reconcilesAtTheEnd(t, st, "P", "twin")
	svc := service(st, jackpottest.NewClock(jackpottest.T0))
	for _, id := range []string{"P", "twin"} {
		if _, _, err := svc.Create(ctx, id, CeilingSettings(), jackpottest.Admin); err != nil {
			t.Fatal(err)
		}
	}
	r1 := jackpottest.RoundOf(ssp, "T1", "R1", jackpottest.T0, 500, []int{1})
	if res := apply(t, svc, "P", r1); res.Meters.Overflow != 86 || res.Meters.Reserve != 25 {
		t.Fatalf("R1: %+v", res.Meters)
	}
	res := apply(t, svc, "P", royalRound("T2", "R2", 1))
	if len(res.Payouts) != 1 || res.Payouts[0].Amount != 1_000_000 {
		t.Fatalf("R2's Royal: %+v", res.Payouts)
	}
	if m := meters(t, svc, "P"); m.Overflow != 0 || m.Reserve != 0 || m.HouseFunded != 1_999_776 {
		t.Fatalf("the reset spent the overflow and the reserve: %+v", m)
	}
	apply(t, svc, "twin", royalRound("T2", "R2", 1))
	corr := jackpot.Change{Kind: jackpot.ProposeCorrection, Correction: &jackpot.Correction{Table: "T1", Round: "R1",
		Reason: "two cards exposed in the deal", Rules: []string{"mbs-megalink-ssp-v6 5.4"}}}
	_, pr, _, err := svc.Propose(ctx, "P", corr, jackpottest.Supervisor, "c-1")
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := svc.Approve(ctx, "P", pr.ID, jackpottest.Controller, "c-ok")
	if err != nil {
		t.Fatal(err)
	}
	m := meters(t, svc, "P")
	if m.Displayed != 1_000_000 || m.Overflow != 0 || m.Reserve != 0 || m.HouseFunded != 1_999_889 ||
		out.Correction.Difference.Displayed != 0 || out.Correction.Meters.Displayed != 1_000_000 {
		t.Fatalf("after the correction: %+v\n%+v", out.Correction, m)
	}
	twin := meters(t, svc, "twin")
	sameMeters(t, "the twin that never saw R1", m, twin)
	if m.HouseFunded != twin.HouseFunded {
		t.Fatalf("house funded %d, the twin %d", m.HouseFunded, twin.HouseFunded)
	}
	es, _ := allEntries(ctx, st, "P")
	var top *jackpot.Entry
	for i := range es {
		if es[i].Kind == jackpot.KindHouseTopUp {
			top = &es[i]
		}
	}
	if top == nil || top.Overflow != 87 || top.Reserve != 26 || top.Displayed != 0 || top.HouseFunded != 113 {
		t.Fatalf("the house tops up the overflow by 87 and the reserve by 26: %+v", top)
	}
	md := newModel(CeilingSettings())
	md.round(1, true)
	md.same(t, "the model of a pool that never saw R1", m)
	jackpottest.MustReconcile(t, svc, "P")
}

// testCorrectionsTwinModel: issue 21, rulings R21 and R28. Corrections
// and voids after resets that spent the overflow and the reserve leave the
// pool, to the cent, as a twin pool (and the independent model) that
// never saw the rounds taken back and saw each corrected round when it
// was corrected. Each case is a script of rounds and corrections.
func testCorrectionsTwinModel(t *testing.T, st pools.Store) {
	ctx := context.Background()
	type step struct {
		round   string // a round applied to both (unless onlyPool)
		n       int    // its unit wagers
		royal   bool
		pool    bool // the round is applied to the pool only (it is voided or corrected later)
		correct int  // > 0: correct round `round` to n wagers (n == 0: void it)
	}
	cases := []struct {
		name  string
		steps []step
	}{
		{"void after one Royal", []step{{round: "a", n: 3, pool: true}, {round: "b", n: 1, royal: true}, {round: "a", correct: 1}}},
		{"two voids after two Royals", []step{
			{round: "a", n: 2, pool: true}, {round: "b", n: 5}, {round: "c", n: 3, pool: true}, {round: "d", n: 1, royal: true},
			{round: "e", n: 4}, {round: "f", n: 2, royal: true}, {round: "c", correct: 1}, {round: "a", correct: 1}}},
		{"corrected after the reset, then a void", []step{
			{round: "a", n: 3, pool: true}, {round: "b", n: 2, pool: true}, {round: "c", n: 1, royal: true},
			{round: "a", n: 1, correct: 1}, {round: "b", correct: 1}, {round: "g", n: 2}}},
		{"a void between Royals", []step{
			{round: "a", n: 7, pool: true}, {round: "b", n: 1, royal: true}, {round: "a", correct: 1},
			{round: "c", n: 2, royal: true}, {round: "h", n: 3}}},
	}
	for ci, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			svc := service(st, jackpottest.NewClock(jackpottest.T0))
			id, twinID := fmt.Sprint("m", ci), fmt.Sprint("t", ci)
			for _, p := range []string{id, twinID} {
				if _, _, err := svc.Create(ctx, p, CeilingSettings(), jackpottest.Admin); err != nil {
					t.Fatal(err)
				}
			}
			md := newModel(CeilingSettings())
			for i, s := range c.steps {
				r := jackpottest.RoundOf(ssp, "T1", s.round, jackpottest.T0, 500, seats(s.n))
				if s.royal {
					r = royalRound("T1", s.round, s.n)
				}
				switch {
				case s.correct > 0 && s.n == 0:
					if _, _, err := svc.Correct(ctx, id, jackpot.Correction{Table: "T1", Round: s.round, Reason: "void",
						Rules: []string{"mbs-megalink-ssp-v6 5.4"}}, jackpottest.Supervisor, jackpottest.Controller, fmt.Sprint("k", i)); err != nil {
						t.Fatal(err)
					}
				case s.correct > 0:
					if _, _, err := svc.Correct(ctx, id, jackpot.Correction{Table: "T1", Round: s.round, Corrected: &r,
						Reason: "fewer wagers", Rules: []string{"mbs-megalink-ssp-v6 5.12.2"}}, jackpottest.Supervisor, jackpottest.Controller, fmt.Sprint("k", i)); err != nil {
						t.Fatal(err)
					}
					apply(t, svc, twinID, jackpottest.RoundOf(ssp, "T9", s.round, jackpottest.T0, 500, seats(s.n)))
					md.round(s.n, false)
				default:
					apply(t, svc, id, r)
					if !s.pool {
						apply(t, svc, twinID, r)
						md.round(s.n, s.royal)
					}
				}
			}
			m, twin := meters(t, svc, id), meters(t, svc, twinID)
			sameMeters(t, "the twin", m, twin)
			if m.HouseFunded != twin.HouseFunded || m.Resets != twin.Resets {
				t.Fatalf("house %d resets %d, the twin's %d %d", m.HouseFunded, m.Resets, twin.HouseFunded, twin.Resets)
			}
			md.same(t, "the model", m)
			jackpottest.MustReconcile(t, svc, id)
		})
	}
}

// testReconcileAcrossRateChange: issue 21 item 2, rulings R21 and R28.
// R1 (one unit wager) contributed at 1733 and 517 bp: 86 (carry .65) and
// 25 (.85). A change to 2000 and 400 bp waits for the next reset; R2's
// Royal (its wager still at the old rates: 87 and 26) pays 10,000,173, and
// its reset (the reserve's 51, the house's 9,999,949) brings the new rates
// into force. R1 is then voided: the reversal carries R1's own rate sums
// (-866,500 and -258,500), so the refund is 87 and 26 (the carries back
// to .65 and .85), and the reserve, spent on the reset, is topped up by
// the house first. Reconcile checks a reversal against the rates of the
// entry it reverses, and is ok.
func testReconcileAcrossRateChange(t *testing.T, st pools.Store) {
	ctx := context.Background()
	svc := service(st, jackpottest.NewClock(jackpottest.T0))
	s := jackpottest.MBSSettings()
	s.Rulesets = []string{ssp}
	if _, _, err := svc.Create(ctx, "p", s, jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	apply(t, svc, "p", jackpottest.RoundOf(ssp, "T1", "R1", jackpottest.T0, 500, []int{1}))
	c, r := money.BasisPoints(2000), money.BasisPoints(400)
	if _, _, err := svc.ChangeSettings(ctx, "p", jackpot.SettingsPatch{ContributionBP: &c, ReserveBP: &r}, jackpottest.Admin, jackpottest.Controller, "new rates", "s-1"); err != nil {
		t.Fatal(err)
	}
	res := apply(t, svc, "p", royalRound("T2", "R2", 1))
	if res.Payouts[0].Amount != 10_000_173 {
		t.Fatalf("the Royal: %+v", res.Payouts)
	}
	p, _ := svc.Get(context.Background(), "p")
	if p.Settings.ContributionBP != 2000 || p.Settings.ReserveBP != 400 {
		t.Fatalf("the reset brings the new rates into force: %+v", p.Settings)
	}
	if _, _, err := svc.Correct(ctx, "p", jackpot.Correction{Table: "T1", Round: "R1", Reason: "two cards exposed",
		Rules: []string{"mbs-megalink-ssp-v6 5.4"}}, jackpottest.Supervisor, jackpottest.Controller, "k"); err != nil {
		t.Fatal(err)
	}
	m := meters(t, svc, "p")
	if m.Displayed != 9_999_913 || m.Reserve != 0 || m.Overflow != 0 || m.CarryDisplayed != 6500 || m.CarryReserve != 8500 ||
		m.Contributed != 86 || m.ContributedReserve != 25 || m.Wagers != 1 || m.WagerAmount != 500 || m.HouseFunded != 19_999_975 {
		t.Fatalf("after the void: %+v", m)
	}
	jackpottest.MustReconcile(t, svc, "p")
	// A later round contributes at the new rates: 100 and 20, exactly.
	apply(t, svc, "p", jackpottest.RoundOf(ssp, "T1", "R3", jackpottest.T0, 500, []int{1}))
	if m := meters(t, svc, "p"); m.Displayed != 9_999_913+100 || m.Reserve != 20 {
		t.Fatalf("after R3: %+v", m)
	}
	jackpottest.MustReconcile(t, svc, "p")
}

// testCorrectionsTwinRandom: issue 21, rulings R21 and R28, on seeded
// random scripts: rounds of 1-4 unit wagers, some to be voided or
// corrected later, Royals, and the voids and corrections themselves in any
// order. After every step the pool equals, to the cent, the independent
// model of a pool that never saw the rounds taken back and saw each
// corrected round when it was corrected.
func testCorrectionsTwinRandom(t *testing.T, st pools.Store) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(21, 28))
	defer reconcilesAtTheEnd(t, st, "rnd0", "rnd1", "rnd2", "rnd3", "rnd4", "rnd5", "rnd6", "rnd7", "rnd8", "rnd9")
	for script := range 10 {
		svc := service(st, jackpottest.NewClock(jackpottest.T0))
		id := fmt.Sprint("rnd", script)
		if _, _, err := svc.Create(ctx, id, CeilingSettings(), jackpottest.Admin); err != nil {
			t.Fatal(err)
		}
		md := newModel(CeilingSettings())
		var later []string // rounds applied to the pool only, to undo
		var log []string
		for step := range 18 {
			name := fmt.Sprintf("s%d", step)
			switch k := rng.IntN(10); {
			case k < 3 && len(later) > 0: // undo a round
				i := rng.IntN(len(later))
				r := later[i]
				later = append(later[:i], later[i+1:]...)
				corr := jackpot.Correction{Table: "T1", Round: r, Reason: "void", Rules: []string{"mbs-megalink-ssp-v6 5.4"}}
				n := rng.IntN(3)
				if n > 0 {
					c := jackpottest.RoundOf(ssp, "T1", r, jackpottest.T0, 500, seats(n))
					corr.Corrected, corr.Reason, corr.Rules = &c, "fewer wagers", []string{"mbs-megalink-ssp-v6 5.12.2"}
					md.round(n, false)
				}
				if _, _, err := svc.Correct(ctx, id, corr, jackpottest.Supervisor, jackpottest.Controller, "k-"+name); err != nil {
					t.Fatalf("script %d %v: correct %s: %v", script, log, r, err)
				}
				log = append(log, fmt.Sprintf("undo %s to %d", r, n))
			case k < 5: // a round to undo later
				n := 1 + rng.IntN(4)
				apply(t, svc, id, jackpottest.RoundOf(ssp, "T1", name, jackpottest.T0, 500, seats(n)))
				later = append(later, name)
				log = append(log, fmt.Sprintf("%s(%d, later)", name, n))
			case k < 7: // a Royal
				n := 1 + rng.IntN(4)
				apply(t, svc, id, royalRound("T2", name, n))
				md.round(n, true)
				log = append(log, fmt.Sprintf("%s(%d, Royal)", name, n))
			default:
				n := 1 + rng.IntN(4)
				apply(t, svc, id, jackpottest.RoundOf(ssp, "T2", name, jackpottest.T0, 500, seats(n)))
				md.round(n, false)
				log = append(log, fmt.Sprintf("%s(%d)", name, n))
			}
			if len(later) == 0 {
				// The pool has nothing left to undo: it is the model's.
				md.same(t, fmt.Sprintf("script %d after %v", script, log), meters(t, svc, id))
			}
		}
		for i, r := range later {
			if _, _, err := svc.Correct(ctx, id, jackpot.Correction{Table: "T1", Round: r, Reason: "void", Rules: []string{"mbs-megalink-ssp-v6 5.4"}}, jackpottest.Supervisor, jackpottest.Controller, fmt.Sprint("end-", i)); err != nil {
				t.Fatal(err)
			}
		}
		md.same(t, fmt.Sprintf("script %d after %v and the last voids", script, log), meters(t, svc, id))
		jackpottest.MustReconcile(t, svc, id)
	}
}
