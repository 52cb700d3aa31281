package dynamo_test

import (
	"context"
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
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/principal"
)

// A fold writes its rounds' entries in one ledger item (a JSON array from
// its first seq on), and every page of the ledger reads as if each entry
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
