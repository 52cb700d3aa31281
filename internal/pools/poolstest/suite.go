// Package poolstest is the contract suite every pools.Store must pass
// (internal/sqlite and internal/dynamo run it: Run and RunLedgerPager), and
// LedgerHasEveryRound, the check that a store's ledger holds each round
// exactly once. The fixtures it builds its cases from (clock, settings,
// hits, rounds, actors) are internal/jackpot/jackpottest's.
package poolstest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/principal"
)

// Opener opens a fresh, empty store for one test.
type Opener func(t *testing.T) pools.Store

// Scale sets the size of the concurrency proof (the issue's: 8 writers,
// 400 rounds).
type Scale struct {
	Writers, Rounds int
	// Skip names cases not run, each with the reason (a store's variant
	// with a known defect, documented where the variant is: the store's
	// default must run every case).
	Skip map[string]string
}

// Run runs the contract suite against the stores open returns.
func Run(t *testing.T, open Opener, scale Scale) {
	open = withLogCheck(open)
	runCase(t, scale, "CreateGetExists", func(t *testing.T) { testCreate(t, open(t)) })
	runCase(t, scale, "CommitIsConditionalAndAtomic", func(t *testing.T) { testCommit(t, open(t)) })
	runCase(t, scale, "LedgerPagesOldestFirst", func(t *testing.T) { testLedger(t, open(t)) })
	runCase(t, scale, "ReplayReturnsFirstAnswer", func(t *testing.T) { testReplay(t, open(t)) })
	runCase(t, scale, "ConcurrentWritersExactlyOnce", func(t *testing.T) { testConcurrent(t, open(t), scale) })
	runCase(t, scale, "ContributionsRaceAHit_R1_R3", func(t *testing.T) { testContributionsRaceAHit(t, open(t), scale) })
	runCase(t, scale, "FaultsApplyOnceOrNotAtAll", func(t *testing.T) { testFaults(t, open(t)) })
	runCase(t, scale, "R7_MBS_CommitOrderAcrossTables", func(t *testing.T) { testMBSAcrossTables(t, open(t)) })
	runCase(t, scale, "R7_RWS_DealtOrderWithinWindow", func(t *testing.T) { testRWSAcrossTables(t, open(t)) })
	runCase(t, scale, "SettingsAfterNextReset", func(t *testing.T) { testSettings(t, open(t)) })
	runCase(t, scale, "LedgerPastTheEnd", func(t *testing.T) { testLedgerPastEnd(t, open(t)) })
	runCase(t, scale, "ChangesExactlyOnce", func(t *testing.T) { testChangesOnce(t, open(t)) })
	runCase(t, scale, "OwnCommitAfterLostAnswer", func(t *testing.T) { testOwnCommit(t, open(t)) })
	runCase(t, scale, "Release_ThirtyRWSHitsDueAtOnce_R7", func(t *testing.T) { testThirtyDue(t, open(t)) })
	runCase(t, scale, "Release_ActorOfEachTrigger_Issue33Item5", func(t *testing.T) { testReleaseActors(t, open(t)) })
	runCase(t, scale, "CreateRetriedWhileReadsFail", func(t *testing.T) { testCreateRetriedWhileReadsFail(t, open(t)) })
	runCase(t, scale, "MetersAsOfAnInstant", func(t *testing.T) { testMetersAt(t, open(t)) })
	runCase(t, scale, "Correct_ContributionOnly_R28", func(t *testing.T) { testCorrectContributionOnly(t, open(t)) })
	runCase(t, scale, "Correct_PaidStraightFlushIsAHouseRecovery_R28", func(t *testing.T) { testCorrectPaidStraightFlush(t, open(t)) })
	runCase(t, scale, "Correct_VoidAfterTheReserveWasSpent_R28", func(t *testing.T) { testVoidAfterTheReserveWasSpent(t, open(t)) })
	runCase(t, scale, "Correct_LockedRoyalPendingOrPaid_R28", func(t *testing.T) { testCorrectLockedRoyal(t, open(t)) })
	runCase(t, scale, "Correct_PendingRoyalAfterAStraightFlush_R28_R29", func(t *testing.T) { testCorrectPendingRoyalAfterAStraightFlush(t, open(t)) })
	runCase(t, scale, "Correct_HeldRWSHitWithdrawn_R28_R7", func(t *testing.T) { testCorrectHeldRWS(t, open(t)) })
	runCase(t, scale, "VoidRoundRecordedAndAnswered_R12", func(t *testing.T) { testVoidRoundRecorded(t, open(t)) })
	runCase(t, scale, "Correct_VoidWithItsRule_R28", func(t *testing.T) { testVoidRound(t, open(t)) })
	runCase(t, scale, "Lock_PendingRoyalConfirmedAndPaid", func(t *testing.T) { testLockConfirmed(t, open(t)) })
	runCase(t, scale, "Lock_ConfirmerDoesNotPay", func(t *testing.T) { testLockConfirmerDoesNotPay(t, open(t)) })
	runCase(t, scale, "Lock_PendingRoyalVoidedAfterThreeRounds_R28", func(t *testing.T) { testLockVoidAfterRounds(t, open(t)) })
	runCase(t, scale, "Lock_RWSHeldHitEntersAfterItsWindow_R7", func(t *testing.T) { testLockHeldRWS(t, open(t)) })
	runCase(t, scale, "Lock_VoidOfAVoidedHitIsAConflict", func(t *testing.T) { testVoidOfAVoidedHit(t, open(t)) })
	runCase(t, scale, "Lock_TwoTablesVoidedInEitherOrder", func(t *testing.T) { testLockTwoTables(t, open(t)) })
	runCase(t, scale, "Lock_ConcurrentWritersWithConfirmsAndVoids", func(t *testing.T) { testLockConcurrent(t, open(t), scale) })
	runCase(t, scale, "Dual_AdjustmentApprovedBySecondPrincipal", func(t *testing.T) { testDualControlAdjustment(t, open(t)) })
	runCase(t, scale, "Dual_OnePersonTwoRoleSessions", func(t *testing.T) { testDualControlOnePersonTwoRoles(t, open(t)) })
	runCase(t, scale, "Dual_ExpiryAndWithdraw", func(t *testing.T) { testDualControlExpiryAndWithdraw(t, open(t)) })
	runCase(t, scale, "Floor_HeldReleasedOnReadOnce_R7", func(t *testing.T) { testFloorHeldReleasedOnRead(t, open(t)) })
	runCase(t, scale, "Floor_UnlinkedTableWritesNothing", func(t *testing.T) { testFloorUnlinkedTableWritesNothing(t, open(t)) })
	runCase(t, scale, "Floor_OneOpenVoidPerHit", func(t *testing.T) { testFloorOneOpenVoidPerHit(t, open(t)) })
	runCase(t, scale, "Dual_VoidOfPendingRoyal_R28", func(t *testing.T) { testDualControlVoid(t, open(t)) })
	runCase(t, scale, "Dual_CorrectionVoidsRound_R28", func(t *testing.T) { testDualControlCorrection(t, open(t)) })
	runCase(t, scale, "Correct_SharedRoyalNotVoidedAlone_R5_R28", func(t *testing.T) { testSharedRoyalVoidedAlone(t, open(t)) })
	runCase(t, scale, "Dual_ApproveExactlyOnce", func(t *testing.T) { testApproveExactlyOnce(t, open(t)) })
	runCase(t, scale, "Dual_ApprovalAfterThePoolChanged", func(t *testing.T) { testApprovalAfterThePoolChanged(t, open(t)) })
	runCase(t, scale, "Correct_ByLockState_R28", func(t *testing.T) { testCorrectionByLockState(t, open(t)) })
	runCase(t, scale, "R22_UnitCheckedOnEveryRound", func(t *testing.T) { testUnitOnEveryRound(t, open(t)) })
	runCase(t, scale, "Correct_ReleasedRWSHit_R7_R28", func(t *testing.T) { testCorrectReleasedRWSHit(t, open(t)) })
	runCase(t, scale, "MetersAtSkewedWriters", func(t *testing.T) { testMetersAtSkewedWriters(t, open(t)) })
	runCase(t, scale, "ReportFromTheEnd", func(t *testing.T) { testReportFromTheEnd(t, open(t)) })
	runCase(t, scale, "StampsAdopted", func(t *testing.T) { testStampsAdopted(t, open(t)) })
	runCase(t, scale, "KeysExactlyOnce", func(t *testing.T) { testKeysExactlyOnce(t, open(t)) })
	runCase(t, scale, "Correct_TwoCorrectionsOfOneRound_R28", func(t *testing.T) { testTwoCorrectionsOfOneRound(t, open(t)) })
	runCase(t, scale, "Correct_AfterTheResetSpentTheOverflow_R21_R28", func(t *testing.T) { testCorrectionAfterOverflowSpent(t, open(t)) })
	runCase(t, scale, "Correct_TwinPoolAndModel_R21_R28", func(t *testing.T) { testCorrectionsTwinModel(t, open(t)) })
	runCase(t, scale, "Correct_TwinModelRandomScripts_R21_R28", func(t *testing.T) { testCorrectionsTwinRandom(t, open(t)) })
	runCase(t, scale, "Reconcile_CorrectionAcrossARateChange_R28", func(t *testing.T) { testReconcileAcrossRateChange(t, open(t)) })
	runCase(t, scale, "R29_MBSAcrossTablesPendingAndPaid", func(t *testing.T) { testR29MBSAcrossTables(t, open(t)) })
	runCase(t, scale, "R29_RWSSameRoundAndAcrossTablesPendingAndPaid_R6_R7", func(t *testing.T) { testR29RWS(t, open(t)) })
}

