package jackpot

import (
	"fmt"
	"time"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/principal"
)

// Dual control (issue 16). A meter adjustment, a settings change, a
// correction of an applied round and a void of a pending hit take effect
// only when a second principal, other than the proposer and holding an
// approving role, approves them. Proposing records a Proposal in the pool
// (and a ledger entry that moves no meter); approving applies it in one
// commit whose entries name both principals; the proposer may withdraw
// it; it expires after the pool's ProposalTTL.

// DefaultProposalTTL is how long a proposal waits for its approval when
// the pool's settings leave it unset.
const DefaultProposalTTL = 30 * time.Minute

// MaxOpenProposals is how many proposals a pool holds open at once: they
// live in the pool's item (DynamoDB: at most 400 KB), and a correction
// carries its whole round. The proposal that closes them all, expired,
// writes the pool, 33 entries, 32 closed records and its key's record: 67
// items, inside one DynamoDB transaction's 100.
const MaxOpenProposals = 32

// The kinds of proposal: what the change will do.
const (
	ProposeAdjustment = "adjustment"
	ProposeSettings   = "settings"
	ProposeCorrection = "correction"
	ProposeVoid       = "void"
)

// The states of a proposal.
const (
	ProposalOpen      = "open"
	ProposalApproved  = "approved"
	ProposalWithdrawn = "withdrawn"
	ProposalExpired   = "expired"
)

// VoidHit is a proposed void of a pending hit.
type VoidHit struct {
	Seq    int64  `json:"seq" doc:"The pending hit: the sequence number of its ledger entry."`
	Reason string `json:"reason"`
}

// SettingsProposal is a proposed settings change.
type SettingsProposal struct {
	Patch  SettingsPatch `json:"patch"`
	Reason string        `json:"reason,omitempty"`
}

// Change is what a proposal will do: exactly one of its fields is set,
// the one its Kind names.
type Change struct {
	Kind       string            `json:"kind" enum:"adjustment,settings,correction,void"`
	Adjustment *Adjustment       `json:"adjustment,omitempty"`
	Settings   *SettingsProposal `json:"settings,omitempty"`
	Correction *Correction       `json:"correction,omitempty"`
	Void       *VoidHit          `json:"void,omitempty"`
}

// Proposal is a change waiting for its second principal.
type Proposal struct {
	// ID is the sequence number of the proposal's ledger entry.
	ID    int64  `json:"id" doc:"The proposal: the sequence number of its ledger entry."`
	State string `json:"state" enum:"open,approved,withdrawn,expired"`
	// Change is what it will do: its kind and that kind's field, inline
	// (the floor console reads proposal.kind and proposal.adjustment).
	Change
	ProposedBy Actor     `json:"proposedBy"`
	ProposedAt time.Time `json:"proposedAt"`
	ExpiresAt  time.Time `json:"expiresAt"`
	// DecidedBy approved or withdrew it; absent while open or once expired.
	DecidedBy *Actor     `json:"decidedBy,omitempty"`
	DecidedAt *time.Time `json:"decidedAt,omitempty"`
}

// Expired reports whether the proposal can no longer be approved at now.
func (pr Proposal) Expired(now time.Time) bool { return !now.Before(pr.ExpiresAt) }

// Describe says what the change will do, for the ledger's note and a
// refusal, an amount in the pool's currency cur ("adjust the reserve meter
// by +SGD 1,000.00").
func (c Change) Describe(cur money.Currency) string {
	switch c.Kind {
	case ProposeAdjustment:
		if a := c.Adjustment; a != nil {
			amount := cur.Format(a.Amount)
			if a.Amount > 0 {
				amount = "+" + amount
			}
			return fmt.Sprintf("adjust the %s meter by %s", a.Meter, amount)
		}
	case ProposeSettings:
		return "change the settings (effective after the next reset)"
	case ProposeCorrection:
		if r := c.Correction; r != nil {
			if r.Corrected == nil {
				return fmt.Sprintf("void round %s of table %s", r.Round, r.Table)
			}
			return fmt.Sprintf("correct round %s of table %s", r.Round, r.Table)
		}
	case ProposeVoid:
		if v := c.Void; v != nil {
			return fmt.Sprintf("void pending hit %d", v.Seq)
		}
	}
	return c.Kind
}

