// Package jackpottest holds the fixtures the jackpot, pools, store and
// API tests share: a settable clock, the MBS and RWS pool settings, hits,
// rounds, the actors, and MustReconcile. The Store contract suite built
// from them is internal/pools/poolstest.
package jackpottest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// T0 is the fixtures' clock start.
var T0 = time.Date(2026, 3, 1, 20, 0, 0, 0, time.UTC)

// Clock is a settable clock safe for concurrent use.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a clock at t.
func NewClock(t time.Time) *Clock { return &Clock{now: t} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

// MBSSettings is a Megalink SSP v6 / TCP v6 / THB v9 pool: SGD 5 unit,
// rates chosen to leave fractions to carry, SGD 100,000 reset, linking
// the fixtures' tables (Tables).
func MBSSettings() jackpot.Settings {
	return jackpot.Settings{Currency: money.SGD, Rulesets: []string{"mbs-megalink-ssp-v6", "mbs-megalink-tcp-v6", "mbs-megalink-thb-v9"},
		Unit: 500, ContributionBP: 1733, ReserveBP: 517, Reset: 10_000_000, Tables: Tables()}
}

// RWSSettings is an RWS Multi-Link pool with a 3 s settle window (R7),
// linking the fixtures' tables (Tables).
func RWSSettings() jackpot.Settings {
	return jackpot.Settings{Currency: money.SGD, Rulesets: []string{"rws-mlp-csp-v2"},
		Unit: 500, ContributionBP: 1733, ReserveBP: 517, Reset: 10_000_000, SettleWindowMS: 3000, Tables: Tables()}
}

// Tables are the table ids the fixtures' pools link (issue 24: a round
// from a table not linked is refused): T, T0-T99, T00-T09, t0-t9,
// table-0 to table-9, table-A and table-B.
func Tables() []string {
	ts := []string{"T", "table-A", "table-B"}
	for i := 0; i < 100; i++ {
		ts = append(ts, fmt.Sprintf("T%d", i))
	}
	for i := 0; i < 10; i++ {
		ts = append(ts, fmt.Sprintf("T%02d", i), fmt.Sprintf("t%d", i), fmt.Sprintf("table-%d", i))
	}
	return ts
}

// Royal is a Royal Flush hit (100% of the pool, R3).
func Royal(ruleset string, seat, dealt int, stake money.Amount) jackpot.Hit {
	return jackpot.Hit{Seat: seat, Dealt: dealt, Category: "royal_flush", Prize: jackpot.Prize{Kind: jackpot.PrizePercent, BP: 10000}, Stake: stake, Rules: []string{ruleset + " 4.2"}}
}

// StraightFlush is a Straight Flush hit (10% of the pool, R3).
func StraightFlush(ruleset string, seat, dealt int, stake money.Amount) jackpot.Hit {
	return jackpot.Hit{Seat: seat, Dealt: dealt, Category: "straight_flush", Prize: jackpot.Prize{Kind: jackpot.PrizePercent, BP: 1000}, Stake: stake, Rules: []string{ruleset + " 4.2"}}
}

// FourOfAKind is the MBS/RWS SGD 2,000 fixed prize (R2).
func FourOfAKind(ruleset string, seat, dealt int, stake money.Amount) jackpot.Hit {
	return jackpot.Hit{Seat: seat, Dealt: dealt, Category: "four_of_a_kind", Prize: jackpot.Prize{Kind: jackpot.PrizeFixed, Amount: 200_000}, Stake: stake, Rules: []string{ruleset + " 4.2"}}
}

// RoundOf builds a round with one unit wager on each of seats.
func RoundOf(ruleset, table, round string, dealtAt time.Time, unit money.Amount, seats []int, hits ...jackpot.Hit) jackpot.Round {
	r := jackpot.Round{Ruleset: ruleset, Table: table, Round: round, DealtAt: dealtAt, Wagers: []jackpot.ProgressiveWager{}, Hits: hits}
	for _, s := range seats {
		r.Wagers = append(r.Wagers, jackpot.ProgressiveWager{Seat: s, Amount: unit})
	}
	if r.Hits == nil {
		r.Hits = []jackpot.Hit{}
	}
	return r
}

// The actors of the lock tests.
var (
	Supervisor = jackpot.Actor{ID: "sup:ann", Role: "supervisor"}
	Cage       = jackpot.Actor{ID: "cage:bo", Role: "cage"}
	Admin      = jackpot.Actor{ID: "adm:al", Role: "admin"}
)

// Controller is the actor of the correction tests.
var Controller = jackpot.Actor{ID: "ctl:cy", Role: "controller"}

// MustReconcile fails t unless the pool's meters equal the sum over its
// ledger, to the minor unit.
func MustReconcile(t testing.TB, svc *pools.Service, id string) jackpot.Reconciliation {
	t.Helper()
	// Reads never fold (issue 34): the rounds a store committed beside
	// the pool reach the ledger by a fold, which a writer or the
	// scheduled fold makes; the test makes it here, as they would.
	if err := svc.Fold(context.Background(), id); err != nil {
		t.Fatalf("fold %s: %v", id, err)
	}
	rec, err := svc.Reconcile(context.Background(), id)
	if err != nil {
		t.Fatalf("reconcile %s: %v", id, err)
	}
	if !rec.OK {
		t.Fatalf("reconcile %s: differences %+v problems %v", id, rec.Differences, rec.Problems)
	}
	return rec
}
