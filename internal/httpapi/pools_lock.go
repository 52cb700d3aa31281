package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/principal"
)

type lockInput struct {
	ID             string `path:"id" maxLength:"64"`
	Seq            int64  `path:"seq" minimum:"1" doc:"The hit: the sequence number of its ledger entry."`
	IdempotencyKey string `header:"Idempotency-Key" required:"true" minLength:"1" maxLength:"255" doc:"Required: applied exactly once; the same key again returns the first answer unchanged, with a different request it is refused (409)."`
}

// VoidHitRequest is the body of a void.
type VoidHitRequest struct {
	Reason string `json:"reason" minLength:"1" maxLength:"500" example:"the ten of spades was the ten of clubs" doc:"Why the cards did not win the hit."`
}
type voidInput struct {
	ID             string `path:"id" maxLength:"64"`
	Seq            int64  `path:"seq" minimum:"1" doc:"The hit: the sequence number of its ledger entry."`
	IdempotencyKey string `header:"Idempotency-Key" required:"true" minLength:"1" maxLength:"255" doc:"Required: applied exactly once; the same key again returns the first answer unchanged, with a different request it is refused (409)."`
	Body           VoidHitRequest
}

// LockAnswer is the hit after the operation and the pool.
type LockAnswer struct {
	Hit  jackpot.LockedHit `json:"hit"`
	Pool pools.View        `json:"pool"`
}
type lockOutput struct {
	Replayed bool `header:"Idempotent-Replayed" doc:"true when this is the first answer to the same Idempotency-Key, returned again."`
	Body     LockAnswer
}

// registerLock adds the jackpot lock's operations (issue 13).
func registerLock(api huma.API, svc *pools.Service, tags []string) {
	type op struct {
		id, path, summary, desc, what string
		roles                         []principal.Role
		call                          func(ctx context.Context, in *lockInput, a jackpot.Actor, reason string) (jackpot.Pool, jackpot.LockedHit, bool, error)
	}
	reg := func(o op, withBody bool) {
		handle := func(ctx context.Context, in *lockInput, reason string) (*lockOutput, error) {
			if svc == nil {
				return nil, poolsUnavailable()
			}
			a, err := pools.ActorOf(ctx, o.what, o.roles...)
			if err != nil {
				return nil, poolError(ctx, err, "path.")
			}
			p, h, replayed, err := o.call(ctx, in, a, reason)
			if err != nil {
				return nil, poolError(ctx, err, "body.")
			}
			return &lockOutput{Replayed: replayed, Body: LockAnswer{Hit: h, Pool: svc.View(p)}}, nil
		}
		operation := huma.Operation{OperationID: o.id, Method: http.MethodPost, Path: "/v1/pools/{id}/hits/{seq}/" + o.path,
			Summary: o.summary, Description: o.desc, Tags: tags}
		if withBody {
			huma.Register(api, operation, func(ctx context.Context, in *voidInput) (*lockOutput, error) {
				return handle(ctx, &lockInput{ID: in.ID, Seq: in.Seq, IdempotencyKey: in.IdempotencyKey}, in.Body.Reason)
			})
			return
		}
		huma.Register(api, operation, func(ctx context.Context, in *lockInput) (*lockOutput, error) { return handle(ctx, in, "") })
	}
	reg(op{id: "confirm-hit", path: "confirm", what: "confirms a hit", roles: []principal.Role{principal.Supervisor},
		summary: "Confirm a pending hit (supervisor)",
		desc:    "Records the supervisor's verification of the cards: the hit becomes confirmed and the cage may pay it. Moves no meter. The principal and its role are recorded on the ledger entry. 401 without authentication, 403 without the supervisor role, 409 when the hit is not pending.",
		call: func(ctx context.Context, in *lockInput, a jackpot.Actor, _ string) (jackpot.Pool, jackpot.LockedHit, bool, error) {
			return svc.Confirm(ctx, in.ID, in.Seq, a, in.IdempotencyKey)
		}}, false)
	reg(op{id: "pay-hit", path: "paid", what: "pays a hit", roles: []principal.Role{principal.Cage},
		summary: "Mark a confirmed hit paid (cage)",
		desc:    "Records that the cage paid a confirmed hit; the hit leaves the lock. Moves no meter (the amount left the pool when the hit was committed). 401 without authentication, 403 without the cage role or for the person who confirmed the hit (in any role: the verifier does not pay), 409 when the hit is not confirmed.",
		call: func(ctx context.Context, in *lockInput, a jackpot.Actor, _ string) (jackpot.Pool, jackpot.LockedHit, bool, error) {
			return svc.MarkPaid(ctx, in.ID, in.Seq, a, in.IdempotencyKey)
		}}, false)
}