// runCase runs one case of the suite as a subtest, skipped when the
// scale names it in Skip (with the reason given there).
func runCase(t *testing.T, sc Scale, name string, f func(*testing.T)) {
	t.Run(name, func(t *testing.T) {
		if why, ok := sc.Skip[name]; ok {
			t.Skip(why)
		}
		f(t)
	})
}

// testLedgerPastEnd: audit defect 8. A page after the last entry is empty
// in every store, up to the largest sequence number (after + 1 must not
// wrap to the front of the ledger).
func testLedgerPastEnd(t *testing.T, st pools.Store) {
	ctx, _, svc := mbsPool(t, st)
	for _, after := range []int64{1, 2, 1 << 40, math.MaxInt64 - 1, math.MaxInt64} {
		es, err := st.Ledger(ctx, "p", after, 10)
		if err != nil || len(es) != 0 {
			t.Fatalf("after %d: %d entries, %v; want an empty page", after, len(es), err)
		}
	}
	if es, err := st.Ledger(ctx, "p", 0, 10); err != nil || len(es) != 1 {
		t.Fatalf("from the start: %d entries, %v", len(es), err)
	}
	if _, err := svc.Ledger(ctx, "p", -1, 10); fault.KindOf(err) != fault.Invalid {
		t.Fatalf("after -1: %v, want invalid", err)
	}
}

// SDKRetry wraps a store: for the commits and creates the predicate picks,
// the write lands and then is sent again, as the AWS SDK retries a
// TransactWriteItems whose answer was lost; the caller gets the second
// answer (the retry's failed condition: ErrConflict, or ErrExists).
type SDKRetry struct {
	pools.Store
	Pick func(n int64) bool
	n    atomic.Int64
}

// Commit implements pools.Store.
func (r *SDKRetry) Commit(ctx context.Context, c jackpot.Commit) error {
	err := r.Store.Commit(ctx, c)
	if err == nil && r.Pick(r.n.Add(1)) {
		return r.Store.Commit(ctx, c)
	}
	return err
}

// CreatePool implements pools.Store.
func (r *SDKRetry) CreatePool(ctx context.Context, p jackpot.Pool, es []jackpot.Entry) error {
	err := r.Store.CreatePool(ctx, p, es)
	if err == nil && r.Pick(r.n.Add(1)) {
		return r.Store.CreatePool(ctx, p, es)
	}
	return err
}

