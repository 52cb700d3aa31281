package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/humatest"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/principal"
	"github.com/tablesettle/tablesettle/internal/sqlite"
)

// testPrincipals stands in for the authentication middleware (Deps.Access
// is nil): the header "X-Test-Principal: id/role[,role...]" puts that
// principal in the request's context; without it, def names the
// principal of the request ("" for none).
func testPrincipals(def func(method, path string) string) func(huma.Context, func(huma.Context)) {
	return func(ctx huma.Context, next func(huma.Context)) {
		v := ctx.Header("X-Test-Principal")
		if v == "" {
			v = def(ctx.Method(), ctx.URL().Path)
		}
		if v != "" {
			// id/roles[/tables]: "tbl:T2/table/T2" is table T2's.
			id, roles, _ := strings.Cut(v, "/")
			roles, tables, _ := strings.Cut(roles, "/")
			p := &principal.Principal{ID: id}
			if tables != "" {
				p.Tables = strings.Split(tables, ",")
			}
			for _, r := range strings.Split(roles, ",") {
				p.Roles = append(p.Roles, principal.Role(r))
			}
			ctx = huma.WithContext(ctx, principal.NewContext(ctx.Context(), p))
		}
		next(ctx)
	}
}

// opsAlice is the admin the pool tests open pools as.
const opsAlice = "ops:alice/admin"

// testPrincipal: X-Test-Principal, and opsAlice opening pools.
var testPrincipal = testPrincipals(func(method, path string) string {
	if method == http.MethodPost && path == "/v1/pools" {
		return opsAlice
	}
	return ""
})

func lockAPI(t *testing.T) humatest.TestAPI {
	t.Helper()
	st, err := sqlite.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	_, api := humatest.New(t, Config())
	api.UseMiddleware(testPrincipal)
	Register(api, Deps{Pools: pools.NewService(st, jackpottest.NewClock(jackpottest.T0).Now, 1)}, GroupPools)
	return api
}

// lockedPoolAPI is lockAPI with pool megalink (createMBS) under the
// jackpot lock for every percentage prize.
func lockedPoolAPI(t *testing.T) humatest.TestAPI {
	t.Helper()
	api := lockAPI(t)
	create := strings.Replace(createMBS, `"reset":10000000`, `"reset":10000000,"verify":{"percent":true}`, 1)
	if resp := api.Post("/v1/pools", strings.NewReader(create)); resp.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.Code, resp.Body)
	}
	return api
}

