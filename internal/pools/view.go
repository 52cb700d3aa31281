package pools

import (
	"context"
	"time"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/money"
)

// A pool as a client reads it (GET /v1/pools/{id}, and the pool in every
// answer that changes one): the read model of the pools' use cases.

// Settings are a pool's settings as a client sends and reads them (the
// body of POST /v1/pools, its pending change).
type Settings struct {
	Currency           money.Currency    `json:"currency" example:"SGD" doc:"ISO 4217 code of every amount of the pool. A ruleset with fixed prizes or caps of its own settles only in its document's currency (SGD), and a pool serving it must be in that currency."`
	Rulesets           []string          `json:"rulesets" minItems:"1" example:"[\"mbs-megalink-ssp-v6\",\"mbs-megalink-tcp-v6\"]" doc:"The rulesets whose tables the pool links; all of one casino (ruling R7)."`
	Unit               money.Amount      `json:"unit" minimum:"1" maximum:"10000000000" example:"500" doc:"The progressive wager unit in minor units (ruling R22), at most 10,000,000,000: SSP v6, TCP v6 and RWS take exactly one unit, THB 1-5 units (R17), SSP v4 whole credits."`
	ContributionBP     money.BasisPoints `json:"contributionBp" minimum:"0" maximum:"10000" example:"1733" doc:"Basis points of each accepted progressive wager credited to the displayed meter (to the overflow meter past the ceiling). Fractions below the minor unit are carried, never dropped."`
	ReserveBP          money.BasisPoints `json:"reserveBp" minimum:"0" maximum:"10000" example:"517" doc:"Basis points of each accepted progressive wager credited to the reserve meter, which funds resets after the overflow (ruling R21)."`
	Reset              money.Amount      `json:"reset" minimum:"1" maximum:"1000000000000000" example:"10000000" doc:"The amount the pool restarts from after a Royal Flush (ruling R3), in minor units, at most 1,000,000,000,000,000."`
	Ceiling            money.Amount      `json:"ceiling,omitempty" minimum:"0" maximum:"1000000000000000" example:"0" doc:"The displayed meter's cap (0: none; else from the reset amount to 1,000,000,000,000,000); contributions past it go to the overflow meter."`
	SettleWindowMS     int64             `json:"settleWindowMs,omitempty" minimum:"0" maximum:"600000" example:"5000" doc:"RWS only: how long a major hit is held so that a hand dealt earlier at another table but reported later is paid first (ruling R7). Default 5000."`
	Verify             *Verify           `json:"verify,omitempty" doc:"The jackpot lock: which hits are committed pending, for a supervisor to confirm or void before the cage pays. Absent: none."`
	ProposalTTLSeconds int64             `json:"proposalTtlSeconds,omitempty" minimum:"0" maximum:"86400" example:"1800" doc:"Dual control: how long a proposed adjustment, settings change, correction or void waits for its approval before it expires, in seconds (0: the default, 1800; else 60-86400). Changed like every setting: after the next reset."`
	Tables             []string          `json:"tables,omitempty" maxItems:"200" example:"[\"T12\",\"T13\"]" doc:"The table ids linked to the pool (issue 24), at most 200 entries: a round from any other table is refused (403 naming body.table), and a pool without tables accepts no round. An entry ending in '*' is a pattern linking every table whose id starts with what comes before it (1-63 characters): \"table-*\" links table-00000 to table-09999 (a wide-area pool, issue 25). Changed under dual control like every setting, but effective when approved (it moves no money)."`
	DisplayName        string            `json:"displayName,omitempty" maxLength:"80" example:"Megalink Progressive" doc:"What the sign shows for the pool. Changed like tables: effective when approved."`
}

// Verify is the jackpot lock's setting.
type Verify struct {
	Percent   bool         `json:"percent,omitempty" doc:"Every percentage prize (Royal Flush, Straight Flush) is verified."`
	AtOrAbove money.Amount `json:"atOrAbove,omitempty" minimum:"0" maximum:"1000000000000000" doc:"Any prize of at least this amount (minor units) is verified; 0: no threshold."`
}

// Domain is the lock's setting as package jackpot applies it.
func (v *Verify) Domain() *jackpot.Verify {
	if v == nil {
		return nil
	}
	return &jackpot.Verify{Percent: v.Percent, AtOrAbove: v.AtOrAbove}
}

func verifyOf(v *jackpot.Verify) *Verify {
	if v == nil {
		return nil
	}
	return &Verify{Percent: v.Percent, AtOrAbove: v.AtOrAbove}
}

// Domain is the settings as package jackpot applies them.
func (s Settings) Domain() jackpot.Settings {
	return jackpot.Settings{Currency: s.Currency, Rulesets: s.Rulesets, Unit: s.Unit, ContributionBP: s.ContributionBP,
		ReserveBP: s.ReserveBP, Reset: s.Reset, Ceiling: s.Ceiling, SettleWindowMS: s.SettleWindowMS, Verify: s.Verify.Domain(), ProposalTTLSeconds: s.ProposalTTLSeconds,
		Tables: s.Tables, DisplayName: s.DisplayName}
}

// SettingsOf is s as a client reads it.
func SettingsOf(s jackpot.Settings) Settings {
	return Settings{Currency: s.Currency, Rulesets: append([]string{}, s.Rulesets...), Unit: s.Unit, ContributionBP: s.ContributionBP,
		ReserveBP: s.ReserveBP, Reset: s.Reset, Ceiling: s.Ceiling, SettleWindowMS: s.SettleWindowMS, Verify: verifyOf(s.Verify), ProposalTTLSeconds: s.ProposalTTLSeconds,
		Tables: append([]string(nil), s.Tables...), DisplayName: s.DisplayName}
}