// testChangesOnce: audit defect 5. An adjustment and a settings change are
// applied exactly once under their Idempotency-Key, even when the store
// committed and the answer was lost and retried (the SDK's retry meets its
// own write), and when the operator retries after a 503.
func testChangesOnce(t *testing.T, st pools.Store) {
	ctx := context.Background()
	clock := jackpottest.NewClock(jackpottest.T0)
	retry := &SDKRetry{Store: st, Pick: func(int64) bool { return true }}
	svc := service(retry, clock)
	// The create is retried too, and answers the pool it created.
	if _, created, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil || created {
		// created is false: the SDK's retry met the pool; the settings
		// match, so it is the same pool.
		if err != nil {
			t.Fatal(err)
		}
	}
	adj := jackpot.Adjustment{Meter: "reserve", Amount: 50_000, Reason: "reserve top-up"}
	if _, _, err := svc.Adjust(ctx, "p", adj, jackpottest.Admin, jackpottest.Controller, ""); fault.KindOf(err) != fault.Invalid {
		t.Fatalf("no key: %v, want invalid", err)
	}
	p, replayed, err := svc.Adjust(ctx, "p", adj, jackpottest.Admin, jackpottest.Controller, "adj-1")
	if err != nil || replayed || p.Meters.Reserve != 50_000 {
		t.Fatalf("adjust under an SDK retry: %v replayed %v reserve %d; want 50,000 once", err, replayed, p.Meters.Reserve)
	}
	// The operator retries (after a 503): the first answer, not applied again.
	again, replayed, err := svc.Adjust(ctx, "p", adj, jackpottest.Admin, jackpottest.Controller, "adj-1")
	if err != nil || !replayed || again.Meters.Reserve != 50_000 || again.Version != p.Version {
		t.Fatalf("retry: %v replayed %v reserve %d", err, replayed, again.Meters.Reserve)
	}
	other := adj
	other.Amount = 60_000
	if _, _, err := svc.Adjust(ctx, "p", other, jackpottest.Admin, jackpottest.Controller, "adj-1"); fault.KindOf(err) != fault.Conflict {
		t.Fatalf("the key with another adjustment: %v, want mismatch", err)
	}
	rate := money.BasisPoints(2000)
	patch := jackpot.SettingsPatch{ContributionBP: &rate}
	// Keys are scoped to their operation: the adjustment's key names a
	// distinct settings change.
	p, replayed, err = svc.ChangeSettings(ctx, "p", patch, jackpottest.Admin, jackpottest.Controller, "new rate", "adj-1")
	if err != nil || replayed || p.Pending == nil || p.Pending.Settings.ContributionBP != 2000 {
		t.Fatalf("settings change: %v %v %+v", err, replayed, p.Pending)
	}
	if _, replayed, err = svc.ChangeSettings(ctx, "p", patch, jackpottest.Admin, jackpottest.Controller, "new rate", "adj-1"); err != nil || !replayed {
		t.Fatalf("settings retry: %v %v", err, replayed)
	}
	if _, _, err := svc.ChangeSettings(ctx, "p", patch, jackpottest.Admin, jackpottest.Controller, "another reason", "adj-1"); fault.KindOf(err) != fault.Conflict {
		t.Fatalf("the key with another settings change: %v, want mismatch", err)
	}
	es, _ := allEntries(ctx, st, "p")
	kinds := ""
	for _, e := range es {
		kinds += string(e.Kind) + " "
	}
	if kinds != "opening adjustment settings_change " {
		t.Fatalf("ledger %s: want each change once", kinds)
	}
	jackpottest.MustReconcile(t, svc, "p")
}

