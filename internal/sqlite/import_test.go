package sqlite_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/sqlite"
)

// legacyFixture is a pools.json written by the JSON file store of earlier
// builds (internal/filestore, removed): an MBS pool after 20 rounds (one a
// Straight Flush) under Idempotency-Keys and a reserve adjustment, and an
// RWS pool whose held Royal was released.
const legacyFixture = "testdata/pools-v1.json"

// copyFixture copies the fixture into dir as pools.json, optionally
// edited, and returns its path.
func copyFixture(t *testing.T, dir string, edit func(map[string]any)) string {
	t.Helper()
	b, err := os.ReadFile(legacyFixture)
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		var v map[string]any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		edit(v)
		if b, err = json.Marshal(v); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, sqlite.LegacyFileName)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func legacyPool(t *testing.T, id string) jackpot.Pool {
	t.Helper()
	b, _ := os.ReadFile(legacyFixture)
	var v struct {
		Pools map[string]struct {
			Pool jackpot.Pool `json:"pool"`
		} `json:"pools"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v.Pools[id].Pool
}

// TestImportLegacyFile (issue 23): every pool of the old JSON file, its
// ledger and its round records come over whole, each reconciles, the
// rounds already applied are replays, and the file is left as it was.
func TestImportLegacyFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := copyFixture(t, dir, nil)
	before, _ := os.ReadFile(path)
	st := mustOpen(t, dir)
	imp, err := st.Import(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if imp.Pools != 2 || imp.Entries != 23+5 || imp.Records != 41+1 {
		t.Fatalf("imported %+v; want 2 pools, 28 entries, 42 records", imp)
	}
	svc := pools.NewService(st, jackpottest.NewClock(jackpottest.T0).Now, 1)
	for _, id := range []string{"mbs-1", "rws-1"} {
		got, err := svc.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		want := legacyPool(t, id)
		if jackpot.FingerprintOf(got) != jackpot.FingerprintOf(want) {
			t.Fatalf("pool %s changed on import:\n%+v\nwant\n%+v", id, got, want)
		}
		jackpottest.MustReconcile(t, svc, id)
	}
	// The MBS pool's meters as the old store had them: displayed 9,004,992,
	// reserve 51,551 (its adjustment of 50,000 included).
	if p, _ := svc.Get(ctx, "mbs-1"); p.Meters.Displayed != 9_004_992 || p.Meters.Reserve != 51_551 || p.Seq != 23 {
		t.Fatalf("mbs-1 meters %+v seq %d", p.Meters, p.Seq)
	}
	// Round r3 at table t1 was applied under key k3: sent again, it is the
	// first answer, not a second contribution.
	r := jackpottest.RoundOf("mbs-megalink-ssp-v6", "t1", "r3", jackpottest.T0.Add(3e9), 500, []int{1, 2, 3})
	if _, replayed, err := svc.ApplyRound(ctx, "mbs-1", r, "k3", ""); err != nil || !replayed {
		t.Fatalf("an imported round again: replayed %v %v; want a replay", replayed, err)
	}
	if p, _ := svc.Get(ctx, "mbs-1"); p.Seq != 23 {
		t.Fatalf("seq %d after the replay; want 23", p.Seq)
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Fatal("the import changed the JSON file")
	}
	// The same file again is refused, and changes nothing.
	if _, err := st.Import(ctx, path); err == nil || !strings.Contains(err.Error(), "imported already") {
		t.Fatalf("a second import: %v; want refused", err)
	}
}

// TestImportRefusedChangesNothing: an import that fails writes nothing
// (not the pools before the failing one) and says why.
func TestImportRefusedChangesNothing(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name string
		edit func(map[string]any)
		want string
	}{
		{"a meter off by one", func(v map[string]any) {
			m := v["pools"].(map[string]any)["rws-1"].(map[string]any)["pool"].(map[string]any)["meters"].(map[string]any)
			m["displayed"] = m["displayed"].(float64) + 1
		}, "pool rws-1 does not reconcile after import: rws-1: meter displayed is 10000001, the ledger sums to 10000000"},
		{"a ledger entry missing", func(v map[string]any) {
			p := v["pools"].(map[string]any)["mbs-1"].(map[string]any)
			p["ledger"] = p["ledger"].([]any)[:22]
		}, "pool mbs-1 does not reconcile after import: mbs-1: 22 ledger entries stored, the pool counts 23"},
		{"another format", func(v map[string]any) { v["format"] = 2 }, "it has format 2; this build reads format 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := copyFixture(t, dir, c.edit)
			st := mustOpen(t, dir)
			_, err := st.Import(ctx, path)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "nothing was imported") {
				t.Fatalf("import: %v; want it refused: %s", err, c.want)
			}
			if empty, err := st.Empty(ctx); err != nil || !empty {
				t.Fatalf("after a refused import the store is not empty: %v", err)
			}
		})
	}
	t.Run("a pool that exists", func(t *testing.T) {
		dir := t.TempDir()
		st := mustOpen(t, dir)
		svc := pools.NewService(st, jackpottest.NewClock(jackpottest.T0).Now, 1)
		if _, _, err := svc.Create(ctx, "rws-1", jackpottest.RWSSettings(), jackpottest.Admin); err != nil {
			t.Fatal(err)
		}
		_, err := st.Import(ctx, copyFixture(t, dir, nil))
		if err == nil || !strings.Contains(err.Error(), "pool rws-1 exists in the store already") {
			t.Fatalf("import: %v", err)
		}
		if _, err := svc.Get(ctx, "mbs-1"); err == nil {
			t.Fatal("mbs-1, before rws-1 in the file, was imported by a refused import")
		}
	})
}