// TestPoolLockHTTP: a Royal under the jackpot lock is answered pending, is
// listed for its table with its cards, shows on the pool, and is
// confirmed by a supervisor and paid by the cage, each recorded with its
// principal; without a principal 401, with the wrong role 403 (issue 13).
func TestPoolLockHTTP(t *testing.T) {
	api := lockedPoolAPI(t)
	round := `{"ruleset":"mbs-megalink-ssp-v6","table":"T12","roundId":"R1","dealtAt":"2026-03-01T20:00:00Z","dealer":"2d 3d 5h 8c 9s",
	  "progressiveUnit":500,"positions":[{"seat":1,"cards":"Kc Kh Kd Ac Ah","wagers":{"ante":1000,"bet":2000,"progressive":500}},
	               {"seat":2,"cards":"2c 7d 9h Jd 4c","wagers":{"ante":1000,"progressive":500}},
	               {"seat":3,"cards":"Ts Js Qs Ks AS","wagers":{"ante":1000,"bet":2000,"progressive":500}}]}`
	resp := api.Post("/v1/pools/megalink/rounds", strings.NewReader(round))
	res := decodeBody[jackpot.RoundResult](t, resp.Body.Bytes())
	// The Full House (SGD 200) is under the threshold-free setting: paid.
	// The Royal: 10,000,259, pending, the pool reset in the same commit.
	if resp.Code != http.StatusOK || len(res.Payouts) != 2 || res.Payouts[0].Status != "paid" || res.Payouts[1].Status != "pending" ||
		res.Payouts[1].Amount != 10_000_259 || res.Meters.Displayed != 10_000_000 {
		t.Fatalf("round: %d %s", resp.Code, resp.Body)
	}
	seq := res.Payouts[1].Seq
	resp = api.Get("/v1/pools/megalink/hits?table=T12")
	list := decodeBody[struct{ Hits []jackpot.LockedHit }](t, resp.Body.Bytes())
	if resp.Code != http.StatusOK || len(list.Hits) != 1 || list.Hits[0].Cards != "Ts Js Qs Ks As" || list.Hits[0].Seat != 3 ||
		list.Hits[0].Category != "royal_flush" || list.Hits[0].Amount != 10_000_259 || list.Hits[0].State != "pending" {
		t.Fatalf("pending hits: %d %s", resp.Code, resp.Body)
	}
	if resp := api.Get("/v1/pools/megalink/hits?table=T13"); !strings.Contains(resp.Body.String(), `"hits":[]`) {
		t.Fatalf("another table: %s", resp.Body)
	}
	pool := decodeBody[pools.View](t, api.Get("/v1/pools/megalink").Body.Bytes())
	if len(pool.Locked) != 1 || pool.Locked[0].Seq != seq {
		t.Fatalf("the display shows the pending hit: %+v", pool.Locked)
	}
	confirm := fmt.Sprintf("/v1/pools/megalink/hits/%d/confirm", seq)
	for _, c := range []struct {
		name    string
		headers []any
		status  int
	}{
		{"no principal: 401", []any{"Idempotency-Key: c1"}, http.StatusUnauthorized},
		{"the cage cannot confirm: 403", []any{"Idempotency-Key: c1", "X-Test-Principal: cage:bo/cage"}, http.StatusForbidden},
		{"no key: 422", []any{"X-Test-Principal: sup:ann/supervisor"}, http.StatusUnprocessableEntity},
		{"supervisor confirms", []any{"Idempotency-Key: c1", "X-Test-Principal: sup:ann/supervisor"}, http.StatusOK},
	} {
		t.Run(c.name, func(t *testing.T) {
			if resp := api.Post(confirm, c.headers...); resp.Code != c.status {
				t.Fatalf("%d %s", resp.Code, resp.Body)
			}
		})
	}
	resp = api.Post(confirm, "Idempotency-Key: c1", "X-Test-Principal: sup:ann/supervisor")
	if resp.Code != http.StatusOK || resp.Header().Get("Idempotent-Replayed") != "true" || !strings.Contains(resp.Body.String(), `"confirmedBy":{"id":"sup:ann","role":"supervisor"}`) {
		t.Fatalf("confirm replay: %d %s", resp.Code, resp.Body)
	}
	if resp := api.Post(fmt.Sprintf("/v1/pools/megalink/hits/%d/void", seq), "Idempotency-Key: v1", "X-Test-Principal: sup:ann/supervisor",
		strings.NewReader(`{"reason":"late"}`)); resp.Code != http.StatusConflict || !strings.Contains(resp.Body.String(), `"location":"path.seq"`) {
		t.Fatalf("a confirmed hit is not voided (409 naming path.seq, the hit): %d %s", resp.Code, resp.Body)
	}
	// The supervisor who confirmed it, acting as cage, may not pay it: 403
	// naming the hit in the path.
	if resp := api.Post(fmt.Sprintf("/v1/pools/megalink/hits/%d/paid", seq), "Idempotency-Key: p0", "X-Test-Principal: sup:ann/cage"); resp.Code != http.StatusForbidden ||
		!strings.Contains(resp.Body.String(), `"location":"path.seq"`) || !strings.Contains(resp.Body.String(), "confirmed by sup:ann") {
		t.Fatalf("the confirmer pays: %d %s", resp.Code, resp.Body)
	}
	resp = api.Post(fmt.Sprintf("/v1/pools/megalink/hits/%d/paid", seq), "Idempotency-Key: p1", "X-Test-Principal: cage:bo/cage")
	if resp.Code != http.StatusOK || !strings.Contains(resp.Body.String(), `"paidBy":{"id":"cage:bo","role":"cage"}`) || !strings.Contains(resp.Body.String(), `"locked":[]`) {
		t.Fatalf("paid: %d %s", resp.Code, resp.Body)
	}
	ledger := api.Get(fmt.Sprintf("/v1/pools/megalink/ledger?after=%d", seq))
	if !strings.Contains(ledger.Body.String(), `"kind":"hit_confirmed"`) || !strings.Contains(ledger.Body.String(), `"actor":{"id":"cage:bo","role":"cage"}`) {
		t.Fatalf("ledger: %s", ledger.Body)
	}
}

