package httpapi

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/principal"
)

// asEveryRole serves h (built with Deps.Access nil) as a principal holding
// every role, bound to the examples' table T12: the ledger records it.
func asEveryRole(h http.Handler) http.Handler {
	p := &principal.Principal{ID: "every-role", Roles: principal.Roles, Tables: []string{"T12"}}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(principal.NewContext(r.Context(), p)))
	})
}

// TestNoByAnywhere (issue 16 item 2): every request that carried "by"
// refuses it with a 422 at body.by saying why, and writes nothing; the
// ledger's opening entry names the authenticated admin (actor).
func TestNoByAnywhere(t *testing.T) {
	api, _ := poolsAPI(t, nil)
	const why = "the ledger records the authenticated principal; by is not accepted"
	if resp := api.Post("/v1/pools", strings.NewReader(strings.Replace(createMBS, `"id":"megalink"`, `"id":"megalink","by":"ops:alice"`, 1))); resp.Code != http.StatusUnprocessableEntity ||
		!strings.Contains(resp.Body.String(), `"location":"body.by"`) || !strings.Contains(resp.Body.String(), why) {
		t.Fatalf("create with by: %d %s", resp.Code, resp.Body)
	}
	if resp := api.Get("/v1/pools/megalink"); resp.Code != http.StatusNotFound {
		t.Fatalf("a refused create wrote the pool: %d", resp.Code)
	}
	if resp := api.Post("/v1/pools", strings.NewReader(createMBS)); resp.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.Code, resp.Body)
	}
	for _, c := range []struct{ method, path, body string }{
		{"PATCH", "/v1/pools/megalink", `{"contributionBp":2000,"by":"ops:bob"}`},
		{"POST", "/v1/pools/megalink/adjustments", `{"meter":"reserve","amount":50000,"reason":"x","by":"ops:carol"}`},
		{"POST", "/v1/pools/megalink/adjustments", `{"meter":"reserve","amount":50000,"reason":"x","by":""}`},
	} {
		t.Run(c.method+" "+c.path+" "+c.body, func(t *testing.T) {
			resp := api.Do(c.method, c.path, "Idempotency-Key: by-1", strings.NewReader(c.body))
			if resp.Code != http.StatusUnprocessableEntity || !strings.Contains(resp.Body.String(), `"location":"body.by"`) || !strings.Contains(resp.Body.String(), why) {
				t.Fatalf("%d %s", resp.Code, resp.Body)
			}
		})
	}
	page := decodeBody[pools.FloorLedger](t, api.Get("/v1/pools/megalink/ledger").Body.Bytes())
	if len(page.Entries) != 1 || page.Entries[0].Actor == nil || *page.Entries[0].Actor != (jackpot.Actor{ID: "ops:alice", Role: "admin"}) || page.Entries[0].By != "" {
		t.Fatalf("the opening entry names the authenticated admin only: %+v", page.Entries)
	}
}

