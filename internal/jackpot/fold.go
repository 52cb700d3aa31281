package jackpot

import (
	"fmt"
	"time"

	"github.com/tablesettle/tablesettle/internal/money"
)

// Pending is what a pool's contribution shards hold between two commits
// of the pool: rounds without a hit whose contributions were committed
// beside the pool (internal/dynamo), not yet credited to its meters.
type Pending struct {
	Rounds      int64        `json:"rounds"`
	Wagers      int64        `json:"wagers"`
	WagerAmount money.Amount `json:"wagerAmount"`
}

// Add sums two pendings, overflow-checked.
func (a Pending) Add(b Pending) (Pending, error) {
	var err1, err2, err3 error
	var r, w money.Amount
	r, err1 = money.Add(money.Amount(a.Rounds), money.Amount(b.Rounds))
	w, err2 = money.Add(money.Amount(a.Wagers), money.Amount(b.Wagers))
	amt, err3 := money.Add(a.WagerAmount, b.WagerAmount)
	if err1 != nil || err2 != nil || err3 != nil {
		return Pending{}, money.ErrOverflow
	}
	return Pending{Rounds: int64(r), Wagers: int64(w), WagerAmount: amt}, nil
}

// Fold credits pending contributions to p as one contribution entry
// (R4): exactly what the rounds would have credited applied one after the
// other, since the carried fraction makes the credit of a sum the credit
// of its parts (R1: the whole units of carry + sum(wager x rate) are
// credited, the rest carried, as Accrue does for one round). The entry is
// stamped at, the time of the last of the rounds; when it folds one round
// only, one is that round's own entry (Contribute), and the fold is that
// round's entry as Apply would have posted it (its table, round, commit
// and actor). Nothing pending returns p and no entry. The version does not
// move: the fold is part of the commit that follows it. Only a store that
// commits contributions beside the pool calls it, with the pool's settings
// unchanged since those rounds were accepted.
func (k Rules) Fold(p Pool, pend Pending, one *Entry, at time.Time) (Pool, []Entry, error) {
	if pend.Wagers == 0 && pend.WagerAmount == 0 {
		return p, nil, nil
	}
	q := p.clone()
	c := &change{pool: &q, now: at, rules: k}
	s := q.Settings
	credit, carry, rateSum, err := Accrue(pend.WagerAmount, s.ContributionBP, q.Meters.CarryDisplayed)
	if err != nil {
		return Pool{}, nil, overflowError(s.Currency, err)
	}
	creditR, carryR, rateSumR, err := Accrue(pend.WagerAmount, s.ReserveBP, q.Meters.CarryReserve)
	if err != nil {
		return Pool{}, nil, overflowError(s.Currency, err)
	}
	toDisplayed, toOverflow := SplitAtCeiling(q.Meters.Displayed, credit, s.Ceiling)
	e := Entry{Kind: KindContribution, Rules: []string{"ruling R4", "ruling R1"},
		Note: fmt.Sprintf("the contributions of %d rounds without a hit, committed beside the pool, credited together (their fractions carried exactly)", pend.Rounds)}
	if one != nil && pend.Rounds == 1 && one.WagerAmount == pend.WagerAmount {
		e = Entry{Kind: KindContribution, Table: one.Table, Round: one.Round, DealtAt: one.DealtAt, Commit: one.Commit, Actor: one.Actor,
			Rules: append([]string(nil), one.Rules...)}
	}
	e.Displayed, e.Overflow, e.Reserve = toDisplayed, toOverflow, creditR
	e.CarryDisplayed, e.CarryReserve = carry-q.Meters.CarryDisplayed, carryR-q.Meters.CarryReserve
	e.Wagers, e.WagerAmount, e.RateSum, e.RateSumReserve = pend.Wagers, pend.WagerAmount, rateSum, rateSumR
	e.Contributed, e.ContributedReserve = credit, creditR
	c.post(e)
	if c.err != nil {
		return Pool{}, nil, overflowError(c.pool.Settings.Currency, c.err)
	}
	return q, c.entries, nil
}

// Contribute is Apply for a round that only contributes, computed beside
// the pool: ok is false (and nothing else is returned) when the round
// would do anything else at p (a hit, a held hit due for release, a
// displayed meter below a ceiling it could reach); such a round is applied
// to the pool itself. Otherwise it returns the round's contribution entry
// on its own (Seq 0: it is not in the pool's sequence; nil without a
// wager), crediting the whole minor units of the round's own
// sum(wager x rate) and keeping its fractions in the entry's carries
// (0-9999 each), and the answer: p's meters with this credit. A fold (Fold)
// later credits the sum of such rounds to the pool, their fractions with
// the pool's carry, exactly (R1).
func (k Rules) Contribute(p Pool, r Round, now time.Time) (*Entry, RoundResult, bool, error) {
	s := p.Settings
	if len(r.Hits) > 0 || (s.Ceiling > 0 && p.Meters.Displayed < s.Ceiling) {
		return nil, RoundResult{}, false, nil
	}
	_, es, res, err := k.Apply(p, r, now)
	if err != nil {
		return nil, RoundResult{}, false, err
	}
	if len(res.Released) > 0 || len(res.Payouts) > 0 || len(es) > 1 {
		return nil, RoundResult{}, false, nil
	}
	res.Meters = p.view()
	res.Version = p.Version
	if len(es) == 0 {
		return nil, res, true, nil
	}
	e := es[0]
	credit, carry, _, err := Accrue(e.WagerAmount, s.ContributionBP, 0)
	if err != nil {
		return nil, RoundResult{}, false, overflowError(s.Currency, err)
	}
	creditR, carryR, _, err := Accrue(e.WagerAmount, s.ReserveBP, 0)
	if err != nil {
		return nil, RoundResult{}, false, overflowError(s.Currency, err)
	}
	e.Seq = 0
	e.Displayed, e.Overflow = credit, 0
	if s.Ceiling > 0 {
		// The displayed meter is at its ceiling, and stays there until
		// the pool's next commit: the credit is the overflow's.
		e.Displayed, e.Overflow = 0, credit
	}
	e.Reserve, e.Contributed, e.ContributedReserve = creditR, credit, creditR
	e.CarryDisplayed, e.CarryReserve = carry, carryR
	e.Note = "contributed beside the pool; its fractions are carried and credited with the others' when the pool is next committed"
	res.Contribution.Displayed, res.Contribution.Overflow, res.Contribution.Reserve = e.Displayed, e.Overflow, e.Reserve
	m := &res.Meters
	if m.Displayed, err = money.Add(m.Displayed, e.Displayed); err == nil {
		if m.Overflow, err = money.Add(m.Overflow, e.Overflow); err == nil {
			m.Reserve, err = money.Add(m.Reserve, e.Reserve)
		}
	}
	if err != nil {
		return nil, RoundResult{}, false, overflowError(s.Currency, err)
	}
	return &e, res, true, nil
}
