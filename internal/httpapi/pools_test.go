package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2/humatest"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/sqlite"
)

func poolsAPI(t testing.TB, st pools.Store) (humatest.TestAPI, *jackpottest.Clock) {
	t.Helper()
	if st == nil {
		var err error
		if st, err = sqlite.Open(t.TempDir()); err != nil {
			t.Fatal(err)
		}
	}
	clock := jackpottest.NewClock(jackpottest.T0)
	_, api := humatest.New(t, Config())
	// Every request but a table's round is opsAlice's, unless it names
	// another principal (X-Test-Principal).
	api.UseMiddleware(testPrincipals(func(_, path string) string {
		if strings.HasSuffix(path, "/rounds") {
			return ""
		}
		return opsAlice
	}))
	Register(api, Deps{Pools: pools.NewService(st, clock.Now, 1)}, GroupPools)
	return api, clock
}

func decodeBody[T any](t *testing.T, b []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return v
}

const createMBS = `{"id":"megalink","currency":"SGD","rulesets":["mbs-megalink-ssp-v6","mbs-megalink-tcp-v6","mbs-ssp-v4"],
  "unit":500,"contributionBp":1733,"reserveBp":517,"reset":10000000,"tables":["T1","T2","T3","T7","T12"]}`

func TestPoolLifecycle(t *testing.T) {
	api, _ := poolsAPI(t, nil)
	resp := api.Post("/v1/pools", strings.NewReader(createMBS))
	if resp.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.Code, resp.Body)
	}
	// Creating is idempotent: the same settings again answer the pool
	// (200); other settings are refused (409, naming the id).
	if resp := api.Post("/v1/pools", strings.NewReader(createMBS)); resp.Code != http.StatusOK {
		t.Fatalf("create twice: %d", resp.Code)
	}
	if resp := api.Post("/v1/pools", strings.NewReader(strings.Replace(createMBS, `"reset":10000000`, `"reset":20000000`, 1))); resp.Code != http.StatusConflict ||
		!strings.Contains(resp.Body.String(), `"location":"body.id"`) {
		t.Fatalf("create with other settings: %d %s", resp.Code, resp.Body)
	}
	if resp := api.Get("/v1/pools/nope"); resp.Code != http.StatusNotFound {
		t.Fatalf("unknown pool: %d", resp.Code)
	}
	// SSP v6: seat 3 holds a Royal Flush, seat 1 a Full House (SGD 200 by
	// the house, 4.2), seat 2 nothing.
	round := `{"ruleset":"mbs-megalink-ssp-v6","table":"T12","roundId":"R1","dealtAt":"2026-03-01T20:00:00Z","dealer":"2d 3d 5h 8c 9s",
	  "progressiveUnit":500,"positions":[{"seat":1,"cards":"Kc Kh Kd Ac Ah","wagers":{"ante":1000,"bet":2000,"progressive":500}},
	               {"seat":2,"cards":"2c 7d 9h Jd 4c","wagers":{"ante":1000,"progressive":500}},
	               {"seat":3,"cards":"Ts Js Qs Ks AS","wagers":{"ante":1000,"bet":2000,"progressive":500}}]}`
	resp = api.Post("/v1/pools/megalink/rounds", strings.NewReader(round))
	if resp.Code != http.StatusOK {
		t.Fatalf("round: %d %s", resp.Code, resp.Body)
	}
	first := resp.Body.String()
	res := decodeBody[jackpot.RoundResult](t, resp.Body.Bytes())
	// 3 x 500 x 17.33% = 259.95 -> 259 credited; the Royal takes 10,000,259.
	if len(res.Payouts) != 2 || res.Payouts[0].Category != "full_house" || res.Payouts[0].Amount != 20_000 ||
		res.Payouts[1].Category != "royal_flush" || res.Payouts[1].Amount != 10_000_259 || res.Meters.Displayed != 10_000_000 {
		t.Fatalf("payouts %s", first)
	}
	// Replay: the first answer, unchanged.
	resp = api.Post("/v1/pools/megalink/rounds", strings.NewReader(round))
	if resp.Code != http.StatusOK || resp.Body.String() != first || resp.Header().Get("Idempotent-Replayed") != "true" {
		t.Fatalf("replay: %d %q %s", resp.Code, resp.Header().Get("Idempotent-Replayed"), resp.Body)
	}
	// Same ids, different body: 409.
	other := strings.Replace(round, `"progressive":500}}]`, `"progressive":500}},{"seat":4,"cards":"6c 6h 7c 8d Qh","wagers":{"ante":1000,"progressive":500}}]`, 1)
	if resp := api.Post("/v1/pools/megalink/rounds", strings.NewReader(other)); resp.Code != http.StatusConflict ||
		!strings.Contains(resp.Body.String(), `"location":"body.roundId"`) {
		t.Fatalf("different body: %d %s", resp.Code, resp.Body)
	}
	// The same round spelled differently (whitespace, "x":0 for no wager,
	// "exposed":true, the cards' case) is the same round: a replay.
	respelled := strings.Replace(strings.Replace(round, `"wagers":{"ante":1000,"progressive":500}}`, `"wagers":{"ante":1000,"bet":0,"progressive":500},"exposed":true}`, 1),
		`"Ts Js Qs Ks AS"`, `"ts  js qs ks as"`, 1)
	if resp := api.Post("/v1/pools/megalink/rounds", strings.NewReader(respelled)); resp.Code != http.StatusOK || resp.Body.String() != first {
		t.Fatalf("respelled round: %d %s", resp.Code, resp.Body)
	}
	// R22: a stake other than the pool's unit is refused, even when the
	// table states that amount as its progressiveUnit: the unit is what is
	// wrong, and is named (issue 33 item 4: checked on every round).
	bad := `{"ruleset":"mbs-megalink-ssp-v6","table":"T12","roundId":"R2","dealtAt":"2026-03-01T20:00:00Z","dealer":"2d 3d 5h 8c 9s",
	  "progressiveUnit":1000,"positions":[{"seat":1,"cards":"Kc Kh Kd As Ah","wagers":{"ante":1000,"progressive":1000}}]}`
	resp = api.Post("/v1/pools/megalink/rounds", strings.NewReader(bad))
	if resp.Code != http.StatusUnprocessableEntity || !strings.Contains(resp.Body.String(), `"location":"body.progressiveUnit"`) {
		t.Fatalf("bad stake: %d %s", resp.Code, resp.Body)
	}
	// R12: a repeated card voids the round; it never reaches the pool.
	dup := `{"ruleset":"mbs-megalink-ssp-v6","table":"T12","roundId":"R3","dealtAt":"2026-03-01T20:00:00Z","dealer":"2d 3d 5h 8c 9s",
	  "progressiveUnit":500,"positions":[{"seat":1,"cards":"Kc Kh Kd As Ah","wagers":{"ante":1000,"progressive":500}},{"seat":2,"cards":"Kc 7d 9h Js 4c","wagers":{"ante":1000,"progressive":500}}]}`
	resp = api.Post("/v1/pools/megalink/rounds", strings.NewReader(dup))
	if void := decodeBody[jackpot.RoundResult](t, resp.Body.Bytes()); resp.Code != http.StatusOK || void.Contribution.Wagers != 0 || len(void.Payouts) != 0 {
		t.Fatalf("duplicate card: the round is void and nothing reaches the pool: %d %s", resp.Code, resp.Body)
	}
	// Idempotency-Key.
	r4 := `{"ruleset":"mbs-megalink-tcp-v6","table":"T7","roundId":"R4","dealtAt":"2026-03-01T20:00:00Z","dealer":"2h 5c 9d","community":"9s 8s",
	  "progressiveUnit":500,"positions":[{"seat":2,"cards":"Ts Js Qs","wagers":{"ante":1000,"play":1000,"progressive":500}}]}`
	resp = api.Post("/v1/pools/megalink/rounds", "Idempotency-Key: k-1", strings.NewReader(r4))
	sf := decodeBody[jackpot.RoundResult](t, resp.Body.Bytes())
	// TCP 4.4: the player's 3 + 2 community make a Straight Flush: 10% of
	// 10,000,087 (500 x 17.33% = 86.65 + the 0.95 carried = 87.60 -> 87).
	if resp.Code != http.StatusOK || len(sf.Payouts) != 1 || sf.Payouts[0].Category != "straight_flush" || sf.Payouts[0].Amount != 1_000_008 {
		t.Fatalf("TCP straight flush: %d %s", resp.Code, resp.Body)
	}
	r5 := strings.Replace(r4, `"R4"`, `"R5"`, 1)
	if resp := api.Post("/v1/pools/megalink/rounds", "Idempotency-Key: k-1", strings.NewReader(r5)); resp.Code != http.StatusConflict {
		t.Fatalf("key reused: %d %s", resp.Code, resp.Body)
	}
	// PATCH: proposed (dual control); approved by a controller, recorded,
	// pending until the next reset.
	resp = api.Patch("/v1/pools/megalink", "Idempotency-Key: change-1", strings.NewReader(`{"contributionBp":2000,"reason":"approved"}`))
	prop := decodeBody[ProposalAnswer](t, resp.Body.Bytes())
	if resp.Code != http.StatusAccepted || prop.Pool.Pending != nil || prop.Proposal.Change.Kind != "settings" {
		t.Fatalf("patch: %d %s", resp.Code, resp.Body)
	}
	resp = api.Post(fmt.Sprintf("/v1/pools/megalink/proposals/%d/approve", prop.Proposal.ID), "Idempotency-Key: ok-1", "X-Test-Principal: ctl:cy/controller")
	pv := decodeBody[ApprovalAnswer](t, resp.Body.Bytes()).Pool
	if resp.Code != http.StatusOK || pv.Settings.ContributionBP != 1733 || pv.Pending == nil || pv.Pending.Settings.ContributionBP != 2000 ||
		pv.Pending.By != "ops:alice" || pv.Pending.ApprovedBy == nil || pv.Pending.ApprovedBy.ID != "ctl:cy" {
		t.Fatalf("approved patch: %d %s", resp.Code, resp.Body)
	}
	// Ledger: paginated, oldest first.
	resp = api.Get("/v1/pools/megalink/ledger?limit=3")
	page := decodeBody[pools.FloorLedger](t, resp.Body.Bytes())
	if len(page.Entries) != 3 || page.Entries[0].Kind != jackpot.KindOpening || page.Next == nil || *page.Next != 3 {
		t.Fatalf("ledger page: %s", resp.Body)
	}
	resp = api.Get("/v1/pools/megalink/ledger?after=3&limit=100")
	page = decodeBody[pools.FloorLedger](t, resp.Body.Bytes())
	if len(page.Entries) == 0 || page.Entries[0].Seq != 4 || page.Next != nil {
		t.Fatalf("ledger page 2: %s", resp.Body)
	}
	resp = api.Get("/v1/pools/megalink/reconcile")
	rec := decodeBody[jackpot.Reconciliation](t, resp.Body.Bytes())
	if resp.Code != http.StatusOK || !rec.OK {
		t.Fatalf("reconcile: %s", resp.Body)
	}
}

