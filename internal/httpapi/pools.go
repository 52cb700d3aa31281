package httpapi

import (
	"context"
	"net/http"
	"reflect"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/tablesettle/tablesettle/internal/apispec"
	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/principal"
)

// CreatePoolRequest is the body of POST /v1/pools.
type CreatePoolRequest struct {
	ID string `json:"id" minLength:"1" maxLength:"64" pattern:"^[A-Za-z0-9._:-]+$" example:"megalink-sgd-1" doc:"The pool's id."`
	pools.Settings
	NoBy
}

// PatchPoolRequest is the body of PATCH /v1/pools/{id}: the fields to
// change; the others keep their values.
type PatchPoolRequest struct {
	Rulesets           []string           `json:"rulesets,omitempty"`
	Unit               *money.Amount      `json:"unit,omitempty" minimum:"1" maximum:"10000000000"`
	ContributionBP     *money.BasisPoints `json:"contributionBp,omitempty"`
	ReserveBP          *money.BasisPoints `json:"reserveBp,omitempty"`
	Reset              *money.Amount      `json:"reset,omitempty" minimum:"1" maximum:"1000000000000000"`
	Ceiling            *money.Amount      `json:"ceiling,omitempty" minimum:"0" maximum:"1000000000000000"`
	SettleWindowMS     *int64             `json:"settleWindowMs,omitempty"`
	Verify             *pools.Verify      `json:"verify,omitempty"`
	ProposalTTLSeconds *int64             `json:"proposalTtlSeconds,omitempty" minimum:"0" maximum:"86400"`
	Tables             []string           `json:"tables,omitempty" maxItems:"200" doc:"The table ids linked to the pool, all of them (replaces the list), at most 200 entries, each a table id or a pattern (\"table-*\": every table whose id starts with \"table-\"); effective when approved."`
	DisplayName        *string            `json:"displayName,omitempty" maxLength:"80" doc:"What the sign shows; effective when approved."`
	Reason             string             `json:"reason,omitempty" maxLength:"500"`
	NoBy
}

// AdjustmentRequest is the body of POST /v1/pools/{id}/adjustments.
type AdjustmentRequest struct {
	Meter  string       `json:"meter" enum:"displayed,reserve,overflow"`
	Amount money.Amount `json:"amount" minimum:"-1000000000000000" maximum:"1000000000000000" doc:"Signed amount in minor units, not zero, at most 1,000,000,000,000,000 either way; a meter never goes below zero."`
	Reason string       `json:"reason" minLength:"1" maxLength:"500"`
	NoBy
}

type createPoolInput struct {
	Body CreatePoolRequest
}
type createPoolOutput struct {
	Status int
	Body   pools.View
}
type poolIDInput struct {
	ID string `path:"id" maxLength:"64"`
}
type patchPoolInput struct {
	ID             string `path:"id" maxLength:"64"`
	IdempotencyKey string `header:"Idempotency-Key" required:"true" minLength:"1" maxLength:"255" doc:"Required: the change is proposed exactly once; the same key again returns the first answer unchanged, with a different body it is refused (409)."`
	Body           PatchPoolRequest
}
type adjustInput struct {
	ID             string `path:"id" maxLength:"64"`
	IdempotencyKey string `header:"Idempotency-Key" required:"true" minLength:"1" maxLength:"255" doc:"Required: the adjustment is proposed exactly once; the same key again returns the first answer unchanged, with a different body it is refused (409)."`
	Body           AdjustmentRequest
}
type ledgerInput struct {
	ID     string `path:"id" maxLength:"64"`
	After  int64  `query:"after" minimum:"0" doc:"Return entries after this sequence number (0: from the start)."`
	Before int64  `query:"before" minimum:"0" doc:"order=desc: return entries before this sequence number (0: from the newest)."`
	Order  string `query:"order" enum:"asc,desc" default:"asc" doc:"asc: oldest first, paged by after; desc: newest first, paged by before (docs/floor.md)."`
	Limit  int    `query:"limit" minimum:"1" maximum:"1000" default:"100"`
}
type ledgerOutput struct {
	Body pools.FloorLedger
}
type roundInput struct {
	ID             string `path:"id" maxLength:"64"`
	IdempotencyKey string `header:"Idempotency-Key" maxLength:"255" doc:"Optional: a request with the same key again returns the first answer unchanged; with a different body it is refused (409)."`
	Body           PoolRoundRequest
}
type roundOutput struct {
	Replayed bool `header:"Idempotent-Replayed" doc:"true when this is the first answer to the same round, returned again."`
	Body     jackpot.RoundResult
}
type reconcileInput struct {
	ID   string `path:"id" maxLength:"64"`
	Full bool   `query:"full" doc:"true: replay the whole ledger and check every checkpoint against it, instead of starting from the latest verified checkpoint."`
}
type reconcileOutput struct {
	Body jackpot.Reconciliation
}
type releaseOutput struct {
	Body struct {
		Paid []jackpot.Payout `json:"paid"`
		Pool pools.View       `json:"pool"`
	}
}

