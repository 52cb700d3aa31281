package pools

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/tablesettle/tablesettle/internal/jackpot"
)

// The meters as they stood at an instant, and a shift report, read the
// ledger from its end back to the instant (jackpot.Stamps), not from the
// pool's opening: a report of the last shift costs the same in a pool's
// hundredth week as in its first. The head before that is the pool's
// meters less the entries read (its hits per category those the pool's
// stamps say it had), and for a report the head's entries about hits from
// the first hit that can be open at its end on (a HitLedger;
// jackpot.OpenFrom): a few, however old the pool.

// instantPage is how many entries one read back from the end of the
// ledger asks for.
const instantPage = 1000

// ledgerAt is p's ledger (p as read: its meters the sum of its ledger
// and of the rounds it folds in from shards) for reading the instant at and any later one: its tail read back from
// the end until an entry that every entry before it is stamped at or
// before at (jackpot.Stamps.Settled), its head summed from the pool. The
// rounds a view of a pool folds in from its shards end its tail, read
// from their records (ContributionStore.Folding). ok is false when it
// cannot be read so: p's stamps do not cover its ledger (a pool written
// before they were kept), the store cannot read the ledger newest first
// (LedgerPager) or the entries about hits apart (HitLedger), or the tail
// and the head do not add up to the pool's meters. The caller then reads
// the whole ledger, which is always right.
func (s *Service) ledgerAt(ctx context.Context, p jackpot.Pool, at time.Time, report bool) (l jackpot.Ledger, ok bool, err error) {
	pager, paged := s.Store.(LedgerPager)
	hl, indexed := s.Store.(HitLedger)
	if !paged || !indexed || p.Seq == 0 || p.Stamps.Through == 0 {
		return jackpot.Ledger{}, false, nil
	}
	// A view of a pool with rounds folded in from its shards: their own
	// entries, which its next commit writes, end its ledger.
	stamps, tail := p.Stamps, []jackpot.Entry(nil)
	if stamps.Through < p.Seq {
		cs, ok := s.Store.(ContributionStore)
		if !ok {
			return jackpot.Ledger{}, false, nil
		}
		folding, err := cs.Folding(ctx, p)
		if err != nil {
			return jackpot.Ledger{}, false, unavailable(err)
		}
		if stamps = stamps.With(folding...); stamps.Through != p.Seq {
			return jackpot.Ledger{}, false, nil
		}
		tail = folding
	}
	settled := func(e jackpot.Entry) bool { return stamps.Settled(e, at) }
	if !slices.ContainsFunc(tail, settled) {
		read, err := readBack(p.Seq-int64(len(tail))+1, instantPage, func(before int64, limit int) ([]jackpot.Entry, error) {
			return pager.LedgerPage(ctx, p.ID, LedgerQuery{Before: before, Limit: limit, Newest: true})
		}, func(suffix []jackpot.Entry) bool { return slices.ContainsFunc(suffix, settled) })
		if err != nil {
			return jackpot.Ledger{}, false, err
		}
		tail = append(read, tail...)
	}
	if i := lastIndexFunc(tail, settled); i >= 0 {
		tail = tail[i:]
	}
	if len(tail) == 0 {
		return jackpot.Ledger{}, false, nil
	}
	// The head's entries about hits a report reads: from the first hit
	// that can be open at its end (the meters' hits per category come from
	// the pool's stamps).
	from := tail[0].Seq
	if report {
		from = jackpot.OpenFrom(p, tail)
	}
	var hits []jackpot.Entry
	if from < tail[0].Seq {
		hits, err = readBack(tail[0].Seq, instantPage, func(before int64, limit int) ([]jackpot.Entry, error) {
			return hl.HitEntries(ctx, p.ID, before, limit)
		}, func(suffix []jackpot.Entry) bool { return suffix[0].Seq < from })
		if err != nil {
			return jackpot.Ledger{}, false, err
		}
		i, _ := slices.BinarySearchFunc(hits, from, func(e jackpot.Entry, seq int64) int { return cmp.Compare(e.Seq, seq) })
		hits = hits[i:]
	}
	p.Stamps = stamps
	l, err = jackpot.TailLedger(p, from, hits, tail)
	if err != nil {
		return jackpot.Ledger{}, false, nil
	}
	return l, true, nil
}

// lastIndexFunc is the index of the last element of es f holds for, or -1.
func lastIndexFunc(es []jackpot.Entry, f func(jackpot.Entry) bool) int {
	for i := len(es) - 1; i >= 0; i-- {
		if f(es[i]) {
			return i
		}
	}
	return -1
}

// ledgerFor is ledgerAt, or else p's whole ledger. Read whole, the pool's
// stamps are learnt from it when it had none (adoptStamps).
func (s *Service) ledgerFor(ctx context.Context, p jackpot.Pool, at time.Time, report bool) (jackpot.Ledger, error) {
	l, ok, err := s.ledgerAt(ctx, p, at, report)
	if err != nil || ok {
		return l, err
	}
	all, err := s.allEntries(ctx, p)
	if err != nil {
		return jackpot.Ledger{}, err
	}
	s.adoptStamps(ctx, p, all)
	return jackpot.WholeLedger(all), nil
}

// adoptStamps writes into pool p, read whole as all, the stamps of its
// ledger when it has none (a pool written before they were kept), so that
// its next instants are read from the end: a commit of the pool with no
// entry, on p's version, made only while the pool is still p's (no entry
// committed or folded in since). Losing that race, or failing, changes
// nothing: the next whole read tries again.
func (s *Service) adoptStamps(ctx context.Context, p jackpot.Pool, all []jackpot.Entry) {
	if p.Stamps.Through != 0 || int64(len(all)) != p.Seq {
		return
	}
	stamps := jackpot.StampsOf(all)
	_, _, _ = s.update(ctx, p.ID, nil, func(q jackpot.Pool, _ time.Time) (jackpot.Pool, []jackpot.Entry, bool, error) {
		if q.Version != p.Version || q.Seq != p.Seq || q.Stamps.Through != 0 {
			return q, nil, false, nil
		}
		q.Version++
		q.Stamps = stamps
		return q, nil, true, nil
	})
}