// TestSSPv4DealerHandShared: ruling R22 — an SSP v4 dealer-hand hit is won
// by every dealer-hand wager at the table, and R5 shares it.
func TestSSPv4DealerHandShared(t *testing.T) {
	api, _ := poolsAPI(t, nil)
	api.Post("/v1/pools", strings.NewReader(createMBS))
	round := `{"ruleset":"mbs-ssp-v4","table":"T1","roundId":"R1","dealtAt":"2026-03-01T20:00:00Z","dealer":"Th Jh Qh Kh Ah",
	  "magicCard":"2s","luckyPlayerSeat":7,"luckyDealer":false,
	  "positions":[{"seat":1,"cards":"2c 7d 9h Js 4c","wagers":{"ante":1000,"bet":2000,"progressiveDealer":500}},
	               {"seat":2,"cards":"3c 8d 9c Jd 5c","wagers":{"ante":1000,"bet":2000,"progressiveDealer":1000}}]}`
	resp := api.Post("/v1/pools/megalink/rounds", strings.NewReader(round))
	res := decodeBody[jackpot.RoundResult](t, resp.Body.Bytes())
	// 1500 x 17.33% = 259.95 -> 259; (10,000,259 + 10,000,000) / 2 = 10,000,129 each, 1 left in
	// the pool; the second share is 129 from the pool, 77 from the reserve and 9,999,923 from the house.
	if resp.Code != http.StatusOK || len(res.Payouts) != 2 || res.Payouts[0].Amount != 10_000_129 || res.Payouts[1].Amount != 10_000_129 ||
		res.Payouts[1].HouseFunded != 9_999_923 || res.Meters.Displayed != 10_000_001 {
		t.Fatalf("%d %s", resp.Code, resp.Body)
	}
}

