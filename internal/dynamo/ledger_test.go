package dynamo_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"golang.org/x/mod/sumdb/tlog"

	"github.com/tablesettle/tablesettle/internal/dynamo"
	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/ledgerlog"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// writeCounter counts the writes a store sends (issue 34: reads never
// write).
type writeCounter struct {
	dynamo.API
	writes atomic.Int64
}

func (w *writeCounter) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	w.writes.Add(1)
	return w.API.TransactWriteItems(ctx, in, opts...)
}

// mbsPool is a sharded store on a fresh table through api, on a test
// clock, with pool "p" created (MBS settings: 17.33% and 5.17%).
func mbsPool(t *testing.T, api dynamo.API) (*dynamo.Store, *jackpottest.Clock, *pools.Service) {
	t.Helper()
	st := dynamo.New(api, newTable(t, endpoint(t)))
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := pools.NewService(st, clock.Now, 1)
	if _, _, err := svc.Create(context.Background(), "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	return st, clock, svc
}

// wholeLedger reads every entry of pool id through the service.
func wholeLedger(t *testing.T, svc *pools.Service, id string) []jackpot.Entry {
	t.Helper()
	var all []jackpot.Entry
	for after := int64(0); ; {
		es, err := svc.Ledger(context.Background(), id, after, 1000)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, es...)
		if len(es) < 1000 {
			return all
		}
		after = es[len(es)-1].Seq
	}
}

// fractionRound is a round of table k without a hit whose wagers leave a
// fraction of a minor unit at 17.33% and 5.17% (MBS settings): seats
// 1..1+k%3 of 5.00 each.
func fractionRound(k int, at time.Time) jackpot.Round {
	seats := []int{1}
	for s := 2; s <= 1+k%3; s++ {
		seats = append(seats, s)
	}
	return jackpottest.RoundOf("mbs-megalink-ssp-v6", fmt.Sprintf("T%02d", k%40), fmt.Sprint("r", k), at, 500, seats)
}

// Issue 34 item 3, as far as it goes (the entry equal to the answer is
// not done: docs/scale.md, Limits): on a sharded pool, 120 rounds beside
// the pool (folded as their shards fill, and at the end) are each in the
// ledger once, each entry within one minor unit of its answer (the fold
// credits the pool's carried fraction with the round, as the serial path
// would), and every cent is accounted for: 240 wagers of 5.00 at 17.33%
// are 20,796.00 credited exactly (the answers 20,720), 0 carried; at
// 5.17%, 6,204.00 (the answers 6,120).
func TestRoundEntriesOnShardsWithinAUnitOfTheirAnswers_R1(t *testing.T) {
	ctx := context.Background()
	_, clock, svc := mbsPool(t, dynamo.LocalClient(endpoint(t)))
	answers := map[string]jackpot.Contribution{}
	var answered, answeredR money.Amount
	for k := range 120 {
		clock.Advance(time.Second)
		res, _, err := svc.ApplyRound(ctx, "p", fractionRound(k, clock.Now()), "", "")
		if err != nil {
			t.Fatal(err)
		}
		answers[res.Table+"/"+res.Round] = res.Contribution
		answered += res.Contribution.Displayed + res.Contribution.Overflow
		answeredR += res.Contribution.Reserve
	}
	if answered != 20_720 || answeredR != 6_120 {
		t.Fatalf("answered %d and %d, want 20,720 and 6,120", answered, answeredR)
	}
	if err := svc.Fold(ctx, "p"); err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, e := range wholeLedger(t, svc, "p") {
		if e.Kind != jackpot.KindContribution {
			continue
		}
		a, ok := answers[e.Table+"/"+e.Round]
		if !ok {
			t.Fatalf("entry %d of an unknown round %s/%s", e.Seq, e.Table, e.Round)
		}
		if d, r := e.Displayed-a.Displayed, e.Reserve-a.Reserve; d < 0 || d > 1 || r < 0 || r > 1 || e.Overflow != a.Overflow || e.WagerAmount != a.WagerAmount {
			t.Fatalf("entry %d of %s/%s credits %d/%d/%d, its answer said %d/%d/%d", e.Seq, e.Table, e.Round, e.Displayed, e.Overflow, e.Reserve, a.Displayed, a.Overflow, a.Reserve)
		}
		seen++
	}
	p, err := svc.Get(ctx, "p")
	if err != nil {
		t.Fatal(err)
	}
	if seen != 120 || p.Meters.Contributed != 20_796 || p.Meters.ContributedReserve != 6_204 || p.Meters.CarryDisplayed != 0 || p.Meters.CarryReserve != 0 {
		t.Fatalf("%d rounds' entries; meters %+v", seen, p.Meters)
	}
	if rec, err := svc.Reconcile(ctx, "p"); err != nil || !rec.OK {
		t.Fatalf("reconcile: %v %+v", err, rec)
	}
}

