package jackpot

import (
	"fmt"
	"math/big"
	"time"

	"github.com/tablesettle/tablesettle/internal/money"
)

// contribute credits the round's accepted progressive wagers (R4), carrying
// every fraction below the minor unit (never dropping it): credited*10000 +
// carry == sum(wager x rate) after every round.
func (c *change) contribute(r Round, total money.Amount) (Contribution, error) {
	p := c.pool
	out := Contribution{Wagers: int64(len(r.Wagers)), WagerAmount: total,
		Rules: []string{"ruling R4", "ruling R1"}}
	if len(r.Wagers) == 0 {
		return out, nil
	}
	e, err := contributionEntry(p, out.Wagers, total)
	if err != nil {
		return out, err
	}
	out.Displayed, out.Overflow, out.Reserve = e.Displayed, e.Overflow, e.Reserve
	e.Table, e.Round, e.Rules = r.Table, r.Round, out.Rules
	dealt := r.DealtAt
	e.DealtAt = &dealt
	c.post(e)
	return out, nil
}

// contributionEntry is the contribution entry of wagers wager amounts
// totalling amount, posted to p as its meters stand: the whole units of
// p's carried fraction + amount x rate credited, the rest carried (R1),
// the displayed meter's credit split at the ceiling (R4). The round's
// identity (table, round, time, rules) is the caller's.
func contributionEntry(p *Pool, wagers int64, amount money.Amount) (Entry, error) {
	s := p.Settings
	credit, carry, rateSum, err := Accrue(amount, s.ContributionBP, p.Meters.CarryDisplayed)
	if err != nil {
		return Entry{}, overflowError(s.Currency, err)
	}
	creditR, carryR, rateSumR, err := Accrue(amount, s.ReserveBP, p.Meters.CarryReserve)
	if err != nil {
		return Entry{}, overflowError(s.Currency, err)
	}
	toDisplayed, toOverflow := SplitAtCeiling(p.Meters.Displayed, credit, s.Ceiling)
	return Entry{Kind: KindContribution, Displayed: toDisplayed, Overflow: toOverflow, Reserve: creditR,
		CarryDisplayed: carry - p.Meters.CarryDisplayed, CarryReserve: carryR - p.Meters.CarryReserve,
		Wagers: wagers, WagerAmount: amount, RateSum: rateSum, RateSumReserve: rateSumR,
		Contributed: credit, ContributedReserve: creditR}, nil
}

// Accrue is the one rounding of contributions: it credits the whole minor
// units of carry + wagers x bp / 10000 and carries the rest. It returns the
// amount credited, the new carry (0-9999, in 1/10000 of the minor unit), and
// wagers x bp (in 1/10000 of the minor unit), so that
// credited*10000 + newCarry == carry + wagers*bp exactly.
func Accrue(wagers money.Amount, bp money.BasisPoints, carry int64) (credited money.Amount, newCarry, rateSum int64, err error) {
	q, rem, err := bp.Of(wagers)
	if err != nil {
		return 0, 0, 0, err
	}
	rateSum = int64(q)*10000 + rem
	if rateSum/10000 != int64(q) {
		return 0, 0, 0, money.ErrOverflow
	}
	t := carry + rem
	credited, err = money.Add(q, money.Amount(t/10000))
	return credited, t % 10000, rateSum, err
}

// SplitAtCeiling divides a credit between the displayed meter (up to the
// ceiling; no ceiling when it is zero) and the overflow meter.
// Every amount is >= 0; nothing here can overflow.
func SplitAtCeiling(displayed, credit, ceiling money.Amount) (toDisplayed, toOverflow money.Amount) {
	if ceiling <= 0 {
		return credit, 0
	}
	room := max(ceiling-displayed, 0)
	if credit <= room {
		return credit, 0
	}
	return room, credit - room
}

// HouseAmount is what a fixed or odds prize pays (R2), and the stake it
// returns: fixed pays its amount per accepted wager of the unit; "to 1"
// pays odds x stake and returns the stake; "for 1" pays odds x stake in
// all. Odds amounts round down (money.MulFloor).
func HouseAmount(p Prize, stake money.Amount) (amount, stakeReturned money.Amount, err error) {
	switch p.Kind {
	case PrizeFixed:
		return p.Amount, 0, nil
	case PrizeOddsTo:
		a, err := money.MulFloor(stake, p.Odds)
		return a, stake, err
	case PrizeOddsFor:
		a, err := money.MulFloor(stake, p.Odds)
		return a, 0, err
	}
	return 0, 0, fmt.Errorf("jackpot: %s is not a house prize", p.Kind)
}