type downStore struct{ pools.Store }

func (downStore) Commit(context.Context, jackpot.Commit) error {
	return errors.New("dial tcp 10.0.0.1:443: i/o timeout (secret detail)")
}
func (downStore) Record(context.Context, string, string) (jackpot.RoundRecord, error) {
	return jackpot.RoundRecord{}, jackpot.ErrNotFound
}

// TestStoreDownIs503: the store cannot confirm the write -> 503
// "progressive unavailable", and the cause is never shown.
func TestStoreDownIs503(t *testing.T) {
	st, _ := sqlite.Open(t.TempDir())
	api, _ := poolsAPI(t, st)
	api.Post("/v1/pools", strings.NewReader(createMBS))
	api2, _ := poolsAPI(t, downStore{st})
	round := `{"ruleset":"mbs-megalink-ssp-v6","table":"T12","roundId":"R1","dealtAt":"2026-03-01T20:00:00Z","dealer":"2d 3d 5h 8c 9s",
	  "progressiveUnit":500,"positions":[{"seat":1,"cards":"Kc Kh Kd As Ah","wagers":{"ante":1000,"progressive":500}}]}`
	resp := api2.Post("/v1/pools/megalink/rounds", strings.NewReader(round))
	if resp.Code != http.StatusServiceUnavailable || !strings.Contains(resp.Body.String(), "progressive unavailable") ||
		strings.Contains(resp.Body.String(), "secret") || resp.Header().Get("Retry-After") == "" {
		t.Fatalf("%d %v %s", resp.Code, resp.Header(), resp.Body)
	}
	resp = api.Get("/v1/pools/megalink")
	pv := decodeBody[pools.View](t, resp.Body.Bytes())
	if pv.Meters.Wagers != 0 || pv.Version != 1 {
		t.Fatalf("nothing half-applied: %s", resp.Body)
	}
}

