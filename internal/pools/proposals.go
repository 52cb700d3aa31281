package pools

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/principal"
)

// Dual control (issue 16): a meter adjustment, a settings change, a
// correction of an applied round and a void of a pending hit are proposed
// by one principal and take effect only when a second one approves them.

// proposers is the role that proposes each kind of change; Approver the
// role that approves every kind.
var proposers = map[string]principal.Role{
	jackpot.ProposeAdjustment: principal.Admin,
	jackpot.ProposeSettings:   principal.Admin,
	jackpot.ProposeCorrection: principal.Supervisor,
	jackpot.ProposeVoid:       principal.Supervisor,
}

// Approver is the role whose principals approve proposals.
const Approver = principal.Controller

// Approval is the answer to an approval: the proposal (approved), the
// pool after the change, and for a void the hit, for a correction its
// result.
type Approval struct {
	Proposal   jackpot.Proposal          `json:"proposal"`
	Pool       jackpot.Pool              `json:"pool"`
	Hit        *jackpot.LockedHit        `json:"hit,omitempty"`
	Correction *jackpot.CorrectionResult `json:"correction,omitempty"`
}

// stampActor records ctx's principal, acting in its role, on the entries
// that name no actor (rounds applied by a table, held hits it released).
func stampActor(ctx context.Context, es []jackpot.Entry) {
	p, ok := principal.FromContext(ctx)
	if !ok {
		return
	}
	a := &jackpot.Actor{ID: p.ID, Role: string(p.Acting)}
	for i := range es {
		if es[i].Actor == nil {
			es[i].Actor = a
		}
	}
}

// cosigned refuses a change by proposes and approvedBy approves at once
// unless approvedBy is a second principal acting as Approver.
func cosigned(by, approvedBy jackpot.Actor) error {
	if by.ID == "" || approvedBy.ID == "" {
		return fault.New(fault.Unauthenticated, "dual control: the change names who proposes it and the second principal who approves it")
	}
	if approvedBy.Role != string(Approver) {
		return forbidden("", nil, "dual control: a change is approved by a principal acting as %s; %s acts as %q", Approver, approvedBy.ID, approvedBy.Role)
	}
	if principal.SamePerson(approvedBy.ID, by.ID) {
		if approvedBy.ID == by.ID {
			return forbidden("", nil, "dual control: %s proposes the change and cannot approve it too", by.ID)
		}
		return forbidden("", nil, "dual control: %s and %s are one person (the same IAM session or user name) in two roles; a second person approves", by.ID, approvedBy.ID)
	}
	return nil
}

// countersign records approvedBy on a change's entries.
func countersign(es []jackpot.Entry, approvedBy jackpot.Actor) {
	for i := range es {
		es[i].ApprovedBy = &approvedBy
	}
}

func forbidden(field string, value any, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	return &fault.Error{Kind: fault.Forbidden, Detail: msg, Fields: []fault.Problem{{Field: field, Message: msg, Value: value}}}
}

// effect applies ch to p as by (the proposer) would: the transition an
// approval commits, and that a proposal dry-runs to refuse at once what
// could not apply.
func (s *Service) effect(ctx context.Context, p jackpot.Pool, ch jackpot.Change, by jackpot.Actor, now time.Time) (jackpot.Pool, []jackpot.Entry, *jackpot.LockedHit, *jackpot.CorrectionResult, error) {
	switch {
	case ch.Kind == jackpot.ProposeAdjustment && ch.Adjustment != nil:
		q, es, err := jackpot.Adjust(p, *ch.Adjustment, by, now)
		return q, es, nil, nil, err
	case ch.Kind == jackpot.ProposeSettings && ch.Settings != nil:
		q, es, err := s.Rules().ChangeSettings(p, ch.Settings.Patch.On(p), by, ch.Settings.Reason, now)
		return q, es, nil, nil, err
	case ch.Kind == jackpot.ProposeVoid && ch.Void != nil:
		q, es, h, err := s.voidTx(ctx, p, ch.Void.Seq, ch.Void.Reason, by, now)
		if err != nil {
			return jackpot.Pool{}, nil, nil, nil, err
		}
		return q, es, &h, nil, nil
	case ch.Kind == jackpot.ProposeCorrection && ch.Correction != nil:
		q, es, res, err := s.correctTx(ctx, p, *ch.Correction, by, now)
		if err != nil {
			return jackpot.Pool{}, nil, nil, nil, err
		}
		return q, es, nil, &res, nil
	}
	return jackpot.Pool{}, nil, nil, nil, invalid("kind", "a proposal is an adjustment, a settings change, a correction or a void, with its change")
}

