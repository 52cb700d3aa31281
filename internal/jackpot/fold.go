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

// Fold is the pool as FoldRounds leaves it, from the rounds' sums alone
// (pend: what the shards hold; n: how many of the rounds carry a wager,
// so how many entries FoldRounds posts): the meters are exactly what the
// rounds applied one after the other make, since the carried fraction
// makes the credit of a sum the sum of the credits of its parts (R1: the
// whole units of carry + sum(wager x rate) are credited, the rest
// carried), and the ceiling splits a sum as it splits its parts in turn
// (R4). Seq moves past the n entries FoldRounds will number; the version
// does not move: the fold is part of the commit that follows it. A
// sharded store's read of the pool (the meters as they stand, without
// reading each round) uses it; its commit posts the rounds themselves
// (FoldRounds) and checks that they come to the same meters.
func (k Rules) Fold(p Pool, pend Pending, n int64) (Pool, error) {
	if pend.Wagers == 0 && pend.WagerAmount == 0 && n == 0 {
		return p, nil
	}
	q := p.clone()
	e, err := contributionEntry(&q, pend.Wagers, pend.WagerAmount)
	if err != nil {
		return Pool{}, err
	}
	if err := applyEntry(&q.Meters, e); err != nil {
		return Pool{}, overflowError(q.Settings.Currency, err)
	}
	q.Seq += n
	return q, nil
}

// FoldRounds posts to p the contribution entries of rounds committed
// beside the pool (each as Contribute returned it, kept with its round
// record), one after the other in the order given, each exactly as Apply
// would have posted it to the pool as it then stood: its own sequence
// number, its table, round, time, commit and principal, and its credit
// the whole units of the pool's carried fraction + its own
// sum(wager x rate), the rest carried (R1), split at the ceiling (R4).
// So the ledger is the serial path's, round by round, and the entries'
// credits sum to Fold's exactly. A round whose rate sums are not what
// the pool's settings make of its wagers is refused (it was computed
// under other settings, which a store's epoch condition rules out). The
// version does not move: the fold is part of the commit that follows it.
func (k Rules) FoldRounds(p Pool, rounds []Entry) (Pool, []Entry, error) {
	if len(rounds) == 0 {
		return p, nil, nil
	}
	q := p.clone()
	c := &change{pool: &q, rules: k}
	s := q.Settings
	for _, r := range rounds {
		e, err := contributionEntry(&q, r.Wagers, r.WagerAmount)
		if err != nil {
			return Pool{}, nil, err
		}
		if e.RateSum != r.RateSum || e.RateSumReserve != r.RateSumReserve {
			return Pool{}, nil, fmt.Errorf("jackpot: fold round %s of table %s: its rate sums %d and %d are not the pool's %d and %d",
				r.Round, r.Table, r.RateSum, r.RateSumReserve, e.RateSum, e.RateSumReserve)
		}
		e.Table, e.Round, e.DealtAt, e.Commit, e.Actor = r.Table, r.Round, r.DealtAt, r.Commit, r.Actor
		e.Rules = append([]string(nil), r.Rules...)
		c.now = r.At
		c.post(e)
		if c.err != nil {
			return Pool{}, nil, overflowError(s.Currency, c.err)
		}
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
	if len(r.Hits) > 0 || r.Void || (s.Ceiling > 0 && p.Meters.Displayed < s.Ceiling) {
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
