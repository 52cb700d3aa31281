package jackpot

import (
	"fmt"
	"time"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/money"
)

// Corrections (issue 13, ruling R28). A round already applied to a pool is
// corrected (a corrected round replaces it) or voided (with the rule that
// voids it) by new ledger entries that reverse the original's and apply
// the corrected round, each citing the original commit; nothing is
// edited. A hit the correction takes back that is still pending or
// confirmed (not paid) returns to its sources, as a void does; a hit
// already paid (to the winner, at the table or by the cage) is not taken
// from the pool a second time: the house funds its return to the meters
// and records the amount as a house recovery, to claim from the winner.

// RulingR29 governs the undoing of a hit (a void, or a correction of its
// round): that hit's own entries are reversed, and the hits applied after
// it keep the amounts they were paid or fixed while pending.
const RulingR29 = "ruling R29"

// Correction is a request to correct a round.
type Correction struct {
	Table string `json:"table"`
	Round string `json:"round"`
	// Corrected is the round as it should have been; nil voids it.
	Corrected *Round `json:"corrected,omitempty"`
	// Rules cite the rule that voids or corrects it (required for a void).
	Rules  []string `json:"rules,omitempty"`
	Reason string   `json:"reason"`
}

// CorrectionResult is the answer to a correction.
type CorrectionResult struct {
	Pool  string `json:"pool"`
	Table string `json:"table"`
	Round string `json:"round"`
	// Corrects is the original round's commit.
	Corrects string `json:"corrects"`
	// Reversed are the original's entries reversed (their sequence numbers).
	Reversed []int64 `json:"reversed"`
	// HouseRecovery is what the house claims back from winners of hits
	// already paid that the correction takes back.
	HouseRecovery money.Amount `json:"houseRecovery"`
	// Result is the corrected round's answer (absent for a void).
	Result *RoundResult `json:"result,omitempty"`
	// Rules are what the correction applied: ruling R28, the rules the
	// request cited, and ruling R29 when it took back a hit (the hits
	// applied after it keep their amounts). Absent from answers stored
	// before it was recorded.
	Rules []string `json:"rules,omitempty"`
	// Difference is the net movement of the meters.
	Difference MeterView `json:"difference"`
	Meters     MeterView `json:"meters"`
	Version    int64     `json:"version"`
}

// Correct applies a correction of the round the original commit applied.
// ledger is the pool's whole ledger (oldest first).
func Correct(p Pool, ledger []Entry, original string, corr Correction, by Actor, now time.Time) (Pool, []Entry, CorrectionResult, error) {
	return Standard().Correct(p, ledger, original, corr, by, now)
}

