package httpapi

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2/humatest"

	"github.com/tablesettle/tablesettle/internal/auth"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/principal"
	"github.com/tablesettle/tablesettle/internal/sqlite"
)

// floorRound is an SSP v6 round of table at roundID: seat 1 a Full House
// (SGD 200 by the house, mbs-megalink-ssp-v6 4.2), seat 3 a Royal Flush.
func floorRound(table, roundID string) string {
	return `{"ruleset":"mbs-megalink-ssp-v6","table":"` + table + `","roundId":"` + roundID + `","dealtAt":"2026-03-01T20:00:00Z","dealer":"2d 3d 5h 8c 9s",
	  "progressiveUnit":500,"positions":[{"seat":1,"cards":"Kc Kh Kd Ac Ah","wagers":{"ante":1000,"bet":2000,"progressive":500}},
	               {"seat":3,"cards":"Ts Js Qs Ks As","wagers":{"ante":1000,"bet":2000,"progressive":500}}]}`
}

// TestLinkedTables (issue 24 item 5): a round from a table not linked to
// the pool is refused, 403 naming body.table, and writes nothing; a pool
// without tables accepts no round; a settings change linking the table,
// once approved, lets its rounds in at once (tables move no money).
func TestLinkedTables(t *testing.T) {
	api, _ := poolsAPI(t, nil)
	if resp := api.Post("/v1/pools", strings.NewReader(createMBS)); resp.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.Code, resp.Body)
	}
	before := api.Get("/v1/pools/megalink").Body.String()
	resp := api.Post("/v1/pools/megalink/rounds", strings.NewReader(floorRound("T13", "R1")))
	if resp.Code != http.StatusForbidden || !strings.Contains(resp.Body.String(), `"location":"body.table"`) || !strings.Contains(resp.Body.String(), `"value":"T13"`) {
		t.Fatalf("unlinked T13: %d %s", resp.Code, resp.Body)
	}
	if after := api.Get("/v1/pools/megalink").Body.String(); after != before {
		t.Fatalf("a refused round wrote: %s", after)
	}
	unlinked := strings.Replace(strings.Replace(createMBS, `,"tables":["T1","T2","T3","T7","T12"]`, "", 1), `"id":"megalink"`, `"id":"bare"`, 1)
	if resp := api.Post("/v1/pools", strings.NewReader(unlinked)); resp.Code != http.StatusCreated {
		t.Fatalf("create bare: %d %s", resp.Code, resp.Body)
	}
	if resp := api.Post("/v1/pools/bare/rounds", strings.NewReader(floorRound("T12", "R1"))); resp.Code != http.StatusForbidden ||
		!strings.Contains(resp.Body.String(), `"location":"body.table"`) {
		t.Fatalf("a pool without tables took a round: %d %s", resp.Code, resp.Body)
	}
	// Link T13 (admin proposes, another controller approves).
	resp = api.Patch("/v1/pools/megalink", "Idempotency-Key: link-13", strings.NewReader(`{"tables":["T12","T13"],"displayName":"Megalink","reason":"T13 opens"}`))
	if resp.Code != http.StatusAccepted {
		t.Fatalf("propose: %d %s", resp.Code, resp.Body)
	}
	pr := decodeBody[ProposalAnswer](t, resp.Body.Bytes())
	if resp := api.Post("/v1/pools/megalink/proposals/"+itoa64(pr.Proposal.ID)+"/approve", "Idempotency-Key: a-13", "X-Test-Principal: ops:bob/controller"); resp.Code != http.StatusOK {
		t.Fatalf("approve: %d %s", resp.Code, resp.Body)
	}
	p := decodeBody[pools.View](t, api.Get("/v1/pools/megalink").Body.Bytes())
	if strings.Join(p.Settings.Tables, ",") != "T12,T13" || p.Settings.DisplayName != "Megalink" {
		t.Fatalf("settings after approval: %+v", p.Settings)
	}
	if resp := api.Post("/v1/pools/megalink/rounds", strings.NewReader(floorRound("T13", "R1"))); resp.Code != http.StatusOK {
		t.Fatalf("linked T13: %d %s", resp.Code, resp.Body)
	}
	if resp := api.Post("/v1/pools/megalink/rounds", strings.NewReader(floorRound("T1", "R1"))); resp.Code != http.StatusForbidden {
		t.Fatalf("T1, no longer linked: %d %s", resp.Code, resp.Body)
	}
}

