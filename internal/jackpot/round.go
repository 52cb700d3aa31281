package jackpot

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/tablesettle/tablesettle/internal/hand"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// clauses names the jackpot clauses of a ruleset.
type clauses struct {
	acrossTables, sameTable, royalShare, sfShare, lowerFirst, reset string
}

// clausesOf names the jackpot clauses of a ruleset from its description
// (Majors and the Jackpot* clauses); none for a ruleset the catalogue
// does not have.
func (k Rules) clausesOf(id string) clauses {
	rs, ok := k.Rulesets.Lookup(ruleset.ID(id))
	if !ok {
		return clauses{}
	}
	cl := rs.Clauses
	return clauses{acrossTables: rs.Majors.OrderRule, sameTable: rs.Majors.Rule, royalShare: cl.JackpotRoyalShare,
		sfShare: cl.JackpotStraightFlushShare, lowerFirst: cl.JackpotLowerFirst, reset: cl.JackpotReset}
}

func cite(ruleset, clause string) []string {
	if clause == "" {
		return nil
	}
	return []string{ruleset + " " + clause}
}

// validateStake applies ruling R22 (and R17) as the ruleset describes
// it: a progressive stake is the pool's unit; where the ruleset has a
// MaxProgressiveMultiplier (THB 3.5.3: 5) 1 to that many units, where it
// has a ProgressiveCredits clause (SSP v4 3.5) any whole number of units.
func validateStake(rs *ruleset.Ruleset, c money.Currency, unit, amount money.Amount, field string) error {
	if amount <= 0 {
		return invalid(field, "a progressive wager must be positive")
	}
	id := string(rs.ID)
	switch {
	case rs.MaxProgressiveMultiplier > 0:
		maxM := money.Amount(rs.MaxProgressiveMultiplier)
		if amount%unit != 0 || amount/unit < 1 || amount/unit > maxM {
			return invalid(field, "%s takes 1-%d times the pool's unit %s (%s), got %s", rs.Short, maxM, c.Format(unit),
				joinRules(append(cite(id, rs.Clauses.ProgressiveUnit), "ruling R17")), c.Format(amount))
		}
	case rs.Clauses.ProgressiveCredits != "":
		if amount%unit != 0 {
			return invalid(field, "%s jackpot wagers are whole credits of the pool's unit %s (%s), got %s", rs.Short, c.Format(unit),
				joinRules(cite(id, rs.Clauses.ProgressiveCredits)), c.Format(amount))
		}
	default:
		if amount != unit {
			return invalid(field, "a progressive wager must equal the pool's unit %s (ruling R22), got %s", c.Format(unit), c.Format(amount))
		}
	}
	return nil
}

// joinRules writes citations as a message quotes them: "a, b".
func joinRules(rules []string) string { return strings.Join(rules, ", ") }

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
	return Standard().Apply(p, r, now)
}

// Apply is Apply for a pool under k's rulesets: the round's ruleset's
// description says how its major hits are paid.
func (k Rules) Apply(p Pool, r Round, now time.Time) (Pool, []Entry, RoundResult, error) {
	s := p.Settings
	if !s.Serves(r.Ruleset) {
		return Pool{}, nil, RoundResult{}, invalid("ruleset", "pool %s does not serve ruleset %q", p.ID, r.Ruleset)
	}
	desc, ok := k.Rulesets.Lookup(ruleset.ID(r.Ruleset))
	if !ok {
		return Pool{}, nil, RoundResult{}, invalid("ruleset", "unknown ruleset %q", r.Ruleset)
	}
	majors := majorsFrom(desc.Majors)
	dealerJackpot := desc.Placeable(ruleset.ProgressiveDealer)
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
		// Only a ruleset with a dealer-hand jackpot wager takes one (SSP
		// v4 3.5, ruling R22).
		if wn != WagerPlayer && !(wn == WagerDealer && dealerJackpot) {
			return Pool{}, nil, RoundResult{}, invalid(fmt.Sprintf("wagers[%d].wager", i), "only SSP v4 takes a dealer-hand jackpot wager (mbs-ssp-v4 3.5)")
		}
		if err := validateStake(desc, s.Currency, s.Unit, w.Amount, field); err != nil {
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

	if r.Void && (len(r.Wagers) > 0 || len(r.Hits) > 0) {
		return Pool{}, nil, RoundResult{}, invalid("void", "a void round has no progressive wager and no hit (ruling R12)")
	}
	q := p.clone()
	c := &change{pool: &q, now: now, rules: k}
	res := RoundResult{Pool: p.ID, Table: r.Table, Round: r.Round, Ruleset: r.Ruleset, DealtAt: r.DealtAt, AppliedAt: now,
		Void: r.Void, Irregularities: append([]Irregularity{}, r.Irregularities...)}

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
	if r.Void {
		// Ruling R12: every wager returned, nothing reaches the pool; the
		// ledger says why and names the hands that would have hit.
		c.postVoid(r)
	}

	// Then the hits: house-paid prizes first (they are the lower-ranking
	// hits of R5 and the minor jackpots of RWS 4.2), then the pool's.
	cl := k.clausesOf(r.Ruleset)
	var majorHits []Hit
	for _, h := range r.Hits {
		if h.Prize.Kind == PrizePercent {
			majorHits = append(majorHits, h)
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
	if !majors.Sequential {
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
		for _, h := range majorHits {
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
			if dealerJackpot && len(g) > 1 {
				// R22: every dealer-hand wager at the table wins a
				// dealer-hand hit, and R5 shares the prize among them.
				extra = append(extra, "ruling R22")
			}
			pos, err := c.payShared(g, metas, cl, extra...)
			if err != nil {
				return Pool{}, nil, RoundResult{}, err
			}
			res.Payouts = append(res.Payouts, pos...)
		}
	} else {
		// R6: one after the other in dealing order (4.5.1); R7: a major hit
		// is held for the settle window so that a hand dealt earlier at
		// another table but reported later is paid first (4.5.2).
		sort.SliceStable(majorHits, func(i, j int) bool { return majorHits[i].Dealt < majorHits[j].Dealt })
		window := majors.window(s)
		var extra []string
		if len(majorHits) > 1 {
			extra = append(extra, "ruling R6")
			extra = append(extra, cite(r.Ruleset, cl.sameTable)...)
		}
		for _, h := range majorHits {
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
		return Pool{}, nil, RoundResult{}, overflowError(c.pool.Settings.Currency, c.err)
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
