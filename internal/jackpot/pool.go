// Package jackpot is the progressive jackpot pools: their settings and
// meters, the contributions of accepted progressive wagers with their
// fractions carried (never dropped), the hits under rulings R3, R5, R6, R7,
// R21 and R22, the resets and where they are funded from, the ledger every
// meter movement is written to, and the reconciliation that rebuilds the
// meters from the ledger.
//
// The package is pure: Apply and the other transitions take the pool, the
// input and the time, and return the new pool and its ledger entries.
// internal/pools applies them through a Store (implemented by
// internal/dynamo and internal/sqlite) exactly once per round. Errors
// are *fault.Error.
package jackpot

import (
	"fmt"
	"time"

	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// Rules keeps pools under the rulesets of a catalogue: which rulesets a
// pool may serve, their casino and how their major hits are paid (rulings
// R5, R6, R7) are read from the rulesets' descriptions (ruleset.Ruleset's
// Casino and Majors), never from their ids. The zero Rules knows no
// ruleset; Standard keeps pools under the five documents, as the package
// functions New, ChangeSettings, Apply, Release and Correct do.
type Rules struct {
	Rulesets ruleset.Catalogue
}

// Standard is the Rules of the five rule documents (ruleset.Standard()).
func Standard() Rules { return Rules{Rulesets: ruleset.Standard()} }

// describe returns the description of the first of s's rulesets the
// catalogue has (Validate ensures all are there and agree).
func (k Rules) describe(s Settings) (*ruleset.Ruleset, bool) {
	for _, id := range s.Rulesets {
		if rs, ok := k.Rulesets.Lookup(ruleset.ID(id)); ok {
			return rs, true
		}
	}
	return nil, false
}

// Casino is the casino of the pool's rulesets as their description writes
// it ("MBS", "RWS"); "" when the catalogue has none of them.
func (k Rules) Casino(s Settings) string {
	if rs, ok := k.describe(s); ok {
		return rs.Casino
	}
	return ""
}

// The bounds of a pool's settings (and of each adjustment). They keep every
// amount a pool can reach far inside int64 minor units, so that a setting can
// never make a meter, a share or a reset wrap; the meter arithmetic is
// overflow-checked besides (an overflow refuses the change, never wraps).
const (
	// MaxUnit is the largest wager unit: 10,000,000,000 minor units
	// (SGD 100,000,000.00).
	MaxUnit money.Amount = 10_000_000_000
	// MaxAmount is the largest reset amount, ceiling and adjustment:
	// 1,000,000,000,000,000 minor units (SGD 10,000,000,000,000.00).
	MaxAmount money.Amount = 1_000_000_000_000_000
)

// DefaultSettleWindow is the RWS settle window of ruling R7 when a pool's
// settings leave it unset ("a few seconds by default").
const DefaultSettleWindow = 5 * time.Second

// Settings are what a pool's operator chooses. A change takes effect after
// the pool's next reset, never mid-cycle.
type Settings struct {
	Currency money.Currency `json:"currency"`
	// Rulesets the pool serves; all of one casino.
	Rulesets []string `json:"rulesets"`
	// Unit is the minimum progressive wager (ruling R22): 1 to MaxUnit.
	Unit money.Amount `json:"unit"`
	// ContributionBP is the part of each accepted progressive wager
	// credited to the displayed meter (or the overflow past the ceiling).
	ContributionBP money.BasisPoints `json:"contributionBp"`
	// ReserveBP is the part credited to the reserve meter, which funds
	// resets (ruling R21).
	ReserveBP money.BasisPoints `json:"reserveBp"`
	// Reset is the amount the pool restarts from after a Royal Flush (R3):
	// 1 to MaxAmount.
	Reset money.Amount `json:"reset"`
	// Ceiling caps the displayed meter; contributions past it go to the
	// overflow meter. Zero means no ceiling; else Reset to MaxAmount.
	Ceiling money.Amount `json:"ceiling"`
	// SettleWindowMS is the settle window of ruling R7, in milliseconds,
	// for rulesets that hold major hits (Majors.SettleWindow: RWS);
	// ignored for the others (MBS).
	SettleWindowMS int64 `json:"settleWindowMs"`
	// Verify decides which hits wait for a supervisor (the jackpot lock);
	// nil verifies none.
	Verify *Verify `json:"verify,omitempty"`
	// ProposalTTLSeconds is how long a proposal (dual control) waits for
	// its approval; 0 means DefaultProposalTTL.
	ProposalTTLSeconds int64 `json:"proposalTtlSeconds,omitempty"`
	// Tables are the table ids linked to the pool: a round from any other
	// table is refused (issue 24; a pool without tables accepts none).
	// Unlike the money settings, a change of Tables or DisplayName takes
	// effect when it is approved (see linked.go).
	Tables []string `json:"tables,omitempty"`
	// DisplayName is what the sign shows for the pool (up to 80 characters).
	DisplayName string `json:"displayName,omitempty"`
}

// ProposalTTL is how long a proposal of the pool waits for its approval.
func (s Settings) ProposalTTL() time.Duration {
	if s.ProposalTTLSeconds == 0 {
		return DefaultProposalTTL
	}
	return time.Duration(s.ProposalTTLSeconds) * time.Second
}

// Majors is how a pool pays its major (percentage) hits.
type Majors struct {
	// Sequential: winners at one table are paid one after the other in
	// dealing order, each from the pool as the previous left it (ruling
	// R6). Otherwise the winners of one category at one table share the
	// prize (R5).
	Sequential bool
	// Held: major hits are held for the pool's settle window and paid
	// across tables in dealt order (R7); otherwise in commit order.
	Held bool
	// DefaultWindow is the settle window of a held-majors pool whose
	// settings leave it unset.
	DefaultWindow time.Duration
}

// majorsOf is how the pool's rulesets' description says its major hits
// are paid: shared (R5) or one after the other (R6), and held for a settle
// window (R7) or not. Validate ensures the pool's rulesets agree.
func (k Rules) majorsOf(s Settings) Majors {
	if rs, ok := k.describe(s); ok {
		return majorsFrom(rs.Majors)
	}
	return Majors{}
}

// String says how m pays, as a refusal quotes it.
func (m Majors) String() string {
	how := "shared at one table (R5)"
	if m.Sequential {
		how = "one after the other at one table (R6)"
	}
	if m.Held {
		return how + ", held for the settle window (R7)"
	}
	return how + ", in commit order (R7)"
}

// majorsFrom reads a ruleset's description of its major prizes: a
// settle window of its own (R7) defaults to DefaultSettleWindow.
func majorsFrom(m ruleset.Majors) Majors {
	if !m.SettleWindow {
		return Majors{Sequential: m.Sequential}
	}
	return Majors{Sequential: m.Sequential, Held: true, DefaultWindow: DefaultSettleWindow}
}

// withDefaultWindow fills a held-majors pool's unset settle window (R7).
func (k Rules) withDefaultWindow(s Settings) Settings {
	if m := k.majorsOf(s); m.Held && s.SettleWindowMS == 0 {
		s.SettleWindowMS = m.DefaultWindow.Milliseconds()
	}
	return s
}

// window is the R7 settle window of a pool whose majors are m: zero for
// pools whose major hits are not held (MBS).
func (m Majors) window(s Settings) time.Duration {
	if !m.Held {
		return 0
	}
	return time.Duration(s.SettleWindowMS) * time.Millisecond
}

// clone copies the settings' pointers.
func (s Settings) clone() Settings {
	s.Tables = append([]string(nil), s.Tables...)
	if s.Verify != nil {
		v := *s.Verify
		s.Verify = &v
	}
	return s
}

// Serves reports whether the pool serves ruleset.
func (s Settings) Serves(ruleset string) bool {
	for _, r := range s.Rulesets {
		if r == ruleset {
			return true
		}
	}
	return false
}

// Validate checks the settings under the five documents (Standard) and
// names the offending field.
func (s Settings) Validate() error { return Standard().Validate(s) }

// Validate checks the settings and names the offending field: every
// ruleset is in k's catalogue, and all are of one casino and pay their
// major hits alike (ruling R7).
func (k Rules) Validate(s Settings) error {
	if !s.Currency.Valid() {
		return invalid("currency", "unknown ISO 4217 currency %q", s.Currency)
	}
	if len(s.Rulesets) == 0 {
		return invalid("rulesets", "a pool serves at least one ruleset")
	}
	var first *ruleset.Ruleset
	seen := map[string]bool{}
	for i, r := range s.Rulesets {
		field := fmt.Sprintf("rulesets[%d]", i)
		rs, ok := k.Rulesets.Lookup(ruleset.ID(r))
		if !ok {
			return invalid(field, "unknown ruleset %q", r)
		}
		if seen[r] {
			return invalid(field, "ruleset %q listed twice", r)
		}
		seen[r] = true
		if first == nil {
			first = rs
		}
		if rs.Casino != first.Casino {
			return invalid(field, "a pool links tables of one casino: %q is not %s (ruling R7)", r, first.Casino)
		}
		if m, fm := majorsFrom(rs.Majors), majorsFrom(first.Majors); m != fm {
			return invalid(field, "a pool links rulesets that pay major hits alike: %q pays them %s, %q %s (ruling R7)", r, m, first.ID, fm)
		}
		if m := majorsFrom(rs.Majors); m.Held && !m.Sequential {
			return invalid(field, "ruleset %q holds major hits for a settle window but shares them: a pool pays held hits one after the other (rulings R6, R7)", r)
		}
		if err := settlesIn(rs, s.Currency); err != nil {
			return err
		}
	}
	c := s.Currency // valid: checked above
	if s.Unit <= 0 || s.Unit > MaxUnit {
		return invalid("unit", "the wager unit must be %s to %s (1-%s minor units)", c.Format(1), c.Format(MaxUnit), money.Grouped(MaxUnit))
	}
	if s.ContributionBP < 0 || s.ContributionBP > 10000 {
		return invalid("contributionBp", "must be 0-10000 basis points")
	}
	if s.ReserveBP < 0 || s.ReserveBP > 10000 || s.ContributionBP+s.ReserveBP > 10000 {
		return invalid("reserveBp", "must be 0-10000 basis points, and contributionBp + reserveBp at most 10000")
	}
	if s.Reset <= 0 || s.Reset > MaxAmount {
		return invalid("reset", "the reset amount must be %s to %s (1-%s minor units)", c.Format(1), c.Format(MaxAmount), money.Grouped(MaxAmount))
	}
	if s.Ceiling != 0 && (s.Ceiling < s.Reset || s.Ceiling > MaxAmount) {
		return invalid("ceiling", "the ceiling must be zero (none) or from the reset amount, %s, to %s (%s minor units)", c.Format(s.Reset), c.Format(MaxAmount), money.Grouped(MaxAmount))
	}
	if s.SettleWindowMS < 0 || s.SettleWindowMS > 10*60*1000 {
		return invalid("settleWindowMs", "must be 0-600000 ms")
	}
	if s.ProposalTTLSeconds != 0 && (s.ProposalTTLSeconds < 60 || s.ProposalTTLSeconds > 86400) {
		return invalid("proposalTtlSeconds", "must be 0 (the default, %d seconds) or 60-86400 seconds", int64(DefaultProposalTTL/time.Second))
	}
	if s.Verify != nil && (s.Verify.AtOrAbove < 0 || s.Verify.AtOrAbove > MaxAmount) {
		return invalid("verify.atOrAbove", "must be 0 (no threshold) to %s (%s minor units)", c.Format(MaxAmount), money.Grouped(MaxAmount))
	}
	return validateLinks(s)
}

// CategoryMeter is the hits of one category and what they were paid.
type CategoryMeter struct {
	Count int64        `json:"count"`
	Paid  money.Amount `json:"paid"`
	// FromPool is the part of Paid the displayed meter funded.
	FromPool money.Amount `json:"fromPool"`
}

// Meters are a pool's running totals. Every change to them is a ledger
// entry: Reconcile rebuilds them from the ledger alone.
type Meters struct {
	Displayed money.Amount `json:"displayed"`
	Reserve   money.Amount `json:"reserve"`
	Overflow  money.Amount `json:"overflow"`
	// CarryDisplayed and CarryReserve are the contribution fractions not
	// yet credited, in 1/10000 of the minor unit (always 0-9999).
	CarryDisplayed int64 `json:"carryDisplayed"`
	CarryReserve   int64 `json:"carryReserve"`
	// Contributed is every contribution credited to the displayed and
	// overflow meters; ContributedReserve to the reserve. With the carries:
	// Contributed*10000 + CarryDisplayed == sum(wager x contribution rate),
	// which Reconcile checks exactly (in math/big) against the ledger's
	// per-entry sums: the lifetime sum is not kept as a meter, since it
	// would outgrow an int64.
	Contributed        money.Amount `json:"contributed"`
	ContributedReserve money.Amount `json:"contributedReserve"`
	// Accepted progressive wagers.
	Wagers      int64        `json:"wagers"`
	WagerAmount money.Amount `json:"wagerAmount"`
	// Hits per category (snake_case category name).
	Hits map[string]CategoryMeter `json:"hits"`
	// HouseFunded is everything the house has paid in: the opening seed,
	// fixed and odds prizes, and reset shortfalls (ruling R21).
	HouseFunded money.Amount `json:"houseFunded"`
	Resets      int64        `json:"resets"`
}

// LastHitsKept is how many recent hits a pool shows.
const LastHitsKept = 25

// HitRecord is one paid hit in a pool's recent history.
type HitRecord struct {
	Seq      int64        `json:"seq"`
	Table    string       `json:"table"`
	Round    string       `json:"round"`
	Seat     int          `json:"seat"`
	Category string       `json:"category"`
	Paid     money.Amount `json:"paid"`
	PaidAt   time.Time    `json:"paidAt"` // when it was committed (Reconcile rebuilds it from the hit entry)
	// State is what became of the hit since its commit (issue 24):
	// "paid" once the cage paid a hit under the lock, "voided" once it was
	// voided or taken back by a correction, at SettledAt; "" otherwise.
	State     string     `json:"state,omitempty"`
	SettledAt *time.Time `json:"settledAt,omitempty"`
}

// HeldHit is an RWS major hit held pending for the settle window (R7).
type HeldHit struct {
	Seq      int64     `json:"seq"` // the ledger entry that recorded it: commit order
	Table    string    `json:"table"`
	Round    string    `json:"round"`
	Ruleset  string    `json:"ruleset"`
	DealtAt  time.Time `json:"dealtAt"`
	HeldAt   time.Time `json:"heldAt"`
	PayAfter time.Time `json:"payAfter"`
	Hit      Hit       `json:"hit"`
}

// SettingsChange is a recorded change waiting for the next reset.
type SettingsChange struct {
	// By is the id of the principal who proposed it (Actor), ApprovedBy
	// the second principal who approved it (dual control).
	By         string    `json:"by"`
	Actor      *Actor    `json:"actor,omitempty"`
	ApprovedBy *Actor    `json:"approvedBy,omitempty"`
	At         time.Time `json:"at"`
	Reason     string    `json:"reason,omitempty"`
	Settings   Settings  `json:"settings"`
}

// Pool is a progressive pool: its settings, meters and pending work.
type Pool struct {
	ID       string          `json:"id"`
	Settings Settings        `json:"settings"`
	Pending  *SettingsChange `json:"pending,omitempty"`
	Meters   Meters          `json:"meters"`
	LastHits []HitRecord     `json:"lastHits"`
	Held     []HeldHit       `json:"held"`
	// Locked are the hits under the jackpot lock not yet paid or voided
	// (and the settled hits of a group still open).
	Locked []LockedHit `json:"locked,omitempty"`
	// Proposals are the changes waiting for a second principal's
	// approval (dual control), open or expired, oldest first.
	Proposals []Proposal `json:"proposals,omitempty"`
	// LastVoidHand is the last round_void entry that named a hand that
	// would have hit (issue 33 item 1): the floor's cue to read the hit
	// queue's history.
	LastVoidHand int64 `json:"lastVoidHand,omitempty"`
	// Seq is the number of ledger entries; the next entry is Seq+1.
	Seq int64 `json:"seq"`
	// Version increases by one with every committed change (optimistic
	// concurrency in the stores).
	Version   int64     `json:"version"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
	// Stamps bound the times of the ledger's entries, for reading an
	// instant from the end of the ledger (Stamps).
	Stamps Stamps `json:"stamps"`
	// Shards is a sharded store's note of the contribution shards it
	// folded into this view of the pool (internal/dynamo): opaque to the
	// domain, carried by every transition from the store's read to its
	// commit, and never written out.
	Shards string `json:"-"`
}

// clone returns a deep copy of p.
func (p Pool) clone() Pool {
	q := p
	q.Settings.Rulesets = append([]string(nil), p.Settings.Rulesets...)
	if p.Pending != nil {
		pc := *p.Pending
		pc.Settings.Rulesets = append([]string(nil), p.Pending.Settings.Rulesets...)
		q.Pending = &pc
	}
	q.Meters.Hits = make(map[string]CategoryMeter, len(p.Meters.Hits))
	for k, v := range p.Meters.Hits {
		q.Meters.Hits[k] = v
	}
	q.LastHits = append([]HitRecord(nil), p.LastHits...)
	q.Held = append([]HeldHit(nil), p.Held...)
	q.Locked = append([]LockedHit(nil), p.Locked...)
	q.Proposals = append([]Proposal(nil), p.Proposals...)
	q.Settings = q.Settings.clone()
	if q.Pending != nil {
		q.Pending.Settings = q.Pending.Settings.clone()
	}
	return q
}

// ValidID reports whether id is usable as a pool, table or round id: 1-64
// characters of letters, digits, '-', '_', '.' and ':'.
func ValidID(id string) bool {
	if len(id) == 0 || len(id) > 64 {
		return false
	}
	for _, r := range id {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.', r == ':':
		default:
			return false
		}
	}
	return true
}

// New returns a new pool and its opening ledger entry: the first seed
// (the reset amount) funded by the house (ruling R21).
func New(id string, s Settings, by Actor, now time.Time) (Pool, []Entry, error) {
	return Standard().New(id, s, by, now)
}

// New is New for a pool under k's rulesets.
func (k Rules) New(id string, s Settings, by Actor, now time.Time) (Pool, []Entry, error) {
	if !ValidID(id) {
		return Pool{}, nil, invalid("id", "a pool id is 1-64 letters, digits, '-', '_', '.' or ':'")
	}
	s = k.withDefaultWindow(s)
	if err := k.Validate(s); err != nil {
		return Pool{}, nil, err
	}
	if err := requireActor(by); err != nil {
		return Pool{}, nil, err
	}
	p := Pool{ID: id, Settings: s, Meters: Meters{Hits: map[string]CategoryMeter{}}, CreatedAt: now, UpdatedAt: now, Version: 1}
	p.Settings.Rulesets = append([]string(nil), s.Rulesets...)
	c := &change{pool: &p, now: now}
	ns := s
	c.post(Entry{Kind: KindOpening, Displayed: s.Reset, HouseFunded: s.Reset, Actor: &by,
		Funding: []Funding{{Source: SourceHouse, Amount: s.Reset}}, New: &ns,
		Rules: []string{"ruling R21"}, Note: "opening seed of the displayed meter, funded by the house"})
	return p, c.entries, nil
}

// settlesIn refuses a pool whose currency a served ruleset cannot settle
// in: a ruleset with amounts of its own (fixed prizes, caps) settles only in
// its document's currency, as settlement does (every document is in SGD).
// A pool that took such a ruleset in another currency could never accept a
// round.
func settlesIn(rs *ruleset.Ruleset, c money.Currency) error {
	if rs.Currency == c || !rs.UsesDocCurrency() {
		return nil
	}
	return invalid("currency", "ruleset %s settles only in %s (its fixed prizes and caps are in %s); the pool is in %s", rs.ID, rs.Currency, rs.Currency, c)
}
