package main

import (
	"fmt"
	"io"
	"path/filepath"
	"sync"
	"testing"

	"github.com/tablesettle/tablesettle/internal/auth"
)

// Issue 16: principals add run twice at once (two operators, a
// script adding a floor's tables) keeps both principals. Each prints a
// token once; a token whose hash a concurrent add overwrote would be a
// credential that never works.
func TestPrincipalsAddConcurrently(t *testing.T) {
	file := filepath.Join(t.TempDir(), "principals.json")
	const n = 16
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = principals([]string{"add", "--id", fmt.Sprintf("table-%d", i), "--role", "table", "--tables", fmt.Sprintf("T%d", i), "-file", file}, io.Discard)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("add %d: %v", i, err)
		}
	}
	entries, err := auth.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != n {
		t.Errorf("%d principals in the file after %d adds", len(entries), n)
	}
}
