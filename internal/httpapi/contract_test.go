package httpapi

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/tablesettle/tablesettle/internal/auth"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/principal"
)

// Issue 22 item 8: the small contract defects, each answered as the spec
// says.

// Two Authorization headers: the first no longer silently wins; the
// request is refused (400 naming the header) and the operation never
// runs.
func TestTwoAuthorizationHeadersRefused(t *testing.T) {
	entries, tok, err := auth.Add(nil, "ops-1", []principal.Role{principal.Admin}, nil)
	if err != nil {
		t.Fatal(err)
	}
	entries, cageTok, err := auth.Add(entries, "cage-1", []principal.Role{principal.Cage}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ran := false
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/pools", func(w http.ResponseWriter, r *http.Request) { ran = true; w.WriteHeader(http.StatusNoContent) })
	h := Middleware(Deps{Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)),
		Access: &Access{Authenticator: BearerTokens{Tokens: auth.NewTokens(entries)}}}, mux)
	for _, order := range [][]string{{tok, cageTok}, {cageTok, tok}, {tok, tok}} {
		r := httptest.NewRequest("POST", "/v1/pools", nil)
		r.Header.Add("Authorization", "Bearer "+order[0])
		r.Header.Add("Authorization", "Bearer "+order[1])
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), `"location":"header.Authorization"`) || ran {
			t.Fatalf("two Authorization headers: %d %s (operation ran: %v)", w.Code, w.Body, ran)
		}
	}
}

// A hit already paid or voided is not an unknown hit: paying, confirming
// or voiding it again answers 409 naming the hit (path.seq) and its state,
// not 404 (which the spec keeps for an unknown pool or hit).
func TestClosedHitIs409(t *testing.T) {
	api := lockAPI(t)
	create := strings.Replace(createMBS, `"reset":10000000`, `"reset":10000000,"verify":{"percent":true}`, 1)
	if resp := api.Post("/v1/pools", strings.NewReader(create)); resp.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.Code, resp.Body)
	}
	royal := func(round string) int64 {
		t.Helper()
		body := `{"ruleset":"mbs-megalink-ssp-v6","table":"T12","roundId":"` + round + `","dealtAt":"2026-03-01T20:00:00Z","dealer":"2d 3d 5h 8c 9s",
		  "progressiveUnit":500,"positions":[{"seat":3,"cards":"Ts Js Qs Ks As","wagers":{"ante":1000,"bet":2000,"progressive":500}}]}`
		resp := api.Post("/v1/pools/megalink/rounds", strings.NewReader(body))
		res := decodeBody[jackpot.RoundResult](t, resp.Body.Bytes())
		if resp.Code != http.StatusOK || len(res.Payouts) != 1 || res.Payouts[0].Status != "pending" {
			t.Fatalf("round %s: %d %s", round, resp.Code, resp.Body)
		}
		return res.Payouts[0].Seq
	}
	const sup, cage = "X-Test-Principal: sup:ann/supervisor", "X-Test-Principal: cage:bo/cage"
	paid := royal("R1")
	hit := func(seq int64, verb string) string { return fmt.Sprintf("/v1/pools/megalink/hits/%d/%s", seq, verb) }
	if resp := api.Post(hit(paid, "confirm"), "Idempotency-Key: c1", sup); resp.Code != http.StatusOK {
		t.Fatalf("confirm: %d %s", resp.Code, resp.Body)
	}
	if resp := api.Post(hit(paid, "paid"), "Idempotency-Key: p1", cage); resp.Code != http.StatusOK {
		t.Fatalf("pay: %d %s", resp.Code, resp.Body)
	}
	voided := royal("R2")
	resp := api.Post(hit(voided, "void"), "Idempotency-Key: v1", sup, strings.NewReader(`{"reason":"misread"}`))
	if resp.Code != http.StatusAccepted {
		t.Fatalf("void proposed: %d %s", resp.Code, resp.Body)
	}
	prop := decodeBody[ProposalAnswer](t, resp.Body.Bytes())
	if resp := api.Post(fmt.Sprintf("/v1/pools/megalink/proposals/%d/approve", prop.Proposal.ID), "Idempotency-Key: a1", "X-Test-Principal: ctl:cy/controller"); resp.Code != http.StatusOK {
		t.Fatalf("void approved: %d %s", resp.Code, resp.Body)
	}
	for _, c := range []struct {
		name, path, who, state string
	}{
		{"pay a paid hit", hit(paid, "paid"), cage, "paid"},
		{"confirm a paid hit", hit(paid, "confirm"), sup, "paid"},
		{"pay a voided hit", hit(voided, "paid"), cage, "voided"},
		{"confirm a voided hit", hit(voided, "confirm"), sup, "voided"},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp := api.Post(c.path, "Idempotency-Key: again-"+c.name, c.who)
			if resp.Code != http.StatusConflict || !strings.Contains(resp.Body.String(), `"location":"path.seq"`) ||
				!strings.Contains(resp.Body.String(), "is "+c.state) {
				t.Fatalf("%d %s", resp.Code, resp.Body)
			}
		})
	}
	if resp := api.Post(hit(999, "paid"), "Idempotency-Key: unknown", cage); resp.Code != http.StatusNotFound {
		t.Fatalf("an unknown hit: %d %s", resp.Code, resp.Body)
	}
}

