package browser

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/tablesettle/tablesettle/internal/httpapi"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/principal"
	"github.com/tablesettle/tablesettle/internal/sqlite"
)

// The stack's principal: temporary credentials of an assumed role, as
// `aws sts assume-role` prints them (the secret and the session token hold
// the "/", "+" and "=" real ones hold).
var (
	iamCreds = aws.Credentials{
		AccessKeyID:     "ASIAQTESTBROWSER0001",
		SecretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYzEXAMPLEKEY",
		SessionToken:    "IQoJb3JpZ2luX2VjEXAMPLE//////////wEaDmFwLXNvdXRoZWFzdC0xIkcwRQIgTEST+token/with=padding==",
	}
	iamRegion = "ap-southeast-1"
	iamARN    = "arn:aws:sts::123456789012:assumed-role/tablesettle-admin/alice"
)

// signed is one API request the SigV4 server received: what it was and
// whether its signature was the one aws-sdk-go-v2 computes.
type signed struct {
	Method, URI, Body, Authorization string
	OK                               bool
}

// sigv4Server stands in for API Gateway's IAM authorization in front of
// the real API: every /v1 request must carry a SigV4 signature (service
// execute-api) that aws-sdk-go-v2's signer, given the same credentials,
// region, X-Amz-Date time and payload hash, computes identically;
// otherwise 403, as the gateway answers. A request that passes reaches
// the real handler as the principal the credentials map to.
type sigv4Server struct {
	url string
	mu  sync.Mutex
	log []signed
}

func (s *sigv4Server) requests() []signed {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]signed(nil), s.log...)
}

type principalKey struct{}

// iamPrincipals authenticates the principal the SigV4 check put in the
// request's context (in the stack, the function reads it from the
// gateway's event).
type iamPrincipals struct{}

func (iamPrincipals) Authenticate(r *http.Request) (*principal.Principal, error) {
	p, _ := r.Context().Value(principalKey{}).(*principal.Principal)
	return p, nil
}
func (iamPrincipals) Challenge() string { return "AWS4-HMAC-SHA256" }

var (
	credentialRE    = regexp.MustCompile(`^AWS4-HMAC-SHA256 Credential=([^/,]+)/`)
	signedHeadersRE = regexp.MustCompile(`, SignedHeaders=([a-z0-9;-]+),`)
)

// verify recomputes r's signature with aws-sdk-go-v2 and returns the
// Authorization header it computes ("" when r is not signed at all).
func verify(r *http.Request, body []byte) (string, error) {
	got := r.Header.Get("Authorization")
	m := credentialRE.FindStringSubmatch(got)
	if m == nil {
		return "", errors.New("not signed with AWS4-HMAC-SHA256")
	}
	if m[1] != iamCreds.AccessKeyID {
		return "", errors.New("unknown access key id")
	}
	at, err := time.Parse("20060102T150405Z", r.Header.Get("X-Amz-Date"))
	if err != nil {
		return "", errors.New("X-Amz-Date: " + err.Error())
	}
	// The request as the signer sees it: method, host, the path and query
	// exactly as sent, and the headers the request says it signed, as the
	// gateway takes them (SignHTTP itself adds X-Amz-Date and
	// X-Amz-Security-Token and always signs host; it signs content-length
	// when the length is set).
	req, err := http.NewRequest(r.Method, "http://"+r.Host+r.RequestURI, nil)
	if err != nil {
		return "", err
	}
	req.Host = r.Host
	m = signedHeadersRE.FindStringSubmatch(got)
	if m == nil {
		return "", errors.New("no SignedHeaders")
	}
	for _, name := range strings.Split(m[1], ";") {
		switch name {
		case "host", "x-amz-date", "x-amz-security-token":
		case "content-length":
			req.ContentLength = r.ContentLength
		default:
			req.Header[http.CanonicalHeaderKey(name)] = r.Header.Values(name)
		}
	}
	sum := sha256.Sum256(body)
	if err := v4.NewSigner().SignHTTP(context.Background(), iamCreds, req, hex.EncodeToString(sum[:]), "execute-api", iamRegion, at); err != nil {
		return "", err
	}
	return req.Header.Get("Authorization"), nil
}

