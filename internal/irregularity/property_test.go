package irregularity

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/money"
)

// TestRandomEventsNeverCrash throws seeded random facts and rounds at every
// kind of every ruleset: the answer is an outcome or a refusal (*fault.Error),
// never a panic or an internal error; and a returned outcome's settlement
// never returns more than the round staked, each line's net being
// returned - stake.
func TestRandomEventsNeverCrash(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 2026))
	values := func(f Fact) any {
		switch rng.IntN(8) {
		case 0:
			return nil
		case 1:
			return "x"
		case 2:
			return rng.Float64() * 10
		case 3:
			return []any{float64(rng.IntN(9)), float64(rng.IntN(9))}
		}
		vs := factValues(f)
		v := vs[rng.IntN(len(vs))]
		if s, ok := v.([]int); ok {
			l := make([]any, len(s))
			for i, x := range s {
				l[i] = float64(x)
			}
			return l
		}
		if n, ok := v.(int); ok {
			return float64(n)
		}
		return v
	}
	for _, id := range IDs {
		rs, _ := Catalogue(id)
		for i := 0; i < 400; i++ {
			k := rs.Kinds[rng.IntN(len(rs.Kinds))]
			raw := map[string]any{}
			for _, f := range k.Facts {
				if v := values(f); v != nil {
					raw[f.Name] = v
				}
			}
			var r *Round
			var staked money.Amount
			if rng.IntN(3) > 0 {
				r = &Round{Currency: money.SGD}
				for seat := 1; seat <= 7; seat++ {
					if rng.IntN(2) == 0 {
						continue
					}
					p := Position{Seat: seat, Wagers: map[string]money.Amount{}}
					for _, w := range rs.Wagers {
						if rng.IntN(2) == 0 {
							a := money.Amount(rng.IntN(20)) * 500
							p.Wagers[w] = a
							staked += a
						}
					}
					r.Positions = append(r.Positions, p)
				}
			}
			out, err := func() (o Outcome, err error) {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("%s %s %v: panic %v", id, k.Name, raw, p)
					}
				}()
				return Decide(rs, k.Name, raw, r)
			}()
			var e *fault.Error
			if err != nil {
				if !errors.As(err, &e) {
					t.Fatalf("%s %s %v: internal error %v", id, k.Name, raw, err)
				}
				continue
			}
			if out.Settlement == nil {
				continue
			}
			if out.Settlement.TotalReturned > staked {
				t.Errorf("%s %s %v: returns %d of %d staked", id, k.Name, raw, out.Settlement.TotalReturned, staked)
			}
			for _, l := range out.Settlement.Lines {
				if l.Net != l.Returned-l.Stake || l.Stake <= 0 {
					t.Errorf("%s %s: line %+v", id, k.Name, l)
				}
			}
		}
	}
}
