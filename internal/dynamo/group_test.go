package dynamo_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/tablesettle/tablesettle/internal/dynamo"
	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/pools/poolstest"
)

// gateAPI counts the contribution transactions (round records written
// beside the pool: a REC# Put and no pool item) and the rounds they carry,
// checks that no transaction names one item twice, and can hold the next
// contribution transaction until the test lets it go (hold, then let).
type gateAPI struct {
	dynamo.API
	txs, rounds, cancelled atomic.Int64
	twice                  atomic.Value // a transaction that named one item twice
	poolGets, recordGets   atomic.Int64 // GetItems of the pool item and of round records
	lose                   int64        // the contribution transaction whose answer is lost (it lands), 1 for the first

	mu      sync.Mutex
	gate    chan struct{}
	entered chan struct{}
	folds   bool // the gate holds the next commit of the pool item, not a contribution
	commits atomic.Int64
}

// hold makes the next contribution transaction wait for let; entered is
// closed when it waits.
func (g *gateAPI) hold() (entered chan struct{}) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.gate, g.entered, g.folds = make(chan struct{}), make(chan struct{}), false
	return g.entered
}

// holdFold makes the next commit of the pool item (a fold) wait for let.
func (g *gateAPI) holdFold() (entered chan struct{}) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.gate, g.entered, g.folds = make(chan struct{}), make(chan struct{}), true
	return g.entered
}

func (g *gateAPI) let() {
	g.mu.Lock()
	defer g.mu.Unlock()
	close(g.gate)
	g.gate = nil
}

func (g *gateAPI) GetItem(ctx context.Context, in *dynamodb.GetItemInput, opts ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	switch sk := in.Key["sk"].(*types.AttributeValueMemberS).Value; {
	case sk == "POOL":
		g.poolGets.Add(1)
	case strings.HasPrefix(sk, "REC#"):
		g.recordGets.Add(1)
	}
	return g.API.GetItem(ctx, in, opts...)
}

func (g *gateAPI) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	seen := map[string]bool{}
	records, pool := 0, false
	for _, it := range in.TransactItems {
		var k map[string]types.AttributeValue
		switch {
		case it.Put != nil:
			k = it.Put.Item
		case it.Update != nil:
			k = it.Update.Key
		case it.ConditionCheck != nil:
			k = it.ConditionCheck.Key
		case it.Delete != nil:
			k = it.Delete.Key
		}
		id := k["pk"].(*types.AttributeValueMemberS).Value + "|" + k["sk"].(*types.AttributeValueMemberS).Value
		if seen[id] {
			g.twice.CompareAndSwap(nil, id)
		}
		seen[id] = true
		sk := k["sk"].(*types.AttributeValueMemberS).Value
		if it.Put != nil && strings.HasPrefix(sk, "REC#round/") {
			records++
		}
		pool = pool || sk == "POOL"
	}
	nth := int64(0)
	if pool {
		g.commits.Add(1)
	}
	if records > 0 || pool {
		if !pool {
			nth = g.txs.Add(1)
			g.rounds.Add(int64(records))
		}
		g.mu.Lock()
		gate, entered := g.gate, g.entered
		if gate != nil && g.folds == pool {
			g.entered = nil
		} else {
			gate, entered = nil, nil
		}
		g.mu.Unlock()
		if gate != nil && entered != nil {
			close(entered)
			<-gate
		}
	}
	out, err := g.API.TransactWriteItems(ctx, in, opts...)
	if nth > 0 && nth == g.lose {
		return nil, fmt.Errorf("read tcp 127.0.0.1: i/o timeout: %w", context.DeadlineExceeded)
	}
	var tce *types.TransactionCanceledException
	if records > 0 && !pool && errors.As(err, &tce) {
		g.cancelled.Add(1)
	}
	return out, err
}

// burst applies first alone, holding its transaction in flight until the
// rounds of rest (applied at once, each by its own caller) are all queued
// behind it in the store, then lets it go: the answers and errors of rest,
// in order.
func burst(t *testing.T, st *dynamo.Store, api *gateAPI, svc *pools.Service, pool string, first jackpot.Round, rest []jackpot.Round) ([]jackpot.RoundResult, []bool, []error) {
	t.Helper()
	ctx := context.Background()
	entered := api.hold()
	firstErr := make(chan error, 1)
	go func() {
		_, _, err := svc.ApplyRound(ctx, pool, first, "", "")
		firstErr <- err
	}()
	select {
	case <-entered:
	case <-time.After(10 * time.Second):
		t.Fatal("the first round's transaction never started")
	}
	res, replayed, errs := make([]jackpot.RoundResult, len(rest)), make([]bool, len(rest)), make([]error, len(rest))
	var wg sync.WaitGroup
	for i, r := range rest {
		wg.Go(func() { res[i], replayed[i], errs[i] = svc.ApplyRound(ctx, pool, r, "", "") })
	}
	deadline := time.Now().Add(10 * time.Second)
	for st.Queued(pool) < len(rest) && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if n := st.Queued(pool); n != len(rest) {
		t.Errorf("%d of %d rounds queued behind the transaction in flight", n, len(rest))
	}
	api.let()
	wg.Wait()
	if err := <-firstErr; err != nil {
		t.Fatal(err)
	}
	return res, replayed, errs
}

