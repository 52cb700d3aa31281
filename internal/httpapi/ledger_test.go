package httpapi_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/ledgerlog"
)

// TestLedgerLogLocal: issue 34 items 2 and 3 on the local server with
// bearer tokens. A table applies a round; the keys answer without
// credentials; the checkpoint's note verifies under the listed key and
// covers the round; the table's inclusion proof of its round's entry
// verifies against the checkpoint's root, for the entry the ledger serves,
// which agrees with the round's answer to the minor unit; a consistency
// proof from the opening verifies; another table, a size past the end,
// from after to and an unknown pool are refused.
func TestLedgerLogLocal(t *testing.T) {
	srv, _, tokens, _ := localServer(t)
	as := func(who string) http.Header {
		h := http.Header{"Idempotency-Key": {"ledger-" + who}}
		if tok, ok := tokens[who]; ok {
			h.Set("Authorization", "Bearer "+tok)
		}
		return h
	}
	create := `{"id":"megalink-sgd-1","currency":"SGD","rulesets":["mbs-megalink-ssp-v6"],"unit":500,"contributionBp":1733,"reserveBp":517,"reset":10000000,"tables":["T12"]}`
	if a := send(t, srv, "POST", "/v1/pools", []byte(create), as("admin")); a.Status != 201 {
		t.Fatalf("create: %d %s", a.Status, a.Body)
	}
	round := `{"ruleset":"mbs-megalink-ssp-v6","table":"T12","progressiveUnit":500,"roundId":"R1","dealtAt":"2026-03-01T20:00:00Z","dealer":"2d 3d 5h 8c 9s",` +
		`"positions":[{"seat":1,"cards":"Kc Kh Kd 2c 7h","wagers":{"ante":1000,"bet":2000,"progressive":500}}]}`
	a := send(t, srv, "POST", "/v1/pools/megalink-sgd-1/rounds", []byte(round), as("table"))
	var res jackpot.RoundResult
	if err := json.Unmarshal(a.Body, &res); a.Status != 200 || err != nil || res.Seq != 2 {
		t.Fatalf("round: %d %s; want its entry, seq 2", a.Status, a.Body)
	}
	a = send(t, srv, "GET", "/v1/ledger/keys", nil, http.Header{})
	var keys struct {
		Keys []struct{ Origin, VerifierKey string }
	}
	if err := json.Unmarshal(a.Body, &keys); a.Status != 200 || err != nil || len(keys.Keys) != 1 {
		t.Fatalf("keys without credentials: %d %s", a.Status, a.Body)
	}
	v, err := note.NewVerifier(keys.Keys[0].VerifierKey)
	if err != nil {
		t.Fatal(err)
	}
	a = send(t, srv, "GET", "/v1/pools/megalink-sgd-1/checkpoint", nil, as("table"))
	var cp struct {
		Origin, Root, Note string
		Size               int64
	}
	if err := json.Unmarshal(a.Body, &cp); a.Status != 200 || err != nil {
		t.Fatalf("checkpoint: %d %s", a.Status, a.Body)
	}
	n, err := note.Open([]byte(cp.Note), note.VerifierList(v))
	if err != nil || cp.Size != 2 || !strings.HasPrefix(n.Text, cp.Origin+"\n2\n"+cp.Root+"\n") || cp.Origin != keys.Keys[0].Origin+"megalink-sgd-1" {
		t.Fatalf("checkpoint %+v: %v; want size 2 signed under the listed key", cp, err)
	}
	root, _ := tlog.ParseHash(cp.Root)

	a = send(t, srv, "GET", "/v1/pools/megalink-sgd-1/ledger/2/proof?size=2", nil, as("table"))
	var proof struct {
		Index, Size int64
		Hashes      []string
	}
	if err := json.Unmarshal(a.Body, &proof); a.Status != 200 || err != nil || proof.Index != 1 || proof.Size != 2 {
		t.Fatalf("the table's proof: %d %s", a.Status, a.Body)
	}
	a = send(t, srv, "GET", "/v1/pools/megalink-sgd-1/ledger?after=1&limit=1", nil, as("controller"))
	var page struct{ Entries []jackpot.Entry }
	if err := json.Unmarshal(a.Body, &page); a.Status != 200 || err != nil || len(page.Entries) != 1 {
		t.Fatalf("ledger: %d %s", a.Status, a.Body)
	}
	e := page.Entries[0]
	if e.Contributed != res.Contribution.Displayed+res.Contribution.Overflow || e.ContributedReserve != res.Contribution.Reserve || e.Table != "T12" {
		t.Fatalf("entry %+v does not agree with the answer %+v", e, res.Contribution)
	}
	leaf, err := ledgerlog.LeafHash(e)
	if err != nil {
		t.Fatal(err)
	}
	if err := tlog.CheckRecord(hashes(t, proof.Hashes), 2, root, 1, leaf); err != nil {
		t.Fatalf("the table's proof does not verify: %v", err)
	}
	a = send(t, srv, "GET", "/v1/pools/megalink-sgd-1/consistency?from=1&to=2", nil, as("cage"))
	if err := json.Unmarshal(a.Body, &proof); a.Status != 200 || err != nil || proof.Index != 1 || proof.Size != 2 {
		t.Fatalf("consistency: %d %s", a.Status, a.Body)
	}
	a = send(t, srv, "GET", "/v1/pools/megalink-sgd-1/ledger?limit=1", nil, as("controller"))
	var first struct{ Entries []jackpot.Entry }
	if err := json.Unmarshal(a.Body, &first); err != nil || len(first.Entries) != 1 {
		t.Fatal(err)
	}
	opening, _ := ledgerlog.LeafHash(first.Entries[0])
	if err := tlog.CheckTree(hashes(t, proof.Hashes), 2, root, 1, opening); err != nil {
		t.Fatalf("the consistency proof does not verify: %v", err)
	}
	for _, tc := range []struct {
		name, path, who, location string
		status                    int
	}{
		{"another table's round", "/v1/pools/megalink-sgd-1/ledger/2/proof", "table-T99", "path.seq", 403},
		{"the opening, to a table", "/v1/pools/megalink-sgd-1/ledger/1/proof", "table", "path.seq", 403},
		{"size past the end", "/v1/pools/megalink-sgd-1/ledger/2/proof?size=3", "controller", "query.size", 422},
		{"seq past the size", "/v1/pools/megalink-sgd-1/ledger/2/proof?size=1", "controller", "path.seq", 422},
		{"seq not a number", "/v1/pools/megalink-sgd-1/ledger/x/proof", "controller", "path.seq", 422},
		{"from after to", "/v1/pools/megalink-sgd-1/consistency?from=2&to=1", "controller", "query.from", 422},
		{"to past the end", "/v1/pools/megalink-sgd-1/consistency?from=1&to=3", "controller", "query.to", 422},
		{"unknown pool", "/v1/pools/nope/checkpoint", "controller", "path.id", 404},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := send(t, srv, "GET", tc.path, nil, as(tc.who))
			if a.Status != tc.status || a.Header.Get("Content-Type") != "application/problem+json" || !strings.Contains(string(a.Body), `"location":"`+tc.location+`"`) {
				t.Fatalf("%d %s; want %d at %s", a.Status, a.Body, tc.status, tc.location)
			}
		})
	}
}

func hashes(t *testing.T, b64 []string) []tlog.Hash {
	t.Helper()
	out := make([]tlog.Hash, len(b64))
	for i, s := range b64 {
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil || len(b) != tlog.HashSize {
			t.Fatalf("hash %q", s)
		}
		copy(out[i][:], b)
	}
	return out
}