func startSigV4Server(t *testing.T) *sigv4Server {
	t.Helper()
	store, err := sqlite.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	api, _ := httpapi.New(httpapi.Deps{
		Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)),
		Pools:  pools.NewService(store, time.Now, 1),
		Access: &httpapi.Access{Authenticator: iamPrincipals{}},
	})
	s := &sigv4Server{}
	admin := &principal.Principal{ID: iamARN, Roles: []principal.Role{principal.Admin}}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/v1/") {
			api.ServeHTTP(w, r) // the pages: public routes, as in the stack
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		want, err := verify(r, body)
		rec := signed{Method: r.Method, URI: r.RequestURI, Body: string(body), Authorization: r.Header.Get("Authorization"),
			OK: err == nil && want == r.Header.Get("Authorization")}
		s.mu.Lock()
		s.log = append(s.log, rec)
		s.mu.Unlock()
		if !rec.OK {
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(http.StatusForbidden)
			_, _ = io.WriteString(w, `{"status":403,"title":"Forbidden","detail":"The request signature we calculated does not match the signature you provided."}`)
			return
		}
		api.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), principalKey{}, admin)))
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.url = "http://" + ln.Addr().String()
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			t.Error(err)
		}
	}()
	t.Cleanup(func() { _ = srv.Close() })
	return s
}

// signedAPI calls the API as a Go client in the stack would: signed by
// aws-sdk-go-v2 with the principal's credentials.
func signedAPI(t *testing.T, method, url, body string, headers ...string) string {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	sum := sha256.Sum256([]byte(body))
	if err := v4.NewSigner().SignHTTP(context.Background(), iamCreds, req, hex.EncodeToString(sum[:]), "execute-api", iamRegion, time.Now()); err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode >= 300 {
		t.Fatalf("%s %s: %d %s", method, url, res.StatusCode, b)
	}
	return string(b)
}

// signInIAM chooses IAM credentials in the console's sign-in form with the
// keyboard (arrow key in the radio group, Tab to the first field) and
// types them in, as a person would; the caller submits. Every field has
// its label.
func signInIAM(t *testing.T, ctx context.Context, secret string) {
	t.Helper()
	do(t, ctx,
		chromedp.Focus(chromedp.CSS(`#mode-token`)),
		chromedp.KeyEvent(kb.ArrowRight),
		chromedp.WaitVisible(chromedp.CSS(`#iam-key`)),
		chromedp.KeyEvent(kb.Tab),
	)
	focus, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.id + " " +
		[...document.querySelectorAll("#signin input")].filter((i) => i.labels.length !== 1 || !i.labels[0].textContent.trim()).map((i) => i.id).join(",")`))
	if err != nil {
		t.Fatal(err)
	}
	if focus != "iam-key " {
		t.Fatalf("after choosing IAM credentials and Tab: focus and unlabelled inputs %q, want the access key id focused and every input labelled", focus)
	}
	do(t, ctx,
		chromedp.SendKeys(chromedp.CSS(`#iam-key`), iamCreds.AccessKeyID),
		chromedp.SendKeys(chromedp.CSS(`#iam-secret`), secret),
		chromedp.SendKeys(chromedp.CSS(`#iam-session`), iamCreds.SessionToken),
		chromedp.SendKeys(chromedp.CSS(`#iam-region`), iamRegion),
	)
}

