package pools

import (
	"context"
	"errors"
	"time"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
)

// Correct corrects or voids a round already applied to the pool (issue
// 13, ruling R28): new entries reverse the original's and apply the
// corrected round, citing the original commit; nothing is edited. Exactly
// once under its Idempotency-Key (required); a round is corrected once.
// by proposes it and approvedBy approves it, both signing at once (dual
// control: see Approve for the API's two steps).
func (s *Service) Correct(ctx context.Context, id string, corr jackpot.Correction, by, approvedBy jackpot.Actor, key string) (jackpot.CorrectionResult, bool, error) {
	if by.ID == "" {
		return jackpot.CorrectionResult{}, false, fault.New(fault.Unauthenticated, "authentication is required: who corrects a round is recorded")
	}
	if err := cosigned(by, approvedBy); err != nil {
		return jackpot.CorrectionResult{}, false, err
	}
	if err := requireKey(key); err != nil {
		return jackpot.CorrectionResult{}, false, err
	}
	o := &once{op: jackpot.OpCorrect, key: key, fingerprint: jackpot.FingerprintOf(struct {
		Op         string             `json:"op"`
		Correction jackpot.Correction `json:"correction"`
		By         jackpot.Actor      `json:"by"`
		ApprovedBy jackpot.Actor      `json:"approvedBy"`
	}{jackpot.OpCorrect, corr, by, approvedBy})}
	_, replayed, err := s.update(ctx, id, o, func(p jackpot.Pool, now time.Time) (jackpot.Pool, []jackpot.Entry, bool, error) {
		q, es, res, err := s.correctTx(ctx, p, corr, by, now)
		if err != nil {
			return jackpot.Pool{}, nil, false, err
		}
		countersign(es, approvedBy)
		o.correction = &res
		return q, es, true, nil
	})
	if err != nil {
		return jackpot.CorrectionResult{}, false, err
	}
	if o.correction == nil {
		return jackpot.CorrectionResult{}, false, fault.New(fault.Internal, "the correction left no answer")
	}
	return *o.correction, replayed, nil
}

// correctTx is the correction corr of p, reading the original round's
// record and the ledger from its commit on.
func (s *Service) correctTx(ctx context.Context, p jackpot.Pool, corr jackpot.Correction, by jackpot.Actor, now time.Time) (jackpot.Pool, []jackpot.Entry, jackpot.CorrectionResult, error) {
	rec, err := s.Store.Record(ctx, p.ID, jackpot.RoundKey(corr.Table, corr.Round))
	switch {
	case errors.Is(err, jackpot.ErrNotFound):
		return jackpot.Pool{}, nil, jackpot.CorrectionResult{}, &fault.Error{Kind: fault.NotFound, Detail: "pool " + p.ID + " has no round " + corr.Round + " of table " + corr.Table,
			Fields: []fault.Problem{{Field: "path.round", Message: "no such round", Value: corr.Round}}}
	case err != nil:
		return jackpot.Pool{}, nil, jackpot.CorrectionResult{}, unavailable(err)
	}
	// With a ContributionStore, p holds the rounds committed beside the
	// pool since its last commit, folded in: the commit of the correction
	// writes their entries first (Folding), so the correction reads them
	// after the stored ledger, as the serial path's ledger would hold them.
	var folding []jackpot.Entry
	cs, beside := s.Store.(ContributionStore)
	if beside {
		if folding, err = cs.Folding(ctx, p); err != nil {
			return jackpot.Pool{}, nil, jackpot.CorrectionResult{}, unavailable(err)
		}
	}
	if beside && rec.FirstSeq == 0 {
		// A round committed beside the pool: its own entry, with its own
		// sequence number, from the fold that committed it into the pool,
		// or from the fold under way.
		e, err := cs.Contributed(ctx, p.ID, jackpot.RoundKey(corr.Table, corr.Round))
		if err != nil {
			return jackpot.Pool{}, nil, jackpot.CorrectionResult{}, unavailable(err)
		}
		for _, f := range folding {
			if e != nil && e.Seq == 0 && f.Commit == e.Commit && f.Table == e.Table && f.Round == e.Round {
				e = &f
			}
		}
		if e != nil && (e.Seq == 0 || e.Seq > p.Seq) {
			// Committed beside the pool after p was read: read it again.
			return jackpot.Pool{}, nil, jackpot.CorrectionResult{}, errReread
		}
		if e != nil {
			rec.FirstSeq = e.Seq
		}
	}
	// The ledger from the original on, reaching back to the rounds taken
	// back since (their twin is the correction's too: jackpot.CorrectionReach).
	read := func(after int64) ([]jackpot.Entry, error) {
		es, err := s.entriesFrom(ctx, p, after)
		if err != nil {
			return nil, err
		}
		for _, f := range folding {
			if f.Seq > after && (len(es) == 0 || f.Seq > es[len(es)-1].Seq) {
				es = append(es, f)
			}
		}
		return es, nil
	}
	after := max(rec.FirstSeq-1, 0)
	ledger, err := read(after)
	for err == nil {
		reach := jackpot.CorrectionReach(ledger, after)
		if reach >= after {
			break
		}
		after = reach
		ledger, err = read(after)
	}
	if err != nil {
		return jackpot.Pool{}, nil, jackpot.CorrectionResult{}, err
	}
	last := after
	if len(ledger) > 0 {
		last = ledger[len(ledger)-1].Seq
	}
	if last < p.Seq {
		// The ledger stops short of the pool (a fold committed after the
		// read): read both again.
		return jackpot.Pool{}, nil, jackpot.CorrectionResult{}, errReread
	}
	if corr.Corrected != nil {
		if err := checkUnit(p, *corr.Corrected, "corrected.progressiveUnit"); err != nil {
			return jackpot.Pool{}, nil, jackpot.CorrectionResult{}, err
		}
	}
	return s.Rules().Correct(p, ledger, rec.Commit, corr, by, now)
}