// Correct is Correct for a pool under k's rulesets.
func (k Rules) Correct(p Pool, ledger []Entry, original string, corr Correction, by Actor, now time.Time) (Pool, []Entry, CorrectionResult, error) {
	fail := func(err error) (Pool, []Entry, CorrectionResult, error) { return Pool{}, nil, CorrectionResult{}, err }
	if err := requireActor(by); err != nil {
		return fail(err)
	}
	if corr.Reason == "" {
		return fail(invalid("reason", "a correction states its reason"))
	}
	if corr.Corrected == nil && len(corr.Rules) == 0 {
		return fail(invalid("rules", "a void cites the rule that voids the round (ruling R28)"))
	}
	if c := corr.Corrected; c != nil && (c.Table != corr.Table || c.Round != corr.Round) {
		return fail(invalid("corrected.round", "the corrected round keeps the original's table and round id"))
	}
	reversed := map[int64]bool{} // hits already voided or reversed
	for _, e := range ledger {
		if e.Corrects == original {
			return fail(&fault.Error{Kind: fault.Conflict, Detail: fmt.Sprintf("table %s round %s was already corrected", corr.Table, corr.Round),
				Fields: []fault.Problem{{Field: "round", Message: "already corrected"}}})
		}
		if e.Kind == KindHitVoid || e.Kind == KindHouseRecovery {
			reversed[e.HitSeq] = true
		}
	}
	rules := append([]string{"ruling R28"}, corr.Rules...)
	q := p.clone()
	c := &change{pool: &q, now: now}
	res := CorrectionResult{Pool: p.ID, Table: corr.Table, Round: corr.Round, Corrects: original, Reversed: []int64{}}
	before := q.view()
	post := func(e Entry) Entry {
		e.Corrects, e.Actor, e.Reason = original, &by, corr.Reason
		e.Rules = dedup(append(append([]string(nil), e.Rules...), rules...))
		return c.post(e)
	}
	resetDone := map[int64]bool{} // a shared prize's one reset
	mine := func(e Entry) bool { return e.Table == corr.Table && e.Round == corr.Round }
	// The original's entries are reversed last first (the hits before the
	// contribution that fed them), so that what the original took from a
	// meter is back before what it gave is taken; a hit's reset is
	// reversed after the hit (below).
	for i := len(ledger) - 1; i >= 0; i-- {
		e := ledger[i]
		switch {
		case e.Kind == KindContribution && mine(e) && e.Commit == original:
			r := reverseContribution(&q, e)
			// Each part of the refund leaves the meter the original
			// credited (R28). What the original credited to the overflow
			// or the reserve may have been spent since on a reset (R21):
			// the house tops the meter up first (house_top_up) so that the
			// refund leaves it as it would stand had the round never been
			// (its twin), as the reset would then have taken that part
			// from the house. The displayed meter is topped up only where
			// the refund would take it below zero. So the refund never
			// takes a meter below zero.
			skip := reversedPairs(ledger)
			for _, s := range res.Reversed {
				skip[s] = true
			}
			top := Entry{Kind: KindHouseTopUp, Table: e.Table, Round: e.Round, Rules: []string{"ruling R21"},
				Note: "the house funds what the contribution taken back credited and was spent since"}
			if e.Overflow > 0 {
				part := min(max(e.Overflow-r.Contributed-e.Contributed, 0), -r.Contributed)
				r.Displayed, r.Overflow = r.Contributed+part, -part
				twin := twinMeter(ledger, i, q.Meters.Overflow, q.Meters.CarryDisplayed, skip, overflowMeter)
				top.Overflow = max(twin-(q.Meters.Overflow-part), 0)
			}
			twin := twinMeter(ledger, i, q.Meters.Reserve, q.Meters.CarryReserve, skip, reserveMeter)
			top.Reserve = max(twin-(q.Meters.Reserve+r.Reserve), 0)
			if short := -r.Displayed - q.Meters.Displayed; short > 0 {
				top.Displayed = short
			}
			if n := top.Reserve + top.Displayed + top.Overflow; n > 0 {
				top.HouseFunded, top.Funding = n, []Funding{{Source: SourceHouse, Amount: n}}
				post(top)
			}
			post(r)
			res.Reversed = append(res.Reversed, e.Seq)
		case e.Kind == KindHeld && mine(e) && e.Commit == original:
			for j, h := range q.Held {
				if h.Seq == e.Seq {
					q.Held = append(q.Held[:j:j], q.Held[j+1:]...)
					post(Entry{Kind: KindHeldVoid, Table: e.Table, Round: e.Round, Seat: e.Seat, Category: e.Category, HitSeq: e.Seq,
						Note: "the held hit is withdrawn: its round is corrected"})
					res.Reversed = append(res.Reversed, e.Seq)
					break
				}
			}
		case e.Kind == KindHit && mine(e) && !reversed[e.Seq]:
			// The hit's prize goes back before its reset's funding leaves
			// the displayed meter, and a shared prize's one reset after
			// the last of its group: the reset put in the displayed meter
			// what the prizes took out, so taken back first it could leave
			// the meter below zero for an entry when a later hit took from
			// it (issue 33 item 9). Every entry then leaves every meter at
			// zero or above.
			res.HouseRecovery += reverseHit(c, &q, e, post)
			res.Reversed = append(res.Reversed, e.Seq)
			r := resetAfter(ledger, i)
			if r == nil || resetDone[r.Seq] {
				break
			}
			if i > 0 && ledger[i-1].Kind == KindHit && mine(ledger[i-1]) && !reversed[ledger[i-1].Seq] && resetAfter(ledger, i-1) == r {
				break // another hit of the group is reversed next
			}
			resetDone[r.Seq] = true
			post(reverseReset(*r, e.Seq))
			res.Reversed = append(res.Reversed, r.Seq)
		}
	}
	if c.err != nil {
		return fail(overflowError(c.pool.Settings.Currency, c.err))
	}
	if m := q.Meters; m.Displayed < 0 || m.Reserve < 0 || m.Overflow < 0 {
		return fail(&fault.Error{Kind: fault.Conflict, Detail: "the correction would take a meter below zero: the pool was adjusted since; adjust it first",
			Fields: []fault.Problem{{Field: "round", Message: "a meter cannot go below zero"}}})
	}
	res.Rules = rules
	for _, e := range c.entries {
		if e.Kind == KindHitVoid || e.Kind == KindHouseRecovery || e.Kind == KindResetVoid {
			res.Rules = dedup(append(append([]string(nil), rules...), RulingR29))
		}
	}
	entries := c.entries
	if corr.Corrected == nil {
		c.finish()
	} else {
		q2, es, rr, err := k.Apply(q, *corr.Corrected, now)
		if err != nil {
			return fail(fault.Under(err, "corrected"))
		}
		for i := range es {
			es[i].Corrects, es[i].Actor, es[i].Reason = original, &by, corr.Reason
			es[i].Rules = dedup(append(es[i].Rules, rules...))
		}
		q, entries = q2, append(entries, es...)
		res.Result = &rr
	}
	after := q.view()
	res.Difference = MeterView{Displayed: after.Displayed - before.Displayed, Reserve: after.Reserve - before.Reserve, Overflow: after.Overflow - before.Overflow}
	res.Meters, res.Version = after, q.Version
	return q, entries, res, nil
}

