package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/principal"
)

// PoolSettings is the body of a pool's settings.
type PoolSettings struct {
	Currency           money.Currency    `json:"currency" example:"SGD" doc:"ISO 4217 code of every amount of the pool. A ruleset with fixed prizes or caps of its own settles only in its document's currency (SGD), and a pool serving it must be in that currency."`
	Rulesets           []string          `json:"rulesets" minItems:"1" example:"[\"mbs-megalink-ssp-v6\",\"mbs-megalink-tcp-v6\"]" doc:"The rulesets whose tables the pool links; all of one casino (ruling R7)."`
	Unit               money.Amount      `json:"unit" minimum:"1" maximum:"10000000000" example:"500" doc:"The progressive wager unit in minor units (ruling R22), at most 10,000,000,000: SSP v6, TCP v6 and RWS take exactly one unit, THB 1-5 units (R17), SSP v4 whole credits."`
	ContributionBP     money.BasisPoints `json:"contributionBp" minimum:"0" maximum:"10000" example:"1733" doc:"Basis points of each accepted progressive wager credited to the displayed meter (to the overflow meter past the ceiling). Fractions below the minor unit are carried, never dropped."`
	ReserveBP          money.BasisPoints `json:"reserveBp" minimum:"0" maximum:"10000" example:"517" doc:"Basis points of each accepted progressive wager credited to the reserve meter, which funds resets after the overflow (ruling R21)."`
	Reset              money.Amount      `json:"reset" minimum:"1" maximum:"1000000000000000" example:"10000000" doc:"The amount the pool restarts from after a Royal Flush (ruling R3), in minor units, at most 1,000,000,000,000,000."`
	Ceiling            money.Amount      `json:"ceiling,omitempty" minimum:"0" maximum:"1000000000000000" example:"0" doc:"The displayed meter's cap (0: none; else from the reset amount to 1,000,000,000,000,000); contributions past it go to the overflow meter."`
	SettleWindowMS     int64             `json:"settleWindowMs,omitempty" minimum:"0" maximum:"600000" example:"5000" doc:"RWS only: how long a major hit is held so that a hand dealt earlier at another table but reported later is paid first (ruling R7). Default 5000."`
	Verify             *PoolVerify       `json:"verify,omitempty" doc:"The jackpot lock: which hits are committed pending, for a supervisor to confirm or void before the cage pays. Absent: none."`
	ProposalTTLSeconds int64             `json:"proposalTtlSeconds,omitempty" minimum:"0" maximum:"86400" example:"1800" doc:"Dual control: how long a proposed adjustment, settings change, correction or void waits for its approval before it expires, in seconds (0: the default, 1800; else 60-86400). Changed like every setting: after the next reset."`
	Tables             []string          `json:"tables,omitempty" maxItems:"200" example:"[\"T12\",\"T13\"]" doc:"The table ids linked to the pool (issue 24): a round from any other table is refused (403 naming body.table), and a pool without tables accepts no round. Changed under dual control like every setting, but effective when approved (it moves no money)."`
	DisplayName        string            `json:"displayName,omitempty" maxLength:"80" example:"Megalink Progressive" doc:"What the sign shows for the pool. Changed like tables: effective when approved."`
}

// PoolVerify is the jackpot lock's setting.
type PoolVerify struct {
	Percent   bool         `json:"percent,omitempty" doc:"Every percentage prize (Royal Flush, Straight Flush) is verified."`
	AtOrAbove money.Amount `json:"atOrAbove,omitempty" minimum:"0" maximum:"1000000000000000" doc:"Any prize of at least this amount (minor units) is verified; 0: no threshold."`
}

func (v *PoolVerify) domain() *jackpot.Verify {
	if v == nil {
		return nil
	}
	return &jackpot.Verify{Percent: v.Percent, AtOrAbove: v.AtOrAbove}
}

func verifyView(v *jackpot.Verify) *PoolVerify {
	if v == nil {
		return nil
	}
	return &PoolVerify{Percent: v.Percent, AtOrAbove: v.AtOrAbove}
}

func (s PoolSettings) domain() jackpot.Settings {
	return jackpot.Settings{Currency: s.Currency, Rulesets: s.Rulesets, Unit: s.Unit, ContributionBP: s.ContributionBP,
		ReserveBP: s.ReserveBP, Reset: s.Reset, Ceiling: s.Ceiling, SettleWindowMS: s.SettleWindowMS, Verify: s.Verify.domain(), ProposalTTLSeconds: s.ProposalTTLSeconds,
		Tables: s.Tables, DisplayName: s.DisplayName}
}

func settingsView(s jackpot.Settings) PoolSettings {
	return PoolSettings{Currency: s.Currency, Rulesets: append([]string{}, s.Rulesets...), Unit: s.Unit, ContributionBP: s.ContributionBP,
		ReserveBP: s.ReserveBP, Reset: s.Reset, Ceiling: s.Ceiling, SettleWindowMS: s.SettleWindowMS, Verify: verifyView(s.Verify), ProposalTTLSeconds: s.ProposalTTLSeconds,
		Tables: append([]string(nil), s.Tables...), DisplayName: s.DisplayName}
}