// Issue 34 item 4 (reads never write): with rounds in the shards, reading
// the pool, its ledger (whole and by page), its meters at an instant, its
// shift report and its reconciliation sends no write, and the pool's
// version and ledger stay as they were; the rounds reach the ledger by the
// scheduled fold (FoldDue).
func TestReadsNeverWrite(t *testing.T) {
	ctx := context.Background()
	api := &writeCounter{API: dynamo.LocalClient(endpoint(t))}
	st, clock, svc := mbsPool(t, api)
	for k := range 10 {
		clock.Advance(time.Second)
		if _, _, err := svc.ApplyRound(ctx, "p", fractionRound(k, clock.Now()), "", ""); err != nil {
			t.Fatal(err)
		}
	}
	before, err := st.Snapshot(ctx, "p", true)
	if err != nil {
		t.Fatal(err)
	}
	writes := api.writes.Load()
	for name, read := range map[string]func() error{
		"pool":   func() error { _, err := svc.Get(ctx, "p"); return err },
		"ledger": func() error { _, err := svc.Ledger(ctx, "p", 0, 100); return err },
		"page": func() error {
			_, err := svc.LedgerPage(ctx, "p", pools.LedgerQuery{Limit: 10, Newest: true})
			return err
		},
		"meters at": func() error { _, err := svc.MetersAt(ctx, "p", clock.Now()); return err },
		"report":    func() error { _, err := svc.Report(ctx, "p", jackpottest.T0, clock.Now()); return err },
		"reconcile": func() error {
			rec, err := svc.Reconcile(ctx, "p")
			if err == nil && !rec.OK {
				err = fmt.Errorf("not ok: %+v", rec)
			}
			return err
		},
	} {
		if err := read(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if n := api.writes.Load() - writes; n != 0 {
			t.Fatalf("reading the %s wrote %d times", name, n)
		}
	}
	after, err := st.Snapshot(ctx, "p", true)
	if err != nil {
		t.Fatal(err)
	}
	if after.Version != before.Version || after.Seq != before.Seq || len(wholeLedger(t, svc, "p")) != int(before.Seq) {
		t.Fatalf("the pool moved under reads: version %d -> %d, seq %d -> %d", before.Version, after.Version, before.Seq, after.Seq)
	}
	// The scheduled fold brings them in (the store's fold age unset:
	// every epoch with rounds is due).
	folded, err := svc.FoldDue(ctx)
	if err != nil || len(folded) != 1 || folded[0] != "p" {
		t.Fatalf("FoldDue folded %v: %v", folded, err)
	}
	es := wholeLedger(t, svc, "p")
	rounds := 0
	for _, e := range es {
		if e.Kind == jackpot.KindContribution {
			rounds++
		}
	}
	if rounds != 10 {
		t.Fatalf("after the scheduled fold the ledger holds %d rounds, want 10", rounds)
	}
}

// logRoot is the root of the pool's log at size n, from the store's
// stored hashes (LogHashes), and from the entries' leaves alone
// (ledgerlog.Append in memory): they must agree.
func logRoots(t *testing.T, st *dynamo.Store, id string, es []jackpot.Entry) (stored, recomputed tlog.Hash) {
	t.Helper()
	ctx := context.Background()
	n := int64(len(es))
	r := tlog.HashReaderFunc(func(ix []int64) ([]tlog.Hash, error) { return st.LogHashes(ctx, id, ix) })
	stored, err := tlog.TreeHash(n, r)
	if err != nil {
		t.Fatalf("tree hash from the store: %v", err)
	}
	mem := map[int64]tlog.Hash{}
	mr := tlog.HashReaderFunc(func(ix []int64) ([]tlog.Hash, error) {
		out := make([]tlog.Hash, len(ix))
		for i, x := range ix {
			h, ok := mem[x]
			if !ok {
				return nil, fmt.Errorf("no hash %d", x)
			}
			out[i] = h
		}
		return out, nil
	})
	hs, err := ledgerlog.Append(mr, 0, es)
	if err != nil {
		t.Fatal(err)
	}
	for i, h := range hs {
		for j, x := range h {
			mem[tlog.StoredHashIndex(0, int64(i))+int64(j)] = x
		}
	}
	recomputed, err = tlog.TreeHash(n, mr)
	if err != nil {
		t.Fatal(err)
	}
	return stored, recomputed
}

// Issue 34 item 1 on DynamoDB: every commit, fold and group commit
// included, writes its entries' stored hashes with them, so the root
// from the store's hashes is the root of the entries' leaves, and every
// entry's inclusion proof checks, with shards (16) and without (0).
func TestLogHashesAreTheLedgers(t *testing.T) {
	for _, shards := range []int{dynamo.DefaultShards, 0} {
		t.Run(fmt.Sprint("shards=", shards), func(t *testing.T) {
			ep := endpoint(t)
			ctx := context.Background()
			st := dynamo.New(dynamo.LocalClient(ep), newTable(t, ep)).WithShards(shards)
			clock := jackpottest.NewClock(jackpottest.T0)
			svc := pools.NewService(st, clock.Now, 1)
			if _, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			for w := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for k := w; k < 200; k += 8 {
						r := fractionRound(k, jackpottest.T0.Add(time.Duration(k)*time.Second))
						if k%50 == 7 {
							r = jackpottest.RoundOf("mbs-megalink-ssp-v6", "T99", fmt.Sprint("h", k), r.DealtAt, 500, []int{1}, jackpottest.FourOfAKind("mbs-megalink-ssp-v6", 1, 1, 500))
						}
						if _, _, err := svc.ApplyRound(ctx, "p", r, "", ""); err != nil {
							t.Error(err)
							return
						}
					}
				}()
			}
			wg.Wait()
			if err := svc.Fold(ctx, "p"); err != nil {
				t.Fatal(err)
			}
			es := wholeLedger(t, svc, "p")
			for i, e := range es {
				if e.Seq != int64(i+1) {
					t.Fatalf("entry %d has seq %d", i+1, e.Seq)
				}
			}
			stored, recomputed := logRoots(t, st, "p", es)
			if stored != recomputed {
				t.Fatalf("the stored hashes' root %s is not the entries' %s", stored, recomputed)
			}
			// A fresh store (no cache) reads the same, and proves each entry.
			fresh := dynamo.New(dynamo.LocalClient(ep), tableOf(t, st))
			r := tlog.HashReaderFunc(func(ix []int64) ([]tlog.Hash, error) { return fresh.LogHashes(ctx, "p", ix) })
			n := int64(len(es))
			for i := int64(0); i < n; i += 7 {
				p, err := tlog.ProveRecord(n, i, r)
				if err != nil {
					t.Fatal(err)
				}
				leaf, err := ledgerlog.LeafHash(es[i])
				if err != nil {
					t.Fatal(err)
				}
				if err := tlog.CheckRecord(p, n, recomputed, i, leaf); err != nil {
					t.Fatalf("entry %d: %v", i+1, err)
				}
			}
		})
	}
}

