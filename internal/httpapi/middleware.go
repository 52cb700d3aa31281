package httpapi

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/danielgtaylor/huma/v2"

	"github.com/tablesettle/tablesettle/internal/apijson"
	"github.com/tablesettle/tablesettle/internal/auth"
	"github.com/tablesettle/tablesettle/internal/principal"
)

// DefaultBodyReadTimeout bounds the time a client may take to send its
// whole body (Deps.BodyReadTimeout): generous, a 64 KiB body over a link of
// 1 KB/s arrives within it.
const DefaultBodyReadTimeout = 2 * time.Minute

// DefaultBodyIdleTimeout bounds the time a client may send nothing while
// its body is incomplete (Deps.BodyIdleTimeout).
const DefaultBodyIdleTimeout = 10 * time.Second

// RequestIDHeader is the response header carrying the request id.
const RequestIDHeader = "X-Request-Id"

type requestIDKey struct{}
type loggerKey struct{}

// WithRequestID returns ctx carrying a request id given by the host (the
// Lambda adapter puts API Gateway's requestContext.requestId here); the
// middleware uses it instead of making one.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// RequestID returns the request id of ctx, or "" outside a request.
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// Log returns the logger of the request in ctx, which adds its request id
// to every line; outside a request, slog's default logger.
func Log(ctx context.Context) *slog.Logger {
	if l, ok := ctx.Value(loggerKey{}).(*requestLog); ok {
		return l.logger()
	}
	return slog.Default()
}

// requestLog is a request's logger, made on first use: most requests log
// only their access line, which names the request id itself, and a
// logger.With for every request would be a good part of the middleware's
// cost.
type requestLog struct {
	base  *slog.Logger
	id    string
	start time.Time            // when the middleware took the request: the body's deadlines count from it
	who   *principal.Principal // whom the credentials name (Access.authenticate); authorize reads it here
	once  sync.Once
	l     *slog.Logger
}

func (r *requestLog) logger() *slog.Logger {
	r.once.Do(func() { r.l = r.base.With("request_id", r.id) })
	return r.l
}

// randomRequestID is the default request id: 128 random bits in hex.
func randomRequestID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never returns an error (Go 1.24+)
	return hex.EncodeToString(b[:])
}

// validClientID accepts a caller's X-Request-Id only when it is short and
// plain, so that it cannot forge log lines or headers.
func validClientID(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// Middleware wraps mux (the ServeMux huma registered on) with the
// behaviour every request shares: request id, access log, problem+json
// for unknown routes and wrong methods, authentication (before any body
// is read), and the one recover. An operation registered through
// operations then checks its own access rule and admits its body (its
// huma middlewares); any other route (a page, the mux's redirect to a
// clean path) gets the same two steps here: the rule of its route, then
// admit. Errors are sanitised where they are made (errors.go): a 5xx body
// never shows internal text.
func Middleware(deps Deps, mux *http.ServeMux) http.Handler {
	logger := deps.Logger
	if logger == nil {
		logger = slog.New(slog.NewJSONHandler(os.Stdout, nil))
	}
	newID := deps.NewRequestID
	if newID == nil {
		newID = randomRequestID
	}
	limits := limitsOf(deps)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := RequestID(r.Context())
		if id == "" {
			if c := r.Header.Get(RequestIDHeader); validClientID(c) {
				id = c
			} else {
				id = newID()
			}
		}
		rl := &requestLog{base: logger, id: id, start: start}
		ctx := context.WithValue(WithRequestID(r.Context(), id), loggerKey{}, rl)
		r = r.WithContext(ctx)
		w.Header().Set(RequestIDHeader, id)
		rec := &recorder{ResponseWriter: w}
		h, route := mux.Handler(r)

		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				rl.logger().Error("panic", "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
				if rec.wroteHeader {
					// Part of an answer is out: cut the connection, so that
					// the client cannot take it for a whole one.
					panic(http.ErrAbortHandler)
				}
				writeProblem(rec, http.StatusInternalServerError, "the service could not answer this request; quote request id "+id+" when reporting it")
			}
			status := rec.status
			if status == 0 {
				status = http.StatusOK
			}
			// The line logger.With("request_id", id).Info(...) would write,
			// without making that logger.
			logger.LogAttrs(ctx, slog.LevelInfo, "request", slog.String("request_id", id),
				slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.String("route", route),
				slog.Int("status", status), slog.Int64("bytes_in", r.ContentLength), slog.Int("bytes_out", rec.bytes),
				slog.String("principal", principalID(r.Context(), rl)),
				slog.Float64("duration_ms", float64(time.Since(start).Microseconds())/1000))
		}()

		if route == "" {
			if allow := allowedMethods(mux, r); len(allow) > 0 {
				rec.Header().Set("Allow", strings.Join(allow, ", "))
				refuse(rec, r, http.StatusMethodNotAllowed, fmt.Sprintf("%s is not allowed on %s; use %s", r.Method, r.URL.Path, strings.Join(allow, " or ")), nil)
			} else {
				refuse(rec, r, http.StatusNotFound, fmt.Sprintf("no operation at %s %s; the spec is at /openapi.yaml", r.Method, r.URL.Path), nil)
			}
			return
		}
		ok := true
		if deps.Access != nil && !auth.RuleOf(route).Public { // a page: anyone, credentials or none
			if rl.who, ok = deps.Access.authenticate(rec, r, route); !ok {
				return
			}
		}
		// An operation checks its rule and admits its body itself (its huma
		// middlewares, operations.Handle); a page or the mux's redirect to
		// a clean path (checked by the rule of the route it redirects to)
		// is checked here.
		_, isOp := h.(operation)
		if !isOp && deps.Access != nil {
			var c context.Context
			if c, ok = deps.Access.authorize(rec, r, route, auth.RuleOf(route)); ok && c != r.Context() {
				r = r.WithContext(c) // the acting principal
			}
		}
		if isOp || ok && limits.admit(rec, r, route, nil) {
			mux.ServeHTTP(rec, r)
		}
	})
}