type metersAtInput struct {
	ID string `path:"id" maxLength:"64"`
	At string `query:"at" required:"true" format:"date-time" example:"2026-03-01T20:00:00Z" doc:"The instant (RFC 3339)."`
}
type metersAtOutput struct {
	Body jackpot.AsOf
}

// registerMetersAt adds the meters-as-of read (issue 13).
func registerMetersAt(api huma.API, svc *pools.Service, tags []string) {
	huma.Register(api, huma.Operation{
		OperationID: "pool-meters-at", Method: http.MethodGet, Path: "/v1/pools/{id}/meters",
		Summary:     "A pool's meters as they stood at an instant",
		Description: "Sums the ledger up to the first entry committed after the instant, a prefix of it (for RWS 5.18.1's payment at the meter before a malfunction, and disputes). throughSeq is the last entry summed: the ledger read up to it is the ledger as it stood.",
		Tags:        tags,
	}, func(ctx context.Context, in *metersAtInput) (*metersAtOutput, error) {
		if svc == nil {
			return nil, poolsUnavailable()
		}
		at, err := parseInstant("query.at", in.At)
		if err != nil {
			return nil, poolError(ctx, err, "")
		}
		m, err := svc.MetersAt(ctx, in.ID, at)
		if err != nil {
			return nil, poolError(ctx, err, "path.")
		}
		return &metersAtOutput{Body: m}, nil
	})
}

// CorrectionRequest is the body of a correction: the corrected round, or
// none (a void) with the rule that voids it.
type CorrectionRequest struct {
	Corrected *PoolRoundRequest `json:"corrected,omitempty" doc:"The round as it should have been (same table and roundId). Absent: the round is voided."`
	Rules     []string          `json:"rules,omitempty" maxItems:"10" example:"[\"mbs-megalink-ssp-v6 5.4\"]" doc:"The rule that voids or corrects the round; required for a void."`
	Reason    string            `json:"reason" minLength:"1" maxLength:"500" example:"two cards exposed in the deal" doc:"Why the round is corrected."`
}
type correctInput struct {
	ID             string `path:"id" maxLength:"64"`
	Table          string `path:"table" maxLength:"64"`
	Round          string `path:"round" maxLength:"64"`
	IdempotencyKey string `header:"Idempotency-Key" required:"true" minLength:"1" maxLength:"255" doc:"Required: the correction is proposed exactly once; the same key again returns the first answer unchanged, with a different request it is refused (409)."`
	Body           CorrectionRequest
}

// registerCorrect adds the correction of an applied round (issue 13).
func registerCorrect(api huma.API, svc *pools.Service, tags []string) {
	huma.Register(api, huma.Operation{
		OperationID: "correct-pool-round", Method: http.MethodPost, Path: "/v1/pools/{id}/rounds/{table}/{round}/correction", DefaultStatus: http.StatusAccepted,
		Summary: "Propose a correction or void of a round already applied (supervisor; a controller approves)",
		Description: "Proposes the correction (dual control, issue 16): nothing moves until a controller other than the proposer approves it (POST /v1/pools/{id}/proposals/{proposal}/approve) before it expires; the answer is 202 with the proposal. " +
			"The correction is checked against the pool as it is now, so what could not apply is refused at once (404 for an unknown round, 422, 409). " +
			"Approved, new ledger entries reverse the original round's contribution, hits and resets and apply the corrected round, each citing the original commit and naming both principals; nothing is edited (ruling R28). " +
			"A hit taken back that is pending or confirmed returns to its sources; one already paid is refunded to the meters by the house and recorded as a house recovery from the winner, never taken from the pool twice. " +
			"A round is corrected once. 401 without authentication, 403 without the supervisor role.",
		Tags: tags,
	}, func(ctx context.Context, in *correctInput) (*proposalOutput, error) {
		if svc == nil {
			return nil, poolsUnavailable()
		}
		a, err := pools.ActorOf(ctx, "proposes a correction", principal.Supervisor)
		if err != nil {
			return nil, poolError(ctx, err, "path.")
		}
		corr := jackpot.Correction{Table: in.Table, Round: in.Round, Rules: in.Body.Rules, Reason: in.Body.Reason}
		var places []pools.Place
		var r jackpot.Round
		if in.Body.Corrected != nil {
			if r, places, err = jackpotRound(ctx, svc, *in.Body.Corrected, "body.corrected."); err != nil {
				return nil, err
			}
			corr.Corrected = &r
			corr.Sent = sentJSON(*in.Body.Corrected)
		}
		p, pr, replayed, err := svc.Propose(ctx, in.ID, jackpot.Change{Kind: jackpot.ProposeCorrection, Correction: &corr}, a, in.IdempotencyKey)
		if err != nil {
			return nil, poolError(ctx, pools.AtCorrectionRequest(err, r, places), "body.")
		}
		return proposed(svc, p, pr, replayed), nil
	})
}