// TestLinkedTablePatterns (issue 25): a wide-area pool links its 10,000
// tables with one pattern, "table-*" (every table whose id starts with
// "table-"), beside ids; a table outside both is refused, 403 at
// body.table; a malformed pattern is refused at its index.
func TestLinkedTablePatterns(t *testing.T) {
	api, _ := poolsAPI(t, nil)
	wide := strings.Replace(createMBS, `"tables":["T1","T2","T3","T7","T12"]`, `"tables":["T12","table-*"]`, 1)
	if resp := api.Post("/v1/pools", strings.NewReader(wide)); resp.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.Code, resp.Body)
	}
	for _, table := range []string{"table-00000", "table-09999", "T12"} {
		if resp := api.Post("/v1/pools/megalink/rounds", strings.NewReader(floorRound(table, "R1"))); resp.Code != http.StatusOK {
			t.Fatalf("linked %s: %d %s", table, resp.Code, resp.Body)
		}
	}
	resp := api.Post("/v1/pools/megalink/rounds", strings.NewReader(floorRound("T13", "R1")))
	if resp.Code != http.StatusForbidden || !strings.Contains(resp.Body.String(), `"location":"body.table"`) || !strings.Contains(resp.Body.String(), "it links tables T12, table-*") {
		t.Fatalf("unlinked T13: %d %s", resp.Code, resp.Body)
	}
	bad := strings.Replace(strings.Replace(createMBS, `"tables":["T1","T2","T3","T7","T12"]`, `"tables":["T12","*"]`, 1), `"id":"megalink"`, `"id":"everyone"`, 1)
	if resp := api.Post("/v1/pools", strings.NewReader(bad)); resp.Code != http.StatusUnprocessableEntity || !strings.Contains(resp.Body.String(), `"location":"body.tables[1]"`) {
		t.Fatalf("a pattern linking every table: %d %s", resp.Code, resp.Body)
	}
}

// getTagged GETs path with If-None-Match inm and returns the answer.
func getTagged(t *testing.T, api humatest.TestAPI, path, inm string, headers ...any) *httptest.ResponseRecorder {
	t.Helper()
	args := append([]any{}, headers...)
	if inm != "" {
		args = append(args, "If-None-Match: "+inm)
	}
	return api.Get(path, args...)
}

// TestFloorPollsWithETag (issue 24 item 1): the pool, its hits, its
// proposals and its display answer an ETag; the same tag back is a 304
// with no body; a round changes every one of them.
func TestFloorPollsWithETag(t *testing.T) {
	api, _ := poolsAPI(t, nil)
	if resp := api.Post("/v1/pools", strings.NewReader(strings.Replace(createMBS, `"reset":10000000`, `"reset":10000000,"verify":{"percent":true}`, 1))); resp.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.Code, resp.Body)
	}
	paths := []string{"/v1/pools/megalink", "/v1/pools/megalink/hits", "/v1/pools/megalink/hits?state=all", "/v1/pools/megalink/proposals", "/v1/pools/megalink/display"}
	tags := map[string]string{}
	for _, path := range paths {
		resp := getTagged(t, api, path, "")
		tag := resp.Header().Get("ETag")
		if resp.Code != http.StatusOK || !strings.HasPrefix(tag, `W/"`) || resp.Header().Get("Cache-Control") != "no-cache" {
			t.Fatalf("%s: %d etag %q %s", path, resp.Code, tag, resp.Body)
		}
		tags[path] = tag
		resp = getTagged(t, api, path, tag)
		if resp.Code != http.StatusNotModified || resp.Body.Len() != 0 || resp.Header().Get("ETag") != tag {
			t.Fatalf("%s again: %d %q %s", path, resp.Code, resp.Header().Get("ETag"), resp.Body)
		}
		if resp := getTagged(t, api, path, `W/"other", `+tag); resp.Code != http.StatusNotModified {
			t.Fatalf("%s, tag in a list: %d", path, resp.Code)
		}
	}
	if resp := api.Post("/v1/pools/megalink/rounds", strings.NewReader(floorRound("T12", "R1"))); resp.Code != http.StatusOK {
		t.Fatalf("round: %d %s", resp.Code, resp.Body)
	}
	for _, path := range paths {
		resp := getTagged(t, api, path, tags[path])
		if resp.Code != http.StatusOK || resp.Header().Get("ETag") == tags[path] {
			t.Fatalf("%s after a round: %d %q", path, resp.Code, resp.Header().Get("ETag"))
		}
	}
	// The Royal (2 x 500 x 17.33% = 173 credited: SGD 100,001.73) is
	// pending, first in the queue, with its table, seat and hand.
	hits := decodeBody[struct{ Hits []jackpot.FloorHit }](t, api.Get("/v1/pools/megalink/hits").Body.Bytes())
	if len(hits.Hits) != 1 || hits.Hits[0].State != "pending" || hits.Hits[0].Table != "T12" || hits.Hits[0].Seat != 3 || hits.Hits[0].Hand != "royal_flush" ||
		hits.Hits[0].Amount == nil || *hits.Hits[0].Amount != 10_000_173 || hits.Hits[0].Currency != "SGD" {
		t.Fatalf("open hits: %+v", hits.Hits)
	}
}

