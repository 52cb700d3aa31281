package httpapi

import (
	"context"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/go-json-experiment/json"

	"github.com/tablesettle/tablesettle/internal/apijson"
	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/principal"
)

// Shift reports and jackpot slips (issue 24 item 8).

type reportInput struct {
	ID     string `path:"id" maxLength:"64"`
	From   string `query:"from" format:"date-time" example:"2026-03-01T18:00:00Z" doc:"The start of the range (RFC 3339): the opening meters are the meters as they stood then. Absent with to: the pool's beginning (every meter 0). Both absent: the shift (see shift)."`
	To     string `query:"to" format:"date-time" example:"2026-03-02T02:00:00Z" doc:"The end of the range (RFC 3339), after from. Absent: now."`
	Shift  string `query:"shift" enum:"current,previous" doc:"With neither from nor to: the shift to report, by the floor's shift boundaries (TABLESETTLE_SHIFTS, serve -shifts): current (the default: from its start to now) or previous (from its start to its end)."`
	Format string `query:"format" enum:"json,csv" doc:"csv: the report as CSV (as Accept: text/csv does); json by default."`
	Accept string `header:"Accept"`
}

type slipInput struct {
	ID  string `path:"id" maxLength:"64"`
	Seq int64  `path:"seq" minimum:"1" doc:"The hit: the sequence number of its hit entry."`
}
type slipOutput struct {
	Body jackpot.Slip
}

type printInput struct {
	ID             string `path:"id" maxLength:"64"`
	Seq            int64  `path:"seq" minimum:"1" doc:"The hit: the sequence number of its hit entry."`
	IdempotencyKey string `header:"Idempotency-Key" required:"true" minLength:"1" maxLength:"255" doc:"Required: the print is recorded exactly once; the same key again returns the first answer."`
}

// PrintedSlip is the answer to a print: the slip with every print of it,
// and the print this request recorded.
type PrintedSlip struct {
	jackpot.Slip
	Printed jackpot.SlipPrint `json:"printed" doc:"The print this request recorded: print 1 (the original, which took the serial) or a reprint marked REPRINT n."`
}
type printOutput struct {
	Replayed bool `header:"Idempotent-Replayed" doc:"true when the answer is the first one, replayed for the same Idempotency-Key."`
	Body     PrintedSlip
}

// wantsCSV reports whether the report is asked for as CSV.
func wantsCSV(in *reportInput) bool {
	if in.Format != "" {
		return in.Format == "csv"
	}
	return strings.Contains(in.Accept, "text/csv")
}

func parseInstant(field, v string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return time.Time{}, fault.InvalidField(field, v, "%s is an RFC 3339 instant, e.g. 2026-03-01T20:00:00Z", strings.TrimPrefix(field, "query."))
	}
	return t, nil
}

