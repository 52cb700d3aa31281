package pools

import (
	"context"
	"fmt"
	"time"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/money"
)

// Decisions with facts and safe actions (issue 24 item 4).

// MeterEffect is one meter before and after a change.
type MeterEffect struct {
	Before money.Amount `json:"before"`
	After  money.Amount `json:"after"`
}

// Effect is what a proposal will do in money if approved now: a dry run
// of its change on the pool as it stands.
type Effect struct {
	Currency money.Currency `json:"currency"`
	// Meters are displayed, reserve and overflow before and after.
	Meters map[string]MeterEffect `json:"meters,omitempty" doc:"displayed, reserve and overflow: before and after, in minor units."`
	// Recovered is what the house must recover from winners of hits
	// already paid that a correction takes back.
	Recovered money.Amount `json:"recovered" doc:"What the house must recover from a winner already paid (a correction), in minor units."`
	Reason    string       `json:"reason,omitempty"`
	Table     string       `json:"table,omitempty"`
	Round     string       `json:"round,omitempty"`
	Seat      int          `json:"seat,omitempty"`
	Hand      string       `json:"hand,omitempty"`
	// Amount is a void's hit amount (what returns to its sources).
	Amount money.Amount `json:"amount,omitempty" doc:"A void: the hit's amount, returned to its sources."`
	// Error says why the change no longer applies to the pool as it is.
	Error string `json:"error,omitempty" doc:"Why the change would be refused if approved now (then no meters)."`
}

// Effects dry-runs each of p's open proposals, as its proposer, on the
// pool as it stands at now.
func (s *Service) Effects(ctx context.Context, p jackpot.Pool, prs []jackpot.Proposal) []Effect {
	now := s.Now()
	out := make([]Effect, len(prs))
	for i, pr := range prs {
		e := Effect{Currency: p.Settings.Currency, Reason: pr.Change.Reason()}
		switch {
		case pr.Void != nil:
			for _, h := range p.Locked {
				if h.Seq == pr.Void.Seq {
					e.Table, e.Round, e.Seat, e.Hand, e.Amount = h.Table, h.Round, h.Seat, h.Category, h.Amount
				}
			}
		case pr.Correction != nil:
			e.Table, e.Round = pr.Correction.Table, pr.Correction.Round
		}
		q, es, _, corr, err := s.effect(ctx, p, pr.Change, pr.ProposedBy, now)
		if err != nil {
			if fe, ok := fault.As(err); ok {
				e.Error = fe.Detail
			} else {
				e.Error = "the change could not be checked"
			}
			out[i] = e
			continue
		}
		e.Meters = map[string]MeterEffect{
			"displayed": {p.Meters.Displayed, q.Meters.Displayed},
			"reserve":   {p.Meters.Reserve, q.Meters.Reserve},
			"overflow":  {p.Meters.Overflow, q.Meters.Overflow},
		}
		if corr != nil {
			e.Recovered = corr.HouseRecovery
		} else {
			for _, en := range es {
				e.Recovered += en.Recovered
			}
		}
		out[i] = e
	}
	return out
}

// refuseDuplicate refuses a proposal of ch by by on p while an open one
// makes it pointless or doubles it: a second void of one hit (by anyone),
// or the same change by the same proposer (a double-click under two
// Idempotency-Keys). The 409 names the open proposal's id.
func refuseDuplicate(p jackpot.Pool, ch jackpot.Change, by jackpot.Actor, now time.Time) error {
	same := jackpot.FingerprintOf(ch)
	for _, pr := range p.Proposals {
		if pr.State != jackpot.ProposalOpen || pr.Expired(now) {
			continue
		}
		if ch.Void != nil && pr.Void != nil && pr.Void.Seq == ch.Void.Seq {
			msg := fmt.Sprintf("hit %d already has an open void proposal, %d (proposed by %s): approve or withdraw it first", ch.Void.Seq, pr.ID, pr.ProposedBy.ID)
			return &fault.Error{Kind: fault.Conflict, Detail: msg, Fields: []fault.Problem{{Field: "path.seq", Message: fmt.Sprintf("open void proposal %d", pr.ID), Value: pr.ID}}}
		}
		if pr.ProposedBy.ID == by.ID && jackpot.FingerprintOf(pr.Change) == same {
			msg := fmt.Sprintf("proposal %d, the same %s by %s, is open: approve or withdraw it first (%s)", pr.ID, ch.Kind, by.ID, ch.Describe(p.Settings.Currency))
			return &fault.Error{Kind: fault.Conflict, Detail: msg, Fields: []fault.Problem{{Field: "", Message: fmt.Sprintf("the same as open proposal %d", pr.ID), Value: pr.ID}}}
		}
	}
	return nil
}

// ProposedChange is what proposal id of p proposed: from the pool while it
// is open, from its record once closed; nil when neither says.
func (s *Service) ProposedChange(ctx context.Context, p jackpot.Pool, id int64) *jackpot.Change {
	for _, pr := range p.Proposals {
		if pr.ID == id {
			ch := pr.Change
			return &ch
		}
	}
	rec, err := s.Store.Record(ctx, p.ID, jackpot.ProposalKey(id))
	if err != nil || rec.Proposal == nil {
		return nil
	}
	ch := rec.Proposal.Change
	return &ch
}