// TestRWSHeldThenReleased: R7 over HTTP — the round answers "held", and the
// release after the window pays it.
func TestRWSHeldThenReleased(t *testing.T) {
	api, clock := poolsAPI(t, nil)
	resp := api.Post("/v1/pools", strings.NewReader(`{"id":"rws","currency":"SGD","rulesets":["rws-mlp-csp-v2"],"unit":500,
	  "contributionBp":1733,"reserveBp":517,"reset":10000000,"tables":["T1","T2","T3","T7","T12"]}`))
	if resp.Code != http.StatusCreated || decodeBody[pools.View](t, resp.Body.Bytes()).Settings.SettleWindowMS != 5000 {
		t.Fatalf("create: %s", resp.Body)
	}
	round := `{"ruleset":"rws-mlp-csp-v2","table":"T1","roundId":"R1","dealtAt":"2026-03-01T20:00:00Z","dealer":"2d 3d 5h 8c 9s",
	  "progressiveUnit":500,"positions":[{"seat":4,"cards":"Ts Js Qs Ks As","wagers":{"ante":1000,"bet":2000,"progressive":500}}]}`
	resp = api.Post("/v1/pools/rws/rounds", strings.NewReader(round))
	res := decodeBody[jackpot.RoundResult](t, resp.Body.Bytes())
	if len(res.Payouts) != 1 || res.Payouts[0].Status != "held" || res.Payouts[0].PayAfter == nil {
		t.Fatalf("held: %s", resp.Body)
	}
	resp = api.Post("/v1/pools/rws/release")
	if out := decodeBody[struct{ Paid []jackpot.Payout }](t, resp.Body.Bytes()); len(out.Paid) != 0 {
		t.Fatalf("paid inside the window: %s", resp.Body)
	}
	clock.Advance(5 * time.Second)
	resp = api.Post("/v1/pools/rws/release", "X-Test-Principal: sup:ann/supervisor")
	out := decodeBody[struct{ Paid []jackpot.Payout }](t, resp.Body.Bytes())
	if len(out.Paid) != 1 || out.Paid[0].Amount != 10_000_086 {
		t.Fatalf("release: %s", resp.Body)
	}
	// Issue 33 item 5: the Release button names who pressed it; a held
	// hit of T1 that a round of T2 finds due is paid as the service's
	// clock, and T2's own contribution names T2.
	if by := releasedBy(t, api, out.Paid[0].Seq); by != "sup:ann" {
		t.Fatalf("the button's release recorded as %q, want sup:ann", by)
	}
	round = strings.Replace(round, `"roundId":"R1"`, `"roundId":"R2"`, 1)
	resp = api.Post("/v1/pools/rws/rounds", strings.NewReader(round), "X-Test-Principal: tbl:T1/table/T1")
	held := decodeBody[jackpot.RoundResult](t, resp.Body.Bytes())
	if len(held.Payouts) != 1 || held.Payouts[0].Status != "held" {
		t.Fatalf("held again: %s", resp.Body)
	}
	clock.Advance(5 * time.Second)
	t2 := `{"ruleset":"rws-mlp-csp-v2","table":"T2","roundId":"R1","dealtAt":"2026-03-01T20:00:00Z","dealer":"2d 3d 5h 8c 9s",
	  "progressiveUnit":500,"positions":[{"seat":1,"cards":"Kc Qh 7d 4c 2h","wagers":{"ante":1000,"bet":2000,"progressive":500}}]}`
	resp = api.Post("/v1/pools/rws/rounds", strings.NewReader(t2), "X-Test-Principal: tbl:T2/table/T2")
	res = decodeBody[jackpot.RoundResult](t, resp.Body.Bytes())
	if resp.Code != http.StatusOK || len(res.Released) != 1 || res.Released[0].Table != "T1" {
		t.Fatalf("T2's round: %s", resp.Body)
	}
	if by := releasedBy(t, api, res.Released[0].Seq); by != "service" {
		t.Fatalf("the release T2's round found due recorded as %q, want service (the clock)", by)
	}
	// Every entry after T1's held one: the release's (the Royal, the
	// reset) the clock's, then T2's contribution T2's.
	resp = api.Get(fmt.Sprintf("/v1/pools/rws/ledger?after=%d", held.Payouts[0].Seq))
	page := decodeBody[struct{ Entries []jackpot.Entry }](t, resp.Body.Bytes())
	kinds := ""
	for _, e := range page.Entries {
		want := "service"
		if e.Kind == jackpot.KindContribution {
			want = "tbl:T2"
		}
		if e.Actor == nil || e.Actor.ID != want {
			t.Errorf("entry %d (%s) by %+v, want %s", e.Seq, e.Kind, e.Actor, want)
		}
		kinds += string(e.Kind) + " "
	}
	if kinds != "hit reset contribution " {
		t.Fatalf("entries after the held Royal: %s", kinds)
	}
}

