package jackpot

import (
	"fmt"
	"math/big"
	"sort"
	"time"

	"github.com/tablesettle/tablesettle/internal/hand"
	"github.com/tablesettle/tablesettle/internal/money"
)

// PrizeKind is how a progressive paytable line pays (ruling R2).
type PrizeKind string

// The prize kinds.
const (
	// PrizePercent is BP of the pool as it stands when the hit is applied,
	// rounded down, debited from the pool (R3). 10000 bp (a Royal Flush)
	// resets the pool.
	PrizePercent PrizeKind = "percent"
	// PrizeFixed is Amount per accepted progressive wager of the pool's
	// unit, paid by the house, no stake returned (R2).
	PrizeFixed PrizeKind = "fixed"
	// PrizeOddsTo is "Odds to 1": Odds x stake and the stake returned (R2).
	PrizeOddsTo PrizeKind = "odds_to"
	// PrizeOddsFor is "Odds for 1": Odds x stake in all, stake included
	// (R2; THB 3.5.3.1 through R17 when the stake is m units).
	PrizeOddsFor PrizeKind = "odds_for"
)

// Prize is one progressive paytable line.
type Prize struct {
	Kind   PrizeKind         `json:"kind"`
	BP     money.BasisPoints `json:"bp,omitempty"`
	Amount money.Amount      `json:"amount,omitempty"`
	Odds   money.Ratio       `json:"odds,omitzero"`
}

// Wager names a progressive wager: the player's hand, or (SSP v4 only)
// the dealer's hand.
const (
	WagerPlayer = "player"
	WagerDealer = "dealer"
)

// ProgressiveWager is one accepted progressive wager of a round.
type ProgressiveWager struct {
	Seat   int          `json:"seat"`
	Wager  string       `json:"wager,omitempty"` // "player" (default) or "dealer"
	Amount money.Amount `json:"amount"`
}

// Hit is one winning progressive wager, as settlement found it from the
// cards (ruling R14): never a category a client declares.
type Hit struct {
	Seat int `json:"seat"`
	// Dealt is the position's place in the dealing order at the table,
	// 1 for the first hand dealt (clockwise from the dealer's left).
	Dealt    int          `json:"dealt"`
	Wager    string       `json:"wager,omitempty"`
	Category string       `json:"category"` // hand.Category String(), e.g. "royal_flush"
	Prize    Prize        `json:"prize"`
	Stake    money.Amount `json:"stake"`
	Rules    []string     `json:"rules,omitempty"` // the paytable line, e.g. "mbs-megalink-ssp-v6 4.2"
}

// Round is what a pool needs of a settled round: its accepted progressive
// wagers and its hits.
type Round struct {
	Ruleset  string             `json:"ruleset"`
	Table    string             `json:"table"`
	Round    string             `json:"round"`
	DealtAt  time.Time          `json:"dealtAt"`
	Currency money.Currency     `json:"currency,omitempty"`
	Wagers   []ProgressiveWager `json:"wagers"`
	Hits     []Hit              `json:"hits"`
}

// Payout is one jackpot payout of a round, paid or held.
type Payout struct {
	Seat     int    `json:"seat"`
	Dealt    int    `json:"dealt"`
	Wager    string `json:"wager"`
	Table    string `json:"table"`
	Round    string `json:"round"`
	Category string `json:"category"`
	// Status is "paid", or "held" for an RWS major hit inside its settle
	// window (R7): it is paid by a later commit, from the pool as it stands
	// then, and appears in the ledger and the pool's last hits.
	Status string `json:"status"`
	// Amount is the prize; StakeReturned the stake given back ("to 1" only).
	Amount        money.Amount `json:"amount"`
	StakeReturned money.Amount `json:"stakeReturned"`
	// Funding names every source of Amount: pool, overflow, reserve, house.
	Funding     []Funding    `json:"funding"`
	HouseFunded money.Amount `json:"houseFunded"`
	// Shared is the number of winners the prize was divided among (R5).
	Shared   int        `json:"shared,omitempty"`
	PayAfter *time.Time `json:"payAfter,omitempty"`
	// DisplayedAfter is the displayed meter right after this payout (and
	// the reset it caused, if any).
	DisplayedAfter money.Amount `json:"displayedAfter"`
	Seq            int64        `json:"seq"`
	Rules          []string     `json:"rules"`
}