// internalIfBare keeps a transition's *fault.Error and reports anything
// else as a ledger that does not add up.
func internalIfBare(err error) error {
	var fe *fault.Error
	if err == nil || errors.As(err, &fe) {
		return err
	}
	return fault.Wrap(fault.Internal, err, "the pool's ledger does not add up")
}

// noLongerApplies is the refusal of an approval whose change was checked
// when it was proposed and no longer applies to the pool as it is now (the
// hit was confirmed or paid since, a meter would go below zero): a
// Conflict naming the proposal, the request's one resource, never a 404
// or a 422 about fields the approval does not carry. Other refusals (503,
// 500) are kept.
func noLongerApplies(pid int64, err error) error {
	fe, ok := fault.As(err)
	if !ok || (fe.Kind != fault.NotFound && fe.Kind != fault.Invalid && fe.Kind != fault.Conflict) {
		return err
	}
	msg := fmt.Sprintf("proposal %d no longer applies to the pool as it is now: %s; withdraw it or propose again", pid, fe.Detail)
	return &fault.Error{Kind: fault.Conflict, Detail: msg, Rules: fe.Rules, Err: err,
		Fields: []fault.Problem{{Field: "path.proposal", Message: "no longer applies: " + fe.Detail, Value: pid}}}
}

// Propose records a proposal of ch by by (who must hold the role that
// proposes ch's kind), exactly once under its Idempotency-Key (required):
// the same key again returns the first answer (replayed true); with
// another change or principal, a Conflict. The change is checked against
// the pool as it is now (a dry run of the transition the approval will
// apply) and nothing moves until a second principal approves it.
func (s *Service) Propose(ctx context.Context, id string, ch jackpot.Change, by jackpot.Actor, key string) (jackpot.Pool, jackpot.Proposal, bool, error) {
	if by.ID == "" {
		return jackpot.Pool{}, jackpot.Proposal{}, false, fault.New(fault.Unauthenticated, "authentication is required: who proposes a change is recorded")
	}
	role, ok := proposers[ch.Kind]
	if !ok {
		return jackpot.Pool{}, jackpot.Proposal{}, false, invalid("kind", "a proposal is an adjustment, a settings change, a correction or a void")
	}
	if by.Role != string(role) {
		return jackpot.Pool{}, jackpot.Proposal{}, false, forbidden("", nil, "a %s is proposed by a principal acting as %s; %s acts as %q", ch.Kind, role, by.ID, by.Role)
	}
	if err := requireKey(key); err != nil {
		return jackpot.Pool{}, jackpot.Proposal{}, false, err
	}
	o := &once{op: jackpot.OpPropose + ch.Kind, key: key, fingerprint: jackpot.FingerprintOf(struct {
		Op     string         `json:"op"`
		Change jackpot.Change `json:"change"`
		By     jackpot.Actor  `json:"by"`
	}{jackpot.OpPropose + ch.Kind, ch, by})}
	q, replayed, err := s.update(ctx, id, o, func(p jackpot.Pool, now time.Time) (jackpot.Pool, []jackpot.Entry, bool, error) {
		o.extra, o.proposal = nil, nil
		if err := refuseDuplicate(p, ch, by, now); err != nil {
			return jackpot.Pool{}, nil, false, err
		}
		if _, _, _, _, err := s.effect(ctx, p, ch, by, now); err != nil {
			return jackpot.Pool{}, nil, false, internalIfBare(err)
		}
		q, es, pr, expired, err := jackpot.Propose(p, ch, by, now)
		if err != nil {
			return jackpot.Pool{}, nil, false, err
		}
		for i := range expired {
			o.extra = append(o.extra, closedRecord(id, expired[i]))
		}
		o.proposal = &pr
		return q, es, true, nil
	})
	if err != nil {
		return jackpot.Pool{}, jackpot.Proposal{}, false, err
	}
	if o.proposal == nil {
		return jackpot.Pool{}, jackpot.Proposal{}, false, fault.New(fault.Internal, "the proposal left no answer")
	}
	return q, *o.proposal, replayed, nil
}