// reverseContribution is the entry that takes back a contribution,
// carrying the fractions exactly as Accrue does: credited x 10000 + carry
// change == -(the original's wagers x rate), so Reconcile's sums hold.
func reverseContribution(p *Pool, e Entry) Entry {
	credit := func(carry, rate int64) (money.Amount, int64) {
		t := carry - rate
		q := t / 10000
		if t%10000 < 0 {
			q--
		}
		return money.Amount(q), t - q*10000 - carry
	}
	cd, dcd := credit(p.Meters.CarryDisplayed, e.RateSum)
	cr, dcr := credit(p.Meters.CarryReserve, e.RateSumReserve)
	// What is taken back leaves the displayed meter here; Correct moves
	// the overflow's part to the overflow (R28).
	r := Entry{Kind: KindContribution, Table: e.Table, Round: e.Round, DealtAt: e.DealtAt,
		Displayed: cd, Reserve: cr, CarryDisplayed: dcd, CarryReserve: dcr,
		Wagers: -e.Wagers, WagerAmount: -e.WagerAmount, RateSum: -e.RateSum, RateSumReserve: -e.RateSumReserve,
		Contributed: cd, ContributedReserve: cr, HitSeq: e.Seq, Rules: e.Rules,
		Note: "the original round's contribution taken back"}
	return r
}

// meterOf reads, from a ledger entry, one meter's delta, its carry's
// delta, its rate sum, and whether a contribution's credit reached it.
type meterOf struct {
	delta   func(Entry) money.Amount
	carry   func(Entry) int64
	rateSum func(Entry) int64
	credit  func(Entry) money.Amount
	reached func(Entry) bool
	// first: the meter funds resets first (the overflow, R21).
	first bool
}

var (
	overflowMeter = meterOf{func(e Entry) money.Amount { return e.Overflow }, func(e Entry) int64 { return e.CarryDisplayed },
		func(e Entry) int64 { return e.RateSum }, func(e Entry) money.Amount { return e.Contributed }, func(e Entry) bool { return e.Overflow != 0 }, true}
	reserveMeter = meterOf{func(e Entry) money.Amount { return e.Reserve }, func(e Entry) int64 { return e.CarryReserve },
		func(e Entry) int64 { return e.RateSumReserve }, func(e Entry) money.Amount { return e.ContributedReserve }, func(e Entry) bool { return true }, false}
)

