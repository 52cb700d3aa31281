package dynamo_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tablesettle/tablesettle/internal/dynamo"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/pools/poolstest"
	"github.com/tablesettle/tablesettle/internal/principal"
)

// A round committed beside the pool and folded with others is voided
// (R28): the fold wrote each round's own entry with its own sequence
// number, as the serial path would have, so the void reverses that entry
// (its answer lists its real sequence number) and the meters are then, to
// the fraction, a twin pool's that never had it (R1: credited x 10000 +
// carried == sum(wager x rate) of the rounds that stand). Rounds r0, r1
// and r2 (tables T0, T1 and T2: 1, 3 and 2 unit wagers at 17.33% and
// 5.17%) wait in the shards; r3's Four of a Kind (house-paid) folds them,
// one entry each; r1 is then voided.
func TestVoidOfARoundFoldedWithOthers_R28(t *testing.T) {
	ep := endpoint(t)
	ctx := context.Background()
	st := dynamo.New(dynamo.LocalClient(ep), newTable(t, ep)).WithShards(dynamo.DefaultShards)
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := pools.NewService(st, clock.Now, 1)
	const ssp = "mbs-megalink-ssp-v6"
	for _, id := range []string{"p", "twin"} {
		if _, _, err := svc.Create(ctx, id, jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
			t.Fatal(err)
		}
	}
	r0 := jackpottest.RoundOf(ssp, "T0", "r0", jackpottest.T0, 500, []int{1})
	r1 := jackpottest.RoundOf(ssp, "T1", "r1", jackpottest.T0, 500, []int{1, 2, 3})
	r2 := jackpottest.RoundOf(ssp, "T2", "r2", jackpottest.T0, 500, []int{1, 2})
	r3 := jackpottest.RoundOf(ssp, "T3", "r3", jackpottest.T0, 500, []int{1}, jackpottest.FourOfAKind(ssp, 1, 1, 500))
	for _, a := range []struct {
		pool string
		r    jackpot.Round
	}{{"p", r0}, {"p", r1}, {"p", r2}, {"p", r3}, {"twin", r0}, {"twin", r2}, {"twin", r3}} {
		// Each round signed by its table's principal (every entry carries it).
		tctx := principal.NewContext(ctx, &principal.Principal{ID: "table:" + a.r.Table, Roles: []principal.Role{principal.Table}, Acting: principal.Table})
		if _, _, err := svc.ApplyRound(tctx, a.pool, a.r, "", ""); err != nil {
			t.Fatal(err)
		}
	}
	es, err := st.Ledger(ctx, "p", 0, 10)
	if err != nil || len(es) != 6 {
		t.Fatalf("want opening, r0, r1 and r2's own entries, r3's contribution and hit: %+v %v", es, err)
	}
	var r1Seq int64
	var credited, carried int64
	for i, want := range map[string]int64{"r0": 1, "r1": 3, "r2": 2} {
		found := 0
		for _, e := range es[1:4] {
			if e.Round == i && e.Kind == jackpot.KindContribution && e.Wagers == want && e.WagerAmount == 500*money.Amount(want) &&
				e.Actor != nil && e.Actor.ID == "table:"+e.Table && e.Actor.Role == string(principal.Table) && e.Commit != "" {
				found++
				if i == "r1" {
					r1Seq = e.Seq
				}
				credited += int64(e.Contributed)
				carried += e.CarryDisplayed
			}
		}
		if found != 1 {
			t.Fatalf("round %s: %d own entries among %+v", i, found, es[1:4])
		}
	}
	// 3000 x 17.33% = 519.90: 519 credited, 0.90 carried, over the three (R1).
	if credited != 519 || carried != 9000 {
		t.Fatalf("the three rounds credited %d and carried %d, want 519 and 9000", credited, carried)
	}
	corr := jackpot.Correction{Table: "T1", Round: "r1", Reason: "misdeal", Rules: []string{"mbs-megalink-ssp-v6 5.4"}}
	res, _, err := svc.Correct(ctx, "p", corr, jackpottest.Supervisor, jackpottest.Controller, "void-r1")
	if err != nil {
		t.Fatal(err)
	}
	// r1 credited 1500 x 17.33% = 259.95 and 1500 x 5.17% = 77.55.
	if res.Difference.Displayed != -259 && res.Difference.Displayed != -260 {
		t.Fatalf("the void took back %+v", res.Difference)
	}
	if len(res.Reversed) != 1 || res.Reversed[0] != r1Seq {
		t.Fatalf("the void reversed %v, want r1's own entry %d", res.Reversed, r1Seq)
	}
	p, _ := svc.Get(ctx, "p")
	twin, _ := svc.Get(ctx, "twin")
	if p.Meters.Displayed != twin.Meters.Displayed || p.Meters.Reserve != twin.Meters.Reserve ||
		p.Meters.CarryDisplayed != twin.Meters.CarryDisplayed || p.Meters.CarryReserve != twin.Meters.CarryReserve || p.Meters.Wagers != twin.Meters.Wagers {
		t.Fatalf("after the void %+v, the twin without r1 %+v", p.Meters, twin.Meters)
	}
	jackpottest.MustReconcile(t, svc, "p")
	poolstest.LedgerHasEveryRound(t, st, "twin", 3)
}

