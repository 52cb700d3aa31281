package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/tablesettle/tablesettle/internal/apispec"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/principal"
)

// NoBy refuses the "by" field the pool requests used to carry (issue 16):
// the ledger records the authenticated principal, never a name typed into
// a body. It is hidden from the spec; a request that still sends it gets a
// 422 naming body.by.
type NoBy struct {
	By any `json:"by,omitempty" hidden:"true"`
}

func (n NoBy) refuse() error {
	if n.By == nil {
		return nil
	}
	return huma.Error422UnprocessableEntity("validation failed", &huma.ErrorDetail{Location: "body.by",
		Message: "the ledger records the authenticated principal; by is not accepted", Value: n.By})
}

// ProposalAnswer is the answer to a proposal: the proposal, waiting for a
// second principal, and the pool (its meters unchanged).
type ProposalAnswer struct {
	Proposal jackpot.Proposal `json:"proposal"`
	Pool     pools.View       `json:"pool"`
}
type proposalOutput struct {
	Status   int
	Replayed bool `header:"Idempotent-Replayed" doc:"true when this is the first answer to the same Idempotency-Key, returned again."`
	Body     ProposalAnswer
}

func proposed(svc *pools.Service, p jackpot.Pool, pr jackpot.Proposal, replayed bool) *proposalOutput {
	return &proposalOutput{Status: http.StatusAccepted, Replayed: replayed, Body: ProposalAnswer{Proposal: pr, Pool: svc.View(p)}}
}

// ApprovalAnswer is the answer to an approval: the proposal (approved),
// the pool after the change, and the voided hit or the correction's
// result.
type ApprovalAnswer struct {
	Proposal   jackpot.Proposal          `json:"proposal"`
	Pool       pools.View                `json:"pool"`
	Hit        *jackpot.LockedHit        `json:"hit,omitempty" doc:"A void's hit, voided."`
	Correction *jackpot.CorrectionResult `json:"correction,omitempty" doc:"A correction's result."`
}
type approvalOutput struct {
	Replayed bool `header:"Idempotent-Replayed" doc:"true when this is the first answer to the same Idempotency-Key, returned again."`
	Body     ApprovalAnswer
}
type proposalInput struct {
	ID             string `path:"id" maxLength:"64"`
	Proposal       int64  `path:"proposal" minimum:"1" doc:"The proposal: the sequence number of its ledger entry."`
	IdempotencyKey string `header:"Idempotency-Key" required:"true" minLength:"1" maxLength:"255" doc:"Required: applied exactly once; the same key again returns the first answer unchanged, with a different request it is refused (409)."`
}

const dualControl = " Dual control (issue 16): nothing moves until a controller other than the proposer approves the proposal (POST /v1/pools/{id}/proposals/{proposal}/approve) before it expires (the pool's proposalTtlSeconds, 30 minutes by default); the answer is 202 with the proposal. " +
	"The change is checked against the pool as it is now, so what could not apply is refused at once (422, 409). The ledger records the authenticated principal: a body with \"by\" is refused (422 naming body.by)."

