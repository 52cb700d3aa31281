package sqlite_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/sqlite"
)

// TestBackupWhileWriting (issue 23): a backup taken by another process's
// store while writers commit is one consistent snapshot: it opens, passes
// the integrity check, and every pool in it reconciles.
func TestBackupWhileWriting(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st := mustOpen(t, dir)
	svc := pools.NewService(st, time.Now, 1)
	if _, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	other := mustOpen(t, dir) // as `tablesettle store backup` opens it beside serve
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				if _, _, err := svc.ApplyRound(ctx, "p", round(fmt.Sprintf("w%d-%d", w, i), time.Now()), "", ""); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	time.Sleep(100 * time.Millisecond)
	backups := t.TempDir()
	for i := range 3 {
		path := filepath.Join(backups, fmt.Sprintf("b%d", i), sqlite.FileName)
		if err := mkdir(filepath.Dir(path)); err != nil {
			t.Fatal(err)
		}
		if err := other.Backup(ctx, path); err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	for i := range 3 {
		b := mustOpen(t, filepath.Join(backups, fmt.Sprintf("b%d", i)))
		c, err := b.Check(ctx)
		if err != nil || !c.OK() || len(c.Pools) != 1 || c.Pools[0].Entries < 2 {
			t.Fatalf("backup %d: %v %+v", i, err, c)
		}
	}
}

// TestFullDiskRefusesWholly (issue 23): when the database cannot grow
// (SQLite's max_page_count caps the file, standing in for a full disk:
// the write fails with SQLITE_FULL exactly as it does when the disk is
// full), a round is refused as Unavailable (503), nothing of it is
// written, and once there is room the same round applies exactly once.
func TestFullDiskRefusesWholly(t *testing.T) {
	ctx := context.Background()
	st := mustOpen(t, t.TempDir())
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := pools.NewService(st, clock.Now, 1)
	if _, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	before, _ := svc.Get(ctx, "p")
	used, err := sqlite.LimitPages(ctx, st, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sqlite.LimitPages(ctx, st, used); err != nil {
		t.Fatal(err)
	}
	// Rounds with long ids until the file would have to grow.
	refused, before := applyUntilRefused(t, svc, before, 0, 500, func(i int) string { return fmt.Sprintf("r%d-%060d", i, i) })
	if refused < 0 {
		t.Fatal("the capped database never filled")
	}
	after, _ := svc.Get(ctx, "p")
	es, _ := st.Ledger(ctx, "p", before.Seq, 10)
	if after.Version != before.Version || after.Meters.Wagers != before.Meters.Wagers || len(es) != 0 {
		t.Fatalf("a refused round left version %d (was %d), wagers %d (was %d), %d entries", after.Version, before.Version, after.Meters.Wagers, before.Meters.Wagers, len(es))
	}
	if _, err := sqlite.LimitPages(ctx, st, 0); err != nil {
		t.Fatal(err)
	}
	r := round(fmt.Sprintf("r%d-%060d", refused, refused), jackpottest.T0)
	if _, replayed, err := svc.ApplyRound(ctx, "p", r, "", ""); err != nil || replayed {
		t.Fatalf("the refused round with room: %v replayed %v; want applied once", err, replayed)
	}
	if p, _ := svc.Get(ctx, "p"); p.Meters.Wagers != before.Meters.Wagers+3 {
		t.Fatalf("wagers %d; want %d", p.Meters.Wagers, before.Meters.Wagers+3)
	}
	jackpottest.MustReconcile(t, svc, "p")
	if c, err := st.Check(ctx); err != nil || !c.OK() {
		t.Fatalf("check: %v %+v", err, c)
	}
}

func mkdir(dir string) error { return os.MkdirAll(dir, 0o755) }

// TestFullDiskTmpfs (issue 23): the same on a real full file system, a
// 4 MB tmpfs filled to the last block (needs root to mount it; skipped
// elsewhere): the write fails with ENOSPC, the round is refused as
// Unavailable (503) with nothing of it written, and once space is freed
// the same round applies exactly once.
func TestFullDiskTmpfs(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	mnt := filepath.Join(t.TempDir(), "mnt")
	if err := mkdir(mnt); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", mnt).Run() })
	ctx := context.Background()
	st, err := sqlite.Open(mnt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	svc := pools.NewService(st, jackpottest.NewClock(jackpottest.T0).Now, 1)
	if _, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.ApplyRound(ctx, "p", round("r0", jackpottest.T0), "", ""); err != nil {
		t.Fatal(err)
	}
	// Fill the file system.
	filler, err := os.Create(filepath.Join(mnt, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	block := make([]byte, 4096)
	for {
		if _, err := filler.Write(block); err != nil {
			break
		}
	}
	filler.Close()
	before, _ := svc.Get(ctx, "p")
	refused, before := applyUntilRefused(t, svc, before, 1, 2000, func(i int) string { return fmt.Sprintf("r%d", i) })
	if refused < 0 {
		t.Fatal("the full file system never refused a write")
	}
	after, err := svc.Get(ctx, "p")
	if err != nil || after.Version != before.Version || after.Meters.Wagers != before.Meters.Wagers {
		t.Fatalf("a refused round moved the pool: %v version %d (was %d)", err, after.Version, before.Version)
	}
	if es, _ := st.Ledger(ctx, "p", before.Seq, 10); len(es) != 0 {
		t.Fatalf("a refused round left %d ledger entries", len(es))
	}
	if err := os.Remove(filepath.Join(mnt, "filler")); err != nil {
		t.Fatal(err)
	}
	if _, replayed, err := svc.ApplyRound(ctx, "p", round(fmt.Sprintf("r%d", refused), jackpottest.T0), "", ""); err != nil || replayed {
		t.Fatalf("the refused round with room: %v replayed %v; want applied once", err, replayed)
	}
	if p, _ := svc.Get(ctx, "p"); p.Meters.Wagers != before.Meters.Wagers+3 {
		t.Fatalf("wagers %d; want %d", p.Meters.Wagers, before.Meters.Wagers+3)
	}
	jackpottest.MustReconcile(t, svc, "p")
	if c, err := st.Check(ctx); err != nil || !c.OK() {
		t.Fatalf("check: %v %+v", err, c)
	}
}

// applyUntilRefused applies rounds named id(i) to pool p, i from from to n-1,
// until the store refuses one as Unavailable (a full database or disk). It
// returns that round's i (-1 when none was refused) and the pool as the
// last applied round left it (before, when none was).
func applyUntilRefused(t *testing.T, svc *pools.Service, before jackpot.Pool, from, n int, id func(i int) string) (int, jackpot.Pool) {
	t.Helper()
	ctx := context.Background()
	for i := from; i < n; i++ {
		_, _, err := svc.ApplyRound(ctx, "p", round(id(i), jackpottest.T0), "", "")
		switch {
		case err == nil:
			before, _ = svc.Get(ctx, "p")
		case fault.KindOf(err) == fault.Unavailable:
			t.Logf("round %d refused: %v", i, errors.Unwrap(err))
			return i, before
		default:
			t.Fatalf("round %d: %v; want applied or Unavailable", i, err)
		}
	}
	return -1, before
}
