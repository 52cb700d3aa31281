package httpapi

import (
	"net/http"
	"strings"
	"testing"
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
	p := decodeBody[PoolView](t, api.Get("/v1/pools/megalink").Body.Bytes())
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