func (c *change) payHouse(r Round, h Hit) (Payout, error) {
	amount, returned, err := HouseAmount(h.Prize, h.Stake)
	if err != nil {
		return Payout{}, overflowError(c.pool.Settings.Currency, err)
	}
	rules := dedup(append(append([]string(nil), h.Rules...), "ruling R2", "ruling R3"))
	fund := []Funding{{Source: SourceHouse, Amount: amount}}
	dealt := r.DealtAt
	e := c.post(Entry{Kind: KindHit, Table: r.Table, Round: r.Round, Seat: h.Seat, Dealt: h.Dealt, Category: h.Category, DealtAt: &dealt,
		Paid: amount, StakeReturned: returned, Funding: fund, HouseFunded: amount, Rules: rules,
		Note: "a fixed or odds prize is paid by the house and does not move the pool"})
	c.recordHit(e)
	po := Payout{Seat: h.Seat, Dealt: h.Dealt, Wager: wagerName(h.Wager), Table: r.Table, Round: r.Round, Category: h.Category,
		Status: "paid", Amount: amount, StakeReturned: returned, Funding: fund, HouseFunded: amount,
		DisplayedAfter: c.pool.Meters.Displayed, Seq: e.Seq, Rules: rules}
	out := []Payout{po}
	c.lock(r.Ruleset, []Hit{h}, []Entry{e}, out, h.Prize.Kind)
	return out[0], nil
}

func (c *change) recordHit(e Entry) {
	p := c.pool
	p.LastHits = append(p.LastHits, HitRecord{Seq: e.Seq, Table: e.Table, Round: e.Round, Seat: e.Seat, Category: e.Category, Paid: e.Paid, PaidAt: c.now})
	if n := len(p.LastHits); n > LastHitsKept {
		p.LastHits = append([]HitRecord(nil), p.LastHits[n-LastHitsKept:]...)
	}
}

type roundMeta struct {
	table, round, ruleset string
	dealtAt               time.Time
	heldSeq               int64
}

// SharedPrize is ruling R5's division of a percentage prize of bp basis
// points among n winners at one table, computed exactly (R21):
//
//	total = bp x (pool + (n-1) x reset) / 10000   (a fraction, never rounded)
//	share = floor(total / n)                       (the one rounding)
//
// so n Royal Flushes (10000 bp) share pool + (n-1) x reset and n Straight
// Flushes share 10% of the pool + (n-1) x 10% of the reset. Of the n x share
// paid, the pool funds its own part (its bp of the pool, rounded down: the
// pool is never debited more than that) less what the shares leave (the
// remainder stays in the pool), never below zero; extra, the rest, is the
// extra reset parts, funded from the overflow, the reserve, then the house
// (R21), each part rounded up to the minor unit (R27). share x n ==
// fromPool + extra, every part >= 0 and fromPool <=
// floor(bp x pool / 10000). The arithmetic is exact (math/big): a share
// that does not fit an int64 is ErrOverflow, never a wrapped value.
func SharedPrize(pool, reset money.Amount, bp money.BasisPoints, n int) (share, fromPool, extra money.Amount, err error) {
	if n < 1 || pool < 0 || reset < 0 || bp <= 0 || bp > 10000 {
		return 0, 0, 0, fmt.Errorf("jackpot: a shared prize of %d bp among %d winners", bp, n)
	}
	bn, bbp, b10k := big.NewInt(int64(n)), big.NewInt(int64(bp)), big.NewInt(10000)
	// The pool's own part and the extra reset parts, x 10000.
	ownNum := new(big.Int).Mul(big.NewInt(int64(pool)), bbp)
	extraNum := new(big.Int).Mul(new(big.Int).Mul(big.NewInt(int64(n-1)), big.NewInt(int64(reset))), bbp)
	totalNum := new(big.Int).Add(ownNum, extraNum)
	shareB := new(big.Int).Quo(totalNum, new(big.Int).Mul(b10k, bn))
	paid := new(big.Int).Mul(shareB, bn)
	if !paid.IsInt64() {
		return 0, 0, 0, money.ErrOverflow
	}
	own := new(big.Int).Quo(ownNum, b10k) // floor(bp x pool): the most the pool funds
	// R27: each of the n-1 extra reset parts that is not a whole minor
	// unit is funded rounded up (the fraction is the funder's, never the
	// players'), so the pool funds what the rounded-up parts leave.
	part := new(big.Int).Mul(big.NewInt(int64(reset)), bbp)
	part.Add(part, big.NewInt(9999)).Quo(part, b10k)
	extraUp := new(big.Int).Mul(part, big.NewInt(int64(n-1)))
	fromB := new(big.Int).Sub(paid, extraUp) // what the extra parts leave to the pool
	if fromB.Sign() < 0 {
		fromB.SetInt64(0)
	}
	if fromB.Cmp(own) > 0 {
		fromB.Set(own)
	}
	share, fromPool = money.Amount(shareB.Int64()), money.Amount(fromB.Int64())
	return share, fromPool, money.Amount(paid.Int64()) - fromPool, nil
}

