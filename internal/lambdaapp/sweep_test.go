package lambdaapp

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// fakeSweeper answers SweepHeld with what it is given.
type fakeSweeper struct {
	released []pools.Released
	err      error
}

func (f fakeSweeper) SweepHeld(context.Context) ([]pools.Released, error) { return f.released, f.err }

// TestSweepFailsLoudly: a sweep that could not reach a pool still logs
// what it paid elsewhere (JPY 1,234,567 at T9), and the invocation fails
// (the function's Errors alarm; the next minute's run tries again)
// without the store's words in the returned error.
func TestSweepFailsLoudly(t *testing.T) {
	var logs bytes.Buffer
	h := Sweep(fakeSweeper{
		released: []pools.Released{{Pool: "jp", Currency: "JPY", Paid: []jackpot.Payout{{Table: "T9", Round: "r9", Seat: 3, Category: "royal_flush", Amount: 1_234_567, Seq: 12}}}},
		err:      errors.New("dynamo: get pool other: connection refused"),
	}, Logger(&logs, "info"))
	rep, err := h(context.Background(), events.EventBridgeEvent{ID: "ev-1"})
	if err == nil || strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("error %v: want one, without the store's words", err)
	}
	if rep != (SweepReport{Pools: 1, Paid: 1}) {
		t.Fatalf("report %+v", rep)
	}
	out := logs.String()
	for _, want := range []string{`"msg":"held hit paid"`, `"amount":"JPY 1,234,567"`, `"table":"T9"`, `"seq":12`, `"level":"ERROR"`, `connection refused`} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %s:\n%s", want, out)
		}
	}
}