// testOwnCommit: the minor audit findings. A round, and an RWS release,
// whose commit landed but whose answer was lost and retried by the SDK:
// the round's own request is answered as applied, not replayed
// (Idempotent-Replayed false: the table sent it once), and the release
// answers the hits it paid, not an empty list.
func testOwnCommit(t *testing.T, st pools.Store) {
	ctx := context.Background()
	clock := jackpottest.NewClock(jackpottest.T0)
	retry := &SDKRetry{Store: st, Pick: func(int64) bool { return false }}
	svc := service(retry, clock)
	if _, _, err := svc.Create(ctx, "rws", jackpottest.RWSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	retry.Pick = func(int64) bool { return true }
	r := jackpottest.RoundOf("rws-mlp-csp-v2", "t1", "r1", jackpottest.T0, 500, []int{1, 2}, jackpottest.Royal("rws-mlp-csp-v2", 1, 1, 500))
	res, replayed, err := svc.ApplyRound(ctx, "rws", r, "", "")
	if err != nil || replayed || len(res.Payouts) != 1 || res.Payouts[0].Status != "held" {
		t.Fatalf("round: %v replayed %v %+v", err, replayed, res.Payouts)
	}
	if _, replayed, err := svc.ApplyRound(ctx, "rws", r, "", ""); err != nil || !replayed {
		t.Fatalf("the table's own retry is a replay: %v %v", replayed, err)
	}
	clock.Advance(3 * time.Second)
	// 10,000,000 + 1000 x 17.33% = 173.3 -> 10,000,173.
	_, paid, err := svc.Release(ctx, "rws")
	if err != nil || len(paid) != 1 || paid[0].Amount != 10_000_173 {
		t.Fatalf("release under an SDK retry: %v %+v; want the Royal paid 10,000,173", err, paid)
	}
	p, _ := svc.Get(ctx, "rws")
	if p.Meters.Hits["royal_flush"].Count != 1 || len(p.Held) != 0 {
		t.Fatalf("after: %+v held %d", p.Meters.Hits, len(p.Held))
	}
	jackpottest.MustReconcile(t, svc, "rws")
}

// mbsPool is the service on st with a clock at T0 and pool "p" created
// with the MBS settings of the fixtures, as most cases begin.
func mbsPool(t *testing.T, st pools.Store) (context.Context, *jackpottest.Clock, *pools.Service) {
	t.Helper()
	ctx := context.Background()
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := service(st, clock)
	if _, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	return ctx, clock, svc
}

func service(st pools.Store, clock *jackpottest.Clock) *pools.Service {
	svc := pools.NewService(st, clock.Now, 7)
	return svc
}

func testCreate(t *testing.T, st pools.Store) {
	ctx := context.Background()
	svc := service(st, jackpottest.NewClock(jackpottest.T0))
	p, _, err := svc.Create(ctx, "pool-1", jackpottest.MBSSettings(), jackpottest.Admin)
	if err != nil {
		t.Fatal(err)
	}
	if p.Meters.Displayed != 10_000_000 || p.Meters.HouseFunded != 10_000_000 {
		t.Fatalf("R21: a new pool opens at its reset amount funded by the house, got %+v", p.Meters)
	}
	got, err := svc.Get(ctx, "pool-1")
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != 1 || got.Seq != 1 || got.Meters.Displayed != 10_000_000 || len(got.Settings.Rulesets) != 3 {
		t.Fatalf("read back %+v", got)
	}
	// Creating is idempotent: the same settings again answer the existing
	// pool (not created); other settings are refused.
	again, created, err := svc.Create(ctx, "pool-1", jackpottest.MBSSettings(), jackpottest.Admin)
	if err != nil || created || again.Version != 1 || again.Meters.Displayed != 10_000_000 {
		t.Fatalf("the same create again: %v %v %+v", created, err, again.Meters)
	}
	other := jackpottest.MBSSettings()
	other.Reset = 20_000_000
	if _, _, err := svc.Create(ctx, "pool-1", other, jackpottest.Admin); fault.KindOf(err) != fault.Conflict {
		t.Fatalf("second create with other settings: %v, want exists", err)
	}
	if _, err := svc.Get(ctx, "nope"); fault.KindOf(err) != fault.NotFound {
		t.Fatalf("missing pool: %v", err)
	}
	if _, err := st.Record(ctx, "pool-1", jackpot.RoundKey("t1", "r1")); !errors.Is(err, jackpot.ErrNotFound) {
		t.Fatalf("missing record: %v", err)
	}
	es, err := st.Ledger(ctx, "pool-1", 0, 10)
	if err != nil || len(es) != 1 || es[0].Kind != jackpot.KindOpening || es[0].Funding[0].Source != jackpot.SourceHouse {
		t.Fatalf("opening ledger %+v %v", es, err)
	}
}

func testCommit(t *testing.T, st pools.Store) {
	ctx := context.Background()
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := service(st, clock)
	p, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin)
	if err != nil {
		t.Fatal(err)
	}
	r := jackpottest.RoundOf("mbs-megalink-ssp-v6", "t1", "r1", jackpottest.T0, 500, []int{1, 2})
	q, es, res, err := jackpot.Apply(p, r, clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	rec := jackpot.RoundRecord{Pool: "p", Key: jackpot.RoundKey("t1", "r1"), Table: "t1", Round: "r1", Fingerprint: "f", Result: res}
	// A stale version is refused and writes nothing.
	if err := st.Commit(ctx, jackpot.Commit{PrevVersion: p.Version + 5, Pool: q, Entries: es, Records: []jackpot.RoundRecord{rec}}); !errors.Is(err, jackpot.ErrConflict) {
		t.Fatalf("stale commit: %v, want ErrConflict", err)
	}
	if _, err := st.Record(ctx, "p", rec.Key); !errors.Is(err, jackpot.ErrNotFound) {
		t.Fatalf("a refused commit left its record: %v", err)
	}
	if err := st.Commit(ctx, jackpot.Commit{PrevVersion: p.Version, Pool: q, Entries: es, Records: []jackpot.RoundRecord{rec}}); err != nil {
		t.Fatal(err)
	}
	// The same record again, even on the current version, is refused, and
	// the pool is untouched.
	q2, es2, _, err := jackpot.Apply(q, r, clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Commit(ctx, jackpot.Commit{PrevVersion: q.Version, Pool: q2, Entries: es2, Records: []jackpot.RoundRecord{rec}}); !errors.Is(err, jackpot.ErrConflict) {
		t.Fatalf("duplicate record: %v, want ErrConflict", err)
	}
	got, _ := st.Pool(ctx, "p")
	if got.Version != q.Version || got.Meters.Displayed != q.Meters.Displayed || got.Meters.Wagers != 2 {
		t.Fatalf("pool moved by a refused commit: %+v", got.Meters)
	}
	back, err := st.Record(ctx, "p", rec.Key)
	if err != nil || back.Result.Contribution.Displayed != res.Contribution.Displayed || back.Fingerprint != "f" {
		t.Fatalf("record read back %+v %v", back, err)
	}
	jackpottest.MustReconcile(t, svc, "p")
}

func testLedger(t *testing.T, st pools.Store) {
	ctx, _, svc := mbsPool(t, st)
	for i := range 12 {
		r := jackpottest.RoundOf("mbs-megalink-ssp-v6", "t1", fmt.Sprintf("r%d", i), jackpottest.T0, 500, []int{1})
		if _, _, err := svc.ApplyRound(ctx, "p", r, "", ""); err != nil {
			t.Fatal(err)
		}
	}
	// A store that commits rounds beside the pool (pools.ContributionStore)
	// has them in the ledger once folded (a reconciliation folds); its
	// rounds' own entries are checked by LedgerHasEveryRound.
	jackpottest.MustReconcile(t, svc, "p")
	LedgerHasEveryRound(t, st, "p", 12)
	_, beside := st.(pools.ContributionStore)
	var seqs []int64
	after := int64(0)
	for {
		es, err := st.Ledger(ctx, "p", after, 5)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			seqs = append(seqs, e.Seq)
		}
		if len(es) < 5 {
			break
		}
		after = es[len(es)-1].Seq
	}
	if len(seqs) != 13 && !beside {
		t.Fatalf("ledger has %d entries, want 13 (opening + 12 contributions)", len(seqs))
	}
	for i, s := range seqs {
		if s != int64(i+1) {
			t.Fatalf("ledger order %v", seqs)
		}
	}
}

func testReplay(t *testing.T, st pools.Store) {
	ctx, clock, svc := mbsPool(t, st)
	r := jackpottest.RoundOf("mbs-megalink-ssp-v6", "t1", "r1", jackpottest.T0, 500, []int{1, 2, 3}, jackpottest.StraightFlush("mbs-megalink-ssp-v6", 2, 2, 500))
	first, replayed, err := svc.ApplyRound(ctx, "p", r, "", "")
	if err != nil || replayed {
		t.Fatalf("first: %v %v", replayed, err)
	}
	clock.Advance(time.Minute)
	again, replayed, err := svc.ApplyRound(ctx, "p", r, "", "")
	if err != nil || !replayed {
		t.Fatalf("replay: %v %v", replayed, err)
	}
	if fmt.Sprint(again) != fmt.Sprint(first) {
		t.Fatalf("replay changed the answer:\n%+v\n%+v", first, again)
	}
	p, _ := svc.Get(ctx, "p")
	if p.Meters.Wagers != 3 || p.Meters.Hits["straight_flush"].Count != 1 {
		t.Fatalf("the replay was counted again: %+v", p.Meters)
	}
	// Same ids, different body: refused (409).
	r2 := jackpottest.RoundOf("mbs-megalink-ssp-v6", "t1", "r1", jackpottest.T0, 500, []int{1, 2})
	if _, _, err := svc.ApplyRound(ctx, "p", r2, "", ""); fault.KindOf(err) != fault.Conflict {
		t.Fatalf("different body: %v, want mismatch", err)
	}
	// Idempotency-Key: honoured the same way.
	r3 := jackpottest.RoundOf("mbs-megalink-ssp-v6", "t1", "r2", jackpottest.T0, 500, []int{4})
	a, _, err := svc.ApplyRound(ctx, "p", r3, "key-123", "")
	if err != nil {
		t.Fatal(err)
	}
	b, replayed, err := svc.ApplyRound(ctx, "p", r3, "key-123", "")
	if err != nil || !replayed || fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatalf("idempotency replay: %v %v", replayed, err)
	}
	r4 := jackpottest.RoundOf("mbs-megalink-ssp-v6", "t1", "r3", jackpottest.T0, 500, []int{4})
	if _, _, err := svc.ApplyRound(ctx, "p", r4, "key-123", ""); fault.KindOf(err) != fault.Conflict {
		t.Fatalf("key reused for another round: %v, want mismatch", err)
	}
	p, _ = svc.Get(ctx, "p")
	if p.Meters.Wagers != 4 {
		t.Fatalf("wagers %d, want 4", p.Meters.Wagers)
	}
	jackpottest.MustReconcile(t, svc, "p")
}

