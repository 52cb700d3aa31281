package httpapi

import (
	"context"
	"net/http"
	"slices"
	"strings"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/validation"
	"github.com/go-json-experiment/json"

	"github.com/tablesettle/tablesettle/internal/apijson"
	"github.com/tablesettle/tablesettle/internal/fault"
)

// The one place errors become RFC 9457 problem+json (issue 12 item 2).
//
// A domain error (fault.Error) maps by kind: Invalid 422, NotFound 404,
// Conflict 409, Unavailable 503 (with Retry-After), Forbidden 403,
// Unauthenticated 401, anything else 500. Its fields become errors[] with
// their full location (body.positions[1].wagers.bet), its cited rules the
// extension member "rules". Its cause (fault.Error.Err) is logged, never
// shown.
//
// Every problem huma makes (huma.NewError, which validation errors and
// huma.Error4xx use) passes through newError, which bounds what an error
// repeats of the request (apijson.MaxEcho) and names the field of every detail
// (apijson.LocatedDetail, requiredField). Every problem an operation answers
// passes through sanitise (a huma transformer) on its way out: a 5xx keeps
// only the detail an operation wrote on purpose and the request id, its
// errors[] (where huma puts err.Error()) are logged, never shown.

// Problem is a problem+json body with the rules an answer cites.
type Problem struct {
	huma.ErrorModel
	// Rules are the rules and rulings the refusal applies, e.g.
	// "mbs-megalink-ssp-v6 3.10.2.1", "ruling R20".
	Rules []string `json:"rules,omitempty"`
	// header is sent with the answer (Retry-After on a 503).
	header http.Header
}

// GetHeaders implements huma.HeadersError.
func (p *Problem) GetHeaders() http.Header { return p.header }

// problemOf maps err to the problem to answer; prefix ("body",
// "body.round") is put before the fields' paths. A 5xx's cause is logged
// with the request's id.
func problemOf(ctx context.Context, err error, prefix string) error {
	if err == nil {
		return nil
	}
	if e, ok := fault.As(fault.Under(err, prefix)); ok {
		status := statusOf(e.Kind)
		if status >= 500 {
			Log(ctx).Error("request failed", "status", status, "kind", e.Kind.String(), "err", e.Error())
		}
		p := &Problem{ErrorModel: huma.ErrorModel{Type: ProblemType, Title: http.StatusText(status), Status: status, Detail: boundMessage(e.Detail)}, Rules: e.Rules}
		if status == http.StatusInternalServerError || p.Detail == "" {
			p.Detail = "the service could not answer this request"
		}
		if status < 500 {
			for _, f := range e.Fields {
				p.Errors = append(p.Errors, boundDetail(&huma.ErrorDetail{Location: f.Field, Message: f.Message, Value: f.Value}))
			}
		}
		if status == http.StatusServiceUnavailable {
			p.header = http.Header{"Retry-After": {"1"}}
		}
		return p
	}
	Log(ctx).Error("request failed", "status", 500, "err", err.Error())
	return huma.Error500InternalServerError("the service could not answer this request")
}

func statusOf(k fault.Kind) int {
	switch k {
	case fault.Invalid:
		return http.StatusUnprocessableEntity
	case fault.NotFound:
		return http.StatusNotFound
	case fault.Conflict:
		return http.StatusConflict
	case fault.Unavailable:
		return http.StatusServiceUnavailable
	case fault.Forbidden:
		return http.StatusForbidden
	case fault.Unauthenticated:
		return http.StatusUnauthorized
	}
	return http.StatusInternalServerError
}

// newError is huma.NewError with what an error repeats bounded: every
// location and string value is cut to apijson.MaxEcho bytes, a value that is not
// a string, number or boolean (an object, an array) is left out, and a
// message or detail is cut to maxMessage bytes.
func newError(status int, msg string, errs ...error) huma.StatusError {
	details := make([]*huma.ErrorDetail, 0, len(errs))
	for _, err := range errs {
		if err == nil {
			continue
		}
		var d *huma.ErrorDetail
		if dt, ok := err.(huma.ErrorDetailer); ok {
			d = dt.ErrorDetail()
		} else {
			d = &huma.ErrorDetail{Message: err.Error()}
		}
		if st, loc, m, ok := apijson.LocatedDetail(d.Message); ok {
			// The codec's error (internal/apijson), which huma reports at "body"
			// with status 400: its own location and status.
			d = &huma.ErrorDetail{Location: loc, Message: m}
			if status == http.StatusBadRequest {
				status = st
			}
		} else if name, ok := requiredField(d.Message); ok {
			// huma names a missing field at the object that lacks it.
			d = &huma.ErrorDetail{Location: d.Location + "." + name, Message: d.Message}
		}
		details = append(details, boundDetail(d))
	}
	sortUnexpected(details)
	return &huma.ErrorModel{Type: ProblemType, Status: status, Title: http.StatusText(status), Detail: boundMessage(msg), Errors: details}
}

