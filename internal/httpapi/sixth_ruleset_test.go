package httpapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/tablesettle/tablesettle/internal/httpapi"
	"github.com/tablesettle/tablesettle/internal/httpapi/authtest"
	"github.com/tablesettle/tablesettle/internal/ruleset"
	"github.com/tablesettle/tablesettle/internal/ruleset/rulesettest"
)

// withSixth is the standard catalogue and the sixth, test-only ruleset
// (internal/ruleset/rulesettest): SSP v6 with Full House 8 to 1 on the Bet
// and RWS-style major prizes (held, then paid in sequence: rulings R6, R7).
func withSixth(t *testing.T) ruleset.Catalogue {
	t.Helper()
	cat, err := rulesettest.SixthCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// sixthFullHouse: the dealer qualifies with Ace-King (3.10.2); seat 1's
// Full House beats it. Ante 1,000 pays 1 to 1 (4.1.1); Bet 2,000 pays the
// sixth's 8 to 1 (its 4.1.2; SSP v6 pays 7 to 1): net 1,000 + 16,000.
const sixthFullHouse = `{"ruleset":"test-ssp-v6-sequential","roundId":"S1","dealer":"Ac Kd 9h 7s 3c",
  "positions":[{"seat":1,"cards":"Kh Ks Kc 2d 2h","wagers":{"ante":1000,"bet":2000}}]}`

// TestSixthRulesetThroughTheEdge: a ruleset that is data alone (its
// description and its document, registered in one place) reaches every
// operation through Deps.Catalogue: the spec's enum, settle (its own
// paytable and citations), its rule document, and a pool round (its own
// major-prize rules, R7). The edge without it refuses it at body.ruleset.
func TestSixthRulesetThroughTheEdge(t *testing.T) {
	srv, _, tokens, _ := localServerIn(t, io.Discard, withSixth(t))
	bearer := func(role string) http.Header {
		return http.Header{"Authorization": {"Bearer " + tokens[role]}}
	}

	t.Run("spec_enum_lists_it_last", func(t *testing.T) {
		a := send(t, srv, http.MethodGet, "/openapi.json", nil, nil)
		var spec struct {
			Components struct {
				Schemas map[string]struct {
					Enum []string `json:"enum"`
				} `json:"schemas"`
			} `json:"components"`
		}
		if err := json.Unmarshal(a.Body, &spec); err != nil {
			t.Fatal(err)
		}
		want := []string{"mbs-megalink-ssp-v6", "mbs-ssp-v4", "mbs-megalink-tcp-v6", "mbs-megalink-thb-v9", "rws-mlp-csp-v2", "test-ssp-v6-sequential"}
		if got := spec.Components.Schemas["RulesetId"].Enum; !slices.Equal(got, want) {
			t.Errorf("RulesetId enum %v, want %v", got, want)
		}
	})

	t.Run("settle_4.1.2_FullHouse8to1", func(t *testing.T) {
		a := send(t, srv, http.MethodPost, "/v1/rounds/settle", []byte(sixthFullHouse), bearer("table"))
		if a.Status != http.StatusOK {
			t.Fatalf("settle: %d %s", a.Status, a.Body)
		}
		var res httpapi.SettleResponse
		if err := json.Unmarshal(a.Body, &res); err != nil {
			t.Fatal(err)
		}
		if len(res.Positions) != 1 || res.Positions[0].Net != 17_000 {
			t.Fatalf("net %s, want 17000 (ante 1000 at 1 to 1, bet 2000 at 8 to 1)", a.Body)
		}
		if !strings.Contains(string(a.Body), `"test-ssp-v6-sequential 4.1.2"`) {
			t.Errorf("the Bet line does not cite the sixth's 4.1.2: %s", a.Body)
		}
	})

	t.Run("document_is_its_own", func(t *testing.T) {
		a := send(t, srv, http.MethodGet, "/v1/rulesets/test-ssp-v6-sequential/document", nil, nil)
		var doc httpapi.RuleDocumentText
		if a.Status != http.StatusOK || json.Unmarshal(a.Body, &doc) != nil {
			t.Fatalf("document: %d %s", a.Status, a.Body)
		}
		var nums []string
		for _, c := range doc.Clauses {
			nums = append(nums, c.Number)
		}
		if doc.File != "test-ssp-v6-sequential.txt" || !slices.Equal(nums, []string{"3.14", "3.15", "4.1", "4.1.2"}) {
			t.Errorf("document %s clauses %v", doc.File, nums)
		}
		a = send(t, srv, http.MethodGet, "/v1/rulesets/test-ssp-v6-sequential/clauses/4.1.2", nil, nil)
		if a.Status != http.StatusOK || !strings.Contains(string(a.Body), "Full House 8 to 1") {
			t.Errorf("clause 4.1.2: %d %s", a.Status, a.Body)
		}
	})

	t.Run("pool_round_R7_majors_held", func(t *testing.T) {
		create := `{"id":"sixth","currency":"SGD","rulesets":["test-ssp-v6-sequential"],"unit":500,"contributionBp":2000,"reserveBp":500,
		  "reset":10000000,"tables":["` + authtest.BoundTable + `"]}`
		if a := send(t, srv, http.MethodPost, "/v1/pools", []byte(create), bearer("admin")); a.Status != http.StatusCreated {
			t.Fatalf("create: %d %s", a.Status, a.Body)
		}
		// Two Royal Flushes at one table: under the sixth's description
		// both are held for the settle window (R7), nothing paid yet, and
		// each cites the sixth's own 3.15.
		round := `{"ruleset":"test-ssp-v6-sequential","table":"` + authtest.BoundTable + `","roundId":"r1","dealtAt":"2026-03-01T20:00:00Z",
		  "dealer":"2c 3d 5c 8d 9h","progressiveUnit":500,"positions":[
		  {"seat":3,"cards":"Ah Kh Qh Jh Th","wagers":{"ante":1000,"bet":2000,"progressive":500}},
		  {"seat":1,"cards":"As Ks Qs Js Ts","wagers":{"ante":1000,"bet":2000,"progressive":500}}]}`
		a := send(t, srv, http.MethodPost, "/v1/pools/sixth/rounds", []byte(round), bearer("table"))
		if a.Status != http.StatusOK {
			t.Fatalf("round: %d %s", a.Status, a.Body)
		}
		var res struct {
			Payouts []struct {
				Seat   int      `json:"seat"`
				Status string   `json:"status"`
				Amount int64    `json:"amount"`
				Rules  []string `json:"rules"`
			} `json:"payouts"`
			Meters struct {
				Displayed int64 `json:"displayed"`
			} `json:"meters"`
		}
		if err := json.Unmarshal(a.Body, &res); err != nil {
			t.Fatal(err)
		}
		// 2 x 500 x 20% = 200 to the displayed meter (R4).
		if len(res.Payouts) != 2 || res.Meters.Displayed != 10_000_200 {
			t.Fatalf("answer %s", a.Body)
		}
		for i, seat := range []int{1, 3} {
			p := res.Payouts[i]
			if p.Seat != seat || p.Status != "held" || p.Amount != 0 || !slices.Contains(p.Rules, "test-ssp-v6-sequential 3.15") {
				t.Errorf("payout %d: %+v, want seat %d held citing test-ssp-v6-sequential 3.15", i, p, seat)
			}
		}
		// A retry is a replay (pools.RoundFingerprint).
		if a := send(t, srv, http.MethodPost, "/v1/pools/sixth/rounds", []byte(round), bearer("table")); a.Status != http.StatusOK ||
			a.Header.Get("Idempotent-Replayed") != "true" {
			t.Errorf("retry: %d replayed %q", a.Status, a.Header.Get("Idempotent-Replayed"))
		}
	})

	t.Run("standard_edge_refuses_it_at_body.ruleset", func(t *testing.T) {
		std, _, _, _ := localServer(t)
		a := send(t, std, http.MethodPost, "/v1/rounds/settle", []byte(sixthFullHouse), nil)
		if a.Status != http.StatusUnprocessableEntity || !strings.Contains(string(a.Body), `"location":"body.ruleset"`) {
			t.Errorf("standard edge: %d %s", a.Status, a.Body)
		}
	})
}

// TestAccessMatrixLocalWithSixth: the access matrix of TestAccessMatrixLocal
// on a local host built with the sixth ruleset in its catalogue: a ruleset
// added as data changes no route's access.
func TestAccessMatrixLocalWithSixth(t *testing.T) {
	srv, ops, tokens, dir := localServerIn(t, io.Discard, withSixth(t))
	authtest.Run(t, ops, true, func(t *testing.T, op authtest.Op, path string, c authtest.Caller) authtest.Answer {
		h := http.Header{"Idempotency-Key": {"matrix-" + op.ID + "-" + c.Name}}
		if tok, ok := tokens[c.Name]; ok {
			h.Set("Authorization", "Bearer "+tok)
		}
		return send(t, srv, op.Method, path, op.Body, h)
	}, func() string { return authtest.DirDigest(t, dir) })
}