// testConcurrent is the proof: writers apply rounds to one pool at
// once (every round sent twice, by two writers); the meters equal the sum
// over the ledger and every round is counted exactly once.
func testConcurrent(t *testing.T, st pools.Store, sc Scale) {
	ctx := context.Background()
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := service(st, clock)
	if _, _, err := svc.Create(ctx, "linked", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	jobs := make(chan int)
	var wg sync.WaitGroup
	var failed atomic.Int64
	var firstErr atomic.Value
	results := make([]jackpot.RoundResult, sc.Rounds)
	var mu sync.Mutex
	for w := range sc.Writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				table := fmt.Sprintf("table-%d", i%7)
				var hits []jackpot.Hit
				seats := []int{1, 2, 3}
				switch {
				case i%97 == 13:
					hits = append(hits, jackpottest.Royal("mbs-megalink-ssp-v6", 1, 1, 500))
				case i%31 == 5:
					hits = append(hits, jackpottest.StraightFlush("mbs-megalink-ssp-v6", 1, 1, 500))
				case i%11 == 3:
					hits = append(hits, jackpottest.FourOfAKind("mbs-megalink-ssp-v6", 1, 1, 500))
				}
				r := jackpottest.RoundOf("mbs-megalink-ssp-v6", table, fmt.Sprintf("round-%d", i), jackpottest.T0.Add(time.Duration(i)*time.Second), 500, seats[:1+i%3], hits...)
				res, _, err := svc.ApplyRound(ctx, "linked", r, "", "")
				if err != nil {
					failed.Add(1)
					firstErr.CompareAndSwap(nil, fmt.Sprintf("writer %d round %d: %v", w, i, err))
					continue
				}
				mu.Lock()
				if results[i].Round != "" && fmt.Sprint(results[i]) != fmt.Sprint(res) {
					t.Errorf("round %d answered twice differently", i)
				}
				results[i] = res
				mu.Unlock()
			}
		}()
	}
	// Each round is sent twice, by whichever writers pick it up.
	for i := range sc.Rounds {
		jobs <- i
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if n := failed.Load(); n > 0 {
		t.Fatalf("%d rounds failed: first %v", n, firstErr.Load())
	}
	p, err := svc.Get(ctx, "linked")
	if err != nil {
		t.Fatal(err)
	}
	var wantWagers int64
	for i := range sc.Rounds {
		wantWagers += int64(1 + i%3)
	}
	if p.Meters.Wagers != wantWagers || p.Meters.WagerAmount != money.Amount(wantWagers*500) {
		t.Fatalf("wagers %d (%d), want %d: a round was lost or counted twice", p.Meters.Wagers, p.Meters.WagerAmount, wantWagers)
	}
	rec := jackpottest.MustReconcile(t, svc, "linked")
	LedgerHasEveryRound(t, st, "linked", sc.Rounds)
	// Credited + carried == sum(wager x rate), exactly.
	if int64(rec.Rebuilt.Contributed)*10000+rec.Rebuilt.CarryDisplayed != wantWagers*500*1733 {
		t.Fatalf("carried-fraction invariant broken: %d*10000+%d != %d", rec.Rebuilt.Contributed, rec.Rebuilt.CarryDisplayed, wantWagers*500*1733)
	}
}

// Beside is a pools.ContributionStore that lists the own entries of the
// rounds it committed beside the pool, and what its shards hold (not yet
// folded into the pool); internal/dynamo.Store is one.
type Beside interface {
	Contributions(ctx context.Context, id string) ([]jackpot.Entry, jackpot.Pending, error)
}