// TestDisplay (issue 24 item 4): the sign's answer: display name, meter,
// each hand's current amount (Royal = the meter, Straight Flush = 10% of
// it, fixed prizes, mbs-megalink-ssp-v6 4.2), the pending Royal in public
// (no principal's name) and the last hit won.
func TestDisplay(t *testing.T) {
	api, _ := poolsAPI(t, nil)
	create := strings.Replace(createMBS, `"reset":10000000`, `"reset":10000000,"verify":{"percent":true},"displayName":"Megalink"`, 1)
	if resp := api.Post("/v1/pools", strings.NewReader(create)); resp.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.Code, resp.Body)
	}
	// Contribute first: 2 x 500 x 17.33% = 173.3, 173 credited.
	noHit := strings.Replace(strings.Replace(floorRound("T12", "R0"), "Ts Js Qs Ks As", "2c 7d 9h Jd 4c", 1), "Kc Kh Kd Ac Ah", "3c 8d Th Qd 5c", 1)
	if resp := api.Post("/v1/pools/megalink/rounds", strings.NewReader(noHit)); resp.Code != http.StatusOK {
		t.Fatalf("round: %d %s", resp.Code, resp.Body)
	}
	d := decodeBody[jackpot.Display](t, api.Get("/v1/pools/megalink/display").Body.Bytes())
	if d.DisplayName != "Megalink" || d.Meter != 10_000_173 || d.Currency != "SGD" || len(d.Hits) != 0 || d.LastWon != nil {
		t.Fatalf("display: %+v", d)
	}
	want := map[string]int64{"royal_flush": 10_000_173, "straight_flush": 1_000_017, "four_of_a_kind": 200_000, "full_house": 20_000, "flush": 10_000}
	var ssp *jackpot.DisplayPaytable
	for i := range d.Paytables {
		if d.Paytables[i].Ruleset == "mbs-megalink-ssp-v6" {
			ssp = &d.Paytables[i]
		}
	}
	if ssp == nil || len(ssp.Rows) != len(want) {
		t.Fatalf("paytables: %+v", d.Paytables)
	}
	for _, r := range ssp.Rows {
		if r.Amount == nil || int64(*r.Amount) != want[r.Hand] || r.Rule != "mbs-megalink-ssp-v6 4.2" {
			t.Fatalf("row %s: %+v, want %d", r.Hand, r, want[r.Hand])
		}
	}
	if resp := api.Post("/v1/pools/megalink/rounds", strings.NewReader(floorRound("T12", "R1"))); resp.Code != http.StatusOK {
		t.Fatalf("round: %d %s", resp.Code, resp.Body)
	}
	resp := api.Get("/v1/pools/megalink/display")
	d = decodeBody[jackpot.Display](t, resp.Body.Bytes())
	// The Full House (SGD 200, the house's) is paid; the Royal takes the
	// meter as it stood, 10,000,173 + 173 = 10,000,346, pending.
	if len(d.Hits) != 2 || d.Hits[0].Stage != "paid" || d.Hits[0].Hand != "full_house" || *d.Hits[0].Amount != 20_000 ||
		d.Hits[1].Stage != "pending verification" || d.Hits[1].Seat != 3 || *d.Hits[1].Amount != 10_000_346 || d.Meter != 10_000_000 {
		t.Fatalf("hits on the sign: %s", resp.Body)
	}
	if d.LastWon == nil || d.LastWon.Hand != "full_house" || strings.Contains(resp.Body.String(), "alice") {
		t.Fatalf("last won / names: %s", resp.Body)
	}
}