// TestDualControlHTTP (issue 16 item 3): the admin's proposal is listed
// until it is approved; a principal holding both the admin and the
// controller roles cannot approve its own proposal (403 naming
// path.proposal); another controller's approval applies it once (a second
// approval 409 saying by whom); a proposal withdrawn by its proposer (not
// by anyone else: 403) cannot be approved (409); one past its 30 minutes
// (the injected clock) neither (409).
func TestDualControlHTTP(t *testing.T) {
	api, clock := poolsAPI(t, nil)
	if resp := api.Post("/v1/pools", strings.NewReader(createMBS)); resp.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.Code, resp.Body)
	}
	const both = "X-Test-Principal: ops:alice/admin,controller"
	propose := func(key string, amount int) ProposalAnswer {
		t.Helper()
		resp := api.Post("/v1/pools/megalink/adjustments", "Idempotency-Key: "+key, both,
			strings.NewReader(fmt.Sprintf(`{"meter":"reserve","amount":%d,"reason":"top-up"}`, amount)))
		if resp.Code != http.StatusAccepted {
			t.Fatalf("propose: %d %s", resp.Code, resp.Body)
		}
		return decodeBody[ProposalAnswer](t, resp.Body.Bytes())
	}
	approve := func(id int64, key, who string) *httptest.ResponseRecorder {
		return api.Post(fmt.Sprintf("/v1/pools/megalink/proposals/%d/approve", id), "Idempotency-Key: "+key, "X-Test-Principal: "+who)
	}
	first := propose("p-1", 50_000)
	if first.Proposal.ProposedBy != (jackpot.Actor{ID: "ops:alice", Role: "admin"}) || first.Pool.Meters.Reserve != 0 {
		t.Fatalf("proposal: %+v", first)
	}
	list := decodeBody[struct{ Proposals []jackpot.Proposal }](t, api.Get("/v1/pools/megalink/proposals").Body.Bytes())
	if len(list.Proposals) != 1 || list.Proposals[0].ID != first.Proposal.ID || list.Proposals[0].Change.Adjustment.Amount != 50_000 {
		t.Fatalf("open proposals: %+v", list)
	}
	if resp := approve(first.Proposal.ID, "a-0", "ops:alice/admin,controller"); resp.Code != http.StatusForbidden ||
		!strings.Contains(resp.Body.String(), "dual control needs a second principal") {
		t.Fatalf("self-approval: %d %s", resp.Code, resp.Body)
	}
	resp := approve(first.Proposal.ID, "a-1", "ctl:cy/controller")
	got := decodeBody[ApprovalAnswer](t, resp.Body.Bytes())
	if resp.Code != http.StatusOK || got.Pool.Meters.Reserve != 50_000 || got.Proposal.State != "approved" {
		t.Fatalf("approve: %d %s", resp.Code, resp.Body)
	}
	if resp := approve(first.Proposal.ID, "a-2", "ctl:dee/controller"); resp.Code != http.StatusConflict || !strings.Contains(resp.Body.String(), "was approved by ctl:cy") {
		t.Fatalf("approving twice: %d %s", resp.Code, resp.Body)
	}
	page := decodeBody[pools.FloorLedger](t, api.Get(fmt.Sprintf("/v1/pools/megalink/ledger?after=%d", first.Proposal.ID)).Body.Bytes())
	if len(page.Entries) != 1 || page.Entries[0].Kind != jackpot.KindAdjustment || page.Entries[0].Reserve != 50_000 ||
		*page.Entries[0].Actor != (jackpot.Actor{ID: "ops:alice", Role: "admin"}) || *page.Entries[0].ApprovedBy != (jackpot.Actor{ID: "ctl:cy", Role: "controller"}) {
		t.Fatalf("the adjustment's entry: %+v", page.Entries)
	}

	second := propose("p-2", 1)
	withdraw := fmt.Sprintf("/v1/pools/megalink/proposals/%d/withdraw", second.Proposal.ID)
	if resp := api.Post(withdraw, "Idempotency-Key: w-0", "X-Test-Principal: sup:ann/supervisor"); resp.Code != http.StatusForbidden {
		t.Fatalf("withdrawn by another: %d %s", resp.Code, resp.Body)
	}
	if resp := api.Post(withdraw, "Idempotency-Key: w-1", both); resp.Code != http.StatusOK || !strings.Contains(resp.Body.String(), `"state":"withdrawn"`) {
		t.Fatalf("withdraw: %d %s", resp.Code, resp.Body)
	}
	if resp := approve(second.Proposal.ID, "a-3", "ctl:cy/controller"); resp.Code != http.StatusConflict || !strings.Contains(resp.Body.String(), "was withdrawn") {
		t.Fatalf("approving a withdrawn proposal: %d %s", resp.Code, resp.Body)
	}

	third := propose("p-3", 2)
	clock.Advance(30 * time.Minute)
	if resp := approve(third.Proposal.ID, "a-4", "ctl:cy/controller"); resp.Code != http.StatusConflict || !strings.Contains(resp.Body.String(), "expired") {
		t.Fatalf("approving an expired proposal: %d %s", resp.Code, resp.Body)
	}
	pv := decodeBody[pools.View](t, api.Get("/v1/pools/megalink").Body.Bytes())
	if pv.Meters.Reserve != 50_000 {
		t.Fatalf("reserve %d, want exactly the one approved 50,000", pv.Meters.Reserve)
	}
	if rec := decodeBody[jackpot.Reconciliation](t, api.Get("/v1/pools/megalink/reconcile").Body.Bytes()); !rec.OK {
		t.Fatalf("reconcile: %+v", rec)
	}
}

