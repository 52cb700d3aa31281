package httpapi

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
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
	base *slog.Logger
	id   string
	once sync.Once
	l    *slog.Logger
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
// behaviour every operation shares: request id, access log, body limit,
// problem+json for unknown routes and wrong methods, panic recovery and 5xx
// sanitising.
func Middleware(deps Deps, mux *http.ServeMux) http.Handler {
	logger := deps.Logger
	if logger == nil {
		logger = slog.New(slog.NewJSONHandler(os.Stdout, nil))
	}
	newID := deps.NewRequestID
	if newID == nil {
		newID = randomRequestID
	}
	bodyReadTimeout := deps.BodyReadTimeout
	if bodyReadTimeout <= 0 {
		bodyReadTimeout = DefaultBodyReadTimeout
	}
	bodyIdleTimeout := deps.BodyIdleTimeout
	if bodyIdleTimeout <= 0 {
		bodyIdleTimeout = DefaultBodyIdleTimeout
	}
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
		rl := &requestLog{base: logger, id: id}
		ctx := context.WithValue(WithRequestID(r.Context(), id), loggerKey{}, rl)
		r = r.WithContext(ctx)
		w.Header().Set(RequestIDHeader, id)
		rec := &recorder{ResponseWriter: w, id: id}
		_, route := mux.Handler(r)

		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				rl.logger().Error("panic", "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
				if !rec.wroteHeader {
					rec.WriteHeader(http.StatusInternalServerError)
				} else if rec.held {
					rec.swallowed.Reset() // a panic after a 5xx began: say nothing of it
				}
			}
			rec.finish()
			if rec.swallowed.Len() > 0 {
				rl.logger().Error("5xx body withheld from client", "status", rec.status, "body", rec.swallowed.String())
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
				slog.String("principal", principalID(r.Context())),
				slog.Float64("duration_ms", float64(time.Since(start).Microseconds())/1000))
		}()

		if route == "" {
			if allow := allowedMethods(mux, r); len(allow) > 0 {
				rec.Header().Set("Allow", strings.Join(allow, ", "))
				dropBody(rec, r)
				writeProblem(rec, http.StatusMethodNotAllowed, fmt.Sprintf("%s is not allowed on %s; use %s", r.Method, r.URL.Path, strings.Join(allow, " or ")))
				return
			}
			dropBody(rec, r)
			writeProblem(rec, http.StatusNotFound, fmt.Sprintf("no operation at %s %s; the spec is at /openapi.yaml", r.Method, r.URL.Path))
			return
		}
		if deps.Access != nil {
			var ok bool
			if r, ok = deps.Access.authorize(rec, r, route); !ok {
				return
			}
		}
		if r.URL.RawQuery != "" {
			// Go's query parser drops a pair with a bad % escape silently
			// (unit=%zz would read as no unit at all): refuse it.
			q, err := url.ParseQuery(r.URL.RawQuery)
			if err != nil {
				dropBody(rec, r)
				writeProblem(rec, http.StatusBadRequest, "the query string has a % not followed by two hex digits, or a ';'",
					&huma.ErrorDetail{Location: "query", Message: "a bad % escape (RFC 3986 percent-encoding)"})
				return
			}
			for name, vs := range q {
				for _, v := range vs {
					if !utf8.ValidString(name) || !utf8.ValidString(v) {
						dropBody(rec, r)
						writeProblem(rec, http.StatusUnprocessableEntity, "a query parameter is not valid UTF-8",
							&huma.ErrorDetail{Location: "query." + bound(strings.ToValidUTF8(name, "\uFFFD")), Message: "not valid UTF-8 once its % escapes are decoded"})
						return
					}
				}
			}
		}
		if r.Body != nil && r.Body != http.NoBody {
			if r.ContentLength > MaxBodyBytes {
				dropBody(rec, r)
				writeProblem(rec, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body is %d bytes; the limit is %d bytes (64 KiB)", r.ContentLength, MaxBodyBytes))
				return
			}
			// A sender may pause up to Deps.BodyIdleTimeout between bytes and
			// take up to Deps.BodyReadTimeout for the whole body (where the
			// host supports deadlines: net/http does, the Lambda adapter holds
			// the body in memory already): the read deadline moves on with
			// every read that brings bytes, so a slow client that keeps
			// sending is served and an idle one answered 408.
			rc := http.NewResponseController(rec)
			end := start.Add(bodyReadTimeout)
			progress := func() {
				_ = rc.SetReadDeadline(minTime(time.Now().Add(bodyIdleTimeout), end))
			}
			progress()
			body, err := readBody(r.Body, r.ContentLength, progress)
			_ = r.Body.Close()
			_ = rc.SetReadDeadline(time.Time{})
			if err != nil {
				var ne net.Error
				if errors.As(err, &ne) && ne.Timeout() {
					rl.logger().Warn("request body timed out", "err", err.Error(), "bytes_read", len(body),
						"idle_timeout", bodyIdleTimeout.String(), "read_timeout", bodyReadTimeout.String())
					dropBody(rec, r)
					writeProblem(rec, http.StatusRequestTimeout, fmt.Sprintf("the request body stopped arriving (%d bytes read): nothing came for %s, or the whole body took over %s", len(body), bodyIdleTimeout, bodyReadTimeout))
					return
				}
				rl.logger().Warn("request body unreadable", "err", err.Error(), "bytes_read", len(body))
				dropBody(rec, r)
				writeProblem(rec, http.StatusBadRequest, "the request body could not be read")
				return
			}
			if len(body) > MaxBodyBytes {
				dropBody(rec, r)
				writeProblem(rec, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body is over %d bytes (64 KiB)", MaxBodyBytes))
				return
			}
			if len(body) > 0 && hasBody(r.Method) {
				if !jsonContentType(r.Header.Get("Content-Type")) {
					writeProblem(rec, http.StatusUnsupportedMediaType, fmt.Sprintf("request Content-Type %q is not application/json", bound(r.Header.Get("Content-Type"))),
						&huma.ErrorDetail{Location: "body", Message: "the body must be sent as Content-Type application/json (any case, parameters such as charset=utf-8 allowed)"})
					return
				}
				// huma looks formats up case-sensitively: give it the one name.
				r.Header.Set("Content-Type", "application/json")
				if jerr := checkJSON(body); jerr != nil {
					writeProblem(rec, jerr.Status, jerr.Message, &huma.ErrorDetail{Location: jerr.Location, Message: jerr.Message})
					return
				}
				body = canonicalEscapes(body)
			}
			r.Body = requestBody{bytes.NewReader(body)}
			r.ContentLength = int64(len(body))
		}
		mux.ServeHTTP(rec, r)
	})
}