// TestHeldHitIsAHit (issue 24 item 3, ruling R7): an RWS Royal is listed
// held from its commit with the time its window closes, on the sign too;
// when the window closes on the service's clock, the next read pays it
// (1 x 500 x 17.33% = 86 credited: SGD 100,000.86), exactly once however
// many readers race, recorded as the service's clock; the pool and
// lastHits show it paid.
func TestHeldHitIsAHit(t *testing.T) {
	api, clock := poolsAPI(t, nil)
	if resp := api.Post("/v1/pools", strings.NewReader(`{"id":"rws","currency":"SGD","rulesets":["rws-mlp-csp-v2"],"unit":500,
	  "contributionBp":1733,"reserveBp":517,"reset":10000000,"tables":["T1"]}`)); resp.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.Code, resp.Body)
	}
	round := `{"ruleset":"rws-mlp-csp-v2","table":"T1","roundId":"R1","dealtAt":"2026-03-01T20:00:00Z","dealer":"2d 3d 5h 8c 9s",
	  "progressiveUnit":500,"positions":[{"seat":4,"cards":"Ts Js Qs Ks As","wagers":{"ante":1000,"bet":2000,"progressive":500}}]}`
	if resp := api.Post("/v1/pools/rws/rounds", strings.NewReader(round)); resp.Code != http.StatusOK {
		t.Fatalf("round: %d %s", resp.Code, resp.Body)
	}
	hits := decodeBody[struct{ Hits []jackpot.FloorHit }](t, api.Get("/v1/pools/rws/hits").Body.Bytes())
	if len(hits.Hits) != 1 || hits.Hits[0].State != "held" || hits.Hits[0].Seat != 4 || hits.Hits[0].Hand != "royal_flush" || hits.Hits[0].Amount != nil ||
		hits.Hits[0].WindowClosesAt == nil || !hits.Hits[0].WindowClosesAt.Equal(jackpottest.T0.Add(5*time.Second)) {
		t.Fatalf("held: %+v", hits.Hits)
	}
	heldSeq := hits.Hits[0].Seq
	d := decodeBody[jackpot.Display](t, api.Get("/v1/pools/rws/display").Body.Bytes())
	if len(d.Hits) != 1 || d.Hits[0].Stage != "held" || d.Meter != 10_000_086 {
		t.Fatalf("the sign: %+v", d)
	}
	clock.Advance(4999 * time.Millisecond)
	if h := decodeBody[struct{ Hits []jackpot.FloorHit }](t, api.Get("/v1/pools/rws/hits").Body.Bytes()); len(h.Hits) != 1 || h.Hits[0].State != "held" {
		t.Fatalf("paid inside its window: %+v", h.Hits)
	}
	clock.Advance(time.Millisecond)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if resp := api.Get("/v1/pools/rws/display"); resp.Code != http.StatusOK {
				t.Errorf("display: %d %s", resp.Code, resp.Body)
			}
		}()
	}
	wg.Wait()
	if h := decodeBody[struct{ Hits []jackpot.FloorHit }](t, api.Get("/v1/pools/rws/hits").Body.Bytes()); len(h.Hits) != 0 {
		t.Fatalf("still open after its window: %+v", h.Hits)
	}
	all := decodeBody[struct{ Hits []jackpot.FloorHit }](t, api.Get("/v1/pools/rws/hits?state=all").Body.Bytes())
	if len(all.Hits) != 1 || all.Hits[0].State != "paid" || all.Hits[0].HeldSeq != heldSeq || *all.Hits[0].Amount != 10_000_086 ||
		all.Hits[0].PaidAt == nil || !all.Hits[0].PaidAt.Equal(jackpottest.T0.Add(5*time.Second)) {
		t.Fatalf("all hits: %+v", all.Hits)
	}
	page := decodeBody[pools.FloorLedger](t, api.Get("/v1/pools/rws/ledger?limit=1000").Body.Bytes())
	paid := 0
	for _, e := range page.Entries {
		if e.Kind == jackpot.KindHit {
			paid++
			if e.Actor == nil || *e.Actor != pools.Clock {
				t.Fatalf("release recorded as %+v", e.Actor)
			}
		}
	}
	if paid != 1 {
		t.Fatalf("the held Royal was paid %d times", paid)
	}
	p := decodeBody[pools.View](t, api.Get("/v1/pools/rws").Body.Bytes())
	if len(p.LastHits) != 1 || p.LastHits[0].State != "paid" || p.LastHits[0].PaidAt == nil || p.Meters.Displayed != 10_000_000 {
		t.Fatalf("pool: %+v %+v", p.LastHits, p.Meters)
	}
}