// LedgerHasEveryRound checks that each of the pool's rounds contributed
// exactly once, by its own entry in the ledger (R4): a store that commits
// rounds beside the pool (Beside) writes each round's own entry when it
// folds it (no entry sums several rounds), and what its shards still hold
// (not yet folded) is exactly the rounds committed beside the pool that
// the ledger does not have yet.
func LedgerHasEveryRound(t testing.TB, st pools.Store, id string, rounds int) {
	t.Helper()
	ctx := context.Background()
	es, err := allEntries(ctx, st, id)
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	own := map[string]bool{} // commits whose round has its own entry
	for _, e := range es {
		switch {
		case e.Kind != jackpot.KindContribution || e.Corrects != "":
		case e.Table == "" || e.Round == "":
			t.Fatalf("entry %d is a contribution of no round (%d wagers): every round has its own entry", e.Seq, e.Wagers)
		default:
			n[e.Table+"/"+e.Round]++
			own[e.Commit] = true
		}
	}
	var parts jackpot.Pending
	var pending jackpot.Pending
	if b, ok := st.(Beside); ok {
		var ps []jackpot.Entry
		if ps, pending, err = b.Contributions(ctx, id); err != nil {
			t.Fatal(err)
		}
		for _, e := range ps {
			if own[e.Commit] {
				continue // folded: the ledger has its own entry
			}
			n[e.Table+"/"+e.Round]++
			parts.Wagers += e.Wagers
			parts.WagerAmount += e.WagerAmount
		}
	}
	if len(n) != rounds {
		t.Fatalf("%d rounds contributed, want %d", len(n), rounds)
	}
	for k, c := range n {
		if c != 1 {
			t.Fatalf("round %s contributed %d times", k, c)
		}
	}
	if pending.Wagers != parts.Wagers || pending.WagerAmount != parts.WagerAmount {
		t.Fatalf("the shards (%+v) are not the rounds committed beside the pool and not folded yet (%+v)", pending, parts)
	}
}

func allEntries(ctx context.Context, st pools.Store, id string) ([]jackpot.Entry, error) {
	var all []jackpot.Entry
	after := int64(0)
	for {
		es, err := st.Ledger(ctx, id, after, 500)
		if err != nil {
			return nil, err
		}
		all = append(all, es...)
		if len(es) < 500 {
			return all, nil
		}
		after = es[len(es)-1].Seq
	}
}

// Faulty wraps a store: Commit fails before writing (Before) or after
// writing, losing the answer (After), for the commits the predicate picks.
type Faulty struct {
	pools.Store
	Fail func(n int64) (before, after bool)
	n    atomic.Int64
}

// ErrInjected is the fault Faulty returns.
var ErrInjected = errors.New("injected fault: connection reset")

// Commit implements pools.Store.
func (f *Faulty) Commit(ctx context.Context, c jackpot.Commit) error {
	n := f.n.Add(1)
	before, after := f.Fail(n)
	if before {
		return ErrInjected
	}
	err := f.Store.Commit(ctx, c)
	if after {
		return ErrInjected
	}
	return err
}

func testFaults(t *testing.T, st pools.Store) {
	ctx := context.Background()
	clock := jackpottest.NewClock(jackpottest.T0)
	f := &Faulty{Store: st, Fail: func(n int64) (bool, bool) { return n%5 == 1, n%5 == 3 }}
	blind := &blindAfterFault{Faulty: f}
	svc := pools.NewService(blind, clock.Now, 3)
	if _, _, err := svc.Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	const rounds = 40
	unavailable := 0
	for i := range rounds {
		var hits []jackpot.Hit
		if i%9 == 4 {
			hits = append(hits, jackpottest.StraightFlush("mbs-megalink-ssp-v6", 1, 1, 500))
		}
		r := jackpottest.RoundOf("mbs-megalink-ssp-v6", "t1", fmt.Sprintf("r%d", i), jackpottest.T0, 500, []int{1, 2}, hits...)
		_, _, err := svc.ApplyRound(ctx, "p", r, "", "")
		if err != nil {
			if fault.KindOf(err) != fault.Unavailable {
				t.Fatalf("round %d: %v, want unavailable", i, err)
			}
			unavailable++
		}
		// Whatever the answer, the store holds the round once or not at
		// all, and the ledger reconciles.
		jackpottest.MustReconcile(t, pools.NewService(st, clock.Now, 1), "p")
	}
	if unavailable == 0 {
		t.Fatal("no fault was injected")
	}
	// The tables retry every round until it is confirmed: each is applied
	// exactly once.
	direct := pools.NewService(st, clock.Now, 1)
	for i := range rounds {
		var hits []jackpot.Hit
		if i%9 == 4 {
			hits = append(hits, jackpottest.StraightFlush("mbs-megalink-ssp-v6", 1, 1, 500))
		}
		r := jackpottest.RoundOf("mbs-megalink-ssp-v6", "t1", fmt.Sprintf("r%d", i), jackpottest.T0, 500, []int{1, 2}, hits...)
		if _, _, err := direct.ApplyRound(ctx, "p", r, "", ""); err != nil {
			t.Fatalf("retry of round %d: %v", i, err)
		}
	}
	p, _ := direct.Get(ctx, "p")
	if p.Meters.Wagers != 2*rounds {
		t.Fatalf("wagers %d, want %d: a round was lost or applied twice", p.Meters.Wagers, 2*rounds)
	}
	if p.Meters.Hits["straight_flush"].Count != 4 {
		t.Fatalf("straight flushes %d, want 4 (rounds 4, 13, 22, 31)", p.Meters.Hits["straight_flush"].Count)
	}
	jackpottest.MustReconcile(t, direct, "p")
}

// blindAfterFault makes the read that follows an injected fault fail too,
// so that the service cannot tell whether its write landed.
type blindAfterFault struct {
	*Faulty
	blind atomic.Bool
}

func (b *blindAfterFault) Commit(ctx context.Context, c jackpot.Commit) error {
	err := b.Faulty.Commit(ctx, c)
	if errors.Is(err, ErrInjected) {
		b.blind.Store(true)
	}
	return err
}

func (b *blindAfterFault) Record(ctx context.Context, pool, key string) (jackpot.RoundRecord, error) {
	if b.blind.Swap(false) {
		return jackpot.RoundRecord{}, ErrInjected
	}
	return b.Faulty.Record(ctx, pool, key)
}