// TestPoolMetersAtHTTP: the meters as of an instant (issue 13): at the
// opening, 10,000,000; a bad instant names query.at.
func TestPoolMetersAtHTTP(t *testing.T) {
	api := lockAPI(t)
	if resp := api.Post("/v1/pools", strings.NewReader(createMBS)); resp.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.Code, resp.Body)
	}
	resp := api.Get("/v1/pools/megalink/meters?at=2026-03-01T20:00:00Z")
	got := decodeBody[jackpot.AsOf](t, resp.Body.Bytes())
	if resp.Code != http.StatusOK || got.Meters.Displayed != 10_000_000 || got.ThroughSeq != 1 {
		t.Fatalf("%d %s", resp.Code, resp.Body)
	}
	if resp := api.Get("/v1/pools/megalink/meters?at=yesterday"); resp.Code != http.StatusUnprocessableEntity || !strings.Contains(resp.Body.String(), `"location":"query.at"`) {
		t.Fatalf("bad instant: %d %s", resp.Code, resp.Body)
	}
}

// TestPoolCorrectionHTTP: a round voided with its rule (ruling R28): 401
// without a principal, 403 for the cage and the controller; the
// supervisor's proposal (202) moves nothing, and once a controller
// approves it the void takes the contribution back (10,000,000 again)
// exactly once (issue 16, dual control).
func TestPoolCorrectionHTTP(t *testing.T) {
	api := lockAPI(t)
	if resp := api.Post("/v1/pools", strings.NewReader(createMBS)); resp.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.Code, resp.Body)
	}
	round := `{"ruleset":"mbs-megalink-ssp-v6","table":"T12","roundId":"R1","dealtAt":"2026-03-01T20:00:00Z","dealer":"2d 3d 5h 8c 9s",
	  "progressiveUnit":500,"positions":[{"seat":2,"cards":"2c 7d 9h Jd 4c","wagers":{"ante":1000,"progressive":500}}]}`
	if resp := api.Post("/v1/pools/megalink/rounds", strings.NewReader(round)); resp.Code != http.StatusOK {
		t.Fatalf("round: %d %s", resp.Code, resp.Body)
	}
	void := `{"rules":["mbs-megalink-ssp-v6 5.4"],"reason":"two cards exposed in the deal"}`
	path := "/v1/pools/megalink/rounds/T12/R1/correction"
	if resp := api.Post(path, "Idempotency-Key: k", strings.NewReader(void)); resp.Code != http.StatusUnauthorized {
		t.Fatalf("no principal: %d %s", resp.Code, resp.Body)
	}
	if resp := api.Post(path, "Idempotency-Key: k", "X-Test-Principal: cage:bo/cage", strings.NewReader(void)); resp.Code != http.StatusForbidden {
		t.Fatalf("the cage: %d %s", resp.Code, resp.Body)
	}
	if resp := api.Post(path, "Idempotency-Key: k", "X-Test-Principal: ctl:cy/controller", strings.NewReader(void)); resp.Code != http.StatusForbidden {
		t.Fatalf("a controller approves corrections, it does not propose them: %d %s", resp.Code, resp.Body)
	}
	resp := api.Post(path, "Idempotency-Key: k", "X-Test-Principal: sup:ann/supervisor", strings.NewReader(void))
	prop := decodeBody[ProposalAnswer](t, resp.Body.Bytes())
	// 1 x 500 x 17.33% = 86.65: 86 credited, still there.
	if resp.Code != http.StatusAccepted || prop.Proposal.State != "open" || prop.Pool.Meters.Displayed != 10_000_086 {
		t.Fatalf("proposed void: %d %s", resp.Code, resp.Body)
	}
	again := api.Post(path, "Idempotency-Key: k", "X-Test-Principal: sup:ann/supervisor", strings.NewReader(void))
	if again.Code != http.StatusAccepted || again.Header().Get("Idempotent-Replayed") != "true" || again.Body.String() != resp.Body.String() {
		t.Fatalf("replay: %d %s", again.Code, again.Body)
	}
	approve := fmt.Sprintf("/v1/pools/megalink/proposals/%d/approve", prop.Proposal.ID)
	resp = api.Post(approve, "Idempotency-Key: a", "X-Test-Principal: ctl:cy/controller")
	res := decodeBody[ApprovalAnswer](t, resp.Body.Bytes())
	// Taken back: 10,000,000 again.
	if resp.Code != http.StatusOK || res.Correction == nil || res.Correction.Meters.Displayed != 10_000_000 || res.Correction.Difference.Displayed != -86 {
		t.Fatalf("void: %d %s", resp.Code, resp.Body)
	}
	if resp := api.Post(path, "Idempotency-Key: k2", "X-Test-Principal: sup:ann/supervisor", strings.NewReader(void)); resp.Code != http.StatusConflict {
		t.Fatalf("a second correction: %d %s", resp.Code, resp.Body)
	}
}

