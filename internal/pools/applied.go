package pools

import (
	"context"
	"errors"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
)

// AppliedRound is a round applied to a pool as its record keeps it (issue
// 35 item 2: a correction starts from it): the answer it was given and,
// for rounds applied since it was kept, the request as the table sent it.
func (s *Service) AppliedRound(ctx context.Context, id, table, round string) (jackpot.RoundRecord, error) {
	if _, err := s.Get(ctx, id); err != nil {
		return jackpot.RoundRecord{}, err
	}
	rec, err := s.Store.Record(ctx, id, jackpot.RoundKey(table, round))
	switch {
	case errors.Is(err, jackpot.ErrNotFound) || (err == nil && rec.Op != ""):
		return jackpot.RoundRecord{}, &fault.Error{Kind: fault.NotFound, Detail: "pool " + id + " has no round " + round + " of table " + table,
			Fields: []fault.Problem{{Field: "path.round", Message: "no such round", Value: round}}}
	case err != nil:
		return jackpot.RoundRecord{}, unavailable(err)
	}
	return rec, nil
}