// MeterView is the three money meters.
type MeterView struct {
	Displayed money.Amount `json:"displayed"`
	Reserve   money.Amount `json:"reserve"`
	Overflow  money.Amount `json:"overflow"`
}

// Contribution is what a round's wagers credited (R4).
type Contribution struct {
	Wagers      int64        `json:"wagers"`
	WagerAmount money.Amount `json:"wagerAmount"`
	Displayed   money.Amount `json:"displayed"`
	Overflow    money.Amount `json:"overflow"`
	Reserve     money.Amount `json:"reserve"`
	Rules       []string     `json:"rules"`
}

// RoundResult is the answer to a round: the same answer, unchanged, every
// time the round is sent again.
type RoundResult struct {
	Pool         string       `json:"pool"`
	Table        string       `json:"table"`
	Round        string       `json:"round"`
	Ruleset      string       `json:"ruleset"`
	DealtAt      time.Time    `json:"dealtAt"`
	AppliedAt    time.Time    `json:"appliedAt"`
	Contribution Contribution `json:"contribution"`
	Payouts      []Payout     `json:"payouts"`
	// Released are earlier held hits (of any table) this commit paid (R7).
	Released []Payout  `json:"released"`
	Meters   MeterView `json:"meters"`
	Version  int64     `json:"version"`
}

func (p *Pool) view() MeterView {
	return MeterView{Displayed: p.Meters.Displayed, Reserve: p.Meters.Reserve, Overflow: p.Meters.Overflow}
}

// clauses names the jackpot clauses of each ruleset.
type clauses struct {
	paytable, acrossTables, sameTable, royalShare, sfShare, lowerFirst string
}

var rulesetClauses = map[string]clauses{
	"mbs-megalink-ssp-v6": {"4.2", "3.14", "3.15", "3.15.1", "3.15.2", "3.15.3"},
	"mbs-megalink-tcp-v6": {"4.4", "3.17", "3.18", "", "3.18.1", "3.18.2"},
	"mbs-megalink-thb-v9": {"4.2", "3.14", "3.15", "", "3.15.1", "3.15.2"},
	"mbs-ssp-v4":          {"4.2", "", "", "", "", ""},
	"rws-mlp-csp-v2":      {"4.2", "4.5.2", "4.5.1", "", "", ""},
}

func cite(ruleset, clause string) []string {
	if clause == "" {
		return nil
	}
	return []string{ruleset + " " + clause}
}

// validateStake applies ruling R22 (and R17 for THB): a progressive stake
// must be the pool's unit; THB accepts 1-5 units (3.5.3), SSP v4 any
// whole number of units (credits, 3.5).
func validateStake(ruleset string, unit, amount money.Amount, field string) error {
	if amount <= 0 {
		return invalid(field, "a progressive wager must be positive")
	}
	switch ruleset {
	case "mbs-megalink-thb-v9":
		if amount%unit != 0 || amount/unit < 1 || amount/unit > 5 {
			return invalid(field, "THB takes 1-5 times the pool's unit %d (mbs-megalink-thb-v9 3.5.3, ruling R17), got %d", unit, amount)
		}
	case "mbs-ssp-v4":
		if amount%unit != 0 {
			return invalid(field, "SSP v4 jackpot wagers are whole credits of the pool's unit %d (mbs-ssp-v4 3.5), got %d", unit, amount)
		}
	default:
		if amount != unit {
			return invalid(field, "a progressive wager must equal the pool's unit %d (ruling R22), got %d", unit, amount)
		}
	}
	return nil
}

func wagerName(w string) string {
	if w == "" {
		return WagerPlayer
	}
	return w
}