// fundReset takes amount from the overflow, then the reserve, then the
// house for any shortfall (ruling R21).
func (c *change) fundReset(amount money.Amount) []Funding {
	m := &c.pool.Meters
	var out []Funding
	take := func(src Source, have money.Amount) {
		if amount <= 0 || have <= 0 {
			return
		}
		t := min(have, amount)
		out = append(out, Funding{Source: src, Amount: t})
		amount -= t
	}
	take(SourceOverflow, m.Overflow)
	take(SourceReserve, m.Reserve)
	if amount > 0 {
		out = append(out, Funding{Source: SourceHouse, Amount: amount})
	}
	return out
}

// payShared pays a group of winners of one percentage prize (n >= 1).
func (c *change) payShared(g []Hit, metas []roundMeta, cl clauses, extraRules ...string) ([]Payout, error) {
	p := c.pool
	bp := g[0].Prize.BP
	n := len(g)
	share, fromPool, extra, err := SharedPrize(p.Meters.Displayed, p.Settings.Reset, bp, n)
	if err != nil {
		return nil, overflowError(p.Settings.Currency, err)
	}
	ruleset := metas[0].ruleset
	rules := append([]string(nil), g[0].Rules...)
	rules = append(rules, "ruling R3")
	if n > 1 {
		rules = append(rules, "ruling R5", "ruling R21")
		if bp == 10000 {
			rules = append(rules, cite(ruleset, cl.royalShare)...)
		} else {
			rules = append(rules, cite(ruleset, cl.sfShare)...)
		}
	}
	rules = dedup(append(rules, extraRules...))
	// The sources, in the order they are drawn on: the pool's own part,
	// then the extra parts (overflow, reserve, house: R21).
	type src struct {
		s Source
		a money.Amount
	}
	queue := []src{{SourcePool, fromPool}}
	for _, f := range c.fundReset(extra) {
		queue = append(queue, src{f.Source, f.Amount})
	}
	var out []Payout
	var posts []Entry
	for i, h := range g {
		need := share
		var fund []Funding
		e := Entry{Kind: KindHit, Table: metas[i].table, Round: metas[i].round, Seat: h.Seat, Dealt: h.Dealt, Category: h.Category,
			Paid: share, Shared: shared(n), HeldSeq: metas[i].heldSeq, Rules: rules}
		dealt := metas[i].dealtAt
		e.DealtAt = &dealt
		for need > 0 && len(queue) > 0 {
			t := min(need, queue[0].a)
			if t > 0 {
				fund = append(fund, Funding{Source: queue[0].s, Amount: t})
				switch queue[0].s {
				case SourcePool:
					e.Displayed -= t
				case SourceOverflow:
					e.Overflow -= t
				case SourceReserve:
					e.Reserve -= t
				case SourceHouse:
					e.HouseFunded += t
				}
			}
			need -= t
			queue[0].a -= t
			if queue[0].a == 0 {
				queue = queue[1:]
			}
		}
		e.Funding = fund
		posted := c.post(e)
		posts = append(posts, posted)
		c.recordHit(posted)
		out = append(out, Payout{Seat: h.Seat, Dealt: h.Dealt, Wager: wagerName(h.Wager), Table: e.Table, Round: e.Round, Category: h.Category,
			Status: "paid", Amount: share, Funding: fund, HouseFunded: e.HouseFunded, Shared: shared(n), Seq: posted.Seq, Rules: rules})
	}
	c.lock(ruleset, g, posts, out, PrizePercent)
	if bp == 10000 {
		c.setReset(posts, c.reset(ruleset).Seq)
	}
	for i := range out {
		out[i].DisplayedAfter = p.Meters.Displayed
	}
	return out, nil
}

// reset restarts the pool from its reset amount on top of what the shares
// left (R3, R21), funded from the overflow, the reserve, then the house;
// then a recorded settings change takes effect.
func (c *change) reset(id string) Entry {
	p := c.pool
	amount := p.Settings.Reset
	fund := c.fundReset(amount)
	e := Entry{Kind: KindReset, Displayed: amount, Funding: fund,
		Rules: []string{"ruling R3", "ruling R21"}}
	// The document's own reset clause, where it has one (RWS 1.13).
	e.Rules = append(e.Rules, cite(id, c.rules.clausesOf(id).reset)...)
	for _, f := range fund {
		switch f.Source {
		case SourceOverflow:
			e.Overflow -= f.Amount
		case SourceReserve:
			e.Reserve -= f.Amount
		case SourceHouse:
			e.HouseFunded += f.Amount
		}
	}
	reset := c.post(e)
	if p.Pending != nil {
		old := p.Settings
		nw := p.Pending.Settings
		by := p.Pending.By
		if p.Pending.Actor != nil {
			by = "" // recorded as the actor
		}
		c.post(Entry{Kind: KindSettingsEffective, By: by, Actor: p.Pending.Actor, ApprovedBy: p.Pending.ApprovedBy, Reason: p.Pending.Reason, Old: &old, New: &nw,
			Note: "a recorded settings change takes effect after the reset"})
		p.Settings = nw
		p.Pending = nil
	}
	return reset
}