// An expired proposal is expired: its proposer cannot withdraw it (409
// saying it is expired), and nothing is written.
func TestExpiredProposalCannotBeWithdrawn(t *testing.T) {
	api, clock := poolsAPI(t, nil)
	if resp := api.Post("/v1/pools", strings.NewReader(createMBS)); resp.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", resp.Code, resp.Body)
	}
	const alice = "X-Test-Principal: ops:alice/admin"
	resp := api.Post("/v1/pools/megalink/adjustments", "Idempotency-Key: p-1", alice,
		strings.NewReader(`{"meter":"reserve","amount":50000,"reason":"top-up"}`))
	if resp.Code != http.StatusAccepted {
		t.Fatalf("propose: %d %s", resp.Code, resp.Body)
	}
	prop := decodeBody[ProposalAnswer](t, resp.Body.Bytes())
	before := api.Get("/v1/pools/megalink/ledger").Body.String()
	clock.Advance(31 * time.Minute) // past its 30 minutes
	resp = api.Post(fmt.Sprintf("/v1/pools/megalink/proposals/%d/withdraw", prop.Proposal.ID), "Idempotency-Key: w-1", alice)
	if resp.Code != http.StatusConflict || !strings.Contains(resp.Body.String(), "expired") || !strings.Contains(resp.Body.String(), `"location":"path.proposal"`) {
		t.Fatalf("withdrawing an expired proposal: %d %s", resp.Code, resp.Body)
	}
	if after := api.Get("/v1/pools/megalink/ledger").Body.String(); after != before {
		t.Fatalf("the ledger changed:\n%s\n%s", before, after)
	}
}