// Apply applies one round to p at now: the round's contributions first
// (R4), then its hits under R3 and R5 (MBS) or R6 and R7 (RWS). Held RWS
// hits whose settle window has passed are paid first (R7, R21). It returns
// the new pool (Version+1), the ledger entries to write with it, and the
// answer.
func Apply(p Pool, r Round, now time.Time) (Pool, []Entry, RoundResult, error) {
	s := p.Settings
	if !s.Serves(r.Ruleset) {
		return Pool{}, nil, RoundResult{}, invalid("ruleset", "pool %s does not serve ruleset %q", p.ID, r.Ruleset)
	}
	if !ValidID(r.Table) {
		return Pool{}, nil, RoundResult{}, invalid("table", "a table id is 1-64 letters, digits, '-', '_', '.' or ':'")
	}
	if !ValidID(r.Round) {
		return Pool{}, nil, RoundResult{}, invalid("round", "a round id is 1-64 letters, digits, '-', '_', '.' or ':'")
	}
	if r.Currency != "" && r.Currency != s.Currency {
		return Pool{}, nil, RoundResult{}, invalid("currency", "pool %s is in %s, the round in %s", p.ID, s.Currency, r.Currency)
	}
	if r.DealtAt.IsZero() {
		return Pool{}, nil, RoundResult{}, invalid("dealtAt", "the time the round was dealt is required (ruling R7)")
	}
	stakes := map[string]money.Amount{}
	var total money.Amount
	for i, w := range r.Wagers {
		field := fmt.Sprintf("wagers[%d].amount", i)
		wn := wagerName(w.Wager)
		if wn != WagerPlayer && !(wn == WagerDealer && r.Ruleset == "mbs-ssp-v4") {
			return Pool{}, nil, RoundResult{}, invalid(fmt.Sprintf("wagers[%d].wager", i), "only SSP v4 takes a dealer-hand jackpot wager (mbs-ssp-v4 3.5)")
		}
		if err := validateStake(r.Ruleset, s.Unit, w.Amount, field); err != nil {
			return Pool{}, nil, RoundResult{}, err
		}
		k := fmt.Sprintf("%d/%s", w.Seat, wn)
		if _, dup := stakes[k]; dup {
			return Pool{}, nil, RoundResult{}, invalid(fmt.Sprintf("wagers[%d]", i), "one progressive wager per playing position (e.g. mbs-megalink-ssp-v6 3.4.2)")
		}
		stakes[k] = w.Amount
		var err error
		if total, err = money.Add(total, w.Amount); err != nil {
			return Pool{}, nil, RoundResult{}, invalid("wagers", "the round's progressive wagers overflow")
		}
	}
	hit := map[string]bool{}
	for i, h := range r.Hits {
		k := fmt.Sprintf("%d/%s", h.Seat, wagerName(h.Wager))
		if hit[k] {
			return Pool{}, nil, RoundResult{}, invalid(fmt.Sprintf("hits[%d]", i), "a progressive wager wins one jackpot prize (its best hand): seat %d has two", h.Seat)
		}
		hit[k] = true
		st, ok := stakes[k]
		if !ok || st != h.Stake {
			return Pool{}, nil, RoundResult{}, invalid(fmt.Sprintf("hits[%d]", i), "a hit must be on an accepted progressive wager of the round, with its stake")
		}
		if _, ok := hand.ParseCategory(h.Category); !ok {
			return Pool{}, nil, RoundResult{}, invalid(fmt.Sprintf("hits[%d].category", i), "unknown category %q", h.Category)
		}
		switch h.Prize.Kind {
		case PrizePercent:
			if h.Prize.BP <= 0 || h.Prize.BP > 10000 {
				return Pool{}, nil, RoundResult{}, invalid(fmt.Sprintf("hits[%d].prize.bp", i), "a percentage prize is 1-10000 bp")
			}
		case PrizeFixed:
			if h.Prize.Amount <= 0 {
				return Pool{}, nil, RoundResult{}, invalid(fmt.Sprintf("hits[%d].prize.amount", i), "a fixed prize is positive")
			}
		case PrizeOddsTo, PrizeOddsFor:
			if h.Prize.Odds.Num <= 0 || h.Prize.Odds.Den <= 0 {
				return Pool{}, nil, RoundResult{}, invalid(fmt.Sprintf("hits[%d].prize.odds", i), "odds are a positive ratio")
			}
		default:
			return Pool{}, nil, RoundResult{}, invalid(fmt.Sprintf("hits[%d].prize.kind", i), "unknown prize kind %q", h.Prize.Kind)
		}
	}

	q := p.clone()
	c := &change{pool: &q, now: now}
	res := RoundResult{Pool: p.ID, Table: r.Table, Round: r.Round, Ruleset: r.Ruleset, DealtAt: r.DealtAt, AppliedAt: now}

	// Held RWS hits whose window has passed are paid before this round
	// touches the pool (R7, R21).
	released, err := c.releaseDue()
	if err != nil {
		return Pool{}, nil, RoundResult{}, err
	}
	res.Released = released

	// R4: contributions first.
	contrib, err := c.contribute(r, total)
	if err != nil {
		return Pool{}, nil, RoundResult{}, err
	}
	res.Contribution = contrib

	// Then the hits: house-paid prizes first (they are the lower-ranking
	// hits of R5 and the minor jackpots of RWS 4.2), then the pool's.
	cl := rulesetClauses[r.Ruleset]
	var majors []Hit
	for _, h := range r.Hits {
		if h.Prize.Kind == PrizePercent {
			majors = append(majors, h)
		}
	}
	sortedHits := append([]Hit(nil), r.Hits...)
	sort.SliceStable(sortedHits, func(i, j int) bool { return hitLess(sortedHits[i], sortedHits[j]) })
	for _, h := range sortedHits {
		if h.Prize.Kind == PrizePercent {
			continue
		}
		po, err := c.payHouse(r, h)
		if err != nil {
			return Pool{}, nil, RoundResult{}, err
		}
		res.Payouts = append(res.Payouts, po)
	}
	meta := roundMeta{table: r.Table, round: r.Round, ruleset: r.Ruleset, dealtAt: r.DealtAt}
	switch s.Casino() {
	case MBS:
		// R5: lower-ranking hits before Royal Flushes; n winners of one
		// category share it (SSP v6 3.15, TCP v6 3.18, THB v9 3.15).
		// SSP v4 has no clause for several winners: R5 is the ruling for
		// every MBS table ("Several winners at one table in one round,
		// MBS"), and R22 applies it to SSP v4's dealer-hand hits; its
		// player-hand hits (and a player-hand and a dealer-hand hit of one
		// category in one round) are shared the same way, citing R5 and
		// R22 without a clause of the document.
		groups := map[string][]Hit{}
		var cats []string
		for _, h := range majors {
			if _, ok := groups[h.Category]; !ok {
				cats = append(cats, h.Category)
			}
			groups[h.Category] = append(groups[h.Category], h)
		}
		sort.Slice(cats, func(i, j int) bool { return catRank(cats[i]) < catRank(cats[j]) })
		for _, cat := range cats {
			g := groups[cat]
			sort.SliceStable(g, func(i, j int) bool { return g[i].Dealt < g[j].Dealt })
			metas := make([]roundMeta, len(g))
			for i := range g {
				metas[i] = meta
			}
			var extra []string
			if len(r.Hits) > len(g) {
				// R5: lower-ranking hits were paid before these.
				extra = append(extra, "ruling R5")
				extra = append(extra, cite(r.Ruleset, cl.lowerFirst)...)
			}
			if r.Ruleset == "mbs-ssp-v4" && len(g) > 1 {
				extra = append(extra, "ruling R22")
			}
			pos, err := c.payShared(g, metas, cl, extra...)
			if err != nil {
				return Pool{}, nil, RoundResult{}, err
			}
			res.Payouts = append(res.Payouts, pos...)
		}
	case RWS:
		// R6: one after the other in dealing order (4.5.1); R7: a major hit
		// is held for the settle window so that a hand dealt earlier at
		// another table but reported later is paid first (4.5.2).
		sort.SliceStable(majors, func(i, j int) bool { return majors[i].Dealt < majors[j].Dealt })
		window := s.SettleWindow()
		var extra []string
		if len(majors) > 1 {
			extra = append(extra, "ruling R6")
			extra = append(extra, cite(r.Ruleset, cl.sameTable)...)
		}
		for _, h := range majors {
			if window > 0 {
				po := c.hold(r, h, now.Add(window), extra...)
				res.Payouts = append(res.Payouts, po)
				continue
			}
			pos, err := c.payShared([]Hit{h}, []roundMeta{meta}, cl, extra...)
			if err != nil {
				return Pool{}, nil, RoundResult{}, err
			}
			res.Payouts = append(res.Payouts, pos...)
		}
	}
	if res.Payouts == nil {
		res.Payouts = []Payout{}
	}
	if res.Released == nil {
		res.Released = []Payout{}
	}
	if c.err != nil {
		return Pool{}, nil, RoundResult{}, overflowError(c.err)
	}
	res.Meters = q.view()
	c.finish()
	res.Version = q.Version
	return q, c.entries, res, nil
}