// CorrectionReach is the sequence number after which Correct needs the
// ledger, read from after: the ledger from after on reaches back to every
// contribution whose refund it holds, since the twin of a correction is
// the pool without those rounds either (twinMeter). It returns after when
// the ledger read from there is enough; else the caller reads again from
// the answer.
func CorrectionReach(ledger []Entry, after int64) int64 {
	reach := after
	for _, x := range ledger {
		if isRefund(x) && x.HitSeq-1 < reach {
			reach = x.HitSeq - 1
		}
	}
	return max(reach, 0)
}

// isRefund reports whether x takes back a contribution (a correction's,
// ruling R28): it cites the contribution it reverses.
func isRefund(x Entry) bool {
	return x.Kind == KindContribution && x.Corrects != "" && x.Wagers < 0 && x.HitSeq > 0
}

// twinMeter is what a meter (the overflow or the reserve) would hold now
// in the pool's twin: the pool that never saw the contribution ledger[i],
// nor the contributions of the rounds taken back since. It replays the
// ledger on the meter without them, from the first of them: each
// contribution credits what the twin's carries make of its rate sum (the
// credits are the whole units of the running sum of wagers x rate), a
// reset or a shared prize's extra reset parts draw from the twin meter what
// it holds of what they needed of it (the house funding the rest, R21),
// and every other movement is the same. now and carry are the meter and its
// carry as they stand; entries named in skip are left out (reversed exactly
// by another entry, so together they moved nothing). The ledger must reach
// back to every contribution whose refund it holds (CorrectionReach).
func twinMeter(ledger []Entry, i int, now money.Amount, carry int64, skip map[int64]bool, m meterOf) money.Amount {
	e := ledger[i]
	// The rounds taken back since: their contributions, refunds and
	// top-ups are not the twin's.
	out := map[int64]bool{e.Seq: true}
	type key struct{ corrects, table, round string }
	undone := map[key]bool{}
	start := i
	at := map[int64]int{}
	for j, x := range ledger {
		at[x.Seq] = j
	}
	// Every round taken back after the replay's start is left out, from
	// its contribution on: the replay starts at the first of them.
	for moved := true; moved; {
		moved = false
		for _, x := range ledger[start:] {
			if !isRefund(x) || out[x.Seq] {
				continue
			}
			out[x.Seq], out[x.HitSeq] = true, true
			undone[key{x.Corrects, x.Table, x.Round}] = true
			if k, ok := at[x.HitSeq]; ok && k < start {
				start, moved = k, true
			}
		}
	}
	for _, x := range ledger {
		if x.Kind == KindHouseTopUp && undone[key{x.Corrects, x.Table, x.Round}] {
			out[x.Seq] = true
		}
	}
	bal := now
	for j := len(ledger) - 1; j >= start; j-- {
		carry -= m.carry(ledger[j])
		if !skip[ledger[j].Seq] {
			bal -= m.delta(ledger[j])
		}
	}
	twin, twinCarry := bal, carry // as they stood before the first
	for _, x := range ledger[start:] {
		if skip[x.Seq] || out[x.Seq] {
			continue
		}
		d := m.delta(x)
		switch {
		case x.Kind == KindContribution:
			t := twinCarry + m.rateSum(x)
			q := t / 10000
			if t%10000 < 0 {
				q--
			}
			twinCarry = t - q*10000
			if m.reached(x) {
				twin += d + money.Amount(q) - m.credit(x)
			} else {
				twin += d
			}
		case d < 0 && (x.Kind == KindReset || x.Kind == KindHit):
			// What the reset (or the extra reset parts of a shared
			// prize, R5) needed from this meter on: the overflow first,
			// then the reserve, then the house (R21).
			var need money.Amount
			for _, f := range x.Funding {
				if f.Source != SourcePool && (m.first || f.Source != SourceOverflow) {
					need += f.Amount
				}
			}
			twin -= min(need, max(twin, 0))
		default:
			twin += d
		}
	}
	return twin
}

// reversedPairs names the entries of ledger that a later entry reversed
// exactly (a reset and its reset_void, a hit and its hit_void or
// house_recovery), with the reversals: together they moved no meter, so
// the lowest a meter stood is read without them.
func reversedPairs(ledger []Entry) map[int64]bool {
	skip := map[int64]bool{}
	for _, e := range ledger {
		switch e.Kind {
		case KindResetVoid:
			skip[e.Seq], skip[e.ResetSeq] = true, true
		case KindHitVoid, KindHouseRecovery:
			skip[e.Seq], skip[e.HitSeq] = true, true
		}
	}
	return skip
}