// TestSafeActions (issue 24 items 2, 4, 9): a second open void of one
// hit and a second identical adjustment by the same admin are refused
// 409 naming the open proposal; each open proposal says what it will do
// in money; the void, approved, leaves the Royal voided in lastHits (no
// paidAt) and in the hit queue's history.
func TestSafeActions(t *testing.T) {
	api, _ := poolsAPI(t, nil)
	if resp := api.Post("/v1/pools", strings.NewReader(strings.Replace(createMBS, `"reset":10000000`, `"reset":10000000,"verify":{"percent":true}`, 1))); resp.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.Code, resp.Body)
	}
	adjust := func(key string) *httptest.ResponseRecorder {
		return api.Post("/v1/pools/megalink/adjustments", "Idempotency-Key: "+key, strings.NewReader(`{"meter":"reserve","amount":50000,"reason":"top-up"}`))
	}
	first := adjust("a1")
	if first.Code != http.StatusAccepted {
		t.Fatalf("adjust: %d %s", first.Code, first.Body)
	}
	adj := decodeBody[ProposalAnswer](t, first.Body.Bytes()).Proposal.ID
	if resp := adjust("a1"); resp.Code != http.StatusAccepted || resp.Header().Get("Idempotent-Replayed") != "true" {
		t.Fatalf("the same key is a replay: %d %s", resp.Code, resp.Body)
	}
	// The 409 says what the open proposal does, in money (issue 24).
	if resp := adjust("a2"); resp.Code != http.StatusConflict || !strings.Contains(resp.Body.String(), `"value":`+itoa64(adj)) ||
		!strings.Contains(resp.Body.String(), "is open: approve or withdraw it first (adjust the reserve meter by +SGD 500.00)") {
		t.Fatalf("double-click: %d %s", resp.Code, resp.Body)
	}
	res := decodeBody[jackpot.RoundResult](t, api.Post("/v1/pools/megalink/rounds", strings.NewReader(floorRound("T12", "R1"))).Body.Bytes())
	if len(res.Payouts) != 2 || res.Payouts[1].Status != "pending" || res.Payouts[1].Amount != 10_000_173 {
		t.Fatalf("round: %+v", res.Payouts)
	}
	seq := itoa64(res.Payouts[1].Seq)
	void := func(key, who string) *httptest.ResponseRecorder {
		return api.Post("/v1/pools/megalink/hits/"+seq+"/void", "Idempotency-Key: "+key, "X-Test-Principal: "+who, strings.NewReader(`{"reason":"the ten was a nine"}`))
	}
	resp := void("v1", "sup:ann/supervisor")
	if resp.Code != http.StatusAccepted {
		t.Fatalf("void: %d %s", resp.Code, resp.Body)
	}
	vid := decodeBody[ProposalAnswer](t, resp.Body.Bytes()).Proposal.ID
	if resp := void("v2", "sup:ben/supervisor"); resp.Code != http.StatusConflict || !strings.Contains(resp.Body.String(), `"location":"path.seq"`) ||
		!strings.Contains(resp.Body.String(), `"value":`+itoa64(vid)) {
		t.Fatalf("a second void: %d %s", resp.Code, resp.Body)
	}
	hits := decodeBody[struct{ Hits []jackpot.FloorHit }](t, api.Get("/v1/pools/megalink/hits").Body.Bytes())
	if len(hits.Hits) != 1 || hits.Hits[0].VoidProposal != vid {
		t.Fatalf("the queue names the open void: %+v", hits.Hits)
	}
	// The pool now: displayed 10,000,000 (reset), reserve 0 (its 51 funded
	// the reset with the house's 9,999,949). The adjustment: reserve 0 ->
	// 50,000. The void: the Royal's 10,000,173 back to the pool and the
	// reset reversed (displayed 10,000,000 -> 10,000,173, reserve 0 -> 51).
	props := decodeBody[struct{ Proposals []pools.OpenProposal }](t, api.Get("/v1/pools/megalink/proposals").Body.Bytes())
	if len(props.Proposals) != 2 {
		t.Fatalf("proposals: %+v", props.Proposals)
	}
	a, v := props.Proposals[0].Effect, props.Proposals[1].Effect
	if a.Meters["reserve"] != (pools.MeterEffect{Before: 0, After: 50_000}) || a.Meters["displayed"] != (pools.MeterEffect{Before: 10_000_000, After: 10_000_000}) ||
		a.Reason != "top-up" || a.Currency != "SGD" {
		t.Fatalf("adjustment effect: %+v", a)
	}
	if v.Meters["displayed"] != (pools.MeterEffect{Before: 10_000_000, After: 10_000_173}) || v.Meters["reserve"] != (pools.MeterEffect{Before: 0, After: 51}) ||
		v.Table != "T12" || v.Seat != 3 || v.Hand != "royal_flush" || v.Amount != 10_000_173 || v.Reason != "the ten was a nine" || v.Recovered != 0 {
		t.Fatalf("void effect: %+v", v)
	}
	p := decodeBody[pools.View](t, api.Get("/v1/pools/megalink").Body.Bytes())
	if len(p.LastHits) != 2 || p.LastHits[0].State != "paid" || p.LastHits[0].PaidAt == nil || p.LastHits[1].State != "pending" || p.LastHits[1].PaidAt != nil {
		t.Fatalf("lastHits before the void: %+v", p.LastHits)
	}
	if resp := api.Post("/v1/pools/megalink/proposals/"+itoa64(vid)+"/approve", "Idempotency-Key: ap1", "X-Test-Principal: ctl:cy/controller"); resp.Code != http.StatusOK {
		t.Fatalf("approve: %d %s", resp.Code, resp.Body)
	}
	p = decodeBody[pools.View](t, api.Get("/v1/pools/megalink").Body.Bytes())
	if p.LastHits[1].State != "voided" || p.LastHits[1].PaidAt != nil || p.LastHits[1].VoidedAt == nil {
		t.Fatalf("lastHits after the void: %+v", p.LastHits)
	}
	all := decodeBody[struct{ Hits []jackpot.FloorHit }](t, api.Get("/v1/pools/megalink/hits?state=all").Body.Bytes())
	if len(all.Hits) != 2 || all.Hits[1].State != "voided" || all.Hits[1].VoidedBy == nil || all.Hits[1].VoidedBy.ID != "sup:ann" || all.Hits[1].VoidReason != "the ten was a nine" {
		t.Fatalf("history: %+v", all.Hits)
	}
}