func catRank(c string) int {
	v, _ := hand.ParseCategory(c)
	return int(v)
}

// hitLess orders hits lowest category first, then by dealing order.
func hitLess(a, b Hit) bool {
	if ra, rb := catRank(a.Category), catRank(b.Category); ra != rb {
		return ra < rb
	}
	return a.Dealt < b.Dealt
}

// finish closes a transition: one more version, and the time.
func (c *change) finish() {
	c.pool.Version++
	c.pool.UpdatedAt = c.now
}

// contribute credits the round's accepted progressive wagers (R4), carrying
// every fraction below the minor unit (never dropping it): credited*10000 +
// carry == sum(wager x rate) after every round.
func (c *change) contribute(r Round, total money.Amount) (Contribution, error) {
	p := c.pool
	s := p.Settings
	out := Contribution{Wagers: int64(len(r.Wagers)), WagerAmount: total,
		Rules: []string{"ruling R4", "ruling R1"}}
	if len(r.Wagers) == 0 {
		return out, nil
	}
	credit, carry, rateSum, err := Accrue(total, s.ContributionBP, p.Meters.CarryDisplayed)
	if err != nil {
		return out, overflowError(err)
	}
	creditR, carryR, rateSumR, err := Accrue(total, s.ReserveBP, p.Meters.CarryReserve)
	if err != nil {
		return out, overflowError(err)
	}
	toDisplayed, toOverflow := SplitAtCeiling(p.Meters.Displayed, credit, s.Ceiling)
	out.Displayed, out.Overflow, out.Reserve = toDisplayed, toOverflow, creditR
	e := Entry{Kind: KindContribution, Table: r.Table, Round: r.Round,
		Displayed: toDisplayed, Overflow: toOverflow, Reserve: creditR,
		CarryDisplayed: carry - p.Meters.CarryDisplayed, CarryReserve: carryR - p.Meters.CarryReserve,
		Wagers: int64(len(r.Wagers)), WagerAmount: total, RateSum: rateSum, RateSumReserve: rateSumR,
		Contributed: credit, ContributedReserve: creditR, Rules: out.Rules}
	dealt := r.DealtAt
	e.DealtAt = &dealt
	c.post(e)
	return out, nil
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
		return Payout{}, overflowError(err)
	}
	rules := dedup(append(append([]string(nil), h.Rules...), "ruling R2", "ruling R3"))
	fund := []Funding{{Source: SourceHouse, Amount: amount}}
	dealt := r.DealtAt
	e := c.post(Entry{Kind: KindHit, Table: r.Table, Round: r.Round, Seat: h.Seat, Dealt: h.Dealt, Category: h.Category, DealtAt: &dealt,
		Paid: amount, StakeReturned: returned, Funding: fund, HouseFunded: amount, Rules: rules,
		Note: "a fixed or odds prize is paid by the house and does not move the pool"})
	c.recordHit(e)
	return Payout{Seat: h.Seat, Dealt: h.Dealt, Wager: wagerName(h.Wager), Table: r.Table, Round: r.Round, Category: h.Category,
		Status: "paid", Amount: amount, StakeReturned: returned, Funding: fund, HouseFunded: amount,
		DisplayedAfter: c.pool.Meters.Displayed, Seq: e.Seq, Rules: rules}, nil
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
// (R21). share x n == fromPool + extra, every part >= 0 and fromPool <=
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
	own := new(big.Int).Quo(ownNum, b10k)                             // floor(bp x pool): the most the pool funds
	fromB := new(big.Int).Sub(paid, new(big.Int).Quo(extraNum, b10k)) // what the extra parts leave to the pool
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
		return nil, overflowError(err)
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
		c.recordHit(posted)
		out = append(out, Payout{Seat: h.Seat, Dealt: h.Dealt, Wager: wagerName(h.Wager), Table: e.Table, Round: e.Round, Category: h.Category,
			Status: "paid", Amount: share, Funding: fund, HouseFunded: e.HouseFunded, Shared: shared(n), Seq: posted.Seq, Rules: rules})
	}
	if bp == 10000 {
		c.reset(ruleset)
	}
	for i := range out {
		out[i].DisplayedAfter = p.Meters.Displayed
	}
	return out, nil
}