// TestPoolCorrectionNamesTheCorrectedField: a corrected round with a bad
// card is a 422 naming the field under body.corrected.
func TestPoolCorrectionNamesTheCorrectedField(t *testing.T) {
	api := lockAPI(t)
	if resp := api.Post("/v1/pools", strings.NewReader(createMBS)); resp.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.Code, resp.Body)
	}
	body := `{"reason":"misread","corrected":{"ruleset":"mbs-megalink-ssp-v6","table":"T12","roundId":"R1","dealtAt":"2026-03-01T20:00:00Z","dealer":"2d 3d 5h 8c 9s",
	  "progressiveUnit":500,"positions":[{"seat":2,"cards":"2c 7d 9h Jd 1x","wagers":{"ante":1000,"progressive":500}}]}}`
	resp := api.Post("/v1/pools/megalink/rounds/T12/R1/correction", "Idempotency-Key: k", "X-Test-Principal: sup:ann/supervisor", strings.NewReader(body))
	if resp.Code != http.StatusUnprocessableEntity || !strings.Contains(resp.Body.String(), `"location":"body.corrected.positions[0].cards"`) {
		t.Fatalf("%d %s", resp.Code, resp.Body)
	}
}

// TestCorrectionAfterTheResetSpentTheOverflowHTTP: issue 21 item 1, the
// issue's scenario as a new user runs it (rulings R21, R28, R29). Pool P
// (ceiling = reset = 1,000,000): R1 sends 86 to the overflow and 25 to
// the reserve; R2's Royal is paid 1,000,000 and its reset funded by the
// overflow's 173, the reserve's 51 and the house's 999,776. The void of
// R1, proposed by a supervisor and approved by a controller, leaves the
// displayed meter at 1,000,000 and the house at 1,999,889 (it tops up
// the overflow by 87 and the reserve by 26), as a pool that never saw R1;
// the answer cites ruling R28 and the rule; reconcile is ok.
func TestCorrectionAfterTheResetSpentTheOverflowHTTP(t *testing.T) {
	api := lockAPI(t)
	create := `{"id":"P","currency":"SGD","tables":["T1","T2"],"rulesets":["mbs-megalink-ssp-v6"],"unit":500,"contributionBp":1733,"reserveBp":517,"reset":1000000,"ceiling":1000000}`
	if resp := api.Post("/v1/pools", strings.NewReader(create)); resp.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.Code, resp.Body)
	}
	round := func(table, id, cards string) string {
		return `{"ruleset":"mbs-megalink-ssp-v6","table":"` + table + `","roundId":"` + id + `","dealtAt":"2026-03-01T20:00:00Z","dealer":"2d 3d 5h 8c 9c",
		  "progressiveUnit":500,"positions":[{"seat":1,"cards":"` + cards + `","wagers":{"ante":1000,"bet":2000,"progressive":500}}]}`
	}
	for _, r := range []string{round("T1", "R1", "Kc Kh 7d 6c 4h"), round("T2", "R2", "As Ks Qs Js Ts")} {
		if resp := api.Post("/v1/pools/P/rounds", strings.NewReader(r)); resp.Code != http.StatusOK {
			t.Fatalf("round: %d %s", resp.Code, resp.Body)
		}
	}
	void := `{"rules":["mbs-megalink-ssp-v6 5.4"],"reason":"two cards exposed in the deal"}`
	resp := api.Post("/v1/pools/P/rounds/T1/R1/correction", "Idempotency-Key: k", "X-Test-Principal: sup:ann/supervisor", strings.NewReader(void))
	prop := decodeBody[ProposalAnswer](t, resp.Body.Bytes())
	if resp.Code != http.StatusAccepted {
		t.Fatalf("proposed: %d %s", resp.Code, resp.Body)
	}
	resp = api.Post(fmt.Sprintf("/v1/pools/P/proposals/%d/approve", prop.Proposal.ID), "Idempotency-Key: a", "X-Test-Principal: ctl:cy/controller")
	res := decodeBody[ApprovalAnswer](t, resp.Body.Bytes())
	if resp.Code != http.StatusOK || res.Correction == nil {
		t.Fatalf("approve: %d %s", resp.Code, resp.Body)
	}
	m := res.Pool.Meters
	if m.Displayed != 1_000_000 || m.Overflow != 0 || m.Reserve != 0 || m.HouseFunded != 1_999_889 ||
		res.Correction.Difference.Displayed != 0 || !slices.Equal(res.Correction.Rules, []string{"ruling R28", "mbs-megalink-ssp-v6 5.4"}) {
		t.Fatalf("after the void: %+v %+v", m, res.Correction)
	}
	resp = api.Get("/v1/pools/P/reconcile", "X-Test-Principal: ctl:cy/controller")
	if resp.Code != http.StatusOK || !strings.Contains(resp.Body.String(), `"ok":true`) {
		t.Fatalf("reconcile: %d %s", resp.Code, resp.Body)
	}
}