// Propose records a proposal of change by by, expiring after the pool's
// ProposalTTL. Proposals already expired at now leave the pool with a
// proposal_expired entry each (returned in expired: their records are the
// caller's). The change itself is checked by the caller (a dry run of the
// transition it will apply).
func Propose(p Pool, ch Change, by Actor, now time.Time) (Pool, []Entry, Proposal, []Proposal, error) {
	if err := requireActor(by); err != nil {
		return Pool{}, nil, Proposal{}, nil, err
	}
	q := p.clone()
	c := &change{pool: &q, now: now}
	var expired []Proposal
	open := q.Proposals[:0:0]
	for _, pr := range q.Proposals {
		if pr.Expired(now) {
			pr.State = ProposalExpired
			expired = append(expired, pr)
			c.post(Entry{Kind: KindProposalExpired, Proposal: pr.ID, Actor: &pr.ProposedBy,
				Note: fmt.Sprintf("expired at %s unapproved: %s", pr.ExpiresAt.Format(time.RFC3339), pr.Change.Describe(p.Settings.Currency))})
			continue
		}
		open = append(open, pr)
	}
	if len(open) >= MaxOpenProposals {
		return Pool{}, nil, Proposal{}, nil, &fault.Error{Kind: fault.Conflict, Detail: fmt.Sprintf("pool %s has %d open proposals, the most it holds: approve or withdraw some first", p.ID, len(open)),
			Fields: []fault.Problem{{Field: FieldPool, Message: "too many open proposals"}}}
	}
	pr := Proposal{State: ProposalOpen, Change: ch, ProposedBy: by, ProposedAt: now, ExpiresAt: now.Add(p.Settings.ProposalTTL())}
	e := c.post(Entry{Kind: KindProposal, Actor: &by, Reason: ch.Reason(),
		Note: fmt.Sprintf("proposed: %s; takes effect only when a second principal approves it, before %s", ch.Describe(p.Settings.Currency), pr.ExpiresAt.Format(time.RFC3339))})
	pr.ID = e.Seq
	c.entries[len(c.entries)-1].Proposal = pr.ID
	q.Proposals = append(open, pr)
	if c.err != nil {
		return Pool{}, nil, Proposal{}, nil, overflowError(c.pool.Settings.Currency, c.err)
	}
	c.finish()
	return q, c.entries, pr, expired, nil
}

// Reason is the reason its proposer gave for the change.
func (ch Change) Reason() string {
	switch {
	case ch.Adjustment != nil:
		return ch.Adjustment.Reason
	case ch.Settings != nil:
		return ch.Settings.Reason
	case ch.Correction != nil:
		return ch.Correction.Reason
	case ch.Void != nil:
		return ch.Void.Reason
	}
	return ""
}

// OpenProposal returns the pool's proposal id and its index, or a NotFound.
func (p Pool) OpenProposal(id int64) (Proposal, int, error) {
	for i, pr := range p.Proposals {
		if pr.ID == id {
			return pr, i, nil
		}
	}
	return Proposal{}, -1, &fault.Error{Kind: fault.NotFound, Detail: fmt.Sprintf("pool %s has no proposal %d", p.ID, id),
		Fields: []fault.Problem{{Field: "path.proposal", Message: "no such proposal", Value: id}}}
}

