package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/tablesettle/tablesettle/internal/apispec"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/principal"
)

// The live floor (issue 24, docs/floor.md): the console and the sign poll
// twice a second with If-None-Match (docs/floor-shift.md says why). API Gateway in front of Lambda answers
// one request with one response and cannot hold a stream open, so both
// hosts use one mechanism: conditional GETs, a 304 costing one read of
// the pool's item and no body.

// matches reports whether If-None-Match header inm names tag (weak
// comparison, RFC 9110 13.1.2).
func matches(inm, tag string) bool {
	if inm == "" {
		return false
	}
	opaque := func(t string) string { return strings.TrimPrefix(strings.TrimSpace(t), "W/") }
	for _, t := range strings.Split(inm, ",") {
		if strings.TrimSpace(t) == "*" || opaque(t) == opaque(tag) {
			return true
		}
	}
	return false
}

// notModified is the 304 of a conditional read whose tag matched.
func notModified(tag string) error {
	return huma.ErrorWithHeaders(huma.Status304NotModified(), http.Header{"ETag": {tag}, "Cache-Control": {"no-cache"}})
}

// freshPool reads the pool for a floor read, after paying the held hits
// that are due (release on read, docs/floor.md).
func freshPool(ctx context.Context, svc *pools.Service, id string) (jackpot.Pool, error) {
	if svc == nil {
		return jackpot.Pool{}, poolsUnavailable()
	}
	p, err := svc.Fresh(ctx, id)
	if err != nil {
		return jackpot.Pool{}, poolError(ctx, err, "path.")
	}
	return p, nil
}

type poolGetInput struct {
	ID          string `path:"id" maxLength:"64"`
	IfNoneMatch string `header:"If-None-Match" doc:"An ETag of an earlier answer (or several, or *): 304 with no body while nothing changed."`
}
type poolGetOutput struct {
	ETag         string `header:"ETag" doc:"The answer's version: send it back as If-None-Match to poll."`
	CacheControl string `header:"Cache-Control"`
	Body         pools.View
}

type hitsInput struct {
	ID          string `path:"id" maxLength:"64"`
	State       string `query:"state" enum:"open,all" default:"open" doc:"open: held, pending and confirmed hits (the queue the floor acts on); all: paid and voided ones too, from the ledger."`
	Table       string `query:"table" maxLength:"64" doc:"Only this table's hits (all tables when absent)."`
	Limit       int    `query:"limit" minimum:"1" maximum:"1000" default:"100" doc:"state=all: at most this many hits, the newest."`
	IfNoneMatch string `header:"If-None-Match" doc:"An ETag of an earlier answer (or several, or *): 304 with no body while nothing changed."`
}
type hitsOutput struct {
	ETag         string `header:"ETag" doc:"The answer's version: send it back as If-None-Match to poll."`
	CacheControl string `header:"Cache-Control"`
	Body         struct {
		Hits []jackpot.FloorHit `json:"hits"`
	}
}

type displayInput struct {
	ID          string `path:"id" maxLength:"64"`
	IfNoneMatch string `header:"If-None-Match" doc:"An ETag of an earlier answer (or several, or *): 304 with no body while nothing changed."`
}
type displayOutput struct {
	ETag         string `header:"ETag" doc:"The answer's version: send it back as If-None-Match to poll."`
	CacheControl string `header:"Cache-Control"`
	Body         jackpot.Display
}

type ackInput struct {
	ID  string `path:"id" maxLength:"64"`
	Seq int64  `path:"seq" minimum:"1" doc:"The waiting hit: its seq in the hit queue (a held hit's held entry)."`
}

// AckAnswer is the hit as the floor lists it, acknowledged, and the pool.
type AckAnswer struct {
	Hit  jackpot.FloorHit `json:"hit"`
	Pool pools.View       `json:"pool"`
}
type ackOutput struct {
	Body AckAnswer
}

type tablesInput struct {
	ID          string `path:"id" maxLength:"64"`
	SilentAfter int    `query:"silentAfter" minimum:"60" maximum:"86400" default:"600" doc:"Seconds without a round after which a table is flagged silent, while another table of the pool deals."`
}
type tablesOutput struct {
	Body pools.Tables
}