// TestVoidOfAVoidedHitHTTP: issue 33 item 10. Proposing the void of a
// hit already voided is a 409 at path.seq naming the entry that voided
// it, as docs/edge.md says (it was 404); an unknown hit stays 404.
func TestVoidOfAVoidedHitHTTP(t *testing.T) {
	api := lockedPoolAPI(t)
	round := `{"ruleset":"mbs-megalink-ssp-v6","table":"T12","roundId":"R1","dealtAt":"2026-03-01T20:00:00Z","dealer":"2d 3d 5h 8c 9s",
	  "progressiveUnit":500,"positions":[{"seat":3,"cards":"Ts Js Qs Ks As","wagers":{"ante":1000,"bet":2000,"progressive":500}}]}`
	resp := api.Post("/v1/pools/megalink/rounds", strings.NewReader(round))
	res := decodeBody[jackpot.RoundResult](t, resp.Body.Bytes())
	if resp.Code != http.StatusOK || len(res.Payouts) != 1 || res.Payouts[0].Status != "pending" {
		t.Fatalf("round: %d %s", resp.Code, resp.Body)
	}
	seq := res.Payouts[0].Seq
	void := fmt.Sprintf("/v1/pools/megalink/hits/%d/void", seq)
	resp = api.Post(void, "Idempotency-Key: v1", "X-Test-Principal: sup:ann/supervisor", strings.NewReader(`{"reason":"misread"}`))
	prop := decodeBody[ProposalAnswer](t, resp.Body.Bytes())
	if resp.Code != http.StatusAccepted {
		t.Fatalf("proposed void: %d %s", resp.Code, resp.Body)
	}
	if resp := api.Post(fmt.Sprintf("/v1/pools/megalink/proposals/%d/approve", prop.Proposal.ID), "Idempotency-Key: a1", "X-Test-Principal: ctl:cy/controller"); resp.Code != http.StatusOK {
		t.Fatalf("approve: %d %s", resp.Code, resp.Body)
	}
	// The hit entry, its reset, the proposal, then the hit_void.
	voidSeq := prop.Proposal.ID + 1
	resp = api.Post(void, "Idempotency-Key: v2", "X-Test-Principal: sup:ben/supervisor", strings.NewReader(`{"reason":"misread"}`))
	want := fmt.Sprintf("hit %d is voided by entry %d", seq, voidSeq)
	if resp.Code != http.StatusConflict || !strings.Contains(resp.Body.String(), `"location":"path.seq"`) || !strings.Contains(resp.Body.String(), want) {
		t.Fatalf("a second void: %d %s, want 409 at path.seq saying %q", resp.Code, resp.Body, want)
	}
	if resp := api.Post("/v1/pools/megalink/hits/999/void", "Idempotency-Key: v3", "X-Test-Principal: sup:ben/supervisor", strings.NewReader(`{"reason":"misread"}`)); resp.Code != http.StatusNotFound {
		t.Fatalf("an unknown hit: %d %s", resp.Code, resp.Body)
	}
}