// The console signs in with a principal's IAM credentials and signs every
// API call with AWS Signature Version 4 (sigv4.js); each signature equals
// the one aws-sdk-go-v2's signer computes for the same request: a GET with
// a query string in unsorted order, a GET and a POST with a JSON body on a
// path whose pool id (sig:pool.1) needs encoding, and a path with a space,
// parentheses, "*" and a non-ASCII letter. A wrong secret is refused.
func TestConsoleSignsWithSigV4(t *testing.T) {
	s := startSigV4Server(t)
	signedAPI(t, "POST", s.url+"/v1/pools", `{"id":"sig:pool.1","currency":"SGD","tables":["T12"],"rulesets":["mbs-megalink-ssp-v6"],"unit":100,"contributionBp":2000,"reserveBp":500,"reset":10000000}`)
	setup := len(s.requests())

	ctx := browser(t, 1280, 720)
	do(t, ctx, chromedp.Navigate(s.url+"/"), chromedp.WaitReady(chromedp.CSS(`#signin`)))
	signInIAM(t, ctx, iamCreds.SecretAccessKey)
	shot(t, ctx, "sigv4-1-iam-form")
	do(t, ctx, chromedp.Click(chromedp.CSS(`#signin button[type=submit]`)))
	waitText(t, ctx, `#who`, "signed in as "+iamARN+" (admin)")

	// Open the pool: GET /v1/pools/sig%3Apool.1, then its ledger (GET
	// ...?order=desc&limit=200, signed with the query sorted).
	do(t, ctx,
		chromedp.SetValue(chromedp.CSS(`#pool-id`), "sig:pool.1"),
		chromedp.Click(chromedp.CSS(`#pool-form button[type=submit]`)),
	)
	waitText(t, ctx, `#pool-summary`, "Displayed SGD 100,000.00")
	waitText(t, ctx, `#ledger-count`, " entries")
	shot(t, ctx, "sigv4-2-pool-open")

	// Propose an adjustment: a POST with a JSON body.
	do(t, ctx,
		chromedp.SetValue(chromedp.CSS(`#adjust-meter`), "reserve"),
		chromedp.SendKeys(chromedp.CSS(`#adjust-amount`), "25.00"), // SGD 25.00: 2,500 minor units
		chromedp.SendKeys(chromedp.CSS(`#adjust-reason`), "count sheet 7 (signed)"),
		chromedp.Click(chromedp.CSS(`#adjust-form button[type=submit]`)),
	)
	// An adjustment is under dual control (issue 16): the API records the
	// proposal and the reserve meter stays at 0 until a controller
	// approves it.
	waitText(t, ctx, `#adjust-result`, "waits for a controller's approval.")
	waitText(t, ctx, `#pool-summary`, "reserve 0.00 ·")
	shot(t, ctx, "sigv4-3-adjustment-proposed")

	// A path and query as awkward as AWS's encoding rules get, through the
	// page's own TS.call: signed right, so the API (not the signature
	// check) answers, with 404.
	status, err := chromedp.Run(ctx, chromedp.Evaluate[int](`TS.call("GET", "/v1/pools/" + encodeURIComponent("no such (pool) *ü!") + "?z=last&a=x y&a=%2B~&empty=")
		.then(() => 200, (e) => e.status || -1)`, chromedp.EvalAsValue, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if status != http.StatusNotFound {
		t.Errorf("GET of an odd pool id answered %d, want 404 from the API past the signature check", status)
	}

	var sawQuery, sawEncodedGet, sawPost, sawOdd bool
	for _, r := range s.requests()[setup:] {
		if !r.OK {
			t.Errorf("%s %s: the page's signature differs from aws-sdk-go-v2's\n page: %s", r.Method, r.URI, r.Authorization)
		}
		if !strings.Contains(r.Authorization, "SignedHeaders=host;x-amz-date;x-amz-security-token,") {
			t.Errorf("%s %s signs %q, want host;x-amz-date;x-amz-security-token", r.Method, r.URI, r.Authorization)
		}
		if strings.Contains(r.URI, "SecretAccessKey") || strings.Contains(r.URI, iamCreds.SecretAccessKey) || strings.Contains(r.Authorization, iamCreds.SecretAccessKey) {
			t.Errorf("%s %s carries the secret", r.Method, r.URI)
		}
		switch {
		case r.Method == "GET" && r.URI == "/v1/pools/sig%3Apool.1/ledger?order=desc&limit=200":
			sawQuery = true
		case r.Method == "GET" && r.URI == "/v1/pools/sig%3Apool.1":
			sawEncodedGet = true
		case r.Method == "POST" && r.URI == "/v1/pools/sig%3Apool.1/adjustments" &&
			r.Body == `{"meter":"reserve","amount":2500,"reason":"count sheet 7 (signed)"}`:
			sawPost = true
		case r.Method == "GET" && strings.HasPrefix(r.URI, "/v1/pools/no%20such%20(pool)%20*%C3%BC!?z=last&a=x%20y&a=%2B~&empty="):
			sawOdd = true
		}
	}
	if !sawQuery || !sawEncodedGet || !sawPost || !sawOdd {
		for _, r := range s.requests()[setup:] {
			t.Logf("%s %s %s ok=%v", r.Method, r.URI, r.Body, r.OK)
		}
		t.Errorf("signed requests seen: ledger GET with query %v, pool GET %v, adjustment POST %v, odd path %v; want all", sawQuery, sawEncodedGet, sawPost, sawOdd)
	}

	// The credentials stay in this tab's sessionStorage, nowhere else.
	stored, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[sessionStorage.getItem("tablesettle.iam") ? "session" : "", localStorage.length, document.cookie, location.href].join("|")`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "session|0||" + s.url + "/"; stored != want {
		t.Errorf("stored credentials: %q, want %q", stored, want)
	}

	// A wrong secret signs differently: the check refuses it (403, as the
	// gateway does) and the console stays signed out.
	bad := browser(t, 1280, 720)
	do(t, bad, chromedp.Navigate(s.url+"/"), chromedp.WaitReady(chromedp.CSS(`#signin`)))
	signInIAM(t, bad, "not-the-secret")
	do(t, bad, chromedp.Click(chromedp.CSS(`#signin button[type=submit]`)))
	waitText(t, bad, `#problem`, "403")
	if got := text(t, bad, `#who`); got != "not signed in" {
		t.Errorf("after a refused signature the console shows %q", got)
	}
	// The first console is still live (it polls), so the refused request
	// is found among the refused ones, not as the last request.
	var refused []string
	for _, r := range s.requests() {
		if !r.OK {
			refused = append(refused, r.Method+" "+r.URI)
		}
	}
	if len(refused) != 1 || refused[0] != "GET /v1/me" {
		t.Errorf("the wrong secret's requests refused: %q, want GET /v1/me alone", refused)
	}
	shot(t, bad, "sigv4-4-wrong-secret-refused")
}
