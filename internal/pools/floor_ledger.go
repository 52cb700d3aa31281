package pools

import (
	"context"
	"slices"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/money"
)

// FloorLedger is one page of a pool's ledger as the floor reads it,
// oldest first (or newest first: order desc).
type FloorLedger struct {
	Entries []FloorEntry `json:"entries"`
	// Next is the after (before, newest first) to ask for the next page;
	// absent on the last page.
	Next *int64 `json:"next,omitempty" doc:"The after (order=asc) or before (order=desc) of the next page; absent on the last page."`
}

// FloorEntry is a ledger entry as the floor reads it (issue 24 item 7):
// with its amount signed and, for a proposal, what was proposed.
type FloorEntry struct {
	jackpot.Entry
	Amount   money.Amount    `json:"amount" doc:"The money the entry records, in minor units, signed: a reversal is negative. A contribution what it credited to the meters, a hit +paid, its void or recovery -paid, a reset +its amount, its reversal -it, an adjustment its signed amount, the opening seed +it; 0 for entries that move no money (confirmations, payments by the cage, settings, proposals)."`
	Proposed *jackpot.Change `json:"proposed,omitempty" doc:"A proposal entry: the change it proposed."`
}

// FloorLedger reads one page of pool id's ledger: oldest first after
// after, or (order "desc") newest first before before (0: the newest) and
// after after, at most limit entries. Sequence numbers run 1 to the
// pool's Seq without gaps, so a page newest first is one ranged read of
// the store's oldest-first Ledger.
func (s *Service) FloorLedger(ctx context.Context, id, order string, after, before int64, limit int) (FloorLedger, error) {
	p, err := s.Get(ctx, id)
	if err != nil {
		return FloorLedger{}, err
	}
	var es []jackpot.Entry
	var next *int64
	if order != "desc" {
		if es, err = s.Ledger(ctx, id, after, limit); err != nil {
			return FloorLedger{}, err
		}
		if len(es) == limit {
			n := es[len(es)-1].Seq
			next = &n
		}
	} else {
		hi := p.Seq
		if before > 0 {
			hi = min(hi, before-1)
		}
		lo := max(after+1, hi-int64(limit)+1, 1)
		if hi >= lo {
			if es, err = s.Ledger(ctx, id, lo-1, int(hi-lo+1)); err != nil {
				return FloorLedger{}, err
			}
		}
		slices.Reverse(es)
		if lo > after+1 && lo > 1 {
			next = &lo
		}
	}
	out := FloorLedger{Entries: make([]FloorEntry, len(es)), Next: next}
	for i, e := range es {
		out.Entries[i] = FloorEntry{Entry: e, Amount: jackpot.SignedAmount(e)}
		if e.Kind == jackpot.KindProposal {
			out.Entries[i].Proposed = s.ProposedChange(ctx, p, e.Proposal)
		}
	}
	return out, nil
}