// closedRecord is the record of a closed proposal: the store writes it
// once, so a proposal is approved, withdrawn or expired once.
func closedRecord(pool string, pr jackpot.Proposal) jackpot.RoundRecord {
	return jackpot.RoundRecord{Pool: pool, Key: jackpot.ProposalKey(pr.ID), Op: jackpot.OpProposal, Fingerprint: jackpot.FingerprintOf(pr), Proposal: &pr}
}

// closed explains why proposal id of pool, not open, cannot be approved or
// withdrawn: a Conflict naming its state (approved, withdrawn, expired),
// or NotFound.
func (s *Service) closed(ctx context.Context, pool string, id int64, notOpen error) error {
	rec, err := s.Store.Record(ctx, pool, jackpot.ProposalKey(id))
	switch {
	case errors.Is(err, jackpot.ErrNotFound):
		return notOpen
	case err != nil:
		return unavailable(err)
	case rec.Proposal == nil:
		return fault.New(fault.Internal, "proposal %d's record holds no proposal", id)
	}
	pr := rec.Proposal
	msg := fmt.Sprintf("proposal %d was %s", id, pr.State)
	if pr.DecidedBy != nil && pr.DecidedAt != nil {
		msg += fmt.Sprintf(" by %s at %s", pr.DecidedBy.ID, pr.DecidedAt.Format(time.RFC3339))
	}
	if pr.State == jackpot.ProposalExpired {
		msg += " at " + pr.ExpiresAt.Format(time.RFC3339) + " unapproved"
	}
	return conflict("path.proposal", msg+": it can be neither approved nor withdrawn again")
}

// Approve applies proposal pid as approved by by, a second principal
// acting as controller (never the proposer, whatever roles it holds),
// before the proposal expires: the change and the closed proposal's record
// in one commit, every entry naming the proposer (actor) and the approver
// (approvedBy). Exactly once under its Idempotency-Key (required): the
// same key again returns the first answer; approving it again under
// another key is a Conflict (already approved).
func (s *Service) Approve(ctx context.Context, id string, pid int64, by jackpot.Actor, key string) (Approval, bool, error) {
	if by.ID == "" {
		return Approval{}, false, fault.New(fault.Unauthenticated, "authentication is required: who approves a change is recorded")
	}
	if by.Role != string(Approver) {
		return Approval{}, false, forbidden("path.proposal", pid, "a proposal is approved by a principal acting as %s; %s acts as %q", Approver, by.ID, by.Role)
	}
	if err := requireKey(key); err != nil {
		return Approval{}, false, err
	}
	o := &once{op: jackpot.OpApprove, key: key, fingerprint: jackpot.FingerprintOf(struct {
		Op       string        `json:"op"`
		Proposal int64         `json:"proposal"`
		By       jackpot.Actor `json:"by"`
	}{jackpot.OpApprove, pid, by})}
	q, replayed, err := s.update(ctx, id, o, func(p jackpot.Pool, now time.Time) (jackpot.Pool, []jackpot.Entry, bool, error) {
		o.extra, o.proposal, o.hit, o.correction = nil, nil, nil, nil
		pr, i, err := p.OpenProposal(pid)
		if err != nil {
			return jackpot.Pool{}, nil, false, s.closed(ctx, id, pid, err)
		}
		if err := jackpot.CheckApproval(pr, by, now); err != nil {
			return jackpot.Pool{}, nil, false, err
		}
		q, es, hit, corr, err := s.effect(ctx, p, pr.Change, pr.ProposedBy, now)
		if err != nil {
			return jackpot.Pool{}, nil, false, noLongerApplies(pid, internalIfBare(err))
		}
		done := jackpot.Approved(&q, i, es, by, now)
		o.proposal, o.hit, o.correction = &done, hit, corr
		o.extra = []jackpot.RoundRecord{closedRecord(id, done)}
		return q, es, true, nil
	})
	if err != nil {
		return Approval{}, false, err
	}
	if o.proposal == nil {
		return Approval{}, false, fault.New(fault.Internal, "the approval left no answer")
	}
	return Approval{Proposal: *o.proposal, Pool: q, Hit: o.hit, Correction: o.correction}, replayed, nil
}