const ssp = "mbs-megalink-ssp-v6"

func newGroupService(t *testing.T) (*dynamo.Store, *gateAPI, *pools.Service) {
	t.Helper()
	return newGroupServiceShards(t, dynamo.DefaultShards)
}

// newGroupServiceShards is newGroupService with shards contribution
// shards (1: five rounds an epoch).
func newGroupServiceShards(t *testing.T, shards int) (*dynamo.Store, *gateAPI, *pools.Service) {
	t.Helper()
	ep := endpoint(t)
	api := &gateAPI{API: dynamo.LocalClient(ep)}
	st := dynamo.New(api, newTable(t, ep)).WithShards(shards)
	svc := pools.NewService(st, jackpottest.NewClock(jackpottest.T0).Now, 1)
	if _, _, err := svc.Create(context.Background(), "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	return st, api, svc
}

// checkMeters folds the pool and checks its meters after n rounds of one
// unit wager (SGD 5) each at 17.33% and 5.17%: 86.65 and 25.85 a round,
// credited in whole cents, the fractions carried (R1), and every round in
// the ledger with its own entry, reconciled.
func checkMeters(t *testing.T, st *dynamo.Store, svc *pools.Service, n int64) {
	t.Helper()
	ctx := context.Background()
	if err := svc.Fold(ctx, "p"); err != nil {
		t.Fatal(err)
	}
	p, err := svc.Get(ctx, "p")
	if err != nil {
		t.Fatal(err)
	}
	credited, carried := (n*8665)/100, (n*8665)%100*100
	reserve, carriedR := (n*2585)/100, (n*2585)%100*100
	if p.Meters.Wagers != n || p.Meters.WagerAmount != money.Amount(500*n) || p.Meters.Contributed != money.Amount(credited) || p.Meters.CarryDisplayed != carried ||
		p.Meters.Displayed != money.Amount(10_000_000+credited) || p.Meters.ContributedReserve != money.Amount(reserve) || p.Meters.CarryReserve != carriedR {
		t.Fatalf("after %d rounds: %+v, want %d wagers, %d credited and %d carried, reserve %d and %d carried", n, p.Meters, n, credited, carried, reserve, carriedR)
	}
	if p.Seq != n+1 {
		t.Fatalf("the ledger ends at %d, want the opening and %d rounds' own entries", p.Seq, n)
	}
	jackpottest.MustReconcile(t, svc, "p")
	poolstest.LedgerHasEveryRound(t, st, "p", int(n))
}

// Group commit (issue 25): 30 rounds arriving while one contribution is in
// flight are sent together, in one transaction (a shard ADD of their sums
// per shard they use, and their 30 records), not one each; every round is
// still applied exactly once, and after a fold the meters are to the cent
// those of 31 rounds of SGD 5 at 17.33% (R1: 31 x 86.65 = 2,686.15, 2,686
// credited and 0.15 carried; 31 x 25.85 = 801.35 to the reserve).
func TestGroupCommitSendsQueuedRoundsTogether_R1(t *testing.T) {
	st, api, svc := newGroupService(t)
	var rest []jackpot.Round
	for i := range 30 {
		rest = append(rest, jackpottest.RoundOf(ssp, fmt.Sprint("T", i), fmt.Sprint("r", i), jackpottest.T0, 500, []int{1}))
	}
	first := jackpottest.RoundOf(ssp, "T99", "first", jackpottest.T0, 500, []int{1})
	_, replayed, errs := burst(t, st, api, svc, "p", first, rest)
	for i, err := range errs {
		if err != nil || replayed[i] {
			t.Fatalf("round %d: %v (replayed %v)", i, err, replayed[i])
		}
	}
	if n := api.txs.Load(); n != 2 || api.rounds.Load() != 31 || api.cancelled.Load() != 0 {
		t.Fatalf("31 rounds in %d contribution transactions (%d records, %d cancelled); want the first alone and the 30 queued behind it in one",
			n, api.rounds.Load(), api.cancelled.Load())
	}
	if id := api.twice.Load(); id != nil {
		t.Fatalf("a transaction named %v twice", id)
	}
	checkMeters(t, st, svc, 31)
}

// Twins in one burst (issue 25; exactly once): the same table and round
// with the same body, sent twice at once, are never in one transaction
// (DynamoDB refuses two operations on one item): the second goes in the
// next, where its record's condition fails, and it answers the first's
// answer (replayed). With the same round sent with another body (a replay
// that is not one) the second is refused as a conflict. Four rounds
// applied: 4 x 86.65 = 346.60 (346 credited, 0.60 carried, R1).
func TestGroupCommitKeepsTwinsApart_R1(t *testing.T) {
	st, api, svc := newGroupService(t)
	a := jackpottest.RoundOf(ssp, "T1", "a", jackpottest.T0, 500, []int{1})
	b := jackpottest.RoundOf(ssp, "T2", "b", jackpottest.T0, 500, []int{1})
	c := jackpottest.RoundOf(ssp, "T3", "c", jackpottest.T0, 500, []int{1})
	other := jackpottest.RoundOf(ssp, "T3", "c", jackpottest.T0, 500, []int{2}) // round c with another body (seat 2)
	first := jackpottest.RoundOf(ssp, "T99", "first", jackpottest.T0, 500, []int{1})
	res, replayed, errs := burst(t, st, api, svc, "p", first, []jackpot.Round{a, b, a, c, other})
	for _, i := range []int{0, 1, 2} {
		if errs[i] != nil {
			t.Fatalf("round %d: %v", i, errs[i])
		}
	}
	if replayed[0] == replayed[2] || !reflect.DeepEqual(res[0], res[2]) || res[0].AppliedAt != res[2].AppliedAt {
		t.Fatalf("the twins answered %+v (replayed %v) and %+v (replayed %v): want one answer, the second replayed", res[0], replayed[0], res[2], replayed[2])
	}
	// Whichever of c's two bodies was queued first is applied, the other
	// refused.
	if (errs[3] == nil) == (errs[4] == nil) || fault.KindOf(errors.Join(errs[3], errs[4])) != fault.Conflict || replayed[3] || replayed[4] {
		t.Fatalf("round c with two bodies: %v and %v (replayed %v, %v); want one applied, the other a conflict", errs[3], errs[4], replayed[3], replayed[4])
	}
	if id := api.twice.Load(); id != nil {
		t.Fatalf("a transaction named %v twice", id)
	}
	// The first; a, b and the first of c's bodies; the twin and the
	// other body of c together (their keys differ), cancelled by both
	// records (DynamoDB gives each item's reason).
	if n, c := api.txs.Load(), api.cancelled.Load(); n != 3 || c != 1 {
		t.Fatalf("%d contribution transactions, %d cancelled; want 3 and 1", n, c)
	}
	checkMeters(t, st, svc, 4)
}

// A round whose record exists (a replay of a round applied before) inside
// a batch fails only itself (issue 25): the transaction is cancelled, the
// replay gets the first answer, and the others of the batch are sent again
// without it and applied once. Five rounds applied: 5 x 86.65 = 433.25
// (433 credited, 0.25 carried; reserve 5 x 25.85 = 129.25, R1).
func TestGroupCommitRecordConflictFailsOnlyItsRound_R1(t *testing.T) {
	st, api, svc := newGroupService(t)
	ctx := context.Background()
	x := jackpottest.RoundOf(ssp, "T1", "x", jackpottest.T0, 500, []int{1})
	was, _, err := svc.ApplyRound(ctx, "p", x, "", "")
	if err != nil {
		t.Fatal(err)
	}
	first := jackpottest.RoundOf(ssp, "T99", "first", jackpottest.T0, 500, []int{1})
	rest := []jackpot.Round{
		jackpottest.RoundOf(ssp, "T2", "y", jackpottest.T0, 500, []int{1}),
		x,
		jackpottest.RoundOf(ssp, "T3", "z", jackpottest.T0, 500, []int{1}),
		jackpottest.RoundOf(ssp, "T4", "w", jackpottest.T0, 500, []int{1}),
	}
	res, replayed, errs := burst(t, st, api, svc, "p", first, rest)
	for i, err := range errs {
		if err != nil || replayed[i] != (i == 1) {
			t.Fatalf("round %d: %v (replayed %v)", i, err, replayed[i])
		}
	}
	if !reflect.DeepEqual(res[1], was) {
		t.Fatalf("the replay answered %+v, first %+v", res[1], was)
	}
	// x alone, first alone, the batch of four (cancelled: x's record
	// exists), the three others again.
	if n, c := api.txs.Load(), api.cancelled.Load(); n != 4 || c != 1 {
		t.Fatalf("%d contribution transactions, %d cancelled; want 4 and 1", n, c)
	}
	checkMeters(t, st, svc, 5)
}

// fullAPI fills one shard from another writer just before the next
// contribution transaction: a batch that counted on room there finds it
// full (its condition #n <= cap - k fails).
type fullAPI struct {
	*gateAPI
	fill func()
	once sync.Once
}

func (f *fullAPI) TransactWriteItems(ctx context.Context, in *dynamodb.TransactWriteItemsInput, opts ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	for _, it := range in.TransactItems {
		if it.Update != nil && strings.HasPrefix(it.Update.Key["sk"].(*types.AttributeValueMemberS).Value, "SHARD#") && strings.Contains(aws.ToString(it.Update.ConditionExpression), "#n") {
			f.once.Do(f.fill)
		}
	}
	return f.gateAPI.TransactWriteItems(ctx, in, opts...)
}

// A batch meets a shard another writer filled (issue 25): with one shard
// (5 rounds an epoch), this store sends 4 queued rounds where it knows of
// one, but another store has put 3 more there meanwhile: the shard's
// condition fails and returns what it holds, 4, so one of the four goes
// (the shard then full) and the other three fold the epoch and land in the
// next. Every one of the 8 rounds is applied once: 8 x 86.65 = 693.20 (693
// credited, 0.20 carried; reserve 8 x 25.85 = 206.80, R1).
func TestGroupCommitMeetsAShardFilledElsewhere_R1(t *testing.T) {
	ep := endpoint(t)
	ctx := context.Background()
	table := newTable(t, ep)
	other := pools.NewService(dynamo.New(dynamo.LocalClient(ep), table).WithShards(1), jackpottest.NewClock(jackpottest.T0).Now, 2)
	api := &gateAPI{API: dynamo.LocalClient(ep)}
	full := &fullAPI{gateAPI: api}
	st := dynamo.New(full, table).WithShards(1)
	svc := pools.NewService(st, jackpottest.NewClock(jackpottest.T0).Now, 1)
	if _, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	first := jackpottest.RoundOf(ssp, "T99", "first", jackpottest.T0, 500, []int{1})
	var rest []jackpot.Round
	for i := range 4 {
		rest = append(rest, jackpottest.RoundOf(ssp, fmt.Sprint("T", i), fmt.Sprint("r", i), jackpottest.T0, 500, []int{1}))
	}
	var armed atomic.Bool
	full.fill = func() {}
	entered := api.hold()
	done := make(chan error, 1)
	go func() { _, _, err := svc.ApplyRound(ctx, "p", first, "", ""); done <- err }()
	<-entered
	errs := make([]error, len(rest))
	var wg sync.WaitGroup
	for i, r := range rest {
		wg.Go(func() { _, _, errs[i] = svc.ApplyRound(ctx, "p", r, "", "") })
	}
	for st.Queued("p") < len(rest) {
		time.Sleep(time.Millisecond)
	}
	// The next contribution transaction (the batch) first lets the other
	// store put 3 rounds on the shard.
	full.once = sync.Once{}
	full.fill = func() {
		armed.Store(true)
		for i := range 3 {
			r := jackpottest.RoundOf(ssp, fmt.Sprint("T", 50+i), fmt.Sprint("o", i), jackpottest.T0, 500, []int{1})
			if _, _, err := other.ApplyRound(ctx, "p", r, "", ""); err != nil {
				t.Error(err)
			}
		}
	}
	api.let()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("round %d: %v", i, err)
		}
	}
	if !armed.Load() {
		t.Fatal("the other store never filled the shard")
	}
	if api.cancelled.Load() < 1 {
		t.Fatal("no contribution met the full shard")
	}
	checkMeters(t, st, svc, 8)
}