// tableOf is the DynamoDB table a test store is on.
func tableOf(t *testing.T, st *dynamo.Store) string {
	t.Helper()
	return st.Table()
}

// Issue 34 item 1: a pool written before the log (its items without h)
// is backfilled, a page at a time and resumably, and its next commit
// logs its own entries; the root is then the entries'.
func TestLogBackfillOfAPoolWrittenBefore(t *testing.T) {
	ep := endpoint(t)
	ctx := context.Background()
	client := dynamo.LocalClient(ep)
	table := newTable(t, ep)
	st := dynamo.New(client, table).WithHitLogPage(7)
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := pools.NewService(st, clock.Now, 1)
	if _, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	for k := range 100 {
		clock.Advance(time.Second)
		if _, _, err := svc.ApplyRound(ctx, "p", fractionRound(k, clock.Now()), "", ""); err != nil {
			t.Fatal(err)
		}
	}
	if err := svc.Fold(ctx, "p"); err != nil {
		t.Fatal(err)
	}
	// As written before issue 34: no h on any ledger item.
	page, err := client.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(table),
		KeyConditionExpression:    aws.String("pk = :pk AND begins_with(sk, :l)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: "POOL#p"}, ":l": &types.AttributeValueMemberS{Value: "LEDGER#"}}})
	if err != nil || len(page.Items) < 3 {
		t.Fatal(err, len(page.Items))
	}
	for _, it := range page.Items {
		if _, err := client.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: map[string]types.AttributeValue{"pk": it["pk"], "sk": it["sk"]},
			UpdateExpression: aws.String("REMOVE h, hl")}); err != nil {
			t.Fatal(err)
		}
	}
	old := dynamo.New(client, table).WithHitLogPage(1) // no cache; a page of one item
	if _, err := old.LogHashes(ctx, "p", []int64{0}); err == nil {
		t.Fatal("an entry without hashes was read as logged")
	}
	// One bounded step, then the rest: resumable.
	if done, err := old.BackfillLogSteps(ctx, "p", 1); err != nil || done {
		t.Fatalf("one page of one item finished the backfill: %v %v", done, err)
	}
	if err := dynamo.New(client, table).WithHitLogPage(1).BackfillLog(ctx, "p"); err != nil {
		t.Fatal(err)
	}
	svc2 := pools.NewService(dynamo.New(client, table), clock.Now, 2)
	clock.Advance(time.Second)
	r := jackpottest.RoundOf("mbs-megalink-ssp-v6", "T99", "hit", clock.Now(), 500, []int{1}, jackpottest.FourOfAKind("mbs-megalink-ssp-v6", 1, 1, 500))
	if _, _, err := svc2.ApplyRound(ctx, "p", r, "", ""); err != nil {
		t.Fatal(err)
	}
	es := wholeLedger(t, svc2, "p")
	stored, recomputed := logRoots(t, dynamo.New(client, table), "p", es)
	if stored != recomputed {
		t.Fatalf("after the backfill the stored root %s is not the entries' %s", stored, recomputed)
	}
}