// A shard takes at most MaxShardRounds rounds an epoch (5, so that its
// item stays under 1 KB): with one shard the sixth round
// finds the shards full, folds the epoch into the pool (each round's own
// entry, in order) and lands in the next one. Twelve rounds of one unit
// wager (86.65 each at 17.33%, R1) leave rounds r0-r9 in the ledger, each
// crediting the whole units of the pool's carry + its own 86.65 (86, 87,
// 86, 87, 87, ...), r10 and r11 in the shards; a fold of those two makes
// 1,039 credited and 0.80 carried: 12 x 86.65 = 1,039.80.
func TestShardsFullFoldTheEpoch_R1(t *testing.T) {
	ep := endpoint(t)
	ctx := context.Background()
	st := dynamo.New(dynamo.LocalClient(ep), newTable(t, ep)).WithShards(1)
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := pools.NewService(st, clock.Now, 1)
	if _, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	for i := range 12 {
		clock.Advance(time.Second)
		r := jackpottest.RoundOf("mbs-megalink-ssp-v6", fmt.Sprint("T", i%3), fmt.Sprint("r", i), clock.Now(), 500, []int{1})
		if _, _, err := svc.ApplyRound(ctx, "p", r, "", ""); err != nil {
			t.Fatal(err)
		}
	}
	credits := []money.Amount{86, 87, 86, 87, 87, 86, 87, 87, 86, 87, 87, 86}
	check := func(want int) {
		t.Helper()
		es, err := st.Ledger(ctx, "p", 1, 100)
		if err != nil || len(es) != want {
			t.Fatalf("the ledger holds %d rounds (%v), want %d", len(es), err, want)
		}
		for i, e := range es {
			if e.Seq != int64(i+2) || e.Round != fmt.Sprint("r", i) || e.Contributed != credits[i] || e.Table != fmt.Sprint("T", i%3) {
				t.Fatalf("entry %d: %+v, want round r%d crediting %d", i+2, e, i, credits[i])
			}
		}
	}
	check(10)
	got, err := st.Contributed(ctx, "p", jackpot.RoundKey("T1", "r4"))
	if err != nil || got == nil || got.Seq != 6 || got.Contributed != 87 {
		t.Fatalf("r4's entry: %+v %v, want seq 6 crediting 87", got, err)
	}
	if err := svc.Fold(ctx, "p"); err != nil {
		t.Fatal(err)
	}
	check(12)
	p, err := svc.Get(ctx, "p")
	if err != nil || p.Meters.Contributed != 1039 || p.Meters.CarryDisplayed != 8000 || p.Meters.Displayed != 10_001_039 {
		t.Fatalf("after the folds: %+v %v", p.Meters, err)
	}
	jackpottest.MustReconcile(t, svc, "p")
	poolstest.LedgerHasEveryRound(t, st, "p", 12)
}

// A commit whose own items do not fit one transaction beside the fold
// (here 75 records, the pool, 24 shards, and the fold of the 10 rounds in
// the shards, its entries' item and its fold item: 102 items) folds first,
// on its own, leaving the next epoch sealed, and is refused as a lost
// race; read again, it fits (100 items) and lands, and the shards take
// contributions again.
func TestCommitTooLargeForItsFoldFoldsFirst(t *testing.T) {
	ep := endpoint(t)
	ctx := context.Background()
	st := dynamo.New(dynamo.LocalClient(ep), newTable(t, ep)).WithShards(dynamo.MaxShards)
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := pools.NewService(st, clock.Now, 1)
	if _, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	apply := func(from, to int) {
		for i := from; i < to; i++ {
			clock.Advance(time.Second)
			r := jackpottest.RoundOf("mbs-megalink-ssp-v6", fmt.Sprint("T", i), fmt.Sprint("r", i), clock.Now(), 500, []int{1})
			if _, _, err := svc.ApplyRound(ctx, "p", r, "", ""); err != nil {
				t.Fatal(err)
			}
		}
	}
	apply(0, 10)
	commit := func() error {
		p, err := st.Pool(ctx, "p")
		if err != nil {
			t.Fatal(err)
		}
		q := p
		q.Version++
		c := jackpot.Commit{PrevVersion: p.Version, Pool: q}
		for i := range 75 {
			c.Records = append(c.Records, jackpot.RoundRecord{Pool: "p", Key: fmt.Sprintf("test/%d", i)})
		}
		return st.Commit(ctx, c)
	}
	if err := commit(); !errors.Is(err, jackpot.ErrConflict) {
		t.Fatalf("the commit of 102 items: %v, want a lost race", err)
	}
	if es, err := st.Ledger(ctx, "p", 1, 100); err != nil || len(es) != 10 {
		t.Fatalf("the fold before it wrote %d entries (%v), want the 10 rounds'", len(es), err)
	}
	if err := commit(); err != nil {
		t.Fatalf("read again: %v", err)
	}
	apply(10, 12)
	jackpottest.MustReconcile(t, svc, "p")
	poolstest.LedgerHasEveryRound(t, st, "p", 12)
}

