package httpapi

import (
	"net/http"
	"strings"
	"testing"

	"github.com/tablesettle/tablesettle/internal/pools"
)

// TestAppliedRoundReadBackForItsCorrection (issue 35 item 2): a round
// applied is read back as the table sent it (its cards and wagers) with
// its answer; a correction proposed with a card changed carries the
// corrected round as sent, so the approver sees what it changes (the
// Royal's As became 9s: no Royal); 404 naming path.round for a round the
// pool never saw.
func TestAppliedRoundReadBackForItsCorrection(t *testing.T) {
	api, _ := poolsAPI(t, nil)
	if resp := api.Post("/v1/pools", strings.NewReader(createMBS)); resp.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.Code, resp.Body)
	}
	if resp := api.Post("/v1/pools/megalink/rounds", strings.NewReader(floorRound("T12", "R1"))); resp.Code != http.StatusOK {
		t.Fatalf("round: %d %s", resp.Code, resp.Body)
	}
	got := decodeBody[AppliedRound](t, api.Get("/v1/pools/megalink/rounds/T12/R1").Body.Bytes())
	if got.Sent == nil || got.Sent.Table != "T12" || got.Sent.Dealer != "2d 3d 5h 8c 9s" || len(got.Sent.Positions) != 2 ||
		got.Sent.Positions[1].Cards != "Ts Js Qs Ks As" || got.Sent.Positions[1].Wagers["progressive"] != 500 || len(got.Result.Payouts) != 2 {
		t.Fatalf("the round read back: %+v", got)
	}
	if resp := api.Get("/v1/pools/megalink/rounds/T12/R9"); resp.Code != http.StatusNotFound || !strings.Contains(resp.Body.String(), `"location":"path.round"`) {
		t.Fatalf("no such round: %d %s", resp.Code, resp.Body)
	}
	corrected := strings.Replace(floorRound("T12", "R1"), "Ts Js Qs Ks As", "Ts Js Qs Ks 9s", 1)
	resp := api.Post("/v1/pools/megalink/rounds/T12/R1/correction", "Idempotency-Key: c1", "X-Test-Principal: sup:ann/supervisor",
		strings.NewReader(`{"reason":"the ace was a nine","rules":["mbs-megalink-ssp-v6 5.4"],"corrected":`+corrected+`}`))
	if resp.Code != http.StatusAccepted {
		t.Fatalf("propose: %d %s", resp.Code, resp.Body)
	}
	list := decodeBody[struct {
		Proposals []pools.OpenProposal `json:"proposals"`
	}](t, api.Get("/v1/pools/megalink/proposals").Body.Bytes())
	if len(list.Proposals) != 1 || list.Proposals[0].Correction == nil || !strings.Contains(string(list.Proposals[0].Correction.Sent), `"cards":"Ts Js Qs Ks 9s"`) {
		t.Fatalf("the proposal: %+v", list.Proposals)
	}
}