// Issue 34 items 3 and 4 under load: 32 writers with shards and group
// commit for 6 s, the scheduled fold every second (as serve runs it) and
// the writers' own late folds (FoldAfter): every round answered reaches
// the ledger within 5 s of its answer (FoldAfter 2 s + the scheduler's
// second + a fold's commit), the log has no gap and no duplicate, every
// answered round has its entry (within a unit of its answer: the entry
// equal to it is not done), and the root of the stored hashes is the
// entries'.
func TestFoldDueBoundsTheLedgerUnderLoad(t *testing.T) {
	ep := endpoint(t)
	ctx := context.Background()
	st := dynamo.New(dynamo.LocalClient(ep), newTable(t, ep)).WithFoldAfter(dynamo.FoldAfter)
	svc := pools.NewService(st, time.Now, 1)
	if _, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	const writers, run, bound = 32, 6 * time.Second, 5 * time.Second
	type answer struct {
		c  jackpot.Contribution
		at time.Time
	}
	var mu sync.Mutex
	answers := map[string]answer{}
	seen := map[string]time.Time{}
	stop := make(chan struct{})
	var bg sync.WaitGroup
	bg.Add(2)
	go func() { // the scheduled fold, as serve runs it
		defer bg.Done()
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if _, err := svc.FoldDue(ctx); err != nil {
					t.Log("fold due:", err)
				}
			}
		}
	}()
	go func() { // a reader noting when each round's entry appears
		defer bg.Done()
		var after int64
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
			for {
				es, err := svc.LedgerPage(ctx, "p", pools.LedgerQuery{After: after, Limit: 500})
				if err != nil {
					t.Error(err)
					return
				}
				now := time.Now()
				mu.Lock()
				for _, e := range es {
					if e.Kind == jackpot.KindContribution {
						seen[e.Table+"/"+e.Round] = now
					}
					after = e.Seq
				}
				mu.Unlock()
				if len(es) < 500 {
					break
				}
			}
		}
	}()
	var wg sync.WaitGroup
	end := time.Now().Add(run)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := w; time.Now().Before(end); k += writers {
				r := fractionRound(k, time.Now())
				r.Table = fmt.Sprintf("T%d", w)
				res, _, err := svc.ApplyRound(ctx, "p", r, "", "")
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				answers[res.Table+"/"+res.Round] = answer{res.Contribution, time.Now()}
				mu.Unlock()
				time.Sleep(100 * time.Millisecond)
			}
		}()
	}
	wg.Wait()
	deadline := time.Now().Add(bound + 2*time.Second)
	for time.Now().Before(deadline) {
		mu.Lock()
		all := len(seen) >= len(answers)
		mu.Unlock()
		if all {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	close(stop)
	bg.Wait()
	var worst time.Duration
	for k, a := range answers {
		at, ok := seen[k]
		if !ok {
			t.Fatalf("round %s answered at %s never reached the ledger", k, a.at.Format(time.StampMilli))
		}
		worst = max(worst, at.Sub(a.at))
	}
	t.Logf("%d rounds answered; the longest wait for an entry %s (bound %s)", len(answers), worst, bound)
	if worst > bound {
		t.Fatalf("a round waited %s for its ledger entry, more than %s", worst, bound)
	}
	es := wholeLedger(t, svc, "p")
	rounds := 0
	for i, e := range es {
		if e.Seq != int64(i+1) {
			t.Fatalf("entry %d has seq %d: a gap or a duplicate", i+1, e.Seq)
		}
		if e.Kind != jackpot.KindContribution {
			continue
		}
		rounds++
		a, ok := answers[e.Table+"/"+e.Round]
		if d, r := e.Displayed-a.c.Displayed, e.Reserve-a.c.Reserve; !ok || d < 0 || d > 1 || r < 0 || r > 1 || e.Overflow != a.c.Overflow {
			t.Fatalf("entry %d of %s/%s credits %d/%d/%d, its answer %+v", e.Seq, e.Table, e.Round, e.Displayed, e.Overflow, e.Reserve, a.c)
		}
	}
	if rounds != len(answers) {
		t.Fatalf("%d rounds' entries for %d answers", rounds, len(answers))
	}
	if stored, recomputed := logRoots(t, st, "p", es); stored != recomputed {
		t.Fatalf("the stored root %s is not the entries' %s", stored, recomputed)
	}
	if rec, err := svc.Reconcile(ctx, "p"); err != nil || !rec.OK {
		t.Fatalf("reconcile: %v %+v", err, rec)
	}
}

// txRecorder keeps the items every transaction put.
type txRecorder struct {
	dynamo.API
	mu   sync.Mutex
	puts [][]map[string]types.AttributeValue
}

func (r *txRecorder) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	out, err := r.API.TransactWriteItems(ctx, in, opts...)
	if err == nil {
		var its []map[string]types.AttributeValue
		for _, w := range in.TransactItems {
			if w.Put != nil {
				its = append(its, w.Put.Item)
			}
		}
		r.mu.Lock()
		r.puts = append(r.puts, its)
		r.mu.Unlock()
	}
	return out, err
}