// registerProposing adds the changes under dual control and their
// approval (issue 16).
func registerProposing(api huma.API, svc *pools.Service, tags []string) {
	propose := func(ctx context.Context, id string, ch jackpot.Change, what string, role principal.Role, key string) (*proposalOutput, error) {
		if svc == nil {
			return nil, poolsUnavailable()
		}
		a, err := pools.ActorOf(ctx, what, role)
		if err != nil {
			return nil, poolError(ctx, err, "path.")
		}
		p, pr, replayed, err := svc.Propose(ctx, id, ch, a, key)
		if err != nil {
			return nil, poolError(ctx, err, "body.")
		}
		return proposed(svc, p, pr, replayed), nil
	}
	huma.Register(api, huma.Operation{
		OperationID: "change-pool-settings", Method: http.MethodPatch, Path: "/v1/pools/{id}", DefaultStatus: http.StatusAccepted,
		RequestBody: apispec.BodyExample(map[string]any{"contributionBp": 2000, "reason": "new contribution rate approved"}),
		Summary:     "Propose a change of a pool's settings (admin; a controller approves)",
		Description: "Approved, the change is recorded (who proposed, who approved, when, old, new) in the ledger and takes effect after the pool's next reset, never mid-cycle." + dualControl +
			" Exactly once under its required Idempotency-Key: the same key again returns the first answer (Idempotent-Replayed: true); with a different body, 409.",
		Tags: tags,
	}, func(ctx context.Context, in *patchPoolInput) (*proposalOutput, error) {
		b := in.Body
		if err := b.NoBy.refuse(); err != nil {
			return nil, err
		}
		patch := jackpot.SettingsPatch{Rulesets: b.Rulesets, Unit: b.Unit, ContributionBP: b.ContributionBP, ReserveBP: b.ReserveBP,
			Reset: b.Reset, Ceiling: b.Ceiling, SettleWindowMS: b.SettleWindowMS, Verify: b.Verify.Domain(), ProposalTTLSeconds: b.ProposalTTLSeconds,
			Tables: b.Tables, DisplayName: b.DisplayName}
		return propose(ctx, in.ID, jackpot.Change{Kind: jackpot.ProposeSettings, Settings: &jackpot.SettingsProposal{Patch: patch, Reason: b.Reason}},
			"proposes a settings change", principal.Admin, in.IdempotencyKey)
	})
	huma.Register(api, huma.Operation{
		OperationID: "adjust-pool", Method: http.MethodPost, Path: "/v1/pools/{id}/adjustments", DefaultStatus: http.StatusAccepted,
		RequestBody: apispec.BodyExample(map[string]any{"meter": "reserve", "amount": 50000, "reason": "reserve top-up approved by finance"}),
		Summary:     "Propose a meter adjustment (admin; a controller approves)",
		Description: "The meters move only by a contribution, a hit, or a recorded adjustment like this one, signed by two principals." + dualControl +
			" Exactly once under its required Idempotency-Key: the same key again returns the first answer (Idempotent-Replayed: true); with a different body, 409.",
		Tags: tags,
	}, func(ctx context.Context, in *adjustInput) (*proposalOutput, error) {
		if err := in.Body.NoBy.refuse(); err != nil {
			return nil, err
		}
		a := jackpot.Adjustment{Meter: in.Body.Meter, Amount: in.Body.Amount, Reason: in.Body.Reason}
		return propose(ctx, in.ID, jackpot.Change{Kind: jackpot.ProposeAdjustment, Adjustment: &a}, "proposes an adjustment", principal.Admin, in.IdempotencyKey)
	})
	huma.Register(api, huma.Operation{
		OperationID: "void-hit", Method: http.MethodPost, Path: "/v1/pools/{id}/hits/{seq}/void", DefaultStatus: http.StatusAccepted,
		Summary: "Propose the void of a pending hit (supervisor; a controller approves)",
		Description: "The cards did not win the hit. Approved, its amount returns to every source it came from and the reset it caused is reversed, by new ledger entries citing the hit's (ruling R28) and naming both principals: the meters end as if the hit had never happened plus everything contributed since." + dualControl +
			" 401 without authentication, 403 without the supervisor role, 409 when the hit is not pending, or shared its prize with another hit of its round that stands (ruling R5: correct the round instead).",
		Tags: tags,
	}, func(ctx context.Context, in *voidInput) (*proposalOutput, error) {
		return propose(ctx, in.ID, jackpot.Change{Kind: jackpot.ProposeVoid, Void: &jackpot.VoidHit{Seq: in.Seq, Reason: in.Body.Reason}},
			"proposes a void", principal.Supervisor, in.IdempotencyKey)
	})
	registerProposalList(api, svc, tags)
	huma.Register(api, huma.Operation{
		OperationID: "approve-proposal", Method: http.MethodPost, Path: "/v1/pools/{id}/proposals/{proposal}/approve",
		Summary: "Approve a proposal (controller, not the proposer)",
		Description: "The second signature: applies the proposed change exactly once, in one commit, every ledger entry naming the proposer (actor) and the approver (approvedBy). " +
			"403 for the proposer itself (even when it holds the controller role, or signs as its own IAM session of the controller role) or without the controller role; 409 for a proposal already approved, withdrawn or expired (the detail says which, by whom and when), or a change that no longer applies to the pool; 404 for an unknown one. " +
			"Exactly once under its required Idempotency-Key: the same key again returns the first answer (Idempotent-Replayed: true).",
		Tags: tags,
	}, func(ctx context.Context, in *proposalInput) (*approvalOutput, error) {
		if svc == nil {
			return nil, poolsUnavailable()
		}
		a, err := pools.ActorOf(ctx, "approves a proposal", pools.Approver)
		if err != nil {
			return nil, poolError(ctx, err, "path.")
		}
		res, replayed, err := svc.Approve(ctx, in.ID, in.Proposal, a, in.IdempotencyKey)
		if err != nil {
			return nil, poolError(ctx, pools.AtProposal(err), "path.")
		}
		return &approvalOutput{Replayed: replayed, Body: ApprovalAnswer{Proposal: res.Proposal, Pool: svc.View(res.Pool), Hit: res.Hit, Correction: res.Correction}}, nil
	})
	huma.Register(api, huma.Operation{
		OperationID: "withdraw-proposal", Method: http.MethodPost, Path: "/v1/pools/{id}/proposals/{proposal}/withdraw",
		Summary:     "Withdraw a proposal (its proposer)",
		Description: "The proposer takes its proposal back before it is approved: recorded in the ledger, nothing moves. 403 for any other principal; 409 for a proposal already approved or withdrawn.",
		Tags:        tags,
	}, func(ctx context.Context, in *proposalInput) (*proposalOutput, error) {
		if svc == nil {
			return nil, poolsUnavailable()
		}
		a, err := pools.ActorOf(ctx, "withdraws a proposal", principal.Admin, principal.Supervisor)
		if err != nil {
			return nil, poolError(ctx, err, "path.")
		}
		p, pr, replayed, err := svc.Withdraw(ctx, in.ID, in.Proposal, a, in.IdempotencyKey)
		if err != nil {
			return nil, poolError(ctx, err, "path.")
		}
		return &proposalOutput{Status: http.StatusOK, Replayed: replayed, Body: ProposalAnswer{Proposal: pr, Pool: svc.View(p)}}, nil
	})
}
