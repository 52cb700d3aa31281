package httpapi

import (
	"net/http"
	"strings"
	"testing"
)

// BenchmarkFloorPoll: what a console's poll of a pool with 200 rounds
// costs when nothing changed (304: one read of the pool) against a full
// answer (200), for the pool, the open hits and the whole hit history.
func BenchmarkFloorPoll(b *testing.B) {
	api, _ := poolsAPI(b, nil)
	if resp := api.Post("/v1/pools", strings.NewReader(createMBS)); resp.Code != http.StatusCreated {
		b.Fatalf("create: %d", resp.Code)
	}
	for i := range 200 {
		if resp := api.Post("/v1/pools/megalink/rounds", strings.NewReader(floorRound("T12", "R"+itoa64(int64(i))))); resp.Code != http.StatusOK {
			b.Fatalf("round: %d %s", resp.Code, resp.Body)
		}
	}
	for _, path := range []string{"/v1/pools/megalink", "/v1/pools/megalink/hits", "/v1/pools/megalink/hits?state=all"} {
		tag := api.Get(path).Header().Get("ETag")
		b.Run(strings.TrimPrefix(path, "/v1/pools/megalink")+" 200", func(b *testing.B) {
			for b.Loop() {
				if api.Get(path).Code != http.StatusOK {
					b.Fatal("not 200")
				}
			}
		})
		b.Run(strings.TrimPrefix(path, "/v1/pools/megalink")+" 304", func(b *testing.B) {
			for b.Loop() {
				if api.Get(path, "If-None-Match: "+tag).Code != http.StatusNotModified {
					b.Fatal("not 304")
				}
			}
		})
	}
}