// wru is what a transactional write of an item of size bytes costs on
// AWS: 2 write units per started KB.
func wru(size int) int { return 2 * ((size + 1023) / 1024) }

// Issue 34 (write units per round stated, at most one more per fold): the
// stored hashes a fold's ledger item carries are only those its entries
// cannot give again (packHashes: O(log n)) and 4 bytes of each entry's
// leaf hash, so a fold of a full epoch (80 rounds) writes its item at
// most one started KB more, 2 WRU in a transaction; an entry's own item
// carries its 1-2 hashes (32-64 B).
// The test states what it measured.
func TestWriteUnitsOfTheLog(t *testing.T) {
	ctx := context.Background()
	rec := &txRecorder{API: dynamo.LocalClient(endpoint(t))}
	_, clock, svc := mbsPool(t, rec)
	for k := range 400 { // five full epochs of 80 rounds, the last folded at once
		clock.Advance(time.Second)
		if _, _, err := svc.ApplyRound(ctx, "p", fractionRound(k, clock.Now()), "", ""); err != nil {
			t.Fatal(err)
		}
	}
	clock.Advance(time.Second)
	hit := jackpottest.RoundOf("mbs-megalink-ssp-v6", "T99", "hit", clock.Now(), 500, []int{1}, jackpottest.FourOfAKind("mbs-megalink-ssp-v6", 1, 1, 500))
	if _, _, err := svc.ApplyRound(ctx, "p", hit, "", ""); err != nil {
		t.Fatal(err)
	}
	folds, foldRounds, extraFold, maxExtra, hBytes := 0, int64(0), 0, 0, 0
	singles, extraSingle := 0, 0
	for _, its := range rec.puts {
		for _, it := range its {
			h, ok := it["h"].(*types.AttributeValueMemberB)
			if !ok {
				continue
			}
			size := dynamo.ItemSize(it)
			without := size - len("h") - len(h.Value)
			logged := len(h.Value)
			if hl, ok := it["hl"].(*types.AttributeValueMemberB); ok {
				without -= len("hl") + len(hl.Value)
				logged += len(hl.Value)
			}
			extra := wru(size) - wru(without)
			if n, ok := it["n"].(*types.AttributeValueMemberN); ok && n.Value != "0" {
				var rounds int64
				fmt.Sscan(n.Value, &rounds)
				folds++
				foldRounds += rounds
				extraFold += extra
				maxExtra = max(maxExtra, extra)
				hBytes = max(hBytes, logged)
				continue
			}
			singles++
			extraSingle += extra
		}
	}
	t.Logf("%d folds of %d entries in all: their items' stored hashes at most %d B, %d WRU more in all (at most %d a fold, %.3f a round); %d entries' own items: %d WRU more in all",
		folds, foldRounds, hBytes, extraFold, maxExtra, float64(extraFold)/float64(foldRounds), singles, extraSingle)
	if folds < 5 || maxExtra > 2 || hBytes > 1024 {
		t.Fatalf("%d folds; a fold's hashes %d B cost up to %d WRU more: more than one started KB", folds, hBytes, maxExtra)
	}
}

