package pools_test

import (
	"context"
	"testing"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/sqlite"
)

// openPool is a Service over a new SQLite store, on a test clock at
// jackpottest.T0, with pool id opened by an admin with settings s.
func openPool(t *testing.T, id string, s jackpot.Settings) (*pools.Service, *jackpottest.Clock, jackpot.Pool) {
	t.Helper()
	st, err := sqlite.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	clock := jackpottest.NewClock(jackpottest.T0)
	svc := pools.NewService(st, clock.Now, 1)
	p, _, err := svc.Create(context.Background(), id, s, jackpottest.Admin)
	if err != nil {
		t.Fatal(err)
	}
	return svc, clock, p
}