// dropBody makes net/http close the connection after the answer rather
// than read what is left of a body the middleware answers without reading
// (a refused request, an unknown route, an unreadable body): net/http reads
// up to 256 KiB of an unread body before it sends the answer, under no
// deadline once the middleware's is lifted, so a caller without
// credentials that announced a body and never sent it would hold the
// connection, and its answer, for ever. The Lambda host holds the body in
// memory already (it has no read deadline: nothing to do).
func dropBody(w http.ResponseWriter, r *http.Request) {
	if r.ContentLength != 0 && r.Body != nil && r.Body != http.NoBody {
		_ = http.NewResponseController(w).SetReadDeadline(time.Now())
	}
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
// and holds back the body of every 5xx: finish replaces it with a problem
// that keeps only the status, the title and the detail an operation wrote
// on purpose (huma.Error503ServiceUnavailable("store down; retry", err)
// keeps "store down; retry"), never the errors[] where huma puts
// err.Error() of the errors it is given, nor any body that is not a
// problem (a panic's value, a plain error's text). The withheld body is
// logged.
type recorder struct {
	http.ResponseWriter
	id          string
	status      int
	bytes       int
	wroteHeader bool
	held        bool // a 5xx: body held back until finish
	redirect    bool // ServeMux's redirect to a clean path: its HTML body dropped
	swallowed   bytes.Buffer
}

func (rec *recorder) WriteHeader(status int) {
	if rec.wroteHeader {
		return
	}
	rec.wroteHeader = true
	rec.status = status
	if status >= 500 {
		rec.held = true
		return
	}
	if status >= 300 && status < 400 && strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
		// net/http's ServeMux redirects a path that is not clean
		// (/v1//rulesets, /v1/../v1/rulesets) to the clean one with an HTML
		// body: keep the status and Location, say it as a problem.
		rec.redirect = true
		rec.Header().Set("Content-Type", "application/problem+json")
		rec.Header().Del("Content-Length")
		rec.ResponseWriter.WriteHeader(status)
		n, _ := rec.ResponseWriter.Write(ProblemJSON(status, "the path is not in canonical form; the operation is at "+bound(rec.Header().Get("Location"))))
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
	if rec.held {
		if room := 4096 - rec.swallowed.Len(); room > 0 {
			rec.swallowed.Write(b[:min(room, len(b))])
		}
		return len(b), nil
	}
	n, err := rec.ResponseWriter.Write(b)
	rec.bytes += n
	return n, err
}

// finish writes the held 5xx, if any.
func (rec *recorder) finish() {
	if !rec.held {
		return
	}
	detail := ""
	var p huma.ErrorModel
	if json.Unmarshal(rec.swallowed.Bytes(), &p) == nil && p.Status == rec.status {
		detail = p.Detail
	}
	if detail == "" || detail == "unexpected error occurred" {
		detail = "the service could not answer this request"
	}
	detail += "; quote request id " + rec.id + " when reporting it"
	h := rec.ResponseWriter.Header()
	h.Set("Content-Type", "application/problem+json")
	h.Del("Content-Length")
	h.Del("Content-Encoding")
	rec.ResponseWriter.WriteHeader(rec.status)
	n, _ := rec.ResponseWriter.Write(ProblemJSON(rec.status, detail))
	rec.bytes += n
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (rec *recorder) Unwrap() http.ResponseWriter { return rec.ResponseWriter }