// TestLedgerNewestFirst (issue 24 item 7): the ledger pages newest first
// to its opening entry, each page following the last's next; amounts are
// signed (the Royal +10,000,173, its void -10,000,173, the reset
// +10,000,000 and its reversal -10,000,000, ruling R28); the void's
// proposal entry carries what it proposed.
func TestLedgerNewestFirst(t *testing.T) {
	api, _ := poolsAPI(t, nil)
	if resp := api.Post("/v1/pools", strings.NewReader(strings.Replace(createMBS, `"reset":10000000`, `"reset":10000000,"verify":{"percent":true}`, 1))); resp.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.Code, resp.Body)
	}
	res := decodeBody[jackpot.RoundResult](t, api.Post("/v1/pools/megalink/rounds", strings.NewReader(floorRound("T12", "R1"))).Body.Bytes())
	seq := itoa64(res.Payouts[1].Seq)
	resp := api.Post("/v1/pools/megalink/hits/"+seq+"/void", "Idempotency-Key: v1", "X-Test-Principal: sup:ann/supervisor", strings.NewReader(`{"reason":"misread"}`))
	vid := decodeBody[ProposalAnswer](t, resp.Body.Bytes()).Proposal.ID
	if resp := api.Post("/v1/pools/megalink/proposals/"+itoa64(vid)+"/approve", "Idempotency-Key: ap1", "X-Test-Principal: ctl:cy/controller"); resp.Code != http.StatusOK {
		t.Fatalf("approve: %d %s", resp.Code, resp.Body)
	}
	p := decodeBody[pools.View](t, api.Get("/v1/pools/megalink").Body.Bytes())
	var got []pools.FloorEntry
	path := "/v1/pools/megalink/ledger?order=desc&limit=3"
	for pages := 0; ; pages++ {
		if int64(pages) > p.Entries {
			t.Fatal("paging does not end")
		}
		page := decodeBody[pools.FloorLedger](t, api.Get(path).Body.Bytes())
		if len(page.Entries) == 0 || len(page.Entries) > 3 {
			t.Fatalf("page %d: %+v", pages, page)
		}
		got = append(got, page.Entries...)
		if page.Next == nil {
			break
		}
		path = "/v1/pools/megalink/ledger?order=desc&limit=3&before=" + itoa64(*page.Next)
	}
	if int64(len(got)) != p.Entries {
		t.Fatalf("%d entries read, the pool has %d", len(got), p.Entries)
	}
	amounts := map[jackpot.Kind][]int64{}
	for i, e := range got {
		if e.Seq != p.Entries-int64(i) {
			t.Fatalf("entry %d is seq %d, want %d", i, e.Seq, p.Entries-int64(i))
		}
		amounts[e.Kind] = append(amounts[e.Kind], int64(e.Amount))
		if e.Kind == jackpot.KindProposal && (e.Proposed == nil || e.Proposed.Void == nil || e.Proposed.Void.Reason != "misread") {
			t.Fatalf("the proposal entry: %+v", e.Proposed)
		}
	}
	if fmt.Sprint(amounts[jackpot.KindHit]) != "[10000173 20000]" || fmt.Sprint(amounts[jackpot.KindHitVoid]) != "[-10000173]" ||
		fmt.Sprint(amounts[jackpot.KindReset]) != "[10000000]" || fmt.Sprint(amounts[jackpot.KindResetVoid]) != "[-10000000]" ||
		fmt.Sprint(amounts[jackpot.KindOpening]) != "[10000000]" || len(amounts[jackpot.KindProposal]) != 1 {
		t.Fatalf("amounts: %v", amounts)
	}
	// Newest first after a sequence number: the refresh of a page that
	// holds everything up to the Royal's entry.
	page := decodeBody[pools.FloorLedger](t, api.Get("/v1/pools/megalink/ledger?order=desc&after="+seq).Body.Bytes())
	if int64(len(page.Entries)) != p.Entries-res.Payouts[1].Seq || page.Entries[0].Seq != p.Entries || page.Next != nil {
		t.Fatalf("after %s: %+v", seq, page)
	}
}