// A round refused because its epoch is full (issue 25): with one shard (5
// rounds an epoch), the sixth round finds the shard full, folds the epoch,
// and is refused for its epoch (pools.ErrMoved), not for its record: the
// service neither looks for a first answer (no read of its record) nor
// reads the pool item again (the fold of this store remembered the pool it
// committed), and the round lands in the next epoch. 6 x 86.65 = 519.90:
// 519 credited, 0.90 carried (R1).
func TestRoundRefusedForItsEpochRereadsNothing_R1(t *testing.T) {
	ctx := context.Background()
	st, api, svc := newGroupServiceShards(t, 1)
	for i := range 6 {
		pools, records := api.poolGets.Load(), api.recordGets.Load()
		r := jackpottest.RoundOf(ssp, fmt.Sprint("T", i), fmt.Sprint("r", i), jackpottest.T0, 500, []int{1})
		if _, replayed, err := svc.ApplyRound(ctx, "p", r, "", ""); err != nil || replayed {
			t.Fatalf("round %d: %v (replayed %v)", i, err, replayed)
		}
		if i == 5 {
			// The fold reads the pool item (once, as it must).
			if p, rec := api.poolGets.Load()-pools, api.recordGets.Load()-records; p != 1 || rec != 0 {
				t.Fatalf("the round that folded read the pool item %d times and records %d times; want 1 (the fold's) and 0", p, rec)
			}
		}
	}
	if n := api.txs.Load(); n != 6 {
		t.Fatalf("%d contribution transactions, want 6: five, then the sixth (refused before it was sent) at the next epoch", n)
	}
	checkMeters(t, st, svc, 6)
}

