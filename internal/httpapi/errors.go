package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/tablesettle/tablesettle/internal/fault"
)

// The one place errors become RFC 9457 problem+json (issue 12 item 2).
//
// A domain error (fault.Error) maps by kind: Invalid 422, NotFound 404,
// Conflict 409, Unavailable 503 (with Retry-After), Forbidden 403,
// Unauthenticated 401, anything else 500. Its fields become errors[] with
// their full location (body.positions[1].wagers.bet), its cited rules the
// extension member "rules". Its cause (fault.Error.Err) is logged, never
// shown; a 5xx shows neither err.Error() nor the cause (the middleware
// withholds every 5xx body beyond its detail, and logs it).
//
// Every problem huma makes (huma.NewError, which validation errors and
// huma.Error4xx use) passes through newError, which bounds what an error
// repeats of the request (maxEcho).

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
// location and string value is cut to maxEcho bytes, a value that is not
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
		details = append(details, boundDetail(d))
	}
	return &huma.ErrorModel{Type: ProblemType, Status: status, Title: http.StatusText(status), Detail: boundMessage(msg), Errors: details}
}

func boundDetail(d *huma.ErrorDetail) *huma.ErrorDetail {
	out := &huma.ErrorDetail{Location: bound(d.Location), Message: boundMessage(d.Message)}
	if loc, msg, ok := strings.Cut(d.Message, locSep); ok && d.Location == "body" {
		// A locatedError huma reported at "body" (codec.go): its own
		// location, and no echo of the whole body as the value.
		out.Location, out.Message = bound(loc), boundMessage(msg)
		return out
	}
	switch v := d.Value.(type) {
	case string:
		out.Value = bound(v)
	case bool, float64, float32, int, int64, int32, uint, uint64, uint32, nil:
		out.Value = v
	case []byte:
		out.Value = bound(string(v))
	}
	if strings.HasPrefix(out.Message, "json: ") {
		out.Message = "the value is not what this field takes"
	}
	return out
}

// maxMessage bounds a message or detail: ours are shorter, but one may
// quote what the client sent.
const maxMessage = 1024

// boundMessage cuts a message to maxMessage bytes.
func boundMessage(s string) string {
	return boundTo(s, maxMessage)
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
	b, _ := json.Marshal(&huma.ErrorModel{Type: ProblemType, Title: http.StatusText(status), Status: status, Detail: boundMessage(detail), Errors: details})
	return b
}

// writeProblem writes an RFC 9457 problem+json response.
func writeProblem(w http.ResponseWriter, status int, detail string, errs ...*huma.ErrorDetail) {
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Del("Content-Length")
	w.WriteHeader(status)
	_, _ = w.Write(ProblemJSON(status, detail, errs...))
}