// admit checks r's path parameters (those of route, its mux pattern),
// query string and single-valued headers (singleHeaders: Content-Type and
// the headers the operation reads, named in headers), and reads its body
// whole under the limits, in place (r.Body becomes the bytes read, its
// Content-Type the one huma knows); when it cannot, it answers (400, 408,
// 413, 415, 422) and reports false.
func (l bodyLimits) admit(w http.ResponseWriter, r *http.Request, route string, headers []string) bool {
	if !checkPath(w, r, route) || !checkQuery(w, r) || !singleHeaders(w, r, "Content-Type") || !singleHeaders(w, r, headers...) {
		return false
	}
	if r.Body == nil || r.Body == http.NoBody {
		return true
	}
	start := time.Now()
	if rl, ok := r.Context().Value(loggerKey{}).(*requestLog); ok {
		start = rl.start
	}
	body, ok := l.read1(w, r, start)
	if !ok {
		return false
	}
	if len(body) > 0 && hasBody(r.Method) {
		if !jsonContentType(r.Header.Get("Content-Type")) {
			writeProblem(w, http.StatusUnsupportedMediaType, fmt.Sprintf("request Content-Type %q is not application/json", apijson.Bound(r.Header.Get("Content-Type"))),
				&huma.ErrorDetail{Location: "body", Message: "the body must be sent as Content-Type application/json (any case, parameters such as charset=utf-8 allowed)"})
			return false
		}
		// huma looks formats up case-sensitively: give it the one name.
		r.Header.Set("Content-Type", "application/json")
	}
	r.Body = requestBody{bytes.NewReader(body)}
	r.ContentLength = int64(len(body))
	return true
}

// checkQuery refuses a query string Go's parser would read silently
// wrong: a pair with a bad % escape (unit=%zz would read as no unit at
// all), and a name or value that is not UTF-8.
func checkQuery(w http.ResponseWriter, r *http.Request) bool {
	if r.URL.RawQuery == "" {
		return true
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return refuse(w, r, http.StatusBadRequest, "the query string has a % not followed by two hex digits, or a ';'", nil,
			&huma.ErrorDetail{Location: "query", Message: "a bad % escape (RFC 3986 percent-encoding)"})
	}
	for name, vs := range q {
		for _, v := range vs {
			if !utf8.ValidString(name) || !utf8.ValidString(v) {
				return refuse(w, r, http.StatusBadRequest, "a query parameter is not valid UTF-8", nil,
					&huma.ErrorDetail{Location: "query." + apijson.Bound(strings.ToValidUTF8(name, "\uFFFD")), Message: "not valid UTF-8 once its % escapes are decoded"})
			}
		}
	}
	return true
}

