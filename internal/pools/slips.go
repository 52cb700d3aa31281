package pools

import (
	"context"
	"errors"
	"time"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
)

// Printed jackpot slips (issue 35 item 6): jackpot.PrintSlip says what a
// print is.

// slipPrints reads the prints of hit seq's slip, oldest first, from their
// records (jackpot.SlipKey: print 1, 2, ... until one is missing).
func (s *Service) slipPrints(ctx context.Context, pool string, seq int64) ([]jackpot.SlipPrint, error) {
	out := []jackpot.SlipPrint{}
	for n := 1; ; n++ {
		rec, err := s.Store.Record(ctx, pool, jackpot.SlipKey(seq, n))
		switch {
		case errors.Is(err, jackpot.ErrNotFound):
			return out, nil
		case err != nil:
			return nil, unavailable(err)
		case rec.Print == nil:
			return nil, fault.New(fault.Internal, "the record of print %d of hit %d's slip holds no print", n, seq)
		}
		out = append(out, *rec.Print)
	}
}

// PrintSlip records a print of paid hit seq's slip by by (a cage or
// supervisor principal), exactly once under its Idempotency-Key
// (required), and returns the slip with every print of it, the one
// recorded last: the first print takes the pool's next serial in the
// commit that records it (gapless: a print that does not commit takes
// none), later ones are reprints "REPRINT n". The same key again returns
// the slip with the print it recorded (replayed true).
func (s *Service) PrintSlip(ctx context.Context, id string, seq int64, by jackpot.Actor, key string) (jackpot.Slip, jackpot.SlipPrint, bool, error) {
	if by.ID == "" {
		return jackpot.Slip{}, jackpot.SlipPrint{}, false, fault.New(fault.Unauthenticated, "authentication is required: who prints a slip is recorded")
	}
	if err := requireKey(key); err != nil {
		return jackpot.Slip{}, jackpot.SlipPrint{}, false, err
	}
	// The hit is paid (or the answer says why no slip is printed).
	if _, err := s.Slip(ctx, id, seq); err != nil {
		return jackpot.Slip{}, jackpot.SlipPrint{}, false, err
	}
	o := &once{op: jackpot.OpPrint, key: key, fingerprint: jackpot.FingerprintOf(struct {
		Op  string        `json:"op"`
		Hit int64         `json:"hit"`
		By  jackpot.Actor `json:"by"`
	}{jackpot.OpPrint, seq, by})}
	_, replayed, err := s.update(ctx, id, o, func(p jackpot.Pool, now time.Time) (jackpot.Pool, []jackpot.Entry, bool, error) {
		o.extra, o.print = nil, nil
		prints, err := s.slipPrints(ctx, id, seq)
		if err != nil {
			return jackpot.Pool{}, nil, false, err
		}
		var serial int64
		if len(prints) > 0 {
			serial = prints[0].Serial
		}
		q, es, pr := jackpot.PrintSlip(p, seq, len(prints), serial, by, now)
		o.print = &pr
		o.extra = []jackpot.RoundRecord{{Pool: id, Key: jackpot.SlipKey(seq, pr.Print), Op: jackpot.OpPrint, Fingerprint: jackpot.FingerprintOf(pr), Print: &pr}}
		return q, es, true, nil
	})
	if err != nil {
		return jackpot.Slip{}, jackpot.SlipPrint{}, false, err
	}
	if o.print == nil {
		return jackpot.Slip{}, jackpot.SlipPrint{}, false, fault.New(fault.Internal, "the print left no answer")
	}
	sl, err := s.Slip(ctx, id, seq)
	if err != nil {
		return jackpot.Slip{}, jackpot.SlipPrint{}, false, err
	}
	return sl, *o.print, replayed, nil
}