// GET /schemas/<unknown> is a 404 problem, not 200 with null; a known
// schema is served with its references rewritten to /schemas.
func TestSchemas(t *testing.T) {
	h, _ := New(Deps{Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))})
	w := do(t, h, "GET", "/schemas/NoSuchThing", "", nil)
	p := decodeProblemDoc(t, w)
	if w.Code != http.StatusNotFound || len(p.Errors) != 1 || p.Errors[0].Location != "path.schema" {
		t.Fatalf("unknown schema: %d %s", w.Code, w.Body)
	}
	w = do(t, h, "GET", "/schemas/SettleRequest.json", "", nil)
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"/schemas/SettlePosition.json"`) {
		t.Fatalf("known schema: %d %s", w.Code, w.Body)
	}
}

// A handler slowed (here: 5.5 s, past huma's default 5 s body deadline)
// after its body was read finishes: no read deadline is left on the
// connection, so net/http's background read never cancels its context.
func TestSlowHandlerAfterBodyIsNotCut(t *testing.T) {
	if testing.Short() {
		t.Skip("5.5 s")
	}
	t.Parallel()
	h, api := New(Deps{Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)), BodyIdleTimeout: 200 * time.Millisecond, BodyReadTimeout: 300 * time.Millisecond})
	type in struct {
		Body struct {
			Text string `json:"text"`
		}
	}
	type out struct {
		Body struct {
			Cancelled bool `json:"cancelled"`
		}
	}
	huma.Register(api, huma.Operation{OperationID: "test-slow", Method: http.MethodPost, Path: "/test/slow"},
		func(ctx context.Context, _ *in) (*out, error) {
			select {
			case <-time.After(5500 * time.Millisecond):
			case <-ctx.Done():
			}
			o := &out{}
			o.Body.Cancelled = ctx.Err() != nil
			return o, nil
		})
	srv := httptest.NewServer(h)
	defer srv.Close()
	resp, err := http.Post(srv.URL+"/test/slow", "application/json", strings.NewReader(`{"text":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"cancelled":false`) {
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
}

// A refused body (413, here chunked so the size shows only while reading)
// closes the connection (Connection: close): the next request, on a new
// connection, is served.
func TestRefusedBodyClosesTheConnection(t *testing.T) {
	h, _ := New(Deps{Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))})
	srv := httptest.NewServer(h)
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	big := strings.Repeat("x", MaxBodyBytes+10)
	fmt.Fprintf(conn, "POST /v1/hands/evaluate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n", len(big), big)
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge || !resp.Close {
		t.Fatalf("status %d, Connection %q: want 413 and the connection closed", resp.StatusCode, resp.Header.Get("Connection"))
	}
	// A client (net/http's) sends its next request on a new connection.
	client := srv.Client()
	for i, body := range []string{big, `{"cards":"As Ks Qs Js Ts","game":"five_card"}`} {
		req, _ := http.NewRequest("POST", srv.URL+"/v1/hands/evaluate", io.MultiReader(strings.NewReader(body))) // no length: chunked
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if want := []int{413, 200}[i]; resp.StatusCode != want {
			t.Fatalf("request %d: status %d, want %d", i, resp.StatusCode, want)
		}
	}
}

// Issue 33 item 3: two Idempotency-Key headers (or one holding a comma,
// which is how API Gateway passes two, see singleHeaders) are refused 400
// naming the header, as two Authorization headers are, and the adjustment
// is not proposed; one key is accepted (202); the list header
// If-None-Match may come twice.
func TestTwoIdempotencyKeysRefused(t *testing.T) {
	h, _, token := paramsHost(t)
	send := func(method, path, body string, header http.Header) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, path, strings.NewReader(body))
		if header != nil {
			r.Header = header
		}
		r.Header.Set("Authorization", "Bearer "+token)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	const adjust = `{"meter":"reserve","amount":100,"reason":"top-up"}`
	for _, keys := range [][]string{{"ka1", "kb1"}, {"ka1", "ka1"}, {"ka1,kb1"}} {
		w := send("POST", "/v1/pools/p1/adjustments", adjust, http.Header{"Idempotency-Key": keys})
		if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), `"location":"header.Idempotency-Key"`) {
			t.Fatalf("Idempotency-Key %q: %d %s", keys, w.Code, w.Body)
		}
	}
	if w := send("GET", "/v1/pools/p1/proposals", "", nil); w.Code != http.StatusOK || strings.Contains(w.Body.String(), `"kind":"adjustment"`) {
		t.Fatalf("a refused adjustment was proposed: %d %s", w.Code, w.Body)
	}
	if w := send("POST", "/v1/pools/p1/adjustments", adjust, http.Header{"Idempotency-Key": {"ka1"}}); w.Code != http.StatusAccepted {
		t.Fatalf("one key: %d %s", w.Code, w.Body)
	}
	if w := send("GET", "/v1/pools/p1", "", http.Header{"If-None-Match": {`"a"`, `"b"`}}); w.Code != http.StatusOK {
		t.Fatalf("two If-None-Match: %d %s", w.Code, w.Body)
	}
}
