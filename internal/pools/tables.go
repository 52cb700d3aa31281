package pools

import (
	"context"
	"slices"
	"time"

	"github.com/tablesettle/tablesettle/internal/jackpot"
)

// Table health (issue 35 item 7): each linked table's last round, and
// which have fallen silent while others deal.

// TableHealth is one table's last round as the ledger's newest entries
// tell it.
type TableHealth struct {
	Table       string     `json:"table"`
	LastRound   string     `json:"lastRound,omitempty" doc:"The table's last round applied to the pool, when one is within the look-back (lookedBackTo)."`
	LastRoundAt *time.Time `json:"lastRoundAt,omitempty" doc:"When that round was committed (the service's clock)."`
	Silent      bool       `json:"silent" doc:"No round for silentAfter or longer (since the look-back or the pool's creation when none was read) while another table of the pool dealt within it."`
}

// Tables is the pool's tables' health at asOf.
type Tables struct {
	Pool         string        `json:"pool"`
	AsOf         time.Time     `json:"asOf" doc:"The service's time of the answer."`
	SilentAfter  int           `json:"silentAfter" doc:"Seconds without a round after which a table is silent while others deal."`
	LookedBackTo time.Time     `json:"lookedBackTo" doc:"How far back the ledger was read: a table with no round since has no lastRound."`
	Tables       []TableHealth `json:"tables" doc:"The linked tables (or, for a pool linking none, every table seen), in id order."`
}

// TablesLookBack is how far back Tables reads the ledger at least (and
// twice silentAfter when longer); TablesMaxEntries the most entries it
// reads: a table silent for longer shows no last round, and is silent.
const (
	TablesLookBack   = time.Hour
	TablesMaxEntries = 5000
)

// Tables reads the newest entries of pool id back from its end (at most
// TablesMaxEntries, no further back than the look-back) for each table's
// last round, and flags the tables silent for silentAfter while another
// dealt within it.
func (s *Service) Tables(ctx context.Context, id string, silentAfter time.Duration) (Tables, error) {
	if silentAfter <= 0 {
		return Tables{}, invalid("query.silentAfter", "silentAfter is a number of seconds, 1 or more")
	}
	p, err := s.Fresh(ctx, id)
	if err != nil {
		return Tables{}, err
	}
	now := s.Now()
	back := max(TablesLookBack, 2*silentAfter)
	out := Tables{Pool: id, AsOf: now, SilentAfter: int(silentAfter / time.Second), LookedBackTo: now.Add(-back), Tables: []TableHealth{}}
	want := map[string]bool{}
	for _, t := range p.Settings.Tables {
		want[t] = true
	}
	last := map[string]jackpot.Entry{}
	const page = 500
	read, before := 0, int64(0)
	for read < TablesMaxEntries {
		es, err := s.LedgerPage(ctx, id, LedgerQuery{Before: before, From: out.LookedBackTo, Limit: page, Newest: true})
		if err != nil {
			return Tables{}, err
		}
		for _, e := range es {
			if e.Table == "" || e.Round == "" || !isRound(e.Kind) {
				continue
			}
			if _, ok := last[e.Table]; !ok {
				last[e.Table] = e
			}
		}
		read += len(es)
		if len(es) < page || (len(want) > 0 && len(last) >= len(want) && allFound(want, last)) {
			break
		}
		before = es[len(es)-1].Seq
	}
	var names []string
	for t := range want {
		names = append(names, t)
	}
	if len(want) == 0 {
		for t := range last {
			names = append(names, t)
		}
	}
	slices.Sort(names)
	dealing := false
	for _, t := range names {
		if e, ok := last[t]; ok && now.Sub(e.At) < silentAfter {
			dealing = true
		}
	}
	for _, t := range names {
		h := TableHealth{Table: t}
		e, ok := last[t]
		if ok {
			at := e.At
			h.LastRound, h.LastRoundAt = e.Round, &at
		}
		// A table with no round read has been quiet since the look-back,
		// or since the pool was created when that is later.
		since := out.LookedBackTo
		if p.CreatedAt.After(since) {
			since = p.CreatedAt
		}
		if ok {
			since = e.At
		}
		h.Silent = dealing && now.Sub(since) >= silentAfter
		out.Tables = append(out.Tables, h)
	}
	return out, nil
}

// isRound reports whether an entry of kind k is written by a round at a
// table (its contribution, or a hit it won).
func isRound(k jackpot.Kind) bool {
	return k == jackpot.KindContribution || k == jackpot.KindHit || k == jackpot.KindHeld
}

func allFound(want map[string]bool, last map[string]jackpot.Entry) bool {
	for t := range want {
		if _, ok := last[t]; !ok {
			return false
		}
	}
	return true
}