// releasedBy is the actor's id of ledger entry seq of pool rws.
func releasedBy(t *testing.T, api humatest.TestAPI, seq int64) string {
	t.Helper()
	resp := api.Get(fmt.Sprintf("/v1/pools/rws/ledger?after=%d&limit=1", seq-1))
	page := decodeBody[struct{ Entries []jackpot.Entry }](t, resp.Body.Bytes())
	if len(page.Entries) != 1 || page.Entries[0].Seq != seq || page.Entries[0].Actor == nil {
		t.Fatalf("ledger entry %d: %s", seq, resp.Body)
	}
	return page.Entries[0].Actor.ID
}

// TestPoolsReadmeExample: the pools example of docs/pools.md works as
// written and answers what the page says (Full House SGD 200 by the house,
// Royal Flush SGD 100,001.73 from the pool, then the reset to SGD 100,000).
// The page's pool links table T12 itself (issue 24: a pool without tables
// accepts no round), so the bodies are sent exactly as the page shows them.
func TestPoolsReadmeExample(t *testing.T) {
	b, err := os.ReadFile("../../docs/pools.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "<!-- section: pools -->")
	if i < 0 {
		t.Fatal("no pools section")
	}
	var bodies []string
	for sec := s[i:]; len(bodies) < 2; {
		start := strings.Index(sec, "-d '")
		if start < 0 {
			t.Fatal("the pools section has fewer than two request bodies")
		}
		end := strings.Index(sec[start+4:], "'")
		bodies = append(bodies, sec[start+4:start+4+end])
		sec = sec[start+4+end:]
	}
	api, _ := poolsAPI(t, nil)
	if resp := api.Post("/v1/pools", strings.NewReader(bodies[0])); resp.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.Code, resp.Body)
	}
	resp := api.Post("/v1/pools/megalink-sgd/rounds", "Idempotency-Key: T12-R1", strings.NewReader(bodies[1]))
	res := decodeBody[jackpot.RoundResult](t, resp.Body.Bytes())
	if resp.Code != http.StatusOK || len(res.Payouts) != 2 || res.Payouts[0].Amount != 20_000 || res.Payouts[0].Funding[0].Source != jackpot.SourceHouse ||
		res.Payouts[1].Amount != 10_000_173 || res.Meters.Displayed != 10_000_000 {
		t.Fatalf("docs/pools.md and answer disagree: %s", resp.Body)
	}
}

