package pools

import (
	"context"
	"errors"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
)

// RoundEntry is a round's own ledger entry, found by table and round id
// (issue 34 item 3): how a table fetches the entry (and then its
// inclusion proof, GET /v1/pools/{id}/ledger/{seq}/proof) of a round
// whose answer carried no seq because it was committed beside the pool.
// Folded is false while the round waits in the contribution shards: the
// entry is then the one kept with its record (Seq 0), what the round
// answered (its ledger entry may credit one minor unit more, the pool's
// carried fraction: docs/scale.md), and it reaches the ledger within
// seconds. It writes nothing. NotFound when the pool has no such round.
func (s *Service) RoundEntry(ctx context.Context, pool, table, round string) (e jackpot.Entry, folded bool, err error) {
	if _, err := s.Get(ctx, pool); err != nil {
		return jackpot.Entry{}, false, err
	}
	key := jackpot.RoundKey(table, round)
	if cs, ok := s.Store.(ContributionStore); ok {
		got, err := cs.Contributed(ctx, pool, key)
		if err != nil {
			return jackpot.Entry{}, false, unavailable(err)
		}
		if got != nil {
			return *got, got.Seq > 0, nil
		}
	}
	rec, err := s.Store.Record(ctx, pool, key)
	switch {
	case errors.Is(err, jackpot.ErrNotFound):
		return jackpot.Entry{}, false, noRound(pool, table, round, "pool "+pool+" has no round "+round+" of table "+table)
	case err != nil:
		return jackpot.Entry{}, false, unavailable(err)
	}
	if rec.Result.Seq == 0 {
		// A round without a wager, or answered before answers carried
		// their seq: it has no entry of its own to name.
		return jackpot.Entry{}, false, noRound(pool, table, round, "round "+round+" of table "+table+" has no ledger entry of its own")
	}
	es, err := s.Store.Ledger(ctx, pool, rec.Result.Seq-1, 1)
	if err != nil {
		return jackpot.Entry{}, false, unavailable(err)
	}
	if len(es) != 1 || es[0].Seq != rec.Result.Seq {
		return jackpot.Entry{}, false, unavailable(errors.New("the round's entry is missing from the ledger"))
	}
	return es[0], true, nil
}

func noRound(pool, table, round, detail string) error {
	return &fault.Error{Kind: fault.NotFound, Detail: detail, Fields: []fault.Problem{{Field: "round", Message: detail, Value: round}}}
}