// A store with shards off (WithShards(0)) still folds the shards a pool
// has (written by writers with shards on): turning them off loses no
// contribution. Three rounds beside the pool, then a round with a Four of
// a Kind through a store without shards: the ledger has all four rounds,
// each its own entry, and reconciles.
func TestShardsOffStillFoldsThem_R4(t *testing.T) {
	ep := endpoint(t)
	ctx := context.Background()
	table := newTable(t, ep)
	on := dynamo.New(dynamo.LocalClient(ep), table).WithShards(dynamo.DefaultShards)
	off := dynamo.New(dynamo.LocalClient(ep), table).WithShards(0)
	clock := jackpottest.NewClock(jackpottest.T0)
	svcOn, svcOff := pools.NewService(on, clock.Now, 1), pools.NewService(off, clock.Now, 2)
	if _, _, err := svcOn.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	const ssp = "mbs-megalink-ssp-v6"
	for i := range 3 {
		clock.Advance(time.Second)
		if _, _, err := svcOn.ApplyRound(ctx, "p", jackpottest.RoundOf(ssp, fmt.Sprint("T", i), fmt.Sprint("r", i), clock.Now(), 500, []int{1, 2}), "", ""); err != nil {
			t.Fatal(err)
		}
	}
	clock.Advance(time.Second)
	r := jackpottest.RoundOf(ssp, "T3", "r3", clock.Now(), 500, []int{1}, jackpottest.FourOfAKind(ssp, 1, 1, 500))
	if _, _, err := svcOff.ApplyRound(ctx, "p", r, "", ""); err != nil {
		t.Fatal(err)
	}
	p, err := svcOff.Get(ctx, "p")
	// 7 wagers x 86.65 = 606.55: 606 credited, 0.55 carried.
	if err != nil || p.Meters.Contributed != 606 || p.Meters.CarryDisplayed != 5500 || p.Meters.Wagers != 7 {
		t.Fatalf("%+v %v", p.Meters, err)
	}
	jackpottest.MustReconcile(t, svcOff, "p")
	poolstest.LedgerHasEveryRound(t, off, "p", 4)
}