// TestRoundFieldsNamed: a round the pool cannot take names the request's
// field (R7 needs dealtAt; the pool must serve the ruleset).
func TestRoundFieldsNamed(t *testing.T) {
	api, _ := poolsAPI(t, nil)
	api.Post("/v1/pools", strings.NewReader(createMBS))
	for name, c := range map[string]struct{ body, loc string }{ // loc: the location (or huma's message) naming the field
		"no dealtAt": {`{"ruleset":"mbs-megalink-ssp-v6","table":"T1","roundId":"R1","dealer":"2d 3d 5h 8c 9s",
		  "progressiveUnit":500,"positions":[{"seat":1,"cards":"Kc Kh Kd As Ah","wagers":{"ante":1000,"progressive":500}}]}`, "required property dealtAt"},
		"ruleset not served": {`{"ruleset":"rws-mlp-csp-v2","table":"T1","roundId":"R1","dealtAt":"2026-03-01T20:00:00Z","dealer":"2d 3d 5h 8c 9s",
		  "progressiveUnit":500,"positions":[{"seat":1,"cards":"Kc Kh Kd As Ah","wagers":{"ante":1000,"bet":2000,"progressive":500}}]}`, `"location":"body.ruleset"`},
		"bad round id": {`{"ruleset":"mbs-megalink-ssp-v6","table":"T1","roundId":"R/1","dealtAt":"2026-03-01T20:00:00Z","dealer":"2d 3d 5h 8c 9s",
		  "progressiveUnit":500,"positions":[{"seat":1,"cards":"Kc Kh Kd As Ah","wagers":{"ante":1000,"progressive":500}}]}`, `"location":"body.roundId"`},
		// Issue 33 item 4 (ruling R22): the unit is the pool's on every
		// round, with a progressive wager or none.
		"unit not the pool's, no progressive wager": {`{"ruleset":"mbs-megalink-ssp-v6","table":"T1","roundId":"R1","dealtAt":"2026-03-01T20:00:00Z","dealer":"2d 3d 5h 8c 9s",
		  "progressiveUnit":501,"positions":[{"seat":1,"cards":"Kc Kh Kd As Ah","wagers":{"ante":1000,"bet":2000}}]}`, `"location":"body.progressiveUnit"`},
		"unit not the pool's, progressive wager of that unit": {`{"ruleset":"mbs-megalink-ssp-v6","table":"T1","roundId":"R1","dealtAt":"2026-03-01T20:00:00Z","dealer":"2d 3d 5h 8c 9s",
		  "progressiveUnit":501,"positions":[{"seat":1,"cards":"Kc Kh Kd As Ah","wagers":{"ante":1000,"bet":2000,"progressive":501}}]}`, `"location":"body.progressiveUnit"`},
	} {
		t.Run(name, func(t *testing.T) {
			resp := api.Post("/v1/pools/megalink/rounds", strings.NewReader(c.body))
			if resp.Code != http.StatusUnprocessableEntity || !strings.Contains(resp.Body.String(), c.loc) {
				t.Fatalf("%d %s, want 422 at %s", resp.Code, resp.Body, c.loc)
			}
		})
	}
	if p := decodeBody[struct{ Version int64 }](t, api.Get("/v1/pools/megalink").Body.Bytes()); p.Version != 1 {
		t.Errorf("a refused round moved the pool to version %d", p.Version)
	}
}