// A batch whose answer is lost (the connection fails after DynamoDB
// committed it): the outcome is unknown to every round of it, and the
// service reads each round's record, finds its own commit and answers it
// (not replayed), exactly as for one round (issue 25). Eleven rounds, each
// applied once: 11 x 86.65 = 953.15 (953 credited, 0.15 carried; reserve
// 11 x 25.85 = 284.35, R1).
func TestGroupCommitLostAnswerGoesToEveryRound_R1(t *testing.T) {
	st, api, svc := newGroupService(t)
	api.lose = 2 // the batch behind the first
	var rest []jackpot.Round
	for i := range 10 {
		rest = append(rest, jackpottest.RoundOf(ssp, fmt.Sprint("T", i), fmt.Sprint("r", i), jackpottest.T0, 500, []int{1}))
	}
	first := jackpottest.RoundOf(ssp, "T99", "first", jackpottest.T0, 500, []int{1})
	records := api.recordGets.Load()
	_, replayed, errs := burst(t, st, api, svc, "p", first, rest)
	for i, err := range errs {
		if err != nil || replayed[i] {
			t.Fatalf("round %d: %v (replayed %v)", i, err, replayed[i])
		}
	}
	if n, r := api.txs.Load(), api.recordGets.Load()-records; n != 2 || r != 10 {
		t.Fatalf("%d contribution transactions and %d record reads; want 2 (the batch of 10 once) and 10 (each round's own)", n, r)
	}
	checkMeters(t, st, svc, 11)
}

