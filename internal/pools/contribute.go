package pools

import (
	"context"
	"errors"

	"github.com/tablesettle/tablesettle/internal/jackpot"
)

// ContributionStore is a Store that can also commit a round which only
// contributes beside the pool, without reading or versioning the pool
// item: contributions commute, so many tables add to one pool at once,
// while every other change (a hit, a lock, a void, a correction, an
// adjustment, a settings change) still goes through Pool and Commit, which
// fold what the contributions added into the pool first. It is optional:
// the service uses it when the store has it and the round has no hit, and
// the serial path (Pool, Commit) otherwise. internal/dynamo implements it;
// the embedded store keeps one writer and does not.
type ContributionStore interface {
	// Snapshot returns the pool as its last commit left it, without the
	// contributions committed beside it since; possibly from a cache
	// (fresh true: read now). Its Version names the contribution epoch a
	// Contribute computed from it must land in.
	Snapshot(ctx context.Context, id string, fresh bool) (jackpot.Pool, error)
	// Contribute commits c exactly once: its contribution and its round
	// records, or nothing. jackpot.ErrConflict when a record exists or the
	// pool was committed since the snapshot (or a commit of it is under
	// way; then also ErrMoved when the store knows its records were not in
	// the way); ErrSerial when nothing was written and the round is for
	// the pool itself; any other error leaves the outcome unknown.
	Contribute(ctx context.Context, c Contribution) error
	// Contributed returns the contribution entry of a round committed
	// beside the pool (nil when it was applied to the pool itself): once
	// folded into the pool, its own entry in the ledger, with its sequence
	// number; before, the entry kept with its record (Seq 0). A correction
	// reads the ledger from it (R28).
	Contributed(ctx context.Context, pool, key string) (*jackpot.Entry, error)
	// Folding returns the entries a commit of p (as Pool read it) writes
	// before its own: each round committed beside the pool since its last
	// commit, its own contribution entry, numbered up to p.Seq (none when
	// there are none). A transition that reads the ledger (a correction)
	// reads them after it.
	Folding(ctx context.Context, p jackpot.Pool) ([]jackpot.Entry, error)
}

// ErrSerial is a ContributionStore's refusal to commit anything beside
// the pool (Snapshot): it is configured to commit every round to the pool
// item itself, which then is the pool as it stands.
var ErrSerial = errors.New("pools: the store commits every round to the pool")

// ErrMoved marks a ContributionStore's refusal of a contribution for its
// epoch (the pool was committed since the snapshot, or is being), not for
// its records: nothing was written, and the service tries a newer snapshot
// without looking for a first answer (the next attempt's record condition
// finds one if there is one).
var ErrMoved = errors.New("pools: the pool moved since the snapshot")

// Contribution is one round that only contributes, computed at a
// snapshot of the pool (jackpot.Rules.Contribute).
type Contribution struct {
	Pool string
	// Version is the snapshot's: the contribution lands only while the
	// pool is still at it.
	Version int64
	Table   string
	// Entry is the round's contribution entry (Seq 0; nil without a
	// wager): the store keeps it with the round's record.
	Entry   *jackpot.Entry
	Records []jackpot.RoundRecord
}

// Folder is a ContributionStore whose folds are scheduled (issue 34: a
// read never writes): FoldDue folds the rounds committed beside every
// pool whose epoch has been open long enough, and returns the pools it
// folded. The local server calls it every second, the sweep on Lambda
// every minute (Service.FoldDue).
type Folder interface {
	FoldDue(ctx context.Context) ([]string, error)
}