// TestShiftReportAndSlip (issue 24 item 8): a shift from 20:30 to 01:00:
// opening meters SGD 100,000.00 / 0.00; T12's round (2 x SGD 5: 173 to
// the meter, 51 to the reserve) pays a Full House SGD 200 and a Royal
// SGD 100,001.73 under the lock (its reset takes the reserve's 51); T7's
// (173 and 52 with the carried fractions); a reserve adjustment of
// SGD 500.00; the Royal confirmed, not paid: a liability of 10,000,173.
// Its slip is refused (409) until the cage pays it, then names who
// verified and who paid.
func TestShiftReportAndSlip(t *testing.T) {
	api, clock := poolsAPI(t, nil)
	if resp := api.Post("/v1/pools", strings.NewReader(strings.Replace(createMBS, `"reset":10000000`, `"reset":10000000,"verify":{"percent":true}`, 1))); resp.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.Code, resp.Body)
	}
	clock.Advance(time.Hour)
	res := decodeBody[jackpot.RoundResult](t, api.Post("/v1/pools/megalink/rounds", strings.NewReader(floorRound("T12", "R1"))).Body.Bytes())
	if len(res.Payouts) != 2 || res.Payouts[1].Amount != 10_000_173 {
		t.Fatalf("round: %+v", res)
	}
	royal := itoa64(res.Payouts[1].Seq)
	clock.Advance(time.Hour)
	noHit := strings.Replace(strings.Replace(floorRound("T7", "R1"), "Ts Js Qs Ks As", "2c 7d 9h Jd 4c", 1), "Kc Kh Kd Ac Ah", "3c 8d Th Qd 5c", 1)
	if resp := api.Post("/v1/pools/megalink/rounds", strings.NewReader(noHit)); resp.Code != http.StatusOK {
		t.Fatalf("T7: %d %s", resp.Code, resp.Body)
	}
	clock.Advance(time.Hour)
	resp := api.Post("/v1/pools/megalink/adjustments", "Idempotency-Key: adj", strings.NewReader(`{"meter":"reserve","amount":50000,"reason":"reserve top-up"}`))
	pid := itoa64(decodeBody[ProposalAnswer](t, resp.Body.Bytes()).Proposal.ID)
	if resp := api.Post("/v1/pools/megalink/proposals/"+pid+"/approve", "Idempotency-Key: ap", "X-Test-Principal: ctl:cy/controller"); resp.Code != http.StatusOK {
		t.Fatalf("approve: %d %s", resp.Code, resp.Body)
	}
	if resp := api.Get("/v1/pools/megalink/hits/" + royal + "/slip"); resp.Code != http.StatusConflict || !strings.Contains(resp.Body.String(), `"location":"path.seq"`) {
		t.Fatalf("slip of a pending hit: %d %s", resp.Code, resp.Body)
	}
	clock.Advance(30 * time.Minute)
	if resp := api.Post("/v1/pools/megalink/hits/"+royal+"/confirm", "Idempotency-Key: c", "X-Test-Principal: sup:ann/supervisor"); resp.Code != http.StatusOK {
		t.Fatalf("confirm: %d %s", resp.Code, resp.Body)
	}
	const shift = "/v1/pools/megalink/report?from=2026-03-01T20:30:00Z&to=2026-03-02T01:00:00Z"
	resp = api.Get(shift)
	if resp.Code != http.StatusOK || !strings.HasPrefix(resp.Header().Get("Content-Type"), "application/json") {
		t.Fatalf("report: %d %s", resp.Code, resp.Body)
	}
	r := decodeBody[jackpot.Report](t, resp.Body.Bytes())
	if r.Opening != (jackpot.MeterView{Displayed: 10_000_000}) || r.Closing != (jackpot.MeterView{Displayed: 10_000_173, Reserve: 50_052}) {
		t.Fatalf("meters: %+v %+v", r.Opening, r.Closing)
	}
	if len(r.Contributions) != 2 || r.Contributions[0] != (jackpot.TableContribution{Table: "T12", Rounds: 1, Wagers: 2, WagerAmount: 1000, Displayed: 173, Reserve: 51}) ||
		r.Contributions[1] != (jackpot.TableContribution{Table: "T7", Rounds: 1, Wagers: 2, WagerAmount: 1000, Displayed: 173, Reserve: 52}) ||
		r.Contributed.Displayed != 346 || r.Contributed.Reserve != 103 {
		t.Fatalf("contributions: %+v %+v", r.Contributions, r.Contributed)
	}
	if len(r.Hits) != 2 || r.Hits[0].State != "paid" || *r.Hits[0].Amount != 20_000 || r.Hits[1].State != "confirmed" || *r.Hits[1].Amount != 10_000_173 {
		t.Fatalf("hits: %+v", r.Hits)
	}
	if len(r.Adjustments) != 1 || r.Adjustments[0].Meter != "reserve" || r.Adjustments[0].Amount != 50_000 || r.Adjustments[0].ApprovedBy == nil {
		t.Fatalf("adjustments: %+v", r.Adjustments)
	}
	if len(r.Liabilities.Confirmed) != 1 || len(r.Liabilities.Pending) != 0 || r.Liabilities.Total != 10_000_173 || len(r.Corrections) != 0 {
		t.Fatalf("liabilities: %+v", r.Liabilities)
	}
	// Before the confirmation, the Royal was pending.
	early := decodeBody[jackpot.Report](t, api.Get("/v1/pools/megalink/report?from=2026-03-01T20:30:00Z&to=2026-03-01T21:30:00Z").Body.Bytes())
	if len(early.Liabilities.Pending) != 1 || early.Liabilities.Total != 10_000_173 || early.Closing != (jackpot.MeterView{Displayed: 10_000_000}) {
		t.Fatalf("at 21:30: %+v %+v", early.Liabilities, early.Closing)
	}
	resp = api.Get(shift, "Accept: text/csv")
	if resp.Code != http.StatusOK || !strings.HasPrefix(resp.Header().Get("Content-Type"), "text/csv") ||
		!strings.Contains(resp.Body.String(), "\nliabilities,total,,,,,10000173,SGD,2026-03-02T01:00:00Z,") ||
		!strings.Contains(resp.Body.String(), "\ncontributions,table,T7,,,,225,SGD,") {
		t.Fatalf("csv: %d %s", resp.Code, resp.Body)
	}
	if csv2 := api.Get(shift + "&format=csv"); csv2.Body.String() != resp.Body.String() {
		t.Fatalf("format=csv differs from Accept: text/csv")
	}
	if resp := api.Get("/v1/pools/megalink/report?from=2026-03-02T01:00:00Z&to=2026-03-01T20:30:00Z"); resp.Code != http.StatusUnprocessableEntity || !strings.Contains(resp.Body.String(), `"location":"query.to"`) {
		t.Fatalf("to before from: %d %s", resp.Code, resp.Body)
	}
	clock.Advance(time.Hour)
	if resp := api.Post("/v1/pools/megalink/hits/"+royal+"/paid", "Idempotency-Key: p", "X-Test-Principal: cage:bo/cage"); resp.Code != http.StatusOK {
		t.Fatalf("paid: %d %s", resp.Code, resp.Body)
	}
	s := decodeBody[jackpot.Slip](t, api.Get("/v1/pools/megalink/hits/"+royal+"/slip").Body.Bytes())
	if s.Table != "T12" || s.Seat != 3 || s.Hand != "royal_flush" || s.Amount != 10_000_173 || s.Currency != "SGD" ||
		s.VerifiedBy == nil || s.VerifiedBy.ID != "sup:ann" || s.PaidBy == nil || s.PaidBy.ID != "cage:bo" || !s.PaidAt.Equal(jackpottest.T0.Add(4*time.Hour+30*time.Minute)) {
		t.Fatalf("slip: %+v", s)
	}
	if resp := api.Get("/v1/pools/megalink/hits/999/slip"); resp.Code != http.StatusNotFound {
		t.Fatalf("no such hit: %d", resp.Code)
	}
}

