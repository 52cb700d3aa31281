package pools_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/localledger"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/sqlite"
)

// signedPool is a SQLite store with the local key and witness in a
// temporary directory, and pool p opened at jackpottest.T0.
func signedPool(t *testing.T) (*pools.Service, *jackpottest.Clock, *sqlite.Store, string) {
	t.Helper()
	dir := t.TempDir()
	st, err := sqlite.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := pools.NewService(st, clock.Now, 1)
	if svc.Signing, err = localledger.Open(dir); err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.Create(context.Background(), "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	return svc, clock, st, dir
}

// TestCheckpointCoversEntriesOlderThan5s: issue 34 items 2 and 4. With
// the serve loop's step (PublishCheckpoints) run every CheckpointEvery
// and writers not publishing, the latest checkpoint read at any instant
// covers every entry committed more than 5 s before it. Rounds arrive in
// bursts over two minutes of an injected clock, every 250 ms.
func TestCheckpointCoversEntriesOlderThan5s(t *testing.T) {
	ctx := context.Background()
	svc, clock, _, _ := signedPool(t)
	svc.Signing.Every = time.Hour // writers do not publish: the loop alone
	var committed []time.Time     // committed[i]: when entry i+2 was committed
	nextTick := clock.Now()
	for step := 0; step < 480; step++ {
		clock.Advance(250 * time.Millisecond)
		now := clock.Now()
		if step%40 < 25 { // a burst, then quiet
			if _, _, err := svc.ApplyRound(ctx, "p", jackpottest.RoundOf("mbs-megalink-ssp-v6", "T1", fmt.Sprint("r", step), now, 500, []int{1}), "", ""); err != nil {
				t.Fatal(err)
			}
			committed = append(committed, now)
		}
		if !now.Before(nextTick) {
			if err := svc.PublishCheckpoints(ctx); err != nil {
				t.Fatal(err)
			}
			nextTick = now.Add(pools.CheckpointEvery)
		}
		c, err := svc.LatestCheckpoint(ctx, "p")
		if err != nil {
			t.Fatal(err)
		}
		var want int64 = 1 // the opening
		for i, at := range committed {
			if now.Sub(at) > 5*time.Second {
				want = int64(i) + 2
			}
		}
		if c.Size < want {
			t.Fatalf("at %s the latest checkpoint covers %d entries; %d were committed more than 5 s before", now.Sub(jackpottest.T0), c.Size, want)
		}
	}
}

// TestWritersPublish: issue 34 item 2. A writer publishes the pool's
// checkpoint after its commit when the last it published is Every old:
// the checkpoint then covers that commit's entry.
func TestWritersPublish(t *testing.T) {
	ctx := context.Background()
	svc, clock, _, _ := signedPool(t)
	svc.Signing.Every = time.Second
	for i := range 4 {
		clock.Advance(time.Second)
		res, _, err := svc.ApplyRound(ctx, "p", jackpottest.RoundOf("mbs-megalink-ssp-v6", "T1", fmt.Sprint("r", i), clock.Now(), 500, []int{1}), "", "")
		if err != nil {
			t.Fatal(err)
		}
		c, err := svc.LatestCheckpoint(ctx, "p")
		if err != nil || c.Size != res.Seq || res.Seq != int64(i)+2 {
			t.Fatalf("round %d (entry %d): checkpoint at %d, %v; want it to cover the round", i, res.Seq, c.Size, err)
		}
	}
}

// TestReadsCommitNothing: issue 34 item 4. A checkpoint, proof or ledger
// read leaves the pool's version, its ledger and its checkpoints as they
// were.
func TestReadsCommitNothing(t *testing.T) {
	ctx := context.Background()
	svc, clock, st, _ := signedPool(t)
	svc.Signing.Every = time.Hour
	applyRounds(t, svc, clock, 0, 5)
	before, _ := st.Pool(ctx, "p")
	cps, _ := st.Checkpoints(ctx, "p", 0, 100)
	clock.Advance(time.Minute)
	if _, err := svc.LatestCheckpoint(ctx, "p"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.InclusionProof(ctx, "p", 3, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.ConsistencyProof(ctx, "p", 2, 6); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.FloorLedger(ctx, "p", "asc", 0, 0, 100); err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.TreeHead(ctx, "p"); err != nil {
		t.Fatal(err)
	}
	after, _ := st.Pool(ctx, "p")
	again, _ := st.Checkpoints(ctx, "p", 0, 100)
	if after.Version != before.Version || after.Seq != before.Seq || len(again) != len(cps) {
		t.Fatalf("reads moved the pool from version %d seq %d (%d checkpoints) to %d seq %d (%d)", before.Version, before.Seq, len(cps), after.Version, after.Seq, len(again))
	}
}

// TestProofRefusals: issue 34 item 3. A seq or size out of range is a
// 422 naming the field; an unknown pool 404.
func TestProofRefusals(t *testing.T) {
	ctx := context.Background()
	svc, clock, _, _ := signedPool(t)
	applyRounds(t, svc, clock, 0, 3)
	for _, tc := range []struct {
		name  string
		call  func() error
		kind  fault.Kind
		field string
	}{
		{name: "size past the end", call: func() error { _, err := svc.InclusionProof(ctx, "p", 1, 5); return err }, kind: fault.Invalid, field: "query.size"},
		{name: "seq past the size", call: func() error { _, err := svc.InclusionProof(ctx, "p", 4, 3); return err }, kind: fault.Invalid, field: "path.seq"},
		{name: "seq 0", call: func() error { _, err := svc.InclusionProof(ctx, "p", 0, 0); return err }, kind: fault.Invalid, field: "path.seq"},
		{name: "negative size", call: func() error { _, err := svc.InclusionProof(ctx, "p", 1, -1); return err }, kind: fault.Invalid, field: "query.size"},
		{name: "from after to", call: func() error { _, err := svc.ConsistencyProof(ctx, "p", 3, 2); return err }, kind: fault.Invalid, field: "query.from"},
		{name: "to past the end", call: func() error { _, err := svc.ConsistencyProof(ctx, "p", 1, 9); return err }, kind: fault.Invalid, field: "query.to"},
		{name: "from 0", call: func() error { _, err := svc.ConsistencyProof(ctx, "p", 0, 2); return err }, kind: fault.Invalid, field: "query.from"},
		{name: "no pool", call: func() error { _, err := svc.InclusionProof(ctx, "nope", 1, 0); return err }, kind: fault.NotFound, field: "id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, ok := fault.As(tc.call())
			if !ok || e.Kind != tc.kind || len(e.Fields) == 0 || e.Fields[0].Field != tc.field {
				t.Fatalf("%v; want %s at %s", e, tc.kind, tc.field)
			}
		})
	}
}

// TestWitnessFile: issue 34 item 5. Every checkpoint published is
// appended to the witness file beside the database, one a line.
func TestWitnessFile(t *testing.T) {
	ctx := context.Background()
	svc, clock, _, dir := signedPool(t)
	svc.Signing.Every = time.Hour
	for i := range 3 {
		applyRounds(t, svc, clock, i, 1)
		if _, err := svc.PublishCheckpoint(ctx, "p"); err != nil {
			t.Fatal(err)
		}
	}
	lines := witnessLines(t, filepath.Join(dir, localledger.WitnessFile))
	if len(lines) != 4 { // the opening's, then one a round
		t.Fatalf("%d witness lines, want 4: %q", len(lines), lines)
	}
}

func witnessLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// applyRounds applies rounds r<from> to r<from+n-1>, one wager each, of
// table T1 to pool p, a second apart.
func applyRounds(t *testing.T, svc *pools.Service, clock *jackpottest.Clock, from, n int) {
	t.Helper()
	for i := from; i < from+n; i++ {
		clock.Advance(time.Second)
		if _, _, err := svc.ApplyRound(context.Background(), "p", jackpottest.RoundOf("mbs-megalink-ssp-v6", "T1", fmt.Sprint("r", i), clock.Now(), 500, []int{1}), "", ""); err != nil {
			t.Fatal(err)
		}
	}
}