// TestVoidPoolRoundHTTP: issue 33 item 1's reproducer. A pool round with
// the Ten of spades at seats 1 and 2 and a Royal Flush at seat 3 answers
// the void and the irregularities byte for byte as settle does, with no
// contribution; the ledger records it (round_void), the pool names it
// (lastVoidHand) and the hit queue's history lists the Royal; re-posting
// the round with the right cards is a 409 naming the correction.
func TestVoidPoolRoundHTTP(t *testing.T) {
	st, err := sqlite.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	_, api := humatest.New(t, Config())
	api.UseMiddleware(testPrincipal)
	Register(api, Deps{Pools: pools.NewService(st, jackpottest.NewClock(jackpottest.T0).Now, 1)}, GroupPools, GroupSettle)
	if resp := api.Post("/v1/pools", strings.NewReader(createMBS)); resp.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.Code, resp.Body)
	}
	body := func(seat2 string, pool bool) string {
		b := `{"ruleset":"mbs-megalink-ssp-v6","roundId":"R1","dealer":"2d 3d 5h 8c 9s","progressiveUnit":500,"positions":[
		  {"seat":1,"cards":"Ts 4c 6d 7h Kd","wagers":{"ante":1000,"bet":2000,"progressive":500}},
		  {"seat":2,"cards":"` + seat2 + `","wagers":{"ante":1000,"bet":2000,"progressive":500}},
		  {"seat":3,"cards":"Th Jh Qh Kh Ah","wagers":{"ante":1000,"bet":2000,"progressive":500}}]`
		if pool {
			b += `,"table":"T12","dealtAt":"2026-03-01T20:00:00Z"`
		}
		return b + "}"
	}
	settled := api.Post("/v1/rounds/settle", strings.NewReader(body("Ts 2c 5d 8h 9c", false)))
	resp := api.Post("/v1/pools/megalink/rounds", strings.NewReader(body("Ts 2c 5d 8h 9c", true)))
	if settled.Code != http.StatusOK || resp.Code != http.StatusOK {
		t.Fatalf("settle %d, pool round %d: %s", settled.Code, resp.Code, resp.Body)
	}
	var s, r map[string]json.RawMessage
	if err := json.Unmarshal(settled.Body.Bytes(), &s); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(resp.Body.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if string(r["void"]) != "true" || string(r["void"]) != string(s["void"]) || string(r["irregularities"]) != string(s["irregularities"]) ||
		!strings.Contains(string(r["irregularities"]), `"code":"duplicate_card"`) {
		t.Fatalf("the pool round's void and irregularities differ from settle's:\npool   %s %s\nsettle %s %s", r["void"], r["irregularities"], s["void"], s["irregularities"])
	}
	res := decodeBody[jackpot.RoundResult](t, resp.Body.Bytes())
	if res.Contribution.Wagers != 0 || len(res.Payouts) != 0 || res.Meters.Displayed != 10_000_000 {
		t.Fatalf("a void round contributes and pays nothing: %s", resp.Body)
	}
	pool := decodeBody[pools.View](t, api.Get("/v1/pools/megalink").Body.Bytes())
	ledger := api.Get(fmt.Sprintf("/v1/pools/megalink/ledger?after=%d", pool.LastVoidHand-1)).Body.String()
	if pool.LastVoidHand == 0 || !strings.Contains(ledger, `"kind":"round_void"`) || !strings.Contains(ledger, `"reason":"duplicate_card: `) ||
		!strings.Contains(ledger, `"voidHands":[{"seat":3,"dealt":3,"wager":"player","category":"royal_flush","cards":"Th Jh Qh Kh Ah"`) {
		t.Fatalf("the ledger (lastVoidHand %d): %s", pool.LastVoidHand, ledger)
	}
	queue := api.Get("/v1/pools/megalink/hits?state=all").Body.String()
	if !strings.Contains(queue, `"state":"round_void"`) || !strings.Contains(queue, `"hand":"royal_flush"`) || !strings.Contains(queue, `"voidReason":"duplicate_card: `) {
		t.Fatalf("the hit queue: %s", queue)
	}
	again := api.Post("/v1/pools/megalink/rounds", strings.NewReader(body("Tc 2c 5d 8h 9c", true)))
	if again.Code != http.StatusConflict || !strings.Contains(again.Body.String(), "POST /v1/pools/megalink/rounds/T12/R1/correction") {
		t.Fatalf("the round re-posted with the right cards: %d %s", again.Code, again.Body)
	}
}
