package httpapi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/danielgtaylor/huma/v2"
)

// testServer is New with every group plus operations that misbehave on
// purpose, a log buffer and request ids that count up.
func testServer(t *testing.T) (http.Handler, *bytes.Buffer) {
	t.Helper()
	var logs bytes.Buffer
	var n atomic.Int64
	deps := Deps{
		Logger:          slog.New(slog.NewJSONHandler(&logs, nil)),
		NewRequestID:    func() string { return "test-" + strconv.FormatInt(n.Add(1), 10) },
		BodyReadTimeout: 300 * time.Millisecond,
	}
	h, api := New(deps)
	type echoIn struct {
		Body struct {
			Text string `json:"text"`
		}
	}
	type echoOut struct {
		Body struct {
			Len int `json:"len"`
		}
	}
	huma.Register(api, huma.Operation{OperationID: "test-panic", Method: http.MethodGet, Path: "/test/panic"},
		func(ctx context.Context, _ *struct{}) (*struct{}, error) {
			panic("secret internal state: db password hunter2")
		})
	huma.Register(api, huma.Operation{OperationID: "test-error", Method: http.MethodGet, Path: "/test/error"},
		func(ctx context.Context, _ *struct{}) (*struct{}, error) {
			return nil, errors.New("dial tcp 10.0.0.7:5432: secret internal detail")
		})
	huma.Register(api, huma.Operation{OperationID: "test-503", Method: http.MethodGet, Path: "/test/503"},
		func(ctx context.Context, _ *struct{}) (*struct{}, error) {
			return nil, huma.Error503ServiceUnavailable("store down", errors.New("secret internal detail"))
		})
	huma.Register(api, huma.Operation{OperationID: "test-echo", Method: http.MethodPost, Path: "/test/echo"},
		func(ctx context.Context, in *echoIn) (*echoOut, error) {
			out := &echoOut{}
			out.Body.Len = len(in.Body.Text)
			return out, nil
		})
	return h, &logs
}

type problemDoc struct {
	Type   string `json:"type"`
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail"`
	Errors []struct {
		Message  string `json:"message"`
		Location string `json:"location"`
	} `json:"errors"`
}

func do(t *testing.T, h http.Handler, method, path, contentType string, body []byte) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, path, bytes.NewReader(body))
	if body == nil {
		req = httptest.NewRequest(method, path, nil)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

func decodeProblemDoc(t *testing.T, w *httptest.ResponseRecorder) problemDoc {
	t.Helper()
	if ct := w.Header().Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("Content-Type = %q, want application/problem+json (body %s)", ct, w.Body)
	}
	var p problemDoc
	if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil {
		t.Fatalf("body is not a problem: %v: %s", err, w.Body)
	}
	if p.Status != w.Code {
		t.Errorf("problem status %d, response status %d", p.Status, w.Code)
	}
	return p
}

func echoBody(n int) []byte {
	// {"text":"xxx..."} of exactly n bytes
	return []byte(`{"text":"` + strings.Repeat("x", n-len(`{"text":""}`)) + `"}`)
}