// checkPath refuses (400) a request whose path parameter is not valid
// UTF-8 once its % escapes are decoded (/v1/rulesets/%C0%AE%C0%AE), naming
// it (path.id), before any operation or page reads it: every id the
// service keeps or looks up is text, and JSON, which every answer is, holds
// only UTF-8 (issue 33 item 2). route is the mux pattern the request
// matched ("GET /v1/pools/{id}/hits/{seq}/slip"); the path is read in its
// escaped form, segment by segment as the mux matches it, so that a %2F
// inside a parameter does not shift the segments.
func checkPath(w http.ResponseWriter, r *http.Request, route string) bool {
	_, pattern, _ := strings.Cut(route, " ")
	if i := strings.IndexByte(pattern, '/'); i > 0 {
		pattern = pattern[i:] // a pattern with a host
	}
	if !strings.Contains(pattern, "{") {
		return true
	}
	segs := strings.Split(r.URL.EscapedPath(), "/")
	for i, p := range strings.Split(pattern, "/") {
		if i >= len(segs) {
			break
		}
		name, ok := strings.CutPrefix(p, "{")
		if !ok {
			continue
		}
		name = strings.TrimSuffix(name, "}")
		value := segs[i]
		if rest, wild := strings.CutSuffix(name, "..."); wild {
			name, value = rest, strings.Join(segs[i:], "/")
		}
		if name == "$" {
			continue
		}
		if v, err := url.PathUnescape(value); err != nil || !utf8.ValidString(v) {
			return refuse(w, r, http.StatusBadRequest, "the path parameter "+name+" is not valid UTF-8", nil,
				&huma.ErrorDetail{Location: "path." + name, Message: "not valid UTF-8 once its % escapes are decoded"})
		}
	}
	return true
}

// singleHeaders refuses (400) a request that gives one of the named
// headers more than once, or a value of one that is not valid UTF-8,
// naming it (header.Idempotency-Key). Every header the API reads takes one
// value (Authorization, Content-Type, Idempotency-Key; the list headers
// Accept and If-None-Match excepted, see headerParams): which of two would
// count? Neither: a proxy and a client may each have added one, and the
// first winning silently (issue 33 item 3) is a guess.
//
// Behind API Gateway two headers arrive as one, joined by a comma, which
// the Lambda adapter (aws-lambda-go-api-proxy) splits back into two
// values, for every header but its own list of single-valued ones
// (Authorization and Content-Type among them). So a header other than
// those two counts a comma as a second value on every host: one
// Idempotency-Key "a,b" is refused on the local server as it is on
// Lambda, where it cannot be told from two.
func singleHeaders(w http.ResponseWriter, r *http.Request, names ...string) bool {
	for _, name := range names {
		vs := r.Header.Values(name)
		split := http.CanonicalHeaderKey(name) != "Authorization" && http.CanonicalHeaderKey(name) != "Content-Type"
		if len(vs) > 1 || split && len(vs) == 1 && strings.Contains(vs[0], ",") {
			msg := "given more than once"
			if split {
				msg += " (a comma counts: it is how API Gateway joins two)"
			}
			return refuse(w, r, http.StatusBadRequest, "the request has more than one "+name+" header; send exactly one", []any{"header", name, "reason", "header given twice"},
				&huma.ErrorDetail{Location: "header." + name, Message: msg})
		}
		if len(vs) == 1 && !utf8.ValidString(vs[0]) {
			return refuse(w, r, http.StatusBadRequest, "the "+name+" header is not valid UTF-8", nil,
				&huma.ErrorDetail{Location: "header." + name, Message: "not valid UTF-8"})
		}
	}
	return true
}