// Pending is a recorded settings change waiting for the next reset.
type Pending struct {
	By         string         `json:"by" doc:"The id of the principal who proposed the change."`
	Actor      *jackpot.Actor `json:"actor,omitempty" doc:"Who proposed the change, and the role it acted in."`
	ApprovedBy *jackpot.Actor `json:"approvedBy,omitempty" doc:"The second principal who approved it (dual control)."`
	At         time.Time      `json:"at"`
	Reason     string         `json:"reason,omitempty"`
	Settings   Settings       `json:"settings"`
}

// View is a pool as a client reads it: its settings, meters, recent,
// held and locked hits.
type View struct {
	ID       string   `json:"id"`
	Casino   string   `json:"casino" enum:"MBS,RWS" doc:"The casino whose pools these are, in capitals as rulesets write it (was lower case before API 1.1)."`
	Settings Settings `json:"settings"`
	// Pending takes effect after the next reset, never mid-cycle.
	Pending  *Pending            `json:"pending,omitempty" doc:"A recorded settings change; it takes effect after the next reset, never mid-cycle."`
	Meters   jackpot.Meters      `json:"meters" doc:"Displayed, reserve and overflow meters, carried fractions (1/10000 of the minor unit), accepted wagers, hits and amounts paid per category."`
	LastHits []RecentHit         `json:"lastHits" doc:"The last 25 hits, oldest first, each with its state: pending or confirmed under the jackpot lock, paid, or voided."`
	Held     []jackpot.HeldHit   `json:"held" doc:"RWS major hits held for the settle window (ruling R7); paid by the next commit after payAfter."`
	Locked   []jackpot.LockedHit `json:"locked" doc:"Hits under the jackpot lock, pending (committed, the pool already reset, waiting for a supervisor) or confirmed (the cage may pay them), with their table, seat, cards and amount."`
	// LastVoidHand: the last void round that held a hand that would have
	// hit (its round_void entry); GET .../hits?state=all lists it.
	LastVoidHand int64     `json:"lastVoidHand,omitempty" doc:"The ledger entry (round_void) of the last void round that held a hand that would have hit (issue 33 item 1); the hit queue (state=all) lists its hands. Absent when there was none."`
	Version      int64     `json:"version"`
	Entries      int64     `json:"ledgerEntries"`
	Created      time.Time `json:"createdAt"`
	Updated      time.Time `json:"updatedAt"`
}

// View is p as a client reads it: its casino under the service's rules,
// its last hits with their states, its hits under the lock.
func (s *Service) View(p jackpot.Pool) View {
	v := View{ID: p.ID, Casino: s.Rules().Casino(p.Settings), Settings: SettingsOf(p.Settings), Meters: p.Meters,
		LastHits: recentHits(p), Held: p.Held, LastVoidHand: p.LastVoidHand, Version: p.Version, Entries: p.Seq, Created: p.CreatedAt, Updated: p.UpdatedAt}
	if v.Held == nil {
		v.Held = []jackpot.HeldHit{}
	}
	v.Locked = p.LockedHits("")
	if p.Pending != nil {
		v.Pending = &Pending{By: p.Pending.By, Actor: p.Pending.Actor, ApprovedBy: p.Pending.ApprovedBy, At: p.Pending.At, Reason: p.Pending.Reason, Settings: SettingsOf(p.Pending.Settings)}
	}
	return v
}

// RecentHit is one of a pool's recent hits with its state (issue 24 item
// 9): paidAt only when it is paid, voidedAt when voided.
type RecentHit struct {
	Seq         int64        `json:"seq"`
	State       string       `json:"state" enum:"pending,confirmed,paid,voided"`
	Table       string       `json:"table"`
	Round       string       `json:"round"`
	Seat        int          `json:"seat"`
	Category    string       `json:"category"`
	Paid        money.Amount `json:"paid" doc:"The prize, in minor units (returned to its sources when voided)."`
	CommittedAt time.Time    `json:"committedAt"`
	PaidAt      *time.Time   `json:"paidAt,omitempty" doc:"When it was paid: at its commit, or by the cage for a hit under the jackpot lock; absent unless paid."`
	VoidedAt    *time.Time   `json:"voidedAt,omitempty"`
}

func recentHits(p jackpot.Pool) []RecentHit {
	out := make([]RecentHit, 0, len(p.LastHits))
	for _, h := range p.LastHits {
		state, paidAt, voidedAt := p.LastHitState(h)
		out = append(out, RecentHit{Seq: h.Seq, State: state, Table: h.Table, Round: h.Round, Seat: h.Seat, Category: h.Category, Paid: h.Paid,
			CommittedAt: h.PaidAt, PaidAt: paidAt, VoidedAt: voidedAt})
	}
	return out
}

// OpenProposal is an open proposal with what it will do in money.
type OpenProposal struct {
	jackpot.Proposal
	Effect Effect `json:"effect" doc:"What the proposal will do if approved now (a dry run on the pool as it stands): each meter before and after, what the house must recover from a winner, and the hit's table, seat, hand and amount for a void."`
}

// OpenProposals are p's proposals not yet expired, oldest first, each with
// its effect if it were approved now (Effects).
func (s *Service) OpenProposals(ctx context.Context, p jackpot.Pool) []OpenProposal {
	now := s.Now()
	var open []jackpot.Proposal
	for _, pr := range p.Proposals {
		if !pr.Expired(now) {
			open = append(open, pr)
		}
	}
	effects := s.Effects(ctx, p, open)
	out := make([]OpenProposal, len(open))
	for i, pr := range open {
		out[i] = OpenProposal{Proposal: pr, Effect: effects[i]}
	}
	return out
}