// registerPools adds the pools operations (the "pools" function).
func registerPools(api huma.API, deps Deps) {
	apispec.RulesetEnum(api, deps.rulesets(), reflect.TypeFor[PoolRoundRequest]())
	svc := deps.Pools
	tags := []string{"Pools"}
	huma.Register(api, huma.Operation{
		OperationID: "create-pool", Method: http.MethodPost, Path: "/v1/pools", DefaultStatus: http.StatusCreated,
		Summary: "Open a progressive pool",
		Description: "Opens a linked progressive pool at its reset amount; the first seed is funded by the house and recorded as the opening ledger entry (ruling R21). " +
			"Idempotent: the same id again with the same settings answers the existing pool (200); with other settings, 409.",
		Tags: tags,
	}, func(ctx context.Context, in *createPoolInput) (*createPoolOutput, error) {
		if svc == nil {
			return nil, poolsUnavailable()
		}
		if err := in.Body.NoBy.refuse(); err != nil {
			return nil, err
		}
		a, err := pools.ActorOf(ctx, "opens a pool", principal.Admin)
		if err != nil {
			return nil, poolError(ctx, err, "path.")
		}
		p, created, err := svc.Create(ctx, in.Body.ID, in.Body.Settings.Domain(), a)
		if err != nil {
			return nil, poolError(ctx, err, "body.")
		}
		status := http.StatusOK
		if created {
			status = http.StatusCreated
		}
		return &createPoolOutput{Status: status, Body: svc.View(p)}, nil
	})
	getPool := huma.Operation{
		OperationID: "get-pool", Method: http.MethodGet, Path: "/v1/pools/{id}",
		Summary: "A pool's settings and meters", Tags: tags,
		Description: "Held hits whose window has closed are paid before the answer (release on read). Poll with If-None-Match: 304 while nothing changed (docs/floor.md).",
	}
	apispec.Conditional(&getPool)
	huma.Register(api, getPool, func(ctx context.Context, in *poolGetInput) (*poolGetOutput, error) {
		p, err := freshPool(ctx, svc, in.ID)
		if err != nil {
			return nil, err
		}
		tag := svc.Tag(p, "pool")
		if matches(in.IfNoneMatch, tag) {
			return nil, notModified(tag)
		}
		return &poolGetOutput{ETag: tag, CacheControl: "no-cache", Body: svc.View(p)}, nil
	})
	registerFloor(api, svc, tags)
	registerReports(api, svc, tags)
	registerProposing(api, svc, tags)
	huma.Register(api, huma.Operation{
		OperationID: "pool-ledger", Method: http.MethodGet, Path: "/v1/pools/{id}/ledger",
		Summary: "A pool's ledger, oldest or newest first", Tags: tags,
		Description: "Pages oldest first (after) or newest first (order=desc, before) to any depth. Each entry carries amount, the money it records signed so that a reversal is negative (a hit +paid, its void -paid), and a proposal entry what it proposed.",
	}, func(ctx context.Context, in *ledgerInput) (*ledgerOutput, error) {
		if svc == nil {
			return nil, poolsUnavailable()
		}
		page, err := svc.FloorLedger(ctx, in.ID, in.Order, in.After, in.Before, in.Limit) // huma's default: 100
		if err != nil {
			return nil, poolError(ctx, err, "path.")
		}
		return &ledgerOutput{Body: page}, nil
	})
	huma.Register(api, huma.Operation{
		OperationID: "apply-pool-round", Method: http.MethodPost, Path: "/v1/pools/{id}/rounds",
		RequestBody: apispec.BodyExample(map[string]any{
			"ruleset": "mbs-megalink-ssp-v6", "table": "T12", "roundId": "R1", "dealtAt": "2026-03-01T20:00:00Z", "dealer": "2d 3d 5h 8c 9s",
			"progressiveUnit": 500,
			"positions": []any{
				map[string]any{"seat": 1, "cards": "Kc Kh Kd Ac Ah", "wagers": map[string]any{"ante": 1000, "bet": 2000, "progressive": 500}},
				map[string]any{"seat": 3, "cards": "Ts Js Qs Ks As", "wagers": map[string]any{"ante": 1000, "bet": 2000, "progressive": 500}},
			}}),
		Summary: "Apply a round to a pool, exactly once",
		Description: "Takes the round as sent to POST /v1/rounds/settle plus its table and dealtAt. Settles it and evaluates the progressive hands from the cards (ruling R14), applies the round's contributions (R4), then its hits " +
			"(R3; R5 at MBS, R6 and R7 at RWS), and answers every jackpot payout with its amount, its sources and the meters after. " +
			"The same table and round id again returns the first answer unchanged; with a different body, 409. " +
			"If the store cannot confirm the write: 503, nothing half-applied; retry.",
		Tags: tags,
	}, func(ctx context.Context, in *roundInput) (*roundOutput, error) {
		if err := requireTable(ctx, in.Body.Table, "body.table"); err != nil {
			return nil, err
		}
		if svc == nil {
			return nil, poolsUnavailable()
		}
		r, places, err := jackpotRound(ctx, svc, in.Body, "body.")
		if err != nil {
			return nil, err
		}
		res, replayed, err := svc.ApplyRound(ctx, in.ID, r, in.IdempotencyKey, roundFingerprint(in.Body))
		if err != nil {
			return nil, poolError(ctx, pools.AtRoundRequest(err, r, places), "body.")
		}
		return &roundOutput{Replayed: replayed, Body: res}, nil
	})
	huma.Register(api, huma.Operation{
		OperationID: "release-held-hits", Method: http.MethodPost, Path: "/v1/pools/{id}/release",
		Summary:     "Pay the held RWS hits that are due",
		Description: "Pays every held major hit whose settle window has passed (and any held hand dealt before one of them), in dealt order, each from the pool as it stands (rulings R7, R21). Any round applied to the pool does the same first.",
		Tags:        tags,
	}, func(ctx context.Context, in *poolIDInput) (*releaseOutput, error) {
		if svc == nil {
			return nil, poolsUnavailable()
		}
		p, paid, err := svc.Release(ctx, in.ID)
		if err != nil {
			return nil, poolError(ctx, err, "path.")
		}
		out := &releaseOutput{}
		out.Body.Paid = paid
		if out.Body.Paid == nil {
			out.Body.Paid = []jackpot.Payout{}
		}
		out.Body.Pool = svc.View(p)
		return out, nil
	})
	huma.Register(api, huma.Operation{
		OperationID: "reconcile-pool", Method: http.MethodGet, Path: "/v1/pools/{id}/reconcile",
		Summary: "Rebuild a pool's meters from its ledger",
		Description: "Starts from the pool's latest checkpoint whose signature and root verify (from: its size) and re-derives the entries after it: their stored hashes and the meters, so its cost follows the entries since (issue 34; docs/ledger.md). " +
			"full=true replays the whole ledger and checks every checkpoint against it. Reports every meter that differs, and every entry that does not add up or is not the entry logged, naming its seq.",
		Tags: tags,
	}, func(ctx context.Context, in *reconcileInput) (*reconcileOutput, error) {
		if svc == nil {
			return nil, poolsUnavailable()
		}
		reconcile := svc.Reconcile
		if in.Full {
			reconcile = svc.ReconcileAll
		}
		rec, err := reconcile(ctx, in.ID)
		if err != nil {
			return nil, poolError(ctx, err, "path.")
		}
		if rec.Differences == nil {
			rec.Differences = []jackpot.Difference{}
		}
		if rec.Problems == nil {
			rec.Problems = []string{}
		}
		return &reconcileOutput{Body: rec}, nil
	})
	registerLock(api, svc, tags)
	registerLedgerLog(api, svc, tags)
	registerMetersAt(api, svc, tags)
	registerCorrect(api, svc, tags)
}

func poolsUnavailable() error {
	return huma.ErrorWithHeaders(huma.Error503ServiceUnavailable("progressive unavailable: no pool store is configured"),
		http.Header{"Retry-After": {"1"}})
}

// poolError maps the pools' *fault.Error to problem+json; a 5xx never
// shows the cause.
func poolError(ctx context.Context, err error, loc string) error {
	e := pools.Refusal(err)
	placed := *e
	placed.Fields = make([]fault.Problem, len(e.Fields))
	for i, f := range e.Fields {
		switch {
		case f.Field == jackpot.FieldPool:
			// A refusal about the pool itself (a meter that would
			// overflow): the pool the path names.
			f.Field = "path.id"
		case f.Field == jackpot.FieldHit:
			f.Field = "path.seq" // the hit the path names
		case strings.HasPrefix(f.Field, "header."), strings.HasPrefix(f.Field, "path."), strings.HasPrefix(f.Field, "query."):
		case f.Field == "":
			f.Field = strings.TrimSuffix(loc, ".")
		default:
			f.Field = loc + f.Field
		}
		placed.Fields[i] = f
	}
	return problemOf(ctx, &placed, "")
}
