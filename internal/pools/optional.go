package pools

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/tablesettle/tablesettle/internal/jackpot"
)

// Serializer is a Store that can run one change to a pool, its reads and
// its commit, inside one database transaction that holds the write lock
// from its first read (SQLite's BEGIN IMMEDIATE): writers of one pool
// then queue inside the database instead of losing the version race and
// retrying the whole request. internal/sqlite implements it; DynamoDB
// cannot, and keeps the optimistic retry.
//
// Serialize runs fn with a context whose store calls (Pool, Ledger,
// Record, Commit) go through that transaction; a call made while one is
// already open for the store runs fn in it. Each Commit inside stays
// all-or-nothing on its own. Serialize commits the transaction whatever
// fn returns and returns fn's error unchanged; any other error means the
// transaction did not commit: nothing fn wrote is in the store.
type Serializer interface {
	Serialize(ctx context.Context, pool string, fn func(ctx context.Context) error) error
}

// serialized runs fn through the store's Serializer when it has one. A
// transaction that could not commit after fn succeeded is Unavailable:
// nothing was written.
func (s *Service) serialized(ctx context.Context, pool string, fn func(ctx context.Context) error) error {
	ser, ok := s.Store.(Serializer)
	if !ok {
		return fn(ctx)
	}
	var ferr error
	err := ser.Serialize(ctx, pool, func(ctx context.Context) error {
		ferr = fn(context.WithValue(ctx, serializedKey{}, true))
		return ferr
	})
	if err != nil && !errors.Is(err, ferr) {
		return unavailable(err)
	}
	return ferr
}

// serializedKey marks a context inside a Serializer's transaction: no
// other writer can move the pool there, so a conflict (a twin's round
// record found at commit) is retried at once, without backing off while
// holding the database's write lock.
type serializedKey struct{}

// LedgerQuery selects a page of one pool's ledger. Zero values are no
// bound: After 0 is from the first entry, Before 0 is to the last, a zero
// From or To is no time bound.
type LedgerQuery struct {
	// After and Before bound the sequence numbers: After < Seq < Before.
	After, Before int64
	// From and To bound the entries' times: From <= At < To.
	From, To time.Time
	// Limit is the most entries returned (at least 1).
	Limit int
	// Newest returns the newest entries first (the page ends at the
	// oldest); otherwise oldest first.
	Newest bool
}

// LedgerPager is a Store that serves a page of the ledger by sequence and
// time range, in either order, from an index: the cost of a page does not
// grow with the pool's history. internal/sqlite and internal/dynamo
// implement it; the Store's Ledger (oldest first) is unchanged.
type LedgerPager interface {
	LedgerPage(ctx context.Context, id string, q LedgerQuery) ([]jackpot.Entry, error)
}

// LedgerPage returns a page of the pool's ledger (LedgerQuery): from the
// store's index when it is a LedgerPager, else read oldest first through
// Ledger and selected here (a store without the index: its cost grows
// with the history).
func (s *Service) LedgerPage(ctx context.Context, id string, q LedgerQuery) ([]jackpot.Entry, error) {
	if q.After < 0 {
		return nil, invalid("query.after", "after is a ledger sequence number, 0 or more")
	}
	if q.Before < 0 {
		return nil, invalid("query.before", "before is a ledger sequence number, 0 (no bound) or more")
	}
	if _, err := s.Get(ctx, id); err != nil {
		return nil, err
	}
	if pager, ok := s.Store.(LedgerPager); ok {
		es, err := pager.LedgerPage(ctx, id, q)
		if err != nil {
			return nil, unavailable(err)
		}
		return es, nil
	}
	out := []jackpot.Entry{}
	if q.Limit <= 0 {
		return out, nil
	}
	for after := q.After; ; {
		es, err := s.Store.Ledger(ctx, id, after, 1000)
		if err != nil {
			return nil, unavailable(err)
		}
		for _, e := range es {
			if q.Before > 0 && e.Seq >= q.Before {
				break
			}
			if (!q.From.IsZero() && e.At.Before(q.From)) || (!q.To.IsZero() && !e.At.Before(q.To)) {
				continue
			}
			out = append(out, e)
		}
		if len(es) < 1000 || (q.Before > 0 && es[len(es)-1].Seq >= q.Before) || (!q.Newest && len(out) >= q.Limit) {
			break
		}
		after = es[len(es)-1].Seq
	}
	if q.Newest {
		slices.Reverse(out)
	}
	return out[:min(len(out), q.Limit)], nil
}
