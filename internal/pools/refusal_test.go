package pools_test

import (
	"errors"
	"testing"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// A store failure the pools did not classify is Unavailable, its cause
// kept for the logs; an Unavailable without detail says to retry; any
// other refusal is as it was.
func TestRefusal(t *testing.T) {
	disk := errors.New("disk full")
	if e := pools.Refusal(disk); e.Kind != fault.Unavailable || !errors.Is(e, disk) ||
		e.Detail != "progressive unavailable: the store could not confirm the write; nothing was half-applied, retry the request" {
		t.Errorf("unclassified: %+v", e)
	}
	if e := pools.Refusal(&fault.Error{Kind: fault.Unavailable}); e.Detail != "progressive unavailable: retry the request" {
		t.Errorf("unavailable without detail: %q", e.Detail)
	}
	nf := fault.New(fault.NotFound, "no pool p")
	if e := pools.Refusal(nf); e != nf {
		t.Errorf("a refusal changed: %+v", e)
	}
}

// A refusal of a proposal's change at approval names the proposal, saying
// which of its fields; a refusal about the pool or the request's path
// stays where it is.
func TestAtProposal(t *testing.T) {
	e, _ := fault.As(pools.AtProposal(fault.InvalidField("amount", -5, "the reserve would go below zero")))
	if e.Field() != "path.proposal" || e.Fields[0].Message != "the proposal's amount: the reserve would go below zero" {
		t.Errorf("amount: %+v", e.Fields)
	}
	for _, field := range []string{"", jackpot.FieldPool, "path.id", "header.Idempotency-Key"} {
		in := fault.InvalidField(field, nil, "x")
		if got, _ := fault.As(pools.AtProposal(in)); got.Field() != field {
			t.Errorf("%q moved to %q", field, got.Field())
		}
	}
}
