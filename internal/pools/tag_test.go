package pools_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
)

// An answer's tag (issue 24) changes with the pool's version, with the
// answer's variant, with a held hit falling due (ruling R7) and with the
// shards' state (issue 25); read again unchanged, it is the same.
func TestTag(t *testing.T) {
	svc, clock, p := openPool(t, "rws", jackpottest.RWSSettings())
	ctx := context.Background()
	first := svc.Tag(p, "pool")
	if !strings.HasPrefix(first, `W/"v1.s1.h0.x0.`) || svc.Tag(p, "pool") != first {
		t.Fatalf("tag %s, not stable or not of version 1, entry 1", first)
	}
	if svc.Tag(p, "hits?state=open") == first {
		t.Error("two variants share a tag")
	}
	sharded := p
	sharded.Shards = "s1:4"
	if svc.Tag(sharded, "pool") == first {
		t.Error("the shards' state does not change the tag")
	}
	r := jackpottest.RoundOf("rws-mlp-csp-v2", "T1", "r1", jackpottest.T0, 500, []int{1}, jackpottest.Royal("rws-mlp-csp-v2", 1, 1, 500))
	if _, _, err := svc.ApplyRound(ctx, "rws", r, "", ""); err != nil {
		t.Fatal(err)
	}
	p, _ = svc.Get(ctx, "rws")
	held := svc.Tag(p, "pool")
	if held == first || !strings.Contains(held, ".h0.") {
		t.Fatalf("after a round: %s", held)
	}
	clock.Advance(3 * time.Second)
	if due := svc.Tag(p, "pool"); !strings.Contains(due, ".h1.") || len(p.Held) != 1 {
		t.Errorf("the held Royal fallen due: %s (held %d)", due, len(p.Held))
	}
}

// The sign's tag (issue 24) changes when what the sign shows does (a
// round's contribution moves the meter), not with the time of the answer.
func TestDisplayTag(t *testing.T) {
	svc, clock, p := openPool(t, "p", jackpottest.MBSSettings())
	ctx := context.Background()
	d, first := svc.Display(p)
	if !strings.HasPrefix(first, `W/"b`) || !d.AsOf.Equal(jackpottest.T0) {
		t.Fatalf("tag %s, asOf %v", first, d.AsOf)
	}
	clock.Advance(time.Minute)
	if d, again := svc.Display(p); again != first || !d.AsOf.Equal(jackpottest.T0.Add(time.Minute)) {
		t.Errorf("a minute later: tag %s (was %s), asOf %v", again, first, d.AsOf)
	}
	r := jackpottest.RoundOf("mbs-megalink-ssp-v6", "T1", "r1", jackpottest.T0, 500, []int{1})
	if _, _, err := svc.ApplyRound(ctx, "p", r, "", ""); err != nil {
		t.Fatal(err)
	}
	p, _ = svc.Get(ctx, "p")
	if _, after := svc.Display(p); after == first {
		t.Error("the meter moved, the tag did not")
	}
}