// CreatePoolRequest is the body of POST /v1/pools.
type CreatePoolRequest struct {
	ID string `json:"id" minLength:"1" maxLength:"64" pattern:"^[A-Za-z0-9._:-]+$" example:"megalink-sgd-1" doc:"The pool's id."`
	PoolSettings
	NoBy
}

// PendingView is a recorded settings change waiting for the next reset.
type PendingView struct {
	By         string         `json:"by" doc:"The id of the principal who proposed the change."`
	Actor      *jackpot.Actor `json:"actor,omitempty" doc:"Who proposed the change, and the role it acted in."`
	ApprovedBy *jackpot.Actor `json:"approvedBy,omitempty" doc:"The second principal who approved it (dual control)."`
	At         time.Time      `json:"at"`
	Reason     string         `json:"reason,omitempty"`
	Settings   PoolSettings   `json:"settings"`
}

// PoolView is a pool as the API shows it.
type PoolView struct {
	ID       string       `json:"id"`
	Casino   string       `json:"casino" enum:"MBS,RWS" doc:"The casino whose pools these are, in capitals as rulesets write it (was lower case before API 1.1)."`
	Settings PoolSettings `json:"settings"`
	// Pending takes effect after the next reset, never mid-cycle.
	Pending  *PendingView        `json:"pending,omitempty" doc:"A recorded settings change; it takes effect after the next reset, never mid-cycle."`
	Meters   jackpot.Meters      `json:"meters" doc:"Displayed, reserve and overflow meters, carried fractions (1/10000 of the minor unit), accepted wagers, hits and amounts paid per category."`
	LastHits []LastHit           `json:"lastHits" doc:"The last 25 hits, oldest first, each with its state: pending or confirmed under the jackpot lock, paid, or voided."`
	Held     []jackpot.HeldHit   `json:"held" doc:"RWS major hits held for the settle window (ruling R7); paid by the next commit after payAfter."`
	Locked   []jackpot.LockedHit `json:"locked" doc:"Hits under the jackpot lock, pending (committed, the pool already reset, waiting for a supervisor) or confirmed (the cage may pay them), with their table, seat, cards and amount."`
	Version  int64               `json:"version"`
	Entries  int64               `json:"ledgerEntries"`
	Created  time.Time           `json:"createdAt"`
	Updated  time.Time           `json:"updatedAt"`
}