// Withdraw takes proposal pid back: only its proposer may, while it is
// neither approved nor withdrawn. Exactly once under its Idempotency-Key
// (required).
func (s *Service) Withdraw(ctx context.Context, id string, pid int64, by jackpot.Actor, key string) (jackpot.Pool, jackpot.Proposal, bool, error) {
	if by.ID == "" {
		return jackpot.Pool{}, jackpot.Proposal{}, false, fault.New(fault.Unauthenticated, "authentication is required: who withdraws a proposal is recorded")
	}
	if err := requireKey(key); err != nil {
		return jackpot.Pool{}, jackpot.Proposal{}, false, err
	}
	o := &once{op: jackpot.OpWithdraw, key: key, fingerprint: jackpot.FingerprintOf(struct {
		Op       string        `json:"op"`
		Proposal int64         `json:"proposal"`
		By       jackpot.Actor `json:"by"`
	}{jackpot.OpWithdraw, pid, by})}
	q, replayed, err := s.update(ctx, id, o, func(p jackpot.Pool, now time.Time) (jackpot.Pool, []jackpot.Entry, bool, error) {
		o.extra, o.proposal = nil, nil
		if _, _, err := p.OpenProposal(pid); err != nil {
			return jackpot.Pool{}, nil, false, s.closed(ctx, id, pid, err)
		}
		q, es, pr, err := jackpot.Withdraw(p, pid, by, now)
		if err != nil {
			return jackpot.Pool{}, nil, false, err
		}
		o.proposal = &pr
		o.extra = []jackpot.RoundRecord{closedRecord(id, pr)}
		return q, es, true, nil
	})
	if err != nil {
		return jackpot.Pool{}, jackpot.Proposal{}, false, err
	}
	if o.proposal == nil {
		return jackpot.Pool{}, jackpot.Proposal{}, false, fault.New(fault.Internal, "the withdrawal left no answer")
	}
	return q, *o.proposal, replayed, nil
}

// Proposals lists the pool's open proposals (not expired at the service's
// now), oldest first.
func (s *Service) Proposals(ctx context.Context, id string) ([]jackpot.Proposal, error) {
	p, err := s.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	now := s.Now()
	out := []jackpot.Proposal{}
	for _, pr := range p.Proposals {
		if !pr.Expired(now) {
			out = append(out, pr)
		}
	}
	return out, nil
}

// AtProposal names the proposal (path.proposal) as the location of a
// refusal of its change at approval (Approve) (a meter that would now go below zero: "amount" is a
// field of the proposal, not of this request).
func AtProposal(err error) error {
	e, ok := fault.As(err)
	if !ok || len(e.Fields) == 0 {
		return err
	}
	f := e.Field()
	if f == "" || f == jackpot.FieldPool || strings.HasPrefix(f, "path.") || strings.HasPrefix(f, "header.") {
		return err
	}
	c := *e
	c.Fields = append([]fault.Problem(nil), e.Fields...)
	c.Fields[0].Field = "path.proposal"
	c.Fields[0].Message = "the proposal's " + f + ": " + c.Fields[0].Message
	return &c
}