// testMBSAcrossTables: two tables hit a Royal Flush in the same instant.
// Under MBS (SSP v6 3.14, ruling R7) the first committed is paid the whole
// pool, the second from the pool after reset.
func testMBSAcrossTables(t *testing.T, st pools.Store) {
	ctx, _, svc := mbsPool(t, st)
	// Grow the pool: 100 rounds of 3 wagers.
	for i := range 100 {
		r := jackpottest.RoundOf("mbs-megalink-ssp-v6", "t9", fmt.Sprintf("g%d", i), jackpottest.T0, 500, []int{1, 2, 3})
		if _, _, err := svc.ApplyRound(ctx, "p", r, "", ""); err != nil {
			t.Fatal(err)
		}
	}
	p, _ := svc.Get(ctx, "p")
	before := p.Meters.Displayed
	// Both tables report at once; B's hand was dealt first, but MBS pays
	// in commit order.
	a := jackpottest.RoundOf("mbs-megalink-ssp-v6", "table-A", "a1", jackpottest.T0.Add(2*time.Second), 500, []int{4}, jackpottest.Royal("mbs-megalink-ssp-v6", 4, 1, 500))
	b := jackpottest.RoundOf("mbs-megalink-tcp-v6", "table-B", "b1", jackpottest.T0.Add(1*time.Second), 500, []int{2}, jackpottest.Royal("mbs-megalink-tcp-v6", 2, 1, 500))
	var wg sync.WaitGroup
	var ra, rb jackpot.RoundResult
	var ea, eb error
	wg.Add(2)
	go func() { defer wg.Done(); ra, _, ea = svc.ApplyRound(ctx, "p", a, "", "") }()
	go func() { defer wg.Done(); rb, _, eb = svc.ApplyRound(ctx, "p", b, "", "") }()
	wg.Wait()
	if ea != nil || eb != nil {
		t.Fatal(ea, eb)
	}
	first, second := ra, rb
	if ra.Version > rb.Version {
		first, second = rb, ra
	}
	// Each round contributes its one wager before its hit (R4).
	c1, _, _, _ := jackpot.Accrue(500, 1733, p.Meters.CarryDisplayed)
	wantFirst := before + c1
	if first.Payouts[0].Amount != wantFirst || first.Payouts[0].Funding[0].Source != jackpot.SourcePool {
		t.Fatalf("first committed is paid the whole pool %d: %+v", wantFirst, first.Payouts[0])
	}
	p2, _ := svc.Get(ctx, "p")
	_ = p2
	if second.Payouts[0].Amount <= 10_000_000 || second.Payouts[0].Amount > 10_000_000+100 {
		t.Fatalf("second committed is paid the pool after reset (10,000,000 + its contribution): %+v", second.Payouts[0])
	}
	if second.Meters.Displayed != 10_000_000 {
		t.Fatalf("after two Royals the pool is at its reset: %d", second.Meters.Displayed)
	}
	jackpottest.MustReconcile(t, svc, "p")
}