func poolView(svc *pools.Service, p jackpot.Pool) PoolView {
	v := PoolView{ID: p.ID, Casino: svc.Rules().Casino(p.Settings), Settings: settingsView(p.Settings), Meters: p.Meters,
		LastHits: lastHits(p), Held: p.Held, Version: p.Version, Entries: p.Seq, Created: p.CreatedAt, Updated: p.UpdatedAt}
	if v.Held == nil {
		v.Held = []jackpot.HeldHit{}
	}
	v.Locked = p.LockedHits("")
	if p.Pending != nil {
		v.Pending = &PendingView{By: p.Pending.By, Actor: p.Pending.Actor, ApprovedBy: p.Pending.ApprovedBy, At: p.Pending.At, Reason: p.Pending.Reason, Settings: settingsView(p.Pending.Settings)}
	}
	return v
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
	Verify             *PoolVerify        `json:"verify,omitempty"`
	ProposalTTLSeconds *int64             `json:"proposalTtlSeconds,omitempty" minimum:"0" maximum:"86400"`
	Tables             []string           `json:"tables,omitempty" maxItems:"200" doc:"The table ids linked to the pool, all of them (replaces the list); effective when approved."`
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
type poolOutput struct {
	Body PoolView
}
type createPoolOutput struct {
	Status int
	Body   PoolView
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
type reconcileOutput struct {
	Body jackpot.Reconciliation
}
type releaseOutput struct {
	Body struct {
		Paid []jackpot.Payout `json:"paid"`
		Pool PoolView         `json:"pool"`
	}
}

// registerPools adds the pools operations (the "pools" function).
func registerPools(api huma.API, deps Deps) {
	rulesetEnum(api, deps.rulesets(), reflect.TypeFor[PoolRoundRequest]())
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
		a, err := actorFor(ctx, "opens a pool", principal.Admin)
		if err != nil {
			return nil, poolError(ctx, err, "path.")
		}
		p, created, err := svc.Create(ctx, in.Body.ID, in.Body.PoolSettings.domain(), a)
		if err != nil {
			return nil, poolError(ctx, err, "body.")
		}
		status := http.StatusOK
		if created {
			status = http.StatusCreated
		}
		return &createPoolOutput{Status: status, Body: poolView(svc, p)}, nil
	})
	getPool := huma.Operation{
		OperationID: "get-pool", Method: http.MethodGet, Path: "/v1/pools/{id}",
		Summary: "A pool's settings and meters", Tags: tags,
		Description: "Held hits whose window has closed are paid before the answer (release on read). Poll with If-None-Match: 304 while nothing changed (docs/floor.md).",
	}
	conditionalDoc(&getPool)
	huma.Register(api, getPool, func(ctx context.Context, in *poolGetInput) (*poolGetOutput, error) {
		p, err := freshPool(ctx, svc, in.ID)
		if err != nil {
			return nil, err
		}
		tag := svc.Tag(p, "pool")
		if matches(in.IfNoneMatch, tag) {
			return nil, notModified(tag)
		}
		return &poolGetOutput{ETag: tag, CacheControl: "no-cache", Body: poolView(svc, p)}, nil
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
		limit := in.Limit
		if limit <= 0 {
			limit = 100
		}
		page, err := svc.FloorLedger(ctx, in.ID, in.Order, in.After, in.Before, limit)
		if err != nil {
			return nil, poolError(ctx, err, "path.")
		}
		return &ledgerOutput{Body: page}, nil
	})
	huma.Register(api, huma.Operation{
		OperationID: "apply-pool-round", Method: http.MethodPost, Path: "/v1/pools/{id}/rounds",
		RequestBody: bodyExample(map[string]any{
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
		r, locs, err := jackpotRound(ctx, svc, in.Body, "body.")
		if err != nil {
			return nil, err
		}
		res, replayed, err := svc.ApplyRound(ctx, in.ID, r, in.IdempotencyKey, roundFingerprint(in.Body))
		if err != nil {
			return nil, poolError(ctx, requestField(err, r, locs), "body.")
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
		out.Body.Pool = poolView(svc, p)
		return out, nil
	})
	huma.Register(api, huma.Operation{
		OperationID: "reconcile-pool", Method: http.MethodGet, Path: "/v1/pools/{id}/reconcile",
		Summary:     "Rebuild a pool's meters from its ledger",
		Description: "Replays the whole ledger and reports every meter that differs, and every entry that does not add up.",
		Tags:        tags,
	}, func(ctx context.Context, in *poolIDInput) (*reconcileOutput, error) {
		if svc == nil {
			return nil, poolsUnavailable()
		}
		rec, err := svc.Reconcile(ctx, in.ID)
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
	registerMetersAt(api, svc, tags)
	registerCorrect(api, svc, tags)
}

// requestField rewrites a round error's field to where the request carries
// it: "wagers[i]..." and "hits[i]..." (a hit is on a wager) to that wager's
// place in positions, "wagers" to positions, "round" to roundId. Every
// location a round's 422 or 409 names is a field of the request.
func requestField(err error, r jackpot.Round, locs []string) error {
	e, ok := fault.As(err)
	if !ok || len(e.Fields) == 0 {
		return err
	}
	field := e.Field()
	to := field
	var i int
	switch {
	case field == "round":
		to = "roundId"
	case field == "wagers" || field == "hits":
		to = "positions"
	case strings.HasPrefix(field, "wagers["):
		if _, scanErr := fmt.Sscanf(field, "wagers[%d]", &i); scanErr != nil || i < 0 || i >= len(locs) {
			to = "positions"
			break
		}
		to = strings.TrimPrefix(locs[i], "body.")
	case strings.HasPrefix(field, "hits["):
		to = "positions"
		if _, scanErr := fmt.Sscanf(field, "hits[%d]", &i); scanErr != nil || i < 0 || i >= len(r.Hits) {
			break
		}
		h := r.Hits[i]
		for j, w := range r.Wagers {
			if j < len(locs) && w.Seat == h.Seat && w.Wager == h.Wager {
				to = strings.TrimPrefix(locs[j], "body.")
			}
		}
	default:
		return err
	}
	c := *e
	c.Fields = append([]fault.Problem(nil), e.Fields...)
	c.Fields[0].Field = to
	return &c
}

// bodyExample is a request body with a whole-body example (the spec's
// clients and docs show it; a test checks it is a valid request).
func bodyExample(ex any) *huma.RequestBody {
	return &huma.RequestBody{Content: map[string]*huma.MediaType{"application/json": {Example: ex}}}
}

func poolsUnavailable() error {
	return huma.ErrorWithHeaders(huma.Error503ServiceUnavailable("progressive unavailable: no pool store is configured"),
		http.Header{"Retry-After": {"1"}})
}

// poolError maps the pools' *fault.Error to problem+json; a 5xx never
// shows the cause.
func poolError(ctx context.Context, err error, loc string) error {
	e, ok := fault.As(err)
	if !ok {
		// A store failure the pools layer did not classify: the write may
		// not be confirmed, and nothing is half-applied (one transaction).
		return problemOf(ctx, fault.Wrap(fault.Unavailable, err, "progressive unavailable: the store could not confirm the write; nothing was half-applied, retry the request"), "")
	}
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
	if placed.Kind == fault.Unavailable && placed.Detail == "" {
		placed.Detail = "progressive unavailable: retry the request"
	}
	return problemOf(ctx, &placed, "")
}