// CheckApproval refuses an approval of pr by by at now: by must be a
// second principal (not the proposer, whatever roles it holds), and pr
// must not have expired.
func CheckApproval(pr Proposal, by Actor, now time.Time) error {
	if err := requireActor(by); err != nil {
		return err
	}
	if principal.SamePerson(by.ID, pr.ProposedBy.ID) {
		detail := fmt.Sprintf("proposal %d was proposed by %s: dual control needs a second principal to approve it", pr.ID, by.ID)
		msg := "one's own proposal cannot be approved"
		if by.ID != pr.ProposedBy.ID {
			detail = fmt.Sprintf("proposal %d was proposed by %s, and %s is the same person (the same IAM session or user name) in another role: dual control needs a second person to approve it", pr.ID, pr.ProposedBy.ID, by.ID)
			msg = "one's own proposal cannot be approved, in any role"
		}
		return &fault.Error{Kind: fault.Forbidden, Detail: detail, Fields: []fault.Problem{{Field: "path.proposal", Message: msg, Value: pr.ID}}}
	}
	if pr.Expired(now) {
		return &fault.Error{Kind: fault.Conflict, Detail: fmt.Sprintf("proposal %d expired at %s: it can no longer be approved; propose it again", pr.ID, pr.ExpiresAt.Format(time.RFC3339)),
			Fields: []fault.Problem{{Field: "path.proposal", Message: "expired", Value: pr.ID}}}
	}
	return nil
}

// Approved marks q's proposal at index i approved by by, removes it from
// the pool, and stamps every entry of its change with both principals.
func Approved(q *Pool, i int, es []Entry, by Actor, now time.Time) Proposal {
	pr := q.Proposals[i]
	q.Proposals = append(q.Proposals[:i:i], q.Proposals[i+1:]...)
	pr.State, pr.DecidedBy, pr.DecidedAt = ProposalApproved, &by, &now
	for j := range es {
		if es[j].Actor == nil {
			es[j].Actor = &pr.ProposedBy
		}
		es[j].ApprovedBy, es[j].Proposal = &by, pr.ID
	}
	if q.Pending != nil && q.Pending.Actor != nil && q.Pending.Actor.ID == pr.ProposedBy.ID && pr.Change.Kind == ProposeSettings {
		q.Pending.ApprovedBy = &by
	}
	return pr
}

// Withdraw takes proposal id out of the pool: only its proposer may.
func Withdraw(p Pool, id int64, by Actor, now time.Time) (Pool, []Entry, Proposal, error) {
	if err := requireActor(by); err != nil {
		return Pool{}, nil, Proposal{}, err
	}
	pr, i, err := p.OpenProposal(id)
	if err != nil {
		return Pool{}, nil, Proposal{}, err
	}
	if by.ID != pr.ProposedBy.ID {
		return Pool{}, nil, Proposal{}, &fault.Error{Kind: fault.Forbidden, Detail: fmt.Sprintf("proposal %d was proposed by %s: only its proposer withdraws it", pr.ID, pr.ProposedBy.ID),
			Fields: []fault.Problem{{Field: "path.proposal", Message: "not the proposer", Value: pr.ID}}}
	}
	if pr.Expired(now) {
		// Expired is final: the ledger says so (the pool's next proposal
		// records it), and withdrawing would say otherwise.
		return Pool{}, nil, Proposal{}, &fault.Error{Kind: fault.Conflict, Detail: fmt.Sprintf("proposal %d expired at %s unapproved: it is expired and can no longer be withdrawn", pr.ID, pr.ExpiresAt.Format(time.RFC3339)),
			Fields: []fault.Problem{{Field: "path.proposal", Message: "expired", Value: pr.ID}}}
	}
	q := p.clone()
	q.Proposals = append(q.Proposals[:i:i], q.Proposals[i+1:]...)
	c := &change{pool: &q, now: now}
	c.post(Entry{Kind: KindProposalWithdrawn, Proposal: pr.ID, Actor: &by, Note: "withdrawn by its proposer: " + pr.Change.Describe(p.Settings.Currency)})
	pr.State, pr.DecidedBy, pr.DecidedAt = ProposalWithdrawn, &by, &now
	if c.err != nil {
		return Pool{}, nil, Proposal{}, overflowError(c.pool.Settings.Currency, c.err)
	}
	c.finish()
	return q, c.entries, pr, nil
}