// sortUnexpected puts each run of "unexpected property" details in the
// order of their locations: huma finds them by ranging over the body's
// object (a Go map), so the same request was answered in any of several
// orders. Every other detail keeps huma's order (the schema's).
func sortUnexpected(details []*huma.ErrorDetail) {
	for i := 0; i < len(details); {
		j := i
		for j < len(details) && details[j].Message == validation.MsgUnexpectedProperty {
			j++
		}
		if j > i+1 {
			slices.SortFunc(details[i:j], func(a, b *huma.ErrorDetail) int { return strings.Compare(a.Location, b.Location) })
		}
		i = max(j, i+1)
	}
}

// requiredField reads the name out of huma's message for a missing
// required property (validation.MsgExpectedRequiredProperty).
func requiredField(msg string) (string, bool) {
	before, after, ok := strings.Cut(validation.MsgExpectedRequiredProperty, "%s")
	if !ok {
		return "", false
	}
	name, ok := strings.CutPrefix(msg, before)
	if !ok {
		return "", false
	}
	name, ok = strings.CutSuffix(name, after)
	return name, ok && name != ""
}

// sanitise is the transformer every answer passes: a problem gets its
// type, and a 5xx keeps only what an operation wrote on purpose as its
// detail (huma.Error503ServiceUnavailable("store down", err) keeps "store
// down") and the request id to quote; its errors[] are logged, never
// shown.
func sanitise(ctx huma.Context, _ string, v any) (any, error) {
	var p *huma.ErrorModel
	switch e := v.(type) {
	case *huma.ErrorModel:
		p = e
	case *Problem:
		p = &e.ErrorModel
	default:
		return v, nil
	}
	if p.Type == "" {
		p.Type = ProblemType
	}
	if p.Status < 500 {
		return v, nil
	}
	if len(p.Errors) > 0 {
		causes := make([]string, len(p.Errors))
		for i, d := range p.Errors {
			causes[i] = d.Message
		}
		Log(ctx.Context()).Error("5xx cause withheld from client", "status", p.Status, "detail", p.Detail, "causes", causes)
		p.Errors = nil
	}
	if p.Detail == "" || p.Detail == "unexpected error occurred" {
		p.Detail = "the service could not answer this request"
	}
	if id := RequestID(ctx.Context()); id != "" && !strings.Contains(p.Detail, "quote request id") {
		p.Detail += "; quote request id " + id + " when reporting it"
	}
	return v, nil
}

func boundDetail(d *huma.ErrorDetail) *huma.ErrorDetail {
	out := &huma.ErrorDetail{Location: apijson.Bound(d.Location), Message: boundMessage(d.Message)}
	switch v := d.Value.(type) {
	case string:
		out.Value = apijson.Bound(v)
	case bool, float64, float32, int, int64, int32, uint, uint64, uint32, nil:
		out.Value = v
	case []byte:
		out.Value = apijson.Bound(string(v))
	}
	if _, text := out.Value.(string); text && out.Location == "body" {
		// huma gives a decoder's error the whole body as its value; a
		// value of ours at "body" (an open proposal's id) stays.
		out.Value = nil
	}
	return out
}

// maxMessage bounds a message or detail: ours are shorter, but one may
// quote what the client sent.
const maxMessage = 1024

// boundMessage cuts a message to maxMessage bytes.
func boundMessage(s string) string {
	return apijson.BoundTo(s, maxMessage)
}

// ProblemJSON is an RFC 9457 body written outside huma (the middleware,
// the Lambda adapter before an event is a request), with what it repeats
// bounded as newError bounds it; it has the shape of huma.ErrorModel so
// that clients see one error type.
func ProblemJSON(status int, detail string, errs ...*huma.ErrorDetail) []byte {
	details := make([]*huma.ErrorDetail, len(errs))
	for i, d := range errs {
		details[i] = boundDetail(d)
	}
	if len(details) == 0 {
		details = nil
	}
	b, _ := json.Marshal(&huma.ErrorModel{Type: ProblemType, Title: http.StatusText(status), Status: status, Detail: boundMessage(detail), Errors: details}, apijson.EncodeOptions)
	return b
}

// writeProblem writes an RFC 9457 problem+json response.
func writeProblem(w http.ResponseWriter, status int, detail string, errs ...*huma.ErrorDetail) {
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Del("Content-Length")
	w.WriteHeader(status)
	_, _ = w.Write(ProblemJSON(status, detail, errs...))
}