// TestVoidProposedThenApprovedHTTP (issue 16 item 3, issue 13): the
// supervisor's void of the pending Royal (10,000,259) is a proposal (202):
// the hit stays pending and the displayed meter at the reset, 10,000,000;
// the controller's approval voids it: the Royal's amount back, the reset
// reversed, displayed 10,000,259 and reserve 77 as before the hit.
func TestVoidProposedThenApprovedHTTP(t *testing.T) {
	api := lockedPoolAPI(t)
	round := `{"ruleset":"mbs-megalink-ssp-v6","table":"T12","roundId":"R1","dealtAt":"2026-03-01T20:00:00Z","dealer":"2d 3d 5h 8c 9s",
	  "progressiveUnit":500,"positions":[{"seat":2,"cards":"2c 7d 9h Jd 4c","wagers":{"ante":1000,"progressive":500}},
	               {"seat":1,"cards":"4h 6h 9c Qc 3s","wagers":{"ante":1000,"progressive":500}},
	               {"seat":3,"cards":"Ts Js Qs Ks AS","wagers":{"ante":1000,"bet":2000,"progressive":500}}]}`
	res := decodeBody[jackpot.RoundResult](t, api.Post("/v1/pools/megalink/rounds", strings.NewReader(round)).Body.Bytes())
	// 3 x 500 x 17.33% = 259.95: 259 credited (R4); the Royal 10,000,259 (R3), pending.
	if len(res.Payouts) != 1 || res.Payouts[0].Status != "pending" || res.Payouts[0].Amount != 10_000_259 {
		t.Fatalf("round: %+v", res)
	}
	seq := res.Payouts[0].Seq
	void := fmt.Sprintf("/v1/pools/megalink/hits/%d/void", seq)
	resp := api.Post(void, "Idempotency-Key: v1", "X-Test-Principal: sup:ann/supervisor", strings.NewReader(`{"reason":"the ace of spades was the ace of clubs"}`))
	prop := decodeBody[ProposalAnswer](t, resp.Body.Bytes())
	if resp.Code != http.StatusAccepted || prop.Proposal.Kind != "void" || prop.Proposal.Void.Seq != seq ||
		prop.Pool.Meters.Displayed != 10_000_000 || len(prop.Pool.Locked) != 1 || prop.Pool.Locked[0].State != "pending" {
		t.Fatalf("proposed void: %d %s", resp.Code, resp.Body)
	}
	resp = api.Post(fmt.Sprintf("/v1/pools/megalink/proposals/%d/approve", prop.Proposal.ID), "Idempotency-Key: a1", "X-Test-Principal: ctl:cy/controller")
	got := decodeBody[ApprovalAnswer](t, resp.Body.Bytes())
	if resp.Code != http.StatusOK || got.Hit == nil || got.Hit.State != "voided" || *got.Hit.VoidedBy != (jackpot.Actor{ID: "sup:ann", Role: "supervisor"}) {
		t.Fatalf("approved void: %d %s", resp.Code, resp.Body)
	}
	if m := got.Pool.Meters; m.Displayed != 10_000_259 || m.Reserve != 77 || m.HouseFunded != 10_000_000 || m.Resets != 0 || len(got.Pool.Locked) != 0 {
		t.Fatalf("after the void: %+v", m)
	}
}