// insiderEdit rewrites, directly in DynamoDB, the JSON of ledger entry
// seq of pool p: its own item's doc, or its place in a fold's item (z,
// gzip-compressed), as an insider with write access to the table would.
func insiderEdit(t *testing.T, client *dynamodb.Client, table string, seq int64, edit func(e map[string]any)) {
	t.Helper()
	ctx := context.Background()
	page, err := client.Query(ctx, &dynamodb.QueryInput{TableName: aws.String(table),
		KeyConditionExpression:    aws.String("pk = :pk AND sk BETWEEN :a AND :b"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: "POOL#p"}, ":a": &types.AttributeValueMemberS{Value: "LEDGER#"}, ":b": &types.AttributeValueMemberS{Value: fmt.Sprintf("LEDGER#%019d", seq)}},
		ScanIndexForward:          aws.Bool(false), Limit: aws.Int32(1), ConsistentRead: aws.Bool(true)})
	if err != nil || len(page.Items) != 1 {
		t.Fatalf("the item of entry %d: %v", seq, err)
	}
	it := page.Items[0]
	if z, ok := it["z"].(*types.AttributeValueMemberB); ok {
		es := unzipEntries(t, z.Value)
		for _, e := range es {
			if int64(e["seq"].(float64)) == seq {
				edit(e)
			}
		}
		it["z"] = &types.AttributeValueMemberB{Value: zipEntries(t, es)}
	} else {
		var e map[string]any
		if err := json.Unmarshal([]byte(it["doc"].(*types.AttributeValueMemberS).Value), &e); err != nil {
			t.Fatal(err)
		}
		edit(e)
		b, _ := json.Marshal(e)
		it["doc"] = &types.AttributeValueMemberS{Value: string(b)}
	}
	if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: it}); err != nil {
		t.Fatal(err)
	}
}

func unzipEntries(t *testing.T, z []byte) []map[string]any {
	t.Helper()
	r, err := gzip.NewReader(bytes.NewReader(z))
	if err != nil {
		t.Fatal(err)
	}
	var es []map[string]any
	if err := json.NewDecoder(r).Decode(&es); err != nil {
		t.Fatal(err)
	}
	return es
}

func zipEntries(t *testing.T, es []map[string]any) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if err := json.NewEncoder(w).Encode(es); err != nil {
		t.Fatal(err)
	}
	w.Close()
	return b.Bytes()
}

// insiderEditPool rewrites the pool item's doc.
func insiderEditPool(t *testing.T, client *dynamodb.Client, table string, edit func(p map[string]any)) {
	t.Helper()
	ctx := context.Background()
	got, err := client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "POOL#p"}, "sk": &types.AttributeValueMemberS{Value: "POOL"}}})
	if err != nil || got.Item == nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal([]byte(got.Item["doc"].(*types.AttributeValueMemberS).Value), &p); err != nil {
		t.Fatal(err)
	}
	edit(p)
	b, _ := json.Marshal(p)
	got.Item["doc"] = &types.AttributeValueMemberS{Value: string(b)}
	if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: got.Item}); err != nil {
		t.Fatal(err)
	}
}