func TestEveryErrorIsAProblem(t *testing.T) {
	h, _ := testServer(t)
	cases := []struct {
		name, method, path, ct string
		body                   []byte
		status                 int
		location               string // the field the problem must name, if any
	}{
		{"unknown route", "GET", "/v1/nope", "", nil, 404, ""},
		{"a page that does not exist", "GET", "/nope.html", "", nil, 404, ""},
		{"an asset that does not exist", "GET", "/assets/nope.js", "", nil, 404, ""},
		{"an asset path that is a page", "GET", "/assets/index.html", "", nil, 404, ""},
		{"wrong method", "GET", "/v1/hands/evaluate", "", nil, 405, ""},
		{"wrong content type", "POST", "/v1/hands/evaluate", "text/plain", []byte(`{"cards":"As Ks Qs Js Ts","game":"five_card"}`), 415, "body"},
		{"unknown field", "POST", "/v1/hands/evaluate", "application/json", []byte(`{"cards":"As Ks Qs Js Ts","game":"five_card","extra":1}`), 422, "body.extra"},
		{"malformed card", "POST", "/v1/hands/evaluate", "application/json", []byte(`{"cards":"As Ks Qs Js Xx","game":"five_card"}`), 422, "body.cards"},
		{"broken json", "POST", "/v1/hands/evaluate", "application/json", []byte(`{"cards":`), 400, "body"},
		{"body over 64 KiB by content length", "POST", "/test/echo", "application/json", echoBody(MaxBodyBytes + 1), 413, ""},
		{"panic", "GET", "/test/panic", "", nil, 500, ""},
		{"plain error", "GET", "/test/error", "", nil, 500, ""},
		{"503 with internal error", "GET", "/test/503", "", nil, 503, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := do(t, h, c.method, c.path, c.ct, c.body)
			if w.Code != c.status {
				t.Fatalf("status %d, want %d: %s", w.Code, c.status, w.Body)
			}
			p := decodeProblemDoc(t, w)
			if p.Type != "about:blank" {
				t.Errorf("type %q, want about:blank", p.Type)
			}
			if p.Title != http.StatusText(c.status) {
				t.Errorf("title %q", p.Title)
			}
			if c.location != "" {
				found := false
				for _, e := range p.Errors {
					found = found || e.Location == c.location
				}
				if !found {
					t.Errorf("no error names %s: %s", c.location, w.Body)
				}
			}
			if c.status >= 500 && strings.Contains(w.Body.String(), "secret") {
				t.Errorf("5xx shows internal text: %s", w.Body)
			}
			if w.Header().Get(RequestIDHeader) == "" {
				t.Error("no request id")
			}
		})
	}
}

func TestBodyLimitIs64KiB(t *testing.T) {
	h, _ := testServer(t)
	if w := do(t, h, "POST", "/test/echo", "application/json", echoBody(MaxBodyBytes)); w.Code != 200 {
		t.Fatalf("a body of exactly 64 KiB: status %d: %s", w.Code, w.Body)
	}
	// A chunked body (no Content-Length) over the limit.
	req := httptest.NewRequest("POST", "/test/echo", struct{ *bytes.Reader }{bytes.NewReader(echoBody(MaxBodyBytes + 1))})
	req.ContentLength = -1
	req.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if w.Code != 413 {
		t.Fatalf("chunked body over 64 KiB: status %d", w.Code)
	}
	decodeProblemDoc(t, w)
}

// Every operation registered with huma, whoever registers it, gets the
// 64 KiB limit even without the middleware (e.g. under humatest).
func TestEveryOperationHasTheBodyLimit(t *testing.T) {
	_, api := New(Deps{})
	for path, item := range api.OpenAPI().Paths {
		for _, op := range []*huma.Operation{item.Get, item.Post, item.Put, item.Patch, item.Delete} {
			if op == nil || op.RequestBody == nil {
				continue
			}
			if op.MaxBodyBytes <= 0 || op.MaxBodyBytes > MaxBodyBytes+1 {
				t.Errorf("%s %s: MaxBodyBytes %d", op.Method, path, op.MaxBodyBytes)
			}
			if op.Responses["413"] == nil {
				t.Errorf("%s %s: 413 not documented", op.Method, path)
			}
		}
	}
}