// registerReports adds the shift report and the jackpot slip.
func registerReports(api huma.API, svc *pools.Service, tags []string) {
	schema := api.OpenAPI().Components.Schemas.Schema(reflect.TypeOf(jackpot.Report{}), true, "ShiftReport")
	op := huma.Operation{
		OperationID: "pool-report", Method: http.MethodGet, Path: "/v1/pools/{id}/report",
		Summary: "A shift report: meters, contributions by table, hits, adjustments, corrections, liabilities",
		Description: "The pool over (from, to] (neither given: the current shift, by the floor's shift boundaries; shift=previous the one before), read from its ledger: the reconciliation (opening + contributions + seeds and resets + hits + adjustments + corrections = closing, meter by meter), the opening and closing meters (as they stood at from and to), what each table contributed, the hits committed (as they stood at to), the adjustments, the corrections (voids, reversals, house recoveries), " +
			"and the liabilities at to: hits pending or confirmed, not yet paid, with their total, and held hits. JSON, or CSV with Accept: text/csv or format=csv (one row per item: section, item, table, round, seat, hand, amount, currency, at, by, note).",
		Tags: tags,
		Responses: map[string]*huma.Response{"200": {Description: "The report.", Content: map[string]*huma.MediaType{
			"application/json": {Schema: schema},
			"text/csv":         {Schema: &huma.Schema{Type: "string"}},
		}}},
	}
	huma.Register(api, op, func(ctx context.Context, in *reportInput) (*huma.StreamResponse, error) {
		if svc == nil {
			return nil, poolsUnavailable()
		}
		var from time.Time
		to := svc.Now()
		var err error
		var r jackpot.Report
		switch {
		case in.From == "" && in.To == "":
			r, err = svc.ShiftReport(ctx, in.ID, in.Shift == "previous")
		case in.Shift != "":
			return nil, poolError(ctx, fault.InvalidField("query.shift", in.Shift, "shift is asked for without from and to"), "")
		}
		if in.From != "" {
			if from, err = parseInstant("query.from", in.From); err != nil {
				return nil, poolError(ctx, err, "")
			}
		}
		if in.To != "" {
			if to, err = parseInstant("query.to", in.To); err != nil {
				return nil, poolError(ctx, err, "")
			}
		}
		if in.From != "" || in.To != "" {
			r, err = svc.Report(ctx, in.ID, from, to)
		}
		if err != nil {
			return nil, poolError(ctx, err, "path.")
		}
		ct, body := "application/json", []byte(nil)
		if wantsCSV(in) {
			ct, body = "text/csv; charset=utf-8", r.CSV()
		} else if body, err = json.Marshal(r, apijson.EncodeOptions); err != nil {
			return nil, poolError(ctx, fault.Wrap(fault.Internal, err, "the report could not be written"), "")
		}
		return &huma.StreamResponse{Body: func(hc huma.Context) {
			hc.SetHeader("Content-Type", ct)
			hc.SetHeader("Content-Length", strconv.Itoa(len(body)))
			hc.SetStatus(http.StatusOK)
			_, _ = hc.BodyWriter().Write(body)
		}}, nil
	})
	huma.Register(api, huma.Operation{
		OperationID: "hit-slip", Method: http.MethodGet, Path: "/v1/pools/{id}/hits/{seq}/slip",
		Summary:     "The jackpot slip of a paid hit",
		Description: "What a printed jackpot slip states: the pool, the winner's table, round, seat and hand, the amount and where it came from, who verified it and when (a hit under the jackpot lock), who paid it and when, and the rules it cites. 404 for no such hit, 409 naming path.seq for a hit not paid.",
		Tags:        tags,
	}, func(ctx context.Context, in *slipInput) (*slipOutput, error) {
		if svc == nil {
			return nil, poolsUnavailable()
		}
		s, err := svc.Slip(ctx, in.ID, in.Seq)
		if err != nil {
			return nil, poolError(ctx, err, "path.")
		}
		return &slipOutput{Body: s}, nil
	})
	huma.Register(api, huma.Operation{
		OperationID: "print-hit-slip", Method: http.MethodPost, Path: "/v1/pools/{id}/hits/{seq}/slip/prints", DefaultStatus: http.StatusCreated,
		Summary: "Record a print of a paid hit's jackpot slip (cage, supervisor)",
		Description: "A slip is printed when this is asked (the console asks, then prints the page): the first print of a hit's slip is the original and takes the pool's next slip serial in the commit that records it (serials run 1, 2, 3 ... per pool without a gap); every later print is a reprint marked REPRINT n with the same serial. " +
			"Each print is a ledger entry (slip_printed) naming who printed it and moving no money. Exactly once under its Idempotency-Key. 404 for no such hit, 409 naming path.seq for a hit not paid.",
		Tags: tags,
	}, func(ctx context.Context, in *printInput) (*printOutput, error) {
		if svc == nil {
			return nil, poolsUnavailable()
		}
		a, err := pools.ActorOf(ctx, "prints a jackpot slip", principal.Cage, principal.Supervisor)
		if err != nil {
			return nil, poolError(ctx, err, "path.")
		}
		s, pr, replayed, err := svc.PrintSlip(ctx, in.ID, in.Seq, a, in.IdempotencyKey)
		if err != nil {
			return nil, poolError(ctx, err, "path.")
		}
		return &printOutput{Replayed: replayed, Body: PrintedSlip{Slip: s, Printed: pr}}, nil
	})
}