// TestPoolsAuditHTTP: the pools audit's findings over HTTP: bounded
// settings (422 naming the field), a pool's currency its rulesets settle
// in, adjustments exactly once under a required Idempotency-Key (409 naming
// the header for another body), and an empty ledger page past the end.
func TestPoolsAuditHTTP(t *testing.T) {
	api, _ := poolsAPI(t, nil)
	for name, c := range map[string]struct{ from, to, loc string }{
		"defect 1: reset 5e18":                    {`"reset":10000000`, `"reset":5000000000000000000`, "body.reset"},
		"defect 3: unit 1e12":                     {`"unit":500`, `"unit":1000000000000`, "body.unit"},
		"ceiling over 1e15":                       {`"reset":10000000`, `"reset":10000000,"ceiling":1000000000000001`, "body.ceiling"},
		"defect 9: USD for SGD-only mbs-megalink": {`"currency":"SGD"`, `"currency":"USD"`, "body.currency"},
	} {
		t.Run(name, func(t *testing.T) {
			resp := api.Post("/v1/pools", strings.NewReader(strings.Replace(createMBS, c.from, c.to, 1)))
			if resp.Code != http.StatusUnprocessableEntity || !strings.Contains(resp.Body.String(), `"location":"`+c.loc+`"`) {
				t.Fatalf("%d %s, want 422 at %s", resp.Code, resp.Body, c.loc)
			}
		})
	}
	if resp := api.Post("/v1/pools", strings.NewReader(createMBS)); resp.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.Code, resp.Body)
	}
	adj := `{"meter":"reserve","amount":50000,"reason":"reserve top-up approved by finance"}`
	if resp := api.Post("/v1/pools/megalink/adjustments", strings.NewReader(adj)); resp.Code != http.StatusUnprocessableEntity ||
		!strings.Contains(resp.Body.String(), "Idempotency-Key") {
		t.Fatalf("no key: %d %s", resp.Code, resp.Body)
	}
	// Proposed (dual control): nothing moves until a controller approves.
	resp := api.Post("/v1/pools/megalink/adjustments", "Idempotency-Key: adj-1", strings.NewReader(adj))
	first := decodeBody[ProposalAnswer](t, resp.Body.Bytes())
	if resp.Code != http.StatusAccepted || first.Pool.Meters.Reserve != 0 || resp.Header().Get("Idempotent-Replayed") != "false" {
		t.Fatalf("adjust: %d %v %s", resp.Code, resp.Header(), resp.Body)
	}
	resp = api.Post("/v1/pools/megalink/adjustments", "Idempotency-Key: adj-1", strings.NewReader(adj))
	if again := decodeBody[ProposalAnswer](t, resp.Body.Bytes()); resp.Code != http.StatusAccepted || again.Proposal.ID != first.Proposal.ID || resp.Header().Get("Idempotent-Replayed") != "true" {
		t.Fatalf("retry: %d %s", resp.Code, resp.Body)
	}
	resp = api.Post("/v1/pools/megalink/adjustments", "Idempotency-Key: adj-1", strings.NewReader(strings.Replace(adj, "50000", "60000", 1)))
	if resp.Code != http.StatusConflict || !strings.Contains(resp.Body.String(), `"location":"header.Idempotency-Key"`) {
		t.Fatalf("another body: %d %s", resp.Code, resp.Body)
	}
	if pv := decodeBody[pools.View](t, api.Get("/v1/pools/megalink").Body.Bytes()); pv.Meters.Reserve != 0 || pv.Entries != 2 {
		t.Fatalf("the adjustment was proposed more than once: reserve %d, %d entries", pv.Meters.Reserve, pv.Entries)
	}
	resp = api.Post(fmt.Sprintf("/v1/pools/megalink/proposals/%d/approve", first.Proposal.ID), "Idempotency-Key: ok-1", "X-Test-Principal: ctl:cy/controller")
	if resp.Code != http.StatusOK {
		t.Fatalf("approve: %d %s", resp.Code, resp.Body)
	}
	if pv := decodeBody[pools.View](t, api.Get("/v1/pools/megalink").Body.Bytes()); pv.Meters.Reserve != 50_000 || pv.Entries != 3 {
		t.Fatalf("the adjustment was applied more than once: reserve %d, %d entries", pv.Meters.Reserve, pv.Entries)
	}
	resp = api.Post("/v1/pools/megalink/adjustments", "Idempotency-Key: adj-2", strings.NewReader(strings.Replace(adj, "50000", "1000000000000001", 1)))
	if resp.Code != http.StatusUnprocessableEntity || !strings.Contains(resp.Body.String(), `"location":"body.amount"`) {
		t.Fatalf("adjustment over 1e15: %d %s", resp.Code, resp.Body)
	}
	// Defect 8: past the end, an empty page (no wrap).
	for _, after := range []string{"3", "9223372036854775807"} {
		resp = api.Get("/v1/pools/megalink/ledger?after=" + after)
		if page := decodeBody[pools.FloorLedger](t, resp.Body.Bytes()); resp.Code != http.StatusOK || len(page.Entries) != 0 || page.Next != nil {
			t.Fatalf("after %s: %d %s", after, resp.Code, resp.Body)
		}
	}
	if resp = api.Get("/v1/pools/megalink/ledger?after=-1"); resp.Code != http.StatusUnprocessableEntity {
		t.Fatalf("after -1: %d %s", resp.Code, resp.Body)
	}
}