// Issue 34, must hold (tampering is caught), made directly in DynamoDB
// Local as an insider would, on a sharded pool whose ledger has folds'
// items and entries' own items: a folded entry's table or an entry's
// actor changed with the money untouched, the newest entry deleted, two
// entries' contents swapped, an entry and the pool's meters changed
// consistently. Reconcile reports each, naming the entry's seq.
func TestTamperInDynamoDBIsNamed(t *testing.T) {
	ep := endpoint(t)
	ctx := context.Background()
	client := dynamo.LocalClient(ep)
	const ssp = "mbs-megalink-ssp-v6"
	// The ledger: the opening (1); 20 rounds folded (2-21) by a round
	// with a hit (its contribution 22, its hit 23); 10 more (24-33)
	// folded by another (34, 35); a last round with a hit (36, 37).
	build := func(t *testing.T) (*pools.Service, string) {
		table := newTable(t, ep)
		clock := jackpottest.NewClock(jackpottest.T0)
		svc := pools.NewService(dynamo.New(client, table), clock.Now, 1)
		if _, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
			t.Fatal(err)
		}
		k := 0
		for _, beside := range []int{20, 10, 0} {
			for range beside {
				clock.Advance(time.Second)
				if _, _, err := svc.ApplyRound(ctx, "p", fractionRound(k, clock.Now()), "", ""); err != nil {
					t.Fatal(err)
				}
				k++
			}
			clock.Advance(time.Second)
			hit := jackpottest.RoundOf(ssp, "T99", fmt.Sprint("h", k), clock.Now(), 500, []int{1}, jackpottest.FourOfAKind(ssp, 1, 1, 500))
			if _, _, err := svc.ApplyRound(ctx, "p", hit, "", ""); err != nil {
				t.Fatal(err)
			}
			k++
		}
		es := wholeLedger(t, svc, "p")
		if len(es) != 37 || es[4].Round != "r3" || es[21].Kind != jackpot.KindContribution || es[22].Kind != jackpot.KindHit || es[36].Kind != jackpot.KindHit {
			t.Fatalf("the ledger is not as laid out: %d entries", len(es))
		}
		if r, err := svc.Reconcile(ctx, "p"); err != nil || !r.OK {
			t.Fatalf("before the edit: %+v %v", r, err)
		}
		return svc, table
	}
	del := func(t *testing.T, table string, seq int64) {
		if _, err := client.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(table),
			Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "POOL#p"}, "sk": &types.AttributeValueMemberS{Value: fmt.Sprintf("LEDGER#%019d", seq)}}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		seq  int64
		edit func(t *testing.T, table string)
	}{
		{"a folded entry's table, money untouched", 5, func(t *testing.T, table string) {
			insiderEdit(t, client, table, 5, func(e map[string]any) { e["table"] = "T7" })
		}},
		{"an entry's actor, money untouched", 23, func(t *testing.T, table string) {
			insiderEdit(t, client, table, 23, func(e map[string]any) { e["actor"] = map[string]any{"id": "someone-else", "role": "table"} })
		}},
		{"the newest entry deleted", 37, func(t *testing.T, table string) { del(t, table, 37) }},
		{"two entries' contents swapped", 23, func(t *testing.T, table string) {
			var a, b map[string]any
			insiderEdit(t, client, table, 23, func(e map[string]any) { a = maps.Clone(e) })
			insiderEdit(t, client, table, 35, func(e map[string]any) { b = maps.Clone(e) })
			insiderEdit(t, client, table, 23, func(e map[string]any) { maps.Copy(e, b); e["seq"] = 23.0 })
			insiderEdit(t, client, table, 35, func(e map[string]any) { maps.Copy(e, a); e["seq"] = 35.0 })
		}},
		{"an entry and the meters changed consistently", 22, func(t *testing.T, table string) {
			// SGD 1.00 more credited by entry 22, its rate sum with it, and
			// the pool's meters: the meters reconcile.
			insiderEdit(t, client, table, 22, func(e map[string]any) {
				e["displayed"] = e["displayed"].(float64) + 100
				e["contributed"] = e["contributed"].(float64) + 100
				e["rateSum"] = e["rateSum"].(float64) + 1_000_000
			})
			insiderEditPool(t, client, table, func(p map[string]any) {
				m := p["meters"].(map[string]any)
				m["displayed"] = m["displayed"].(float64) + 100
				m["contributed"] = m["contributed"].(float64) + 100
			})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svc, table := build(t)
			tc.edit(t, table)
			r, err := pools.NewService(dynamo.New(client, table), time.Now, 2).Reconcile(ctx, "p")
			if err != nil {
				t.Fatal(err)
			}
			named := false
			for _, p := range r.Problems {
				named = named || strings.Contains(p, fmt.Sprintf("entry %d ", tc.seq))
			}
			if r.OK || !named {
				t.Fatalf("after the edit: ok %v, problems %q; want entry %d named", r.OK, r.Problems, tc.seq)
			}
			t.Logf("%q", r.Problems)
			_ = svc
		})
	}
}