// bodyLimits are the deadlines of reading a request body: a sender may
// pause up to idle between bytes and take up to read for the whole body
// (where the host supports deadlines: net/http does, the Lambda adapter
// holds the body in memory already). They are the only read deadlines
// the service sets (every operation's huma BodyReadTimeout is off:
// everyOperation), and they are lifted the moment the body is read, so
// that a handler slowed by contention is never cut: net/http reads the
// connection in the background while a handler runs, and a deadline
// left on it would cancel the request's context.
type bodyLimits struct {
	read, idle time.Duration
}

// limitsOf are deps' body limits, the defaults where it sets none.
func limitsOf(deps Deps) bodyLimits {
	l := bodyLimits{read: deps.BodyReadTimeout, idle: deps.BodyIdleTimeout}
	if l.read <= 0 {
		l.read = DefaultBodyReadTimeout
	}
	if l.idle <= 0 {
		l.idle = DefaultBodyIdleTimeout
	}
	return l
}

// read1 reads r's body whole, at most MaxBodyBytes; when it cannot, it
// answers (413, 408 or 400, with the connection closed) and reports false.
func (l bodyLimits) read1(w http.ResponseWriter, r *http.Request, start time.Time) ([]byte, bool) {
	if r.ContentLength > MaxBodyBytes {
		return nil, refuse(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body is %d bytes; the limit is %d bytes (64 KiB)", r.ContentLength, MaxBodyBytes), nil)
	}
	rc := http.NewResponseController(w)
	end := start.Add(l.read)
	progress := func() {
		_ = rc.SetReadDeadline(minTime(time.Now().Add(l.idle), end))
	}
	progress()
	body, err := readBody(r.Body, r.ContentLength, progress)
	_ = r.Body.Close()
	_ = rc.SetReadDeadline(time.Time{})
	if err != nil {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			Log(r.Context()).Warn("request body timed out", "err", err.Error(), "bytes_read", len(body),
				"idle_timeout", l.idle.String(), "read_timeout", l.read.String())
			return nil, refuse(w, r, http.StatusRequestTimeout, fmt.Sprintf("the request body stopped arriving (%d bytes read): nothing came for %s, or the whole body took over %s", len(body), l.idle, l.read), nil)
		}
		Log(r.Context()).Warn("request body unreadable", "err", err.Error(), "bytes_read", len(body))
		return nil, refuse(w, r, http.StatusBadRequest, "the request body could not be read", nil)
	}
	if len(body) > MaxBodyBytes {
		return nil, refuse(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body is over %d bytes (64 KiB)", MaxBodyBytes), nil)
	}
	return body, true
}

// refuse answers status with the request's body refused (dropBody),
// logging why as an access refusal unless why is nil, and reports false.
func refuse(w http.ResponseWriter, r *http.Request, status int, detail string, why []any, errs ...*huma.ErrorDetail) bool {
	if why != nil {
		Log(r.Context()).Info("access refused", why...)
	}
	closing := dropBody(w, r)
	writeProblem(w, status, detail, errs...)
	if closing && status != http.StatusRequestTimeout {
		drainBody(w, r)
	}
	return false
}

// dropBody closes the connection after the answer to a request whose
// body is refused or left unread (413, 408, an unknown route, a refused
// credential): the answer says "Connection: close", and the read deadline
// is now, so that net/http neither waits for the rest of a body nobody
// will read (a caller that announced a body and never sent it would hold
// the connection for ever) nor reads a next request from the middle of
// this one's body. A client then opens a new connection for its next
// request. It reports whether it did so: a host without connections (the
// Lambda adapter, which holds the body in memory already) supports no
// read deadline, and there is nothing to do.
func dropBody(w http.ResponseWriter, r *http.Request) bool {
	if r.ContentLength != 0 && r.Body != nil && r.Body != http.NoBody {
		rc := http.NewResponseController(w)
		if rc.SetReadDeadline(time.Now()) == nil {
			_ = rc.EnableFullDuplex()
			w.Header().Set("Connection", "close")
			return true
		}
	}
	return false
}

// The drain after a refusal: at most drainMax bytes, for at most drainWait.
const (
	drainMax  = 1 << 20
	drainWait = 2 * time.Second
)

// drainBody, after the refusal is written and flushed, reads and drops
// what the client is still sending of a refused body, so that the client
// finishes its write and reads the answer. A connection closed with data
// unread is reset by the kernel, and a client still writing then loses the
// answer it had not read yet (RFC 9112 9.6: a server closing should keep
// reading until the client has the answer). It reads at most drainMax bytes
// for at most drainWait, so a client that announced a large body, or sends
// it slowly, holds the connection no longer than that; a larger body is
// closed at once and net/http's own wait before the close (its "RST
// avoidance") is all it gets.
func drainBody(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	_ = rc.Flush()
	if r.ContentLength > 0 && r.ContentLength <= drainMax {
		if rc.SetReadDeadline(time.Now().Add(drainWait)) == nil {
			_, _ = io.CopyN(io.Discard, r.Body, drainMax)
		}
	}
	_ = rc.SetReadDeadline(time.Now())
	_ = r.Body.Close()
}

// hasBody reports whether a request of this method carries a body an
// operation reads.
func hasBody(method string) bool {
	return method == http.MethodPost || method == http.MethodPut || method == http.MethodPatch
}

// jsonContentType reports whether a request Content-Type is JSON: the
// media type application/json in any case, with or without parameters
// (charset=utf-8). An absent Content-Type is taken as JSON, the only body
// the API reads. Other types, *+json ones included
// (application/merge-patch+json means another operation), are refused
// with 415.
func jsonContentType(ct string) bool {
	if ct == "" {
		return true
	}
	mt, _, _ := strings.Cut(ct, ";")
	return strings.EqualFold(strings.TrimSpace(mt), "application/json")
}

// requestBody is a request body the middleware has read whole and
// checked.
type requestBody struct {
	*bytes.Reader
}

func (requestBody) Close() error { return nil }

// readBody reads at most MaxBodyBytes+1 bytes of a body, as io.ReadAll
// does, into a buffer sized from its Content-Length when it has one (one
// allocation instead of io.ReadAll's doubling from 512 bytes).
func readBody(r io.Reader, contentLength int64, progress func()) ([]byte, error) {
	size := 512
	if contentLength >= 0 && contentLength <= MaxBodyBytes {
		size = int(contentLength) + 1 // room to read EOF without growing
	}
	b := make([]byte, 0, size)
	lr := io.LimitReader(r, MaxBodyBytes+1)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := lr.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if n > 0 && err == nil {
			progress()
		}
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// allowedMethods lists the methods mux would route for r's path.
func allowedMethods(mux *http.ServeMux, r *http.Request) []string {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, p := mux.Handler(probe); p != "" {
			allow = append(allow, m)
		}
	}
	return allow
}

// recorder notes the status and size of a response for the access log,
// and turns net/http's redirect of a path that is not clean into a
// problem.
type recorder struct {
	http.ResponseWriter
	status      int
	bytes       int
	wroteHeader bool
	redirect    bool // ServeMux's redirect to a clean path: its HTML body dropped
}

func (rec *recorder) WriteHeader(status int) {
	if rec.wroteHeader {
		return
	}
	rec.wroteHeader = true
	rec.status = status
	if status >= 300 && status < 400 && strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
		// net/http's ServeMux redirects a path that is not clean
		// (/v1//rulesets, /v1/../v1/rulesets) to the clean one with an HTML
		// body: keep the status and Location, say it as a problem.
		rec.redirect = true
		rec.Header().Set("Content-Type", "application/problem+json")
		rec.Header().Del("Content-Length")
		rec.ResponseWriter.WriteHeader(status)
		n, _ := rec.ResponseWriter.Write(ProblemJSON(status, "the path is not in canonical form; the operation is at "+apijson.Bound(rec.Header().Get("Location"))))
		rec.bytes += n
		return
	}
	rec.ResponseWriter.WriteHeader(status)
}

func (rec *recorder) Write(b []byte) (int, error) {
	if !rec.wroteHeader {
		rec.WriteHeader(http.StatusOK)
	}
	if rec.redirect {
		return len(b), nil
	}
	n, err := rec.ResponseWriter.Write(b)
	rec.bytes += n
	return n, err
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (rec *recorder) Unwrap() http.ResponseWriter { return rec.ResponseWriter }