// nearMaxStore shows a pool whose displayed meter stands 100 below the
// int64 limit.
type nearMaxStore struct{ pools.Store }

func (s nearMaxStore) Pool(ctx context.Context, id string) (jackpot.Pool, error) {
	p, err := s.Store.Pool(ctx, id)
	p.Meters.Displayed = math.MaxInt64 - 100
	return p, err
}

// TestMeterOverflowIs422AtThePool: audit defect 2 over HTTP (ruling R1): a
// round whose contribution (3 x 500 x 17.33% = 259.95 -> 259) would take
// the displayed meter past the int64 limit is refused with a 422 naming
// the pool (path.id), never wrapped and never a 500.
func TestMeterOverflowIs422AtThePool(t *testing.T) {
	st, _ := sqlite.Open(t.TempDir())
	api, _ := poolsAPI(t, st)
	api.Post("/v1/pools", strings.NewReader(createMBS))
	api2, _ := poolsAPI(t, nearMaxStore{st})
	round := `{"ruleset":"mbs-megalink-ssp-v6","table":"T12","roundId":"R1","dealtAt":"2026-03-01T20:00:00Z","dealer":"2d 3d 5h 8c 9s",
	  "progressiveUnit":500,"positions":[{"seat":1,"cards":"Kc Kh Kd As Ah","wagers":{"ante":1000,"progressive":500}},
	  {"seat":2,"cards":"2c 7d 9h Js 4c","wagers":{"ante":1000,"progressive":500}},{"seat":3,"cards":"3c 8d 9c Jd 5s","wagers":{"ante":1000,"progressive":500}}]}`
	resp := api2.Post("/v1/pools/megalink/rounds", strings.NewReader(round))
	if resp.Code != http.StatusUnprocessableEntity || !strings.Contains(resp.Body.String(), `"location":"path.id"`) || !strings.Contains(resp.Body.String(), "overflow") {
		t.Fatalf("%d %s", resp.Code, resp.Body)
	}
	if pv := decodeBody[pools.View](t, api.Get("/v1/pools/megalink").Body.Bytes()); pv.Meters.Wagers != 0 || pv.Version != 1 {
		t.Fatalf("nothing applied: %+v", pv.Meters)
	}
}