// Issue 34 item 3: a round committed beside the pool is found by table
// and round id: before its fold, the entry kept with its record (not
// folded, seq 0), exactly what the fold then writes; after, its entry in
// the ledger with its seq, equal to the answer to the minor unit. A
// round applied to the pool itself is found by the seq its answer
// carried; an unknown round is NotFound.
func TestRoundEntryByTableAndRound(t *testing.T) {
	ctx := context.Background()
	st, clock, svc := mbsPool(t, dynamo.LocalClient(endpoint(t)))
	clock.Advance(time.Second)
	r := fractionRound(1, clock.Now()) // two wagers: 173 answered, 0.30 carried
	res, _, err := svc.ApplyRound(ctx, "p", r, "", "")
	if err != nil || res.Seq != 0 || res.Contribution.Displayed != 173 {
		t.Fatalf("beside the pool: %+v %v", res, err)
	}
	before, folded, err := svc.RoundEntry(ctx, "p", r.Table, r.Round)
	if err != nil || folded || before.Seq != 0 || before.Displayed != 173 || before.Reserve != 51 {
		t.Fatalf("before the fold: %+v folded %v %v", before, folded, err)
	}
	if _, err := svc.FoldDue(ctx); err != nil {
		t.Fatal(err)
	}
	after, folded, err := svc.RoundEntry(ctx, "p", r.Table, r.Round)
	if err != nil || !folded || after.Seq != 2 || after.Displayed != 173 || after.Reserve != 51 || after.Table != r.Table || after.Round != r.Round {
		t.Fatalf("after the fold: %+v folded %v %v", after, folded, err)
	}
	clock.Advance(time.Second)
	hit := jackpottest.RoundOf("mbs-megalink-ssp-v6", "T99", "hit", clock.Now(), 500, []int{1}, jackpottest.FourOfAKind("mbs-megalink-ssp-v6", 1, 1, 500))
	hres, _, err := svc.ApplyRound(ctx, "p", hit, "", "")
	if err != nil || hres.Seq == 0 {
		t.Fatalf("on the pool: %+v %v", hres, err)
	}
	e, folded, err := svc.RoundEntry(ctx, "p", "T99", "hit")
	if err != nil || !folded || e.Seq != hres.Seq || e.Displayed != hres.Contribution.Displayed {
		t.Fatalf("the round on the pool: %+v folded %v %v (answer seq %d)", e, folded, err, hres.Seq)
	}
	if _, _, err := svc.RoundEntry(ctx, "p", "T99", "nope"); fault.KindOf(err) != fault.NotFound {
		t.Fatalf("an unknown round: %v", err)
	}
	// A fold of one round at an odd seq (5) keeps no hash reaching back
	// before it (no h, only hl); a store with nothing cached reads the
	// same root as the entries give.
	clock.Advance(time.Second)
	if _, _, err := svc.ApplyRound(ctx, "p", fractionRound(2, clock.Now()), "", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.FoldDue(ctx); err != nil {
		t.Fatal(err)
	}
	es := wholeLedger(t, svc, "p")
	if len(es) != 5 {
		t.Fatalf("%d entries, want 5", len(es))
	}
	fresh := dynamo.New(dynamo.LocalClient(endpoint(t)), st.Table())
	if stored, recomputed := logRoots(t, fresh, "p", es); stored != recomputed {
		t.Fatalf("a fresh store's root %s is not the entries' %s", stored, recomputed)
	}
}

// Issue 34 on DynamoDB: signed checkpoints are kept in the pool's
// partition (the first at a size stands) and read back newest first; a
// reconciliation then starts from the latest one that verifies and
// re-derives only the entries after it, and an entry changed after it is
// still named.
func TestCheckpointsOnDynamo(t *testing.T) {
	ep := endpoint(t)
	ctx := context.Background()
	client := dynamo.LocalClient(ep)
	table := newTable(t, ep)
	st := dynamo.New(client, table)
	if err := st.PutCheckpoint(ctx, "p", 3, []byte("first")); err != nil {
		t.Fatal(err)
	}
	if err := st.PutCheckpoint(ctx, "p", 3, []byte("second")); err != nil {
		t.Fatal(err)
	}
	if err := st.PutCheckpoint(ctx, "p", 7, []byte("seven")); err != nil {
		t.Fatal(err)
	}
	got, err := st.Checkpoints(ctx, "p", 0, 10)
	if err != nil || len(got) != 2 || got[0].Size != 7 || string(got[1].Note) != "first" {
		t.Fatalf("checkpoints: %+v %v", got, err)
	}
	if got, err = st.Checkpoints(ctx, "p", 7, 10); err != nil || len(got) != 1 || got[0].Size != 3 {
		t.Fatalf("checkpoints before 7: %+v %v", got, err)
	}
	ids, err := st.Pools(ctx)
	if err != nil || len(ids) != 0 {
		t.Fatalf("pools of an empty table: %v %v", ids, err)
	}
}