// reverseHit takes back hit e: to its sources when it is pending or
// confirmed under the lock, else (paid) as a house recovery. It returns
// what the house recovers.
func reverseHit(c *change, p *Pool, e Entry, post func(Entry) Entry) money.Amount {
	for i, h := range p.Locked {
		if h.Seq != e.Seq || (h.State != StatePending && h.State != StateConfirmed) {
			continue
		}
		v := Entry{Kind: KindHitVoid, Table: e.Table, Round: e.Round, Seat: e.Seat, Category: e.Category, HitSeq: e.Seq, Paid: e.Paid,
			Funding: append([]Funding(nil), e.Funding...), Rules: []string{RulingR29}, Note: "the hit is taken back before it was paid: its amount returns to its sources"}
		v.returnFunding(e.Funding)
		post(v)
		p.Locked[i].State = StateVoided
		c.prune()
		return 0
	}
	// Paid: the pool's, the overflow's and the reserve's parts return to
	// them, funded by the house, which recovers the whole prize from the
	// winner.
	r := Entry{Kind: KindHouseRecovery, Table: e.Table, Round: e.Round, Seat: e.Seat, Category: e.Category, HitSeq: e.Seq,
		Paid: e.Paid, Recovered: e.Paid, Rules: []string{RulingR29}, Note: "the hit was already paid: the house returns what the meters funded and recovers the prize from the winner"}
	var back money.Amount
	for _, f := range e.Funding {
		switch f.Source {
		case SourcePool:
			r.Displayed += f.Amount
		case SourceOverflow:
			r.Overflow += f.Amount
		case SourceReserve:
			r.Reserve += f.Amount
		default:
			continue
		}
		back += f.Amount
	}
	if back > 0 {
		r.Funding = []Funding{{Source: SourceHouse, Amount: back}}
		r.HouseFunded = back
	}
	post(r)
	for i, h := range p.Locked {
		if h.Seq == e.Seq {
			p.Locked[i].State = StateVoided
		}
	}
	c.prune()
	return e.Paid
}

// resetAfter is the reset a whole-pool prize's hit at ledger[i] caused:
// the reset that follows it in its commit, past only the other hits of
// its group. A prize of 100% of the pool resets it whatever hand wins it
// (R3), and its reset is posted right after its group's hits; no other
// hit is followed by a reset, so the ledger, not the hand's name, says
// which hits reset the pool.
func resetAfter(ledger []Entry, i int) *Entry {
	h := ledger[i]
	for j := i + 1; j < len(ledger); j++ {
		e := ledger[j]
		if e.Commit != h.Commit {
			return nil
		}
		switch {
		case e.Kind == KindReset:
			return &ledger[j]
		case e.Kind == KindHit && e.Table == h.Table && e.Round == h.Round && e.Category == h.Category:
		default:
			return nil
		}
	}
	return nil
}

// reverseReset takes back a reset: its amount leaves the displayed meter
// and returns to the sources that funded it.
func reverseReset(reset Entry, hit int64) Entry {
	r := Entry{Kind: KindResetVoid, HitSeq: hit, ResetSeq: reset.Seq, Displayed: -reset.Displayed,
		Funding: append([]Funding(nil), reset.Funding...), Rules: []string{"ruling R3", "ruling R21", RulingR29},
		Note: "the reset of the hit taken back is reversed: its funding returns to its sources"}
	r.returnFunding(reset.Funding)
	return r
}

// returnFunding adds to e's meter movements the funding going back to its
// sources: the pool's part to the displayed meter, the overflow's and the
// reserve's to theirs, the house's out of what the house has funded. A
// void and a correction reverse a hit or a reset this one way.
func (e *Entry) returnFunding(funding []Funding) {
	for _, f := range funding {
		switch f.Source {
		case SourcePool:
			e.Displayed += f.Amount
		case SourceOverflow:
			e.Overflow += f.Amount
		case SourceReserve:
			e.Reserve += f.Amount
		case SourceHouse:
			e.HouseFunded -= f.Amount
		}
	}
}