// A fold writes its rounds' entries in one ledger item (a gzip-compressed
// JSON array from its first seq on), and every page of the ledger reads as if each entry
// had its own item: every After and Before bound (inside a fold's item,
// at its edges, beyond the ledger), both orders, limits 1 to all, and time
// bounds, against the whole ledger read once. Seven rounds wait in the
// shards and a Four of a Kind folds them (their seven entries in one item,
// then the hit's own entries), two more wait and a second hit folds those,
// one second apart each (distinct times, for the time bounds).
func TestLedgerPagesReadAFoldsItemAsItsEntries(t *testing.T) {
	ep := endpoint(t)
	ctx := context.Background()
	table := newTable(t, ep)
	st := dynamo.New(dynamo.LocalClient(ep), table).WithShards(dynamo.DefaultShards)
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := pools.NewService(st, clock.Now, 1)
	const ssp = "mbs-megalink-ssp-v6"
	if _, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	apply := func(r jackpot.Round) {
		t.Helper()
		clock.Advance(time.Second)
		tctx := principal.NewContext(ctx, &principal.Principal{ID: "table:" + r.Table, Roles: []principal.Role{principal.Table}, Acting: principal.Table})
		if _, _, err := svc.ApplyRound(tctx, "p", r, "", ""); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 7 {
		apply(jackpottest.RoundOf(ssp, fmt.Sprintf("T%d", i), fmt.Sprintf("a%d", i), clock.Now(), 500, []int{1, 2}))
	}
	apply(jackpottest.RoundOf(ssp, "T7", "hit1", clock.Now(), 500, []int{1}, jackpottest.FourOfAKind(ssp, 1, 1, 500)))
	for i := range 2 {
		apply(jackpottest.RoundOf(ssp, fmt.Sprintf("T%d", i), fmt.Sprintf("b%d", i), clock.Now(), 500, []int{1}))
	}
	apply(jackpottest.RoundOf(ssp, "T9", "hit2", clock.Now(), 500, []int{1}, jackpottest.FourOfAKind(ssp, 1, 1, 500)))

	// The table holds the folds' items: 7 and 2 entries, each in one item.
	raw, err := dynamo.LocalClient(ep).Query(ctx, &dynamodb.QueryInput{TableName: aws.String(table),
		KeyConditionExpression:    aws.String("pk = :pk AND begins_with(sk, :l)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: "POOL#p"}, ":l": &types.AttributeValueMemberS{Value: "LEDGER#"}}})
	if err != nil {
		t.Fatal(err)
	}
	var folds []string
	for _, it := range raw.Items {
		if n, ok := it["n"].(*types.AttributeValueMemberN); ok {
			folds = append(folds, n.Value)
			// The entries gzip-compressed, in z, and nothing else.
			if _, ok := it["z"].(*types.AttributeValueMemberB); !ok || it["doc"] != nil {
				t.Errorf("the fold item of %s entries holds z %T and doc %T, want z alone, binary", n.Value, it["z"], it["doc"])
			}
		}
	}
	if !slices.Equal(folds, []string{"7", "2"}) {
		t.Fatalf("the ledger's fold items hold %v entries, want [7 2] (%d items)", folds, len(raw.Items))
	}

	all, err := st.Ledger(ctx, "p", 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	n := int64(len(all))
	for i, e := range all {
		if e.Seq != int64(i)+1 {
			t.Fatalf("entry %d has seq %d: %+v", i, e.Seq, all)
		}
	}
	if c := len(raw.Items); n != int64(c)+7+2-2 {
		t.Fatalf("%d entries from %d items, want the items plus 7 and 2 folded less their two items", n, c)
	}
	want := func(q pools.LedgerQuery) []jackpot.Entry {
		out := []jackpot.Entry{}
		for _, e := range all {
			before := q.Before
			if before <= 0 {
				before = n + 100
			}
			if e.Seq > q.After && e.Seq < before && (q.From.IsZero() || !e.At.Before(q.From)) && (q.To.IsZero() || e.At.Before(q.To)) {
				out = append(out, e)
			}
		}
		if q.Newest {
			slices.Reverse(out)
		}
		return out[:min(len(out), q.Limit)]
	}
	pages := 0
	for after := int64(0); after <= n+1; after++ {
		for before := int64(0); before <= n+2; before++ {
			if before != 0 && before <= after {
				continue
			}
			for _, newest := range []bool{false, true} {
				for _, limit := range []int{1, 2, 3, 8, 1000} {
					q := pools.LedgerQuery{After: after, Before: before, Newest: newest, Limit: limit}
					got, err := st.LedgerPage(ctx, "p", q)
					if err != nil {
						t.Fatal(err)
					}
					if w := want(q); !reflect.DeepEqual(got, w) {
						t.Fatalf("%+v: got seqs %v, want %v", q, seqs(got), seqs(w))
					}
					pages++
				}
			}
		}
		got, err := st.Ledger(ctx, "p", after, 3)
		if err != nil {
			t.Fatal(err)
		}
		if w := want(pools.LedgerQuery{After: after, Limit: 3}); !reflect.DeepEqual(got, w) {
			t.Fatalf("Ledger after %d: got seqs %v, want %v", after, seqs(got), seqs(w))
		}
	}
	// Time bounds that cut through the first fold's item.
	for _, from := range []int{0, 2, 4} {
		for _, to := range []int{5, 9, int(n) - 1} {
			for _, newest := range []bool{false, true} {
				q := pools.LedgerQuery{From: all[from].At, To: all[to].At, After: 3, Newest: newest, Limit: 4}
				got, err := st.LedgerPage(ctx, "p", q)
				if err != nil {
					t.Fatal(err)
				}
				if w := want(q); !reflect.DeepEqual(got, w) {
					t.Fatalf("%+v: got seqs %v, want %v", q, seqs(got), seqs(w))
				}
			}
		}
	}
	t.Logf("%d entries, %d pages compared", n, pages)
}

func seqs(es []jackpot.Entry) []int64 {
	out := make([]int64, len(es))
	for i, e := range es {
		out[i] = e.Seq
	}
	return out
}