// testRWSAcrossTables: under RWS (4.5.2, ruling R7) the hand dealt first is
// paid first even when reported second, within the settle window.
func testRWSAcrossTables(t *testing.T, st pools.Store) {
	defer sameHitHistory(t, st, "rws")
	defer sameInstants(t, st, "rws")
	ctx := context.Background()
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := service(st, clock)
	if _, _, err := svc.Create(ctx, "rws", jackpottest.RWSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		r := jackpottest.RoundOf("rws-mlp-csp-v2", "t9", fmt.Sprintf("g%d", i), jackpottest.T0, 500, []int{1, 2, 3})
		if _, _, err := svc.ApplyRound(ctx, "rws", r, "", ""); err != nil {
			t.Fatal(err)
		}
	}
	// Table A reports first a Royal dealt at 20:00:05; table B reports one
	// second later a Royal dealt at 20:00:03 (earlier).
	a := jackpottest.RoundOf("rws-mlp-csp-v2", "table-A", "a1", jackpottest.T0.Add(5*time.Second), 500, []int{1}, jackpottest.Royal("rws-mlp-csp-v2", 1, 1, 500))
	ra, _, err := svc.ApplyRound(ctx, "rws", a, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if ra.Payouts[0].Status != "held" {
		t.Fatalf("R7: a major hit is held for the settle window: %+v", ra.Payouts[0])
	}
	clock.Advance(time.Second)
	b := jackpottest.RoundOf("rws-mlp-csp-v2", "table-B", "b1", jackpottest.T0.Add(3*time.Second), 500, []int{6}, jackpottest.Royal("rws-mlp-csp-v2", 6, 1, 500))
	if _, _, err := svc.ApplyRound(ctx, "rws", b, "", ""); err != nil {
		t.Fatal(err)
	}
	p, _ := svc.Get(ctx, "rws")
	poolThen := p.Meters.Displayed
	if len(p.Held) != 2 {
		t.Fatalf("two held hits, got %d", len(p.Held))
	}
	// The window passes; the next commit (a plain round) pays them.
	clock.Advance(3 * time.Second)
	if _, paid, err := svc.Release(ctx, "rws"); err != nil || len(paid) != 2 {
		t.Fatalf("release: %v %d", err, len(paid))
	}
	p, _ = svc.Get(ctx, "rws")
	var hits []jackpot.HitRecord
	for _, h := range p.LastHits {
		if h.Category == "royal_flush" {
			hits = append(hits, h)
		}
	}
	if len(hits) != 2 || hits[0].Table != "table-B" || hits[1].Table != "table-A" {
		t.Fatalf("R7: table B's hand, dealt first, is paid first: %+v", hits)
	}
	if hits[0].Paid != poolThen || hits[1].Paid != 10_000_000 {
		t.Fatalf("B is paid the pool %d, A the pool after reset 10,000,000: %+v", poolThen, hits)
	}
	if len(p.Held) != 0 || p.Meters.Displayed != 10_000_000 {
		t.Fatalf("after both: held %d displayed %d", len(p.Held), p.Meters.Displayed)
	}
	jackpottest.MustReconcile(t, svc, "rws")
}

func testSettings(t *testing.T, st pools.Store) {
	ctx, _, svc := mbsPool(t, st)
	ns := jackpottest.MBSSettings()
	ns.ContributionBP = 2000
	ns.Reset = 5_000_000
	if _, _, err := svc.ChangeSettings(ctx, "p", jackpot.PatchAll(ns), jackpottest.Admin, jackpottest.Controller, "new rate approved", "change-1"); err != nil {
		t.Fatal(err)
	}
	r := jackpottest.RoundOf("mbs-megalink-ssp-v6", "t1", "r1", jackpottest.T0, 500, []int{1})
	res, _, err := svc.ApplyRound(ctx, "p", r, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if res.Contribution.Displayed != 86 { // 500 x 17.33% = 86.65: the old rate, mid-cycle
		t.Fatalf("contribution %d, want 86 at the old rate", res.Contribution.Displayed)
	}
	r2 := jackpottest.RoundOf("mbs-megalink-ssp-v6", "t1", "r2", jackpottest.T0, 500, []int{1}, jackpottest.Royal("mbs-megalink-ssp-v6", 1, 1, 500))
	if _, _, err := svc.ApplyRound(ctx, "p", r2, "", ""); err != nil {
		t.Fatal(err)
	}
	p, _ := svc.Get(ctx, "p")
	if p.Settings.ContributionBP != 2000 || p.Pending != nil || p.Meters.Displayed != 10_000_000 {
		t.Fatalf("after the reset (at the old reset amount) the new settings hold: %+v %d", p.Settings, p.Meters.Displayed)
	}
	r3 := jackpottest.RoundOf("mbs-megalink-ssp-v6", "t1", "r3", jackpottest.T0, 500, []int{1})
	res, _, _ = svc.ApplyRound(ctx, "p", r3, "", "")
	// 500 x 20% = 100 exactly; the 0.30 carried from the old rate stays carried.
	if res.Contribution.Displayed != 100 || res.Meters.Displayed != 10_000_100 {
		t.Fatalf("contribution %d (pool %d), want 100 at the new rate", res.Contribution.Displayed, res.Meters.Displayed)
	}
	jackpottest.MustReconcile(t, svc, "p") // a store that commits rounds beside the pool folds them in
	es, _ := allEntries(ctx, st, "p")
	kinds := ""
	for _, e := range es {
		kinds += string(e.Kind) + " "
	}
	if kinds != "opening settings_change contribution contribution hit reset settings_effective contribution " {
		t.Fatalf("ledger kinds: %s", kinds)
	}
	if es[1].Actor == nil || *es[1].Actor != jackpottest.Admin || es[1].ApprovedBy == nil || *es[1].ApprovedBy != jackpottest.Controller || es[1].By != "" || es[1].Old.ContributionBP != 1733 || es[1].New.ContributionBP != 2000 {
		t.Fatalf("the change is recorded with who, old and new: %+v", es[1])
	}
	jackpottest.MustReconcile(t, svc, "p")
}

// tableCtx is a request of table T1's principal: the entries of the
// rounds it applies name it (stampActor).
func tableCtx() context.Context {
	return principal.NewContext(context.Background(), &principal.Principal{ID: "tbl:T1", Roles: []principal.Role{principal.Table}, Tables: []string{"T1"}, Acting: principal.Table})
}

// applyAs applies r as the principal in ctx.
func applyAs(ctx context.Context, t *testing.T, svc *pools.Service, id string, r jackpot.Round) jackpot.RoundResult {
	t.Helper()
	res, _, err := svc.ApplyRound(ctx, id, r, "", "")
	if err != nil {
		t.Fatalf("round %s/%s: %v", r.Table, r.Round, err)
	}
	return res
}

// everyMoveSigned fails unless every ledger entry of pool id that moves
// money (a meter, the house's funding, a payment) names its actor, and
// every entry of an approved proposal names its approver too, another
// person (issue 16 items 2 and 3; principal.SamePerson), and every paid
// hit was paid by another person than confirmed it.
func everyMoveSigned(t *testing.T, st pools.Store, id string) {
	t.Helper()
	es, err := allEntries(context.Background(), st, id)
	if err != nil {
		t.Fatal(err)
	}
	confirmedBy := map[int64]string{}
	for _, e := range es {
		moves := e.Displayed != 0 || e.Reserve != 0 || e.Overflow != 0 || e.HouseFunded != 0 || e.Paid != 0 || e.Recovered != 0
		if moves && (e.Actor == nil || e.Actor.ID == "" || e.Actor.Role == "") {
			t.Fatalf("entry %d (%s) moves money and names no actor: %+v", e.Seq, e.Kind, e)
		}
		if e.Proposal != 0 && e.Kind != jackpot.KindProposal && e.Kind != jackpot.KindProposalExpired && e.Kind != jackpot.KindProposalWithdrawn &&
			(e.ApprovedBy == nil || e.ApprovedBy.ID == "" || principal.SamePerson(e.ApprovedBy.ID, e.Actor.ID)) {
			t.Fatalf("entry %d (%s) of proposal %d names no second person: %+v", e.Seq, e.Kind, e.Proposal, e.ApprovedBy)
		}
		if e.Kind == jackpot.KindHitConfirmed && e.Actor != nil {
			confirmedBy[e.HitSeq] = e.Actor.ID
		}
		if e.Kind == jackpot.KindHitPaid && e.Actor != nil && principal.SamePerson(confirmedBy[e.HitSeq], e.Actor.ID) {
			t.Fatalf("entry %d pays hit %d, confirmed by the same person %s", e.Seq, e.HitSeq, e.Actor.ID)
		}
	}
}

// readsFail is a store whose reads fail (a throttled or partitioned
// DynamoDB) while its writes still report what they meet.
type readsFail struct{ pools.Store }

func (readsFail) Pool(context.Context, string) (jackpot.Pool, error) {
	return jackpot.Pool{}, errors.New("read timed out")
}

// testCreateRetriedWhileReadsFail: issue 13 defect 2. POST /v1/pools
// retried while the store's reads fail answers the pool or "retry", never
// "exists with other settings".
func testCreateRetriedWhileReadsFail(t *testing.T, st pools.Store) {
	ctx := context.Background()
	if _, _, err := service(st, jackpottest.NewClock(jackpottest.T0)).Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin); err != nil {
		t.Fatal(err)
	}
	_, _, err := service(readsFail{st}, jackpottest.NewClock(jackpottest.T0)).Create(ctx, "p", jackpottest.MBSSettings(), jackpottest.Admin)
	if fault.KindOf(err) != fault.Unavailable {
		t.Fatalf("a retried create while reads fail: %v, want unavailable", err)
	}
}
