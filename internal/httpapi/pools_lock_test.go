package httpapi

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/humatest"

	"github.com/tablesettle/tablesettle/internal/filestore"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/principal"
)

// testPrincipal stands in for the authentication middleware: the header
// "X-Test-Principal: id/role" puts that principal in the request's context.
func testPrincipal(ctx huma.Context, next func(huma.Context)) {
	if v := ctx.Header("X-Test-Principal"); v != "" {
		id, role, _ := strings.Cut(v, "/")
		p := &principal.Principal{ID: id, Roles: []principal.Role{principal.Role(role)}}
		ctx = huma.WithContext(ctx, principal.NewContext(ctx.Context(), p))
	}
	next(ctx)
}

func lockAPI(t *testing.T) humatest.TestAPI {
	t.Helper()
	st, err := filestore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	_, api := humatest.New(t, Config())
	api.UseMiddleware(testPrincipal)
	Register(api, Deps{Pools: pools.NewService(st, jackpottest.NewClock(jackpottest.T0).Now, 1)}, GroupPools)
	return api
}

// TestPoolLockHTTP: a Royal under the jackpot lock is answered pending, is
// listed for its table with its cards, shows on the pool, and is
// confirmed by a supervisor and paid by the cage, each recorded with its
// principal; without a principal 401, with the wrong role 403 (issue 13).
func TestPoolLockHTTP(t *testing.T) {
	api := lockAPI(t)
	create := strings.Replace(createMBS, `"by":"ops:alice"`, `"verify":{"percent":true},"by":"ops:alice"`, 1)
	if resp := api.Post("/v1/pools", strings.NewReader(create)); resp.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.Code, resp.Body)
	}
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
	pool := decodeBody[PoolView](t, api.Get("/v1/pools/megalink").Body.Bytes())
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
		strings.NewReader(`{"reason":"late"}`)); resp.Code != http.StatusConflict {
		t.Fatalf("a confirmed hit is not voided: %d %s", resp.Code, resp.Body)
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
// without a principal, 403 for the cage; the controller's void takes the
// contribution back (10,000,000 again) exactly once under its key.
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
	resp := api.Post(path, "Idempotency-Key: k", "X-Test-Principal: ctl:cy/controller", strings.NewReader(void))
	res := decodeBody[jackpot.CorrectionResult](t, resp.Body.Bytes())
	// 1 x 500 x 17.33% = 86.65: 86 credited, taken back.
	if resp.Code != http.StatusOK || res.Meters.Displayed != 10_000_000 || res.Difference.Displayed != -86 {
		t.Fatalf("void: %d %s", resp.Code, resp.Body)
	}
	again := api.Post(path, "Idempotency-Key: k", "X-Test-Principal: ctl:cy/controller", strings.NewReader(void))
	if again.Code != http.StatusOK || again.Header().Get("Idempotent-Replayed") != "true" || again.Body.String() != resp.Body.String() {
		t.Fatalf("replay: %d %s", again.Code, again.Body)
	}
	if resp := api.Post(path, "Idempotency-Key: k2", "X-Test-Principal: ctl:cy/controller", strings.NewReader(void)); resp.Code != http.StatusConflict {
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
	resp := api.Post("/v1/pools/megalink/rounds/T12/R1/correction", "Idempotency-Key: k", "X-Test-Principal: ctl:cy/controller", strings.NewReader(body))
	if resp.Code != http.StatusUnprocessableEntity || !strings.Contains(resp.Body.String(), `"location":"body.corrected.positions[0].cards"`) {
		t.Fatalf("%d %s", resp.Code, resp.Body)
	}
}
