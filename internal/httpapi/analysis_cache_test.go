package httpapi

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tablesettle/tablesettle/internal/analysis"
)

// The same proposal twice is computed once; the answers are identical; a
// different proposal is computed (issue 16 item 6).
func TestAnalysisCacheThroughTheAPI(t *testing.T) {
	cache := analysis.NewCache(8, 1<<20)
	h, _ := New(Deps{Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)), AnalysisCache: cache}, GroupPaytables)
	post := func(body string) (int, []byte) {
		r := httptest.NewRequest(http.MethodPost, "/v1/paytables/analyze", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code, w.Body.Bytes()
	}
	pp := `{"ruleset":"mbs-megalink-tcp-v6","pairPlus":[{"hand":"straight_flush","num":40},{"hand":"three_of_a_kind","num":30},{"hand":"straight","num":6},{"hand":"flush","num":4},{"hand":"one_pair","num":1}]}`
	// The same proposal with its fields in another order and spaces: the
	// same paytable, the same hash.
	ppAgain := `{ "pairPlus":[{"num":40,"hand":"straight_flush"},{"hand":"three_of_a_kind","num":30},{"hand":"straight","num":6},{"hand":"flush","num":4},{"hand":"one_pair","num":1}], "ruleset":"mbs-megalink-tcp-v6"}`
	other := strings.Replace(pp, `"num":40`, `"num":35`, 1)

	c1, b1 := post(pp)
	c2, b2 := post(ppAgain)
	if c1 != 200 || c2 != 200 || !bytes.Equal(b1, b2) {
		t.Fatalf("%d %d; answers differ:\n%s\n%s", c1, c2, b1, b2)
	}
	if n, _, hits, misses := cache.Stats(); n != 1 || hits != 1 || misses != 1 {
		t.Errorf("entries %d hits %d misses %d, want 1 1 1", n, hits, misses)
	}
	c3, b3 := post(other)
	if c3 != 200 || bytes.Equal(b1, b3) {
		t.Fatalf("another paytable: %d, same answer", c3)
	}
	if n, _, hits, misses := cache.Stats(); n != 2 || hits != 1 || misses != 2 {
		t.Errorf("entries %d hits %d misses %d, want 2 1 2", n, hits, misses)
	}
	// A refused proposal is not kept.
	if c, _ := post(`{"ruleset":"mbs-megalink-tcp-v6"}`); c != 422 {
		t.Fatalf("empty proposal: %d", c)
	}
	if n, _, _, _ := cache.Stats(); n != 2 {
		t.Errorf("entries %d after a 422, want 2", n)
	}
}