// reset restarts the pool from its reset amount on top of what the shares
// left (R3, R21), funded from the overflow, the reserve, then the house;
// then a recorded settings change takes effect.
func (c *change) reset(ruleset string) {
	p := c.pool
	amount := p.Settings.Reset
	fund := c.fundReset(amount)
	e := Entry{Kind: KindReset, Displayed: amount, Funding: fund,
		Rules: []string{"ruling R3", "ruling R21"}}
	if p.Settings.Casino() == RWS {
		e.Rules = append(e.Rules, "rws-mlp-csp-v2 1.13")
	}
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
	c.post(e)
	if p.Pending != nil {
		old := p.Settings
		nw := p.Pending.Settings
		c.post(Entry{Kind: KindSettingsEffective, By: p.Pending.By, Reason: p.Pending.Reason, Old: &old, New: &nw,
			Note: "a recorded settings change takes effect after the reset"})
		p.Settings = nw
		p.Pending = nil
	}
}

// hold records an RWS major hit pending for the settle window (R7).
func (c *change) hold(r Round, h Hit, payAfter time.Time, extraRules ...string) Payout {
	dealt := r.DealtAt
	rules := dedup(append(append(append([]string(nil), h.Rules...), extraRules...), "ruling R7", "ruling R21", "rws-mlp-csp-v2 4.5.2"))
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

// releaseDue pays the held hits whose window has passed, and every held
// hit dealt before one of them (a hand dealt earlier is paid first, R7),
// in the R7 order, each from the pool as it stands (R21).
func (c *change) releaseDue() ([]Payout, error) {
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
		cl := rulesetClauses[h.Ruleset]
		pos, err := c.payShared([]Hit{h.Hit}, []roundMeta{{table: h.Table, round: h.Round, ruleset: h.Ruleset, dealtAt: h.DealtAt, heldSeq: h.Seq}}, cl)
		if err != nil {
			return nil, err
		}
		for i := range pos {
			pos[i].Rules = dedup(append(pos[i].Rules, "ruling R7", "ruling R21", "rws-mlp-csp-v2 4.5.2"))
		}
		out = append(out, pos...)
	}
	p.Held = append([]HeldHit(nil), held[last+1:]...)
	return out, nil
}

// Release pays the held hits that are due at now (R7) without a round.
// It reports false when nothing was due (and then there is nothing to
// commit).
func Release(p Pool, now time.Time) (Pool, []Entry, []Payout, bool, error) {
	q := p.clone()
	c := &change{pool: &q, now: now}
	out, err := c.releaseDue()
	if err != nil || len(out) == 0 {
		return p, nil, nil, false, err
	}
	if c.err != nil {
		return p, nil, nil, false, overflowError(c.err)
	}
	c.finish()
	return q, c.entries, out, true, nil
}

// dedup drops repeated citations, keeping the first of each.
func dedup(xs []string) []string {
	seen := make(map[string]bool, len(xs))
	out := xs[:0:0]
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

func shared(n int) int {
	if n > 1 {
		return n
	}
	return 0
}