// shardedStore stands in for a store whose rounds without a hit commit
// beside the pool (internal/dynamo with shards, issue 25): the pool it
// reads carries what its shards held (jackpot.Pool.Shards), which changes
// with each contribution while the pool's version and last seq do not.
type shardedStore struct {
	pools.Store
	shards *string
}

func (s shardedStore) Pool(ctx context.Context, id string) (jackpot.Pool, error) {
	p, err := s.Store.Pool(ctx, id)
	p.Shards = *s.shards
	return p, err
}

// TestFloorETagSeesContributionsBesideThePool (issue 24 with issue 25):
// a contribution committed beside the pool moves the meters without
// moving the pool's version or last seq; the pool, its hits and its
// proposals must answer a new tag (200), or the console would be told 304
// and never show it. (The display's tag is its body's: a contribution
// that moves the meter changes it; at the ceiling it shows nothing new.)
func TestFloorETagSeesContributionsBesideThePool(t *testing.T) {
	sqlst, err := sqlite.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	shards := `{"epoch":2,"versions":{"SHARD#000":1}}`
	api, _ := poolsAPI(t, shardedStore{sqlst, &shards})
	if resp := api.Post("/v1/pools", strings.NewReader(createMBS)); resp.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.Code, resp.Body)
	}
	for _, path := range []string{"/v1/pools/megalink", "/v1/pools/megalink/hits", "/v1/pools/megalink/proposals"} {
		resp := getTagged(t, api, path, "")
		tag := resp.Header().Get("ETag")
		if resp.Code != http.StatusOK || tag == "" {
			t.Fatalf("%s: %d %q", path, resp.Code, tag)
		}
		if resp := getTagged(t, api, path, tag); resp.Code != http.StatusNotModified {
			t.Fatalf("%s, nothing changed: %d, want 304", path, resp.Code)
		}
		shards = `{"epoch":2,"versions":{"SHARD#000":2}}`
		if resp := getTagged(t, api, path, tag); resp.Code != http.StatusOK || resp.Header().Get("ETag") == tag {
			t.Fatalf("%s after a contribution beside the pool: %d %q, want 200 and a new tag", path, resp.Code, resp.Header().Get("ETag"))
		}
		shards = `{"epoch":2,"versions":{"SHARD#000":1}}`
	}
}

// Issue 33 item 7: the sign's principal (role display) asking for the
// display of a pool that does not exist learns that it does not (404
// naming path.id, "no pool megalnk"), since its role may read a pool's
// display; a caller without credentials learns only that credentials are
// needed (401, the pool unnamed). The pool itself (GET /v1/pools/{id}) is
// not the display role's to read, existing or not (403): the sign must
// not fall back to it on a 404 (internal/web display.js), which is how it
// came to show "403 ... needs role cage or supervisor".
func TestDisplayOfNoSuchPool(t *testing.T) {
	entries, display, err := auth.Add(nil, "sign-1", []principal.Role{principal.Display}, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h, _ := New(Deps{Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)), Pools: pools.NewService(st, time.Now, 1),
		Access: &Access{Authenticator: BearerTokens{Tokens: auth.NewTokens(entries)}}})
	get := func(path, token string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, path, nil)
		if token != "" {
			r.Header.Set("Authorization", "Bearer "+token)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	w := get("/v1/pools/megalnk/display", display)
	if w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), `"detail":"no pool megalnk"`) || !strings.Contains(w.Body.String(), `"location":"path.id"`) {
		t.Errorf("display principal: %d %s, want 404 no pool megalnk at path.id", w.Code, w.Body)
	}
	if w := get("/v1/pools/megalnk/display", ""); w.Code != http.StatusUnauthorized || strings.Contains(w.Body.String(), "no pool") {
		t.Errorf("no credentials: %d %s, want 401 that does not say whether the pool exists", w.Code, w.Body)
	}
	if w := get("/v1/pools/megalnk", display); w.Code != http.StatusForbidden {
		t.Errorf("the pool itself, as the display role: %d %s, want 403", w.Code, w.Body)
	}
}