func TestRequestIDAndAccessLog(t *testing.T) {
	h, logs := testServer(t)
	w := do(t, h, "POST", "/v1/hands/evaluate", "application/json", []byte(`{"cards":"As Ks Qs Js Ts","game":"five_card"}`))
	if w.Code != 200 {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	if got := w.Header().Get(RequestIDHeader); got != "test-1" {
		t.Fatalf("request id %q, want test-1", got)
	}
	// The host's id (API Gateway's requestId) wins over the generator.
	req := httptest.NewRequest("GET", "/v1/nope", nil)
	req = req.WithContext(WithRequestID(req.Context(), "apigw-abc"))
	w2 := httptest.NewRecorder()
	h.ServeHTTP(w2, req)
	if got := w2.Header().Get(RequestIDHeader); got != "apigw-abc" {
		t.Fatalf("request id %q, want apigw-abc", got)
	}
	// A plain caller id is kept; a forged one is replaced.
	for in, want := range map[string]string{"caller-42": "caller-42", "bad\nid": "test-2"} {
		req := httptest.NewRequest("GET", "/v1/nope", nil)
		req.Header.Set(RequestIDHeader, in)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if got := w.Header().Get(RequestIDHeader); got != want {
			t.Errorf("caller id %q: got %q, want %q", in, got, want)
		}
	}

	var lines []map[string]any
	for _, l := range bytes.Split(bytes.TrimSpace(logs.Bytes()), []byte("\n")) {
		var m map[string]any
		if err := json.Unmarshal(l, &m); err != nil {
			t.Fatalf("log line is not JSON: %s", l)
		}
		lines = append(lines, m)
	}
	if len(lines) != 4 {
		t.Fatalf("%d log lines, want one per request (4):\n%s", len(lines), logs)
	}
	first := lines[0]
	if first["msg"] != "request" || first["request_id"] != "test-1" || first["status"] != float64(200) ||
		first["route"] != "POST /v1/hands/evaluate" || first["method"] != "POST" {
		t.Errorf("access log line: %v", first)
	}
}

// A 5xx keeps the detail an operation wrote on purpose, never the error
// text huma puts in errors[].
func TestDeliberate5xxDetailIsKept(t *testing.T) {
	h, _ := testServer(t)
	w := do(t, h, "GET", "/test/503", "", nil)
	p := decodeProblemDoc(t, w)
	if w.Code != 503 || !strings.HasPrefix(p.Detail, "store down; quote request id ") || len(p.Errors) != 0 {
		t.Fatalf("status %d, body %s", w.Code, w.Body)
	}
	w = do(t, h, "GET", "/test/error", "", nil)
	p = decodeProblemDoc(t, w)
	if w.Code != 500 || !strings.HasPrefix(p.Detail, "the service could not answer this request; quote request id ") || len(p.Errors) != 0 {
		t.Fatalf("status %d, body %s", w.Code, w.Body)
	}
}

func TestPanicAndErrorsAreLoggedNotShown(t *testing.T) {
	h, logs := testServer(t)
	w := do(t, h, "GET", "/test/error", "", nil)
	if strings.Contains(w.Body.String(), "10.0.0.7") {
		t.Fatalf("internal text shown: %s", w.Body)
	}
	if !strings.Contains(logs.String(), "10.0.0.7") {
		t.Errorf("withheld error not logged: %s", logs)
	}
	do(t, h, "GET", "/test/panic", "", nil)
	if !strings.Contains(logs.String(), `"msg":"panic"`) || !strings.Contains(logs.String(), "hunter2") {
		t.Errorf("panic not logged: %s", logs)
	}
}

// A client that stops sending its body is answered 408, not held forever
// (the body is read before huma, so huma's own read deadline does not
// cover it).
func TestSlowBodyTimesOut(t *testing.T) {
	h, _ := testServer(t)
	srv := httptest.NewServer(h)
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// Announce 100 bytes, send 10, then nothing.
	fmt.Fprintf(conn, "POST /test/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"text\":\"x")
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusRequestTimeout {
		t.Fatalf("status %d, want 408", resp.StatusCode)
	}
}

// Issue 13 (serve): idle clients are timed out, slow honest ones are not.
// A client that sends its body in 12 pieces 100 ms apart (1.2 s in all,
// four times the idle timeout) is answered 200; one that then stops for
// longer than the idle timeout is answered 408 (not 503), and the cause is
// logged.
func TestSlowHonestBodyIsServed(t *testing.T) {
	var logs bytes.Buffer
	var mu sync.Mutex
	h, _ := New(Deps{
		Logger:          slog.New(slog.NewJSONHandler(lockedWriter{&mu, &logs}, nil)),
		BodyReadTimeout: 5 * time.Second,
		BodyIdleTimeout: 300 * time.Millisecond,
	})
	srv := httptest.NewServer(h)
	defer srv.Close()
	body := []byte(`{"cards":"As Ks Qs Js Ts","game":"five_card"}`)
	send := func(stallAfter int) *http.Response {
		t.Helper()
		conn, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		fmt.Fprintf(conn, "POST /v1/hands/evaluate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(body))
		piece := (len(body) + 11) / 12
		for i := 0; i < len(body); i += piece {
			if i/piece == stallAfter {
				time.Sleep(time.Second)
			}
			time.Sleep(100 * time.Millisecond)
			if _, err := conn.Write(body[i:min(i+piece, len(body))]); err != nil {
				break // the server answered and closed
			}
		}
		_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	if resp := send(-1); resp.StatusCode != http.StatusOK {
		t.Fatalf("slow honest client: status %d, want 200", resp.StatusCode)
	}
	resp := send(6)
	if resp.StatusCode != http.StatusRequestTimeout || resp.Header.Get("Content-Type") != "application/problem+json" {
		t.Fatalf("stalled client: status %d %s, want a 408 problem", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(logs.String(), `"msg":"request body timed out"`) || !strings.Contains(logs.String(), `"status":408`) {
		t.Errorf("timeout cause not logged: %s", logs.String())
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// Issue 15 section 3: net/http's ServeMux answers a path that is not clean
// with a redirect and an HTML body; the status and Location stay, the body
// is a problem.
func TestUncleanPathRedirectIsAProblem(t *testing.T) {
	h, _ := New(Deps{})
	for _, path := range []string{"/v1//rulesets", "/v1/../v1/rulesets"} {
		t.Run(path, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, "/", nil)
			req.URL.Path = path
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != http.StatusTemporaryRedirect || w.Header().Get("Location") != "/v1/rulesets" ||
				w.Header().Get("Content-Type") != "application/problem+json" || !strings.Contains(w.Body.String(), `"status":307`) {
				t.Fatalf("%d %v %s", w.Code, w.Header(), w.Body)
			}
		})
	}
}

// Issue 15 section 3 (strict input): a query string with a bad % escape is
// a 400 problem, not read as if the pair were absent (unit=%zz as no
// unit). A parameter that decodes to invalid UTF-8 is a 400 naming it
// (issue 33 item 2: refused as the path's are, before any operation).
func TestQueryStrict(t *testing.T) {
	h, _ := New(Deps{})
	cases := []struct {
		query    string
		status   int
		location string
	}{
		{"unit=100", 200, ""},
		{"unit=%zz", 400, "query"},
		{"unit=5%", 400, "query"},
		{"note=%ff%fe", 400, "query.note"},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, "/v1/rulesets/mbs-megalink-ssp-v6/analysis", nil)
			req.URL.RawQuery = c.query
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != c.status {
				t.Fatalf("status %d, want %d: %.200s", w.Code, c.status, w.Body)
			}
			if c.location != "" && !strings.Contains(w.Body.String(), `"location":"`+c.location+`"`) {
				t.Errorf("no location %s: %s", c.location, w.Body)
			}
		})
	}
}

// A client sending a body over the limit reads the 413, not a reset
// connection: the service answers, then reads (and drops) what the client
// is still sending, so the client's write finishes and its read finds the
// answer. Closing with the body unread made the kernel reset the
// connection, and the reset took the 413 away with it (a clean-clone CI
// run failed so, in test/e2e, one time in several). Sizes: just over the
// limit, the e2e test's 90 KB, over net/http's own 256 KiB post-handler
// read, and over the drain bound (1 MiB: closed at once, after net/http's
// own wait). Each size is sent with its Content-Length and chunked (no
// length: the service does not drain those, and net/http's wait before the
// close is what lets the client read the 413).
func TestOversizeBodyIsAnswered413NotReset(t *testing.T) {
	h, _ := testServer(t)
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, size := range []int{MaxBodyBytes + 1, 90_000, 300_000, 3 << 20} {
		body := append(append([]byte(`{"cards":"`), bytes.Repeat([]byte("As "), size/3)...), `","game":"five_card"}`...)
		for i := range 60 {
			var r io.Reader = bytes.NewReader(body)
			if i%2 == 1 {
				r = struct{ io.Reader }{r} // no Len: sent chunked
			}
			resp, err := srv.Client().Post(srv.URL+"/v1/hands/evaluate", "application/json", r)
			if err != nil {
				t.Fatalf("%d bytes, try %d: %v", len(body), i, err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusRequestEntityTooLarge {
				t.Fatalf("%d bytes, try %d: status %d, want 413", len(body), i, resp.StatusCode)
			}
		}
	}
}
