package jackpot

import (
	"sort"
	"time"
)

// hold records an RWS major hit pending for the settle window (R7).
func (c *change) hold(r Round, h Hit, payAfter time.Time, extraRules ...string) Payout {
	dealt := r.DealtAt
	rules := dedup(append(append(append(append([]string(nil), h.Rules...), extraRules...), "ruling R7", "ruling R21"), cite(r.Ruleset, c.rules.clausesOf(r.Ruleset).acrossTables)...))
	e := c.post(Entry{Kind: KindHeld, Table: r.Table, Round: r.Round, Seat: h.Seat, Dealt: h.Dealt, Category: h.Category, DealtAt: &dealt,
		Rules: rules, Note: "held for the settle window; paid from the pool as it stands when it is paid"})
	c.pool.Held = append(c.pool.Held, HeldHit{Seq: e.Seq, Table: r.Table, Round: r.Round, Ruleset: r.Ruleset, DealtAt: r.DealtAt,
		HeldAt: c.now, PayAfter: payAfter, Hit: h})
	pa := payAfter
	return Payout{Seat: h.Seat, Dealt: h.Dealt, Wager: wagerName(h.Wager), Table: r.Table, Round: r.Round, Category: h.Category,
		Status: "held", PayAfter: &pa, Funding: []Funding{}, DisplayedAfter: c.pool.Meters.Displayed, Seq: e.Seq, Rules: rules}
}

// heldLess is the R7 order: dealt first, then committed first, then the
// dealing order at the table.
func heldLess(a, b HeldHit) bool {
	if !a.DealtAt.Equal(b.DealtAt) {
		return a.DealtAt.Before(b.DealtAt)
	}
	if a.Seq != b.Seq {
		return a.Seq < b.Seq
	}
	return a.Hit.Dealt < b.Hit.Dealt
}

// MaxReleasedPerCommit bounds the held hits one commit pays, so that a
// commit stays inside one DynamoDB transaction (100 items: each released
// hit writes up to 3 ledger entries).
const MaxReleasedPerCommit = 20

// Clock is the actor of a release of held hits that nobody asked for by
// name: the settle window closed on the service's clock, and a round of
// any table, a read of the floor or a sweep found it closed (issue 33
// item 5: a round of another table did not decide to pay the hit, so
// its principal is not the release's actor). docs/floor.md.
var Clock = Actor{ID: "service", Role: "clock"}

// releaseDue pays the held hits whose window has passed, and every held
// hit dealt before one of them (a hand dealt earlier is paid first, R7),
// in the R7 order, each from the pool as it stands (R21). Every entry it
// writes names c's releaser, the service's clock (Clock) unless set.
func (c *change) releaseDue() ([]Payout, error) {
	from := len(c.entries)
	out, err := c.payDue()
	by := Clock
	if c.releaser != nil {
		by = *c.releaser
	}
	for i := from; i < len(c.entries); i++ {
		if c.entries[i].Actor == nil {
			a := by
			c.entries[i].Actor = &a
		}
	}
	return out, err
}

// payDue is releaseDue, its entries naming no actor.
func (c *change) payDue() ([]Payout, error) {
	p := c.pool
	if len(p.Held) == 0 {
		return nil, nil
	}
	held := append([]HeldHit(nil), p.Held...)
	sort.SliceStable(held, func(i, j int) bool { return heldLess(held[i], held[j]) })
	last := -1
	for i, h := range held {
		if !h.PayAfter.After(c.now) {
			last = i
		}
	}
	if last < 0 {
		return nil, nil
	}
	// At most MaxReleasedPerCommit per commit (a store writes one commit in
	// one transaction); the rest, still in order, go with the next commit.
	last = min(last, MaxReleasedPerCommit-1)
	var out []Payout
	for _, h := range held[:last+1] {
		cl := c.rules.clausesOf(h.Ruleset)
		pos, err := c.payShared([]Hit{h.Hit}, []roundMeta{{table: h.Table, round: h.Round, ruleset: h.Ruleset, dealtAt: h.DealtAt, heldSeq: h.Seq}}, cl)
		if err != nil {
			return nil, err
		}
		for i := range pos {
			pos[i].Rules = dedup(append(append(pos[i].Rules, "ruling R7", "ruling R21"), cite(h.Ruleset, cl.acrossTables)...))
		}
		out = append(out, pos...)
	}
	p.Held = append([]HeldHit(nil), held[last+1:]...)
	return out, nil
}

// HeldDueAt is when the first of p's held hits becomes due (the earliest
// window's close, R7), and whether p holds any: what a store's held index
// keeps (internal/dynamo, internal/sqlite; pools.HeldIndex).
func HeldDueAt(p Pool) (time.Time, bool) {
	if len(p.Held) == 0 {
		return time.Time{}, false
	}
	due := p.Held[0].PayAfter
	for _, h := range p.Held[1:] {
		if h.PayAfter.Before(due) {
			due = h.PayAfter
		}
	}
	return due, true
}

// DueHeld is how many held hits a commit at now would pay: those whose
// window has passed and every one dealt before one of them (R7).
func DueHeld(p Pool, now time.Time) int {
	held := append([]HeldHit(nil), p.Held...)
	sort.SliceStable(held, func(i, j int) bool { return heldLess(held[i], held[j]) })
	last := -1
	for i, h := range held {
		if !h.PayAfter.After(now) {
			last = i
		}
	}
	return last + 1
}

// Release pays the held hits that are due at now (R7) without a round,
// recorded as the service's clock (Clock). It reports false when nothing
// was due (and then there is nothing to commit).
func Release(p Pool, now time.Time) (Pool, []Entry, []Payout, bool, error) {
	return Standard().Release(p, now)
}

// Release is Release for a pool under k's rulesets.
func (k Rules) Release(p Pool, now time.Time) (Pool, []Entry, []Payout, bool, error) {
	return k.ReleaseBy(p, now, Clock)
}

// ReleaseBy is Release recorded as by: the principal who asked for it by
// name (the floor's Release button), or Clock.
func (k Rules) ReleaseBy(p Pool, now time.Time, by Actor) (Pool, []Entry, []Payout, bool, error) {
	q := p.clone()
	c := &change{pool: &q, now: now, rules: k, releaser: &by}
	out, err := c.releaseDue()
	if err != nil || len(out) == 0 {
		return p, nil, nil, false, err
	}
	if c.err != nil {
		return p, nil, nil, false, overflowError(c.pool.Settings.Currency, c.err)
	}
	c.finish()
	return q, c.entries, out, true, nil
}