// Rounds computed before a fold and queued while it lands (issue 25): the
// store knows their epoch closed (it committed the next one), so it
// refuses them at once (pools.ErrMoved): no transaction sent, no second
// fold tried, no read of the pool or the shards; they go to the next
// epoch. With one shard (5 rounds an epoch): five rounds fill it, the
// sixth folds, three more queue behind the fold. 9 x 86.65 = 779.85 (779
// credited, 0.85 carried; reserve 9 x 25.85 = 232.65, R1).
func TestRoundsQueuedBehindAFoldAreRefusedAtOnce_R1(t *testing.T) {
	ctx := context.Background()
	st, api, svc := newGroupServiceShards(t, 1)
	round := func(i int) jackpot.Round {
		return jackpottest.RoundOf(ssp, fmt.Sprint("T", i), fmt.Sprint("r", i), jackpottest.T0, 500, []int{1})
	}
	for i := range 5 {
		if _, _, err := svc.ApplyRound(ctx, "p", round(i), "", ""); err != nil {
			t.Fatal(err)
		}
	}
	commits, gets := api.commits.Load(), api.poolGets.Load()
	entered := api.holdFold()
	errs := make([]error, 4)
	var wg sync.WaitGroup
	wg.Go(func() { _, _, errs[0] = svc.ApplyRound(ctx, "p", round(5), "", "") })
	<-entered
	for i := 1; i < 4; i++ {
		wg.Go(func() { _, _, errs[i] = svc.ApplyRound(ctx, "p", round(5+i), "", "") })
	}
	for st.Queued("p") < 3 {
		time.Sleep(time.Millisecond)
	}
	api.let()
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("round %d: %v", 5+i, err)
		}
	}
	if c, g, x := api.commits.Load()-commits, api.poolGets.Load()-gets, api.cancelled.Load(); c != 1 || g != 1 || x != 0 {
		t.Fatalf("%d folds, %d reads of the pool item, %d contributions cancelled; want 1, 1 (the fold's) and 0", c, g, x)
	}
	checkMeters(t, st, svc, 9)
}