// registerFloor adds the floor's reads (issue 24) and the acknowledgement
// of a hit's alert (issue 35 item 3).
func registerFloor(api huma.API, svc *pools.Service, tags []string) {
	huma.Register(api, huma.Operation{
		OperationID: "acknowledge-hit", Method: http.MethodPost, Path: "/v1/pools/{id}/hits/{seq}/acknowledge",
		Summary: "Acknowledge a waiting hit's alert (any floor role)",
		Description: "Records that the signed-in person has seen the alert of a waiting hit (held, pending or confirmed): the hit names who acknowledged it and when (every console stops sounding), and a hit_acknowledged ledger entry names the principal. " +
			"It moves no money and decides nothing about the hit (confirming, voiding and paying stay where they are). A hit already acknowledged keeps its first acknowledgement and nothing is written again, so the call needs no Idempotency-Key. " +
			"401 without authentication, 403 for a role that does not work the floor (table, display), 404 when no such hit waits.",
		Tags: tags,
	}, func(ctx context.Context, in *ackInput) (*ackOutput, error) {
		if svc == nil {
			return nil, poolsUnavailable()
		}
		a, err := pools.ActorOf(ctx, "acknowledges a hit", principal.Supervisor, principal.Cage, principal.Controller, principal.Admin)
		if err != nil {
			return nil, poolError(ctx, err, "path.")
		}
		p, h, err := svc.Acknowledge(ctx, in.ID, in.Seq, a)
		if err != nil {
			return nil, poolError(ctx, err, "path.")
		}
		return &ackOutput{Body: AckAnswer{Hit: h, Pool: svc.View(p)}}, nil
	})
	huma.Register(api, huma.Operation{
		OperationID: "pool-tables", Method: http.MethodGet, Path: "/v1/pools/{id}/tables",
		Summary: "Table health: each linked table's last round, and the silent ones",
		Description: "For the floor (issue 35): each table the pool links (or, linking none, each table seen) with its last round applied to the pool and when it was committed, read from the ledger's newest entries back (at most an hour, or twice silentAfter when longer, and 5,000 entries). " +
			"A table is silent when it has had no round for silentAfter seconds while another table of the pool dealt within them: a table that stopped sending rounds, not a closed floor.",
		Tags: tags,
	}, func(ctx context.Context, in *tablesInput) (*tablesOutput, error) {
		if svc == nil {
			return nil, poolsUnavailable()
		}
		t, err := svc.Tables(ctx, in.ID, time.Duration(in.SilentAfter)*time.Second)
		if err != nil {
			return nil, poolError(ctx, err, "path.")
		}
		return &tablesOutput{Body: t}, nil
	})

	op := huma.Operation{
		OperationID: "list-hits", Method: http.MethodGet, Path: "/v1/pools/{id}/hits",
		Summary: "The hit queue: held, pending, confirmed (and paid, voided) hits",
		Description: "The floor's hit queue (issue 24), in commit order: state=open (the default) lists held RWS hits (ruling R7, with the time their window closes), pending hits (under the jackpot lock, waiting for a supervisor) and confirmed ones (the cage may pay them); state=all adds the paid and voided hits from the ledger. " +
			"Each hit names its table, round, seat, hand, cards, amount and currency, who confirmed, paid or voided it and when, the rules it cites, and an open void proposal against it. " +
			"Held hits whose window has closed are paid before the answer (release on read). Poll with If-None-Match: 304 while nothing changed.",
		Tags: tags,
	}
	apispec.Conditional(&op)
	huma.Register(api, op, func(ctx context.Context, in *hitsInput) (*hitsOutput, error) {
		p, err := freshPool(ctx, svc, in.ID)
		if err != nil {
			return nil, err
		}
		// huma applies the defaults of state and limit (open, 100).
		tag := svc.Tag(p, fmt.Sprintf("hits?state=%s&table=%s&limit=%d", in.State, in.Table, in.Limit))
		if matches(in.IfNoneMatch, tag) {
			return nil, notModified(tag)
		}
		hits, err := svc.Hits(ctx, p, in.State, in.Table, in.Limit)
		if err != nil {
			return nil, poolError(ctx, err, "path.")
		}
		out := &hitsOutput{ETag: tag, CacheControl: "no-cache"}
		out.Body.Hits = hits
		return out, nil
	})
	op = huma.Operation{
		OperationID: "pool-display", Method: http.MethodGet, Path: "/v1/pools/{id}/display",
		Summary: "What the sign shows: the meter, the paytable's current amounts, public hit states",
		Description: "For the sign (role display, or any reader): the pool's display name, currency and displayed meter, each progressive hand's current amount (a Royal Flush the meter, a Straight Flush 10% of it, rounded down; fixed prizes), " +
			"the hits held, pending verification, verified and recently paid (table, seat, hand, amount; never a principal's name), and the last hit won. " +
			"asOf is the service's time of the answer. Poll with If-None-Match: 304 while nothing changed. Several pools on one sign: one call per pool.",
		Tags: tags,
	}
	apispec.Conditional(&op)
	huma.Register(api, op, func(ctx context.Context, in *displayInput) (*displayOutput, error) {
		p, err := freshPool(ctx, svc, in.ID)
		if err != nil {
			return nil, err
		}
		d, tag := svc.Display(p)
		if matches(in.IfNoneMatch, tag) {
			return nil, notModified(tag)
		}
		return &displayOutput{ETag: tag, CacheControl: "no-cache", Body: d}, nil
	})
}
