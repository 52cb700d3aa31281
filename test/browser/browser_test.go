// Package browser drives the floor's pages in a real headless Chromium
// (Debian's chromium package, which `make test` installs where missing)
// with chromedp, against the real local server on 127.0.0.1: the same
// handler `tablesettle serve` runs, on the embedded SQLite store. Each step
// saves a screenshot under screenshots/ (or $SCREENSHOT_DIR) for a
// reviewer to look at.
package browser

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tablesettle/tablesettle/internal/auth"
	"github.com/tablesettle/tablesettle/internal/httpapi"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/principal"
	"github.com/tablesettle/tablesettle/internal/sqlite"
)

// server is the local server under test.
type server struct {
	url string
	srv *http.Server
}

func startServer(t *testing.T) *server {
	s, _ := startServerWith(t)
	return s
}

// startServerWith serves as `tablesettle serve` does, with a principals
// file of one principal per role (the table principal bound to T12), and
// returns each role's bearer token.
func startServerWith(t *testing.T) (*server, map[principal.Role]string) {
	t.Helper()
	return startServerWrapped(t, nil)
}

// startServerWrapped is startServerWith with the handler wrapped by wrap
// (nil: none), so a test can hold or fail some requests.
func startServerWrapped(t *testing.T, wrap func(http.Handler) http.Handler) (*server, map[principal.Role]string) {
	t.Helper()
	return startServerAt(t, wrap, time.Now)
}

// startServerAt is startServerWrapped on the service clock now (a test
// moves it on to see a table fall silent).
func startServerAt(t *testing.T, wrap func(http.Handler) http.Handler, now func() time.Time) (*server, map[principal.Role]string) {
	t.Helper()
	store, err := sqlite.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// One shift a day, begun twelve hours before the server started: a
	// test's shift report (the current shift, issue 35) never crosses a
	// shift boundary.
	svc := pools.NewService(store, now, 1)
	svc.Shifts, err = jackpot.ParseShifts("UTC " + time.Now().UTC().Add(-12*time.Hour).Format("15:04"))
	if err != nil {
		t.Fatal(err)
	}
	var entries []auth.Entry
	tokens := map[principal.Role]string{}
	for _, r := range principal.Roles {
		var tables []string
		if r == principal.Table {
			tables = []string{"T12"}
		}
		var tok string
		if entries, tok, err = auth.Add(entries, "browser-"+string(r), []principal.Role{r}, tables); err != nil {
			t.Fatal(err)
		}
		tokens[r] = tok
	}
	h, _ := httpapi.New(httpapi.Deps{
		Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)),
		Pools:  svc,
		Access: &httpapi.Access{Authenticator: httpapi.BearerTokens{Tokens: auth.NewTokens(entries)}, OpenStateless: true},
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if wrap != nil {
		h = wrap(h)
	}
	s := &server{url: "http://" + ln.Addr().String(), srv: &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}}
	go func() {
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			t.Error(err)
		}
	}()
	t.Cleanup(func() { _ = s.srv.Close() })
	return s, tokens
}

// chromium finds Debian's chromium; the tests fail (not skip) without it
// when BROWSER_REQUIRED is set, as `make test` sets it.
func chromium(t *testing.T) string {
	t.Helper()
	for _, p := range []string{os.Getenv("CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if p == "" {
			continue
		}
		if _, err := exec.LookPath(p); err == nil {
			return p
		}
	}
	if os.Getenv("BROWSER_REQUIRED") != "" {
		t.Fatal("chromium not found: `make test` installs Debian's chromium package")
	}
	t.Skip("chromium not found; `make test` installs it")
	return ""
}

// browser starts a fresh headless Chromium (its own profile, no network
// but loopback: background networking off) at the given window size.
func browser(t *testing.T, w, h int) context.Context {
	t.Helper()
	return browserFor(t, w, h, 90*time.Second)
}

// browserFor is browser with the whole session bounded by d (a long shift
// at 4K on a loaded machine needs more than 90 s).
func browserFor(t *testing.T, w, h int, d time.Duration) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(w, h),
	)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	ctx, cancel3 := context.WithTimeout(ctx, d)
	t.Cleanup(cancel3)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// shot saves a full screenshot of the page as screenshots/<name>.png.
func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("SCREENSHOT_DIR")
	if dir == "" {
		dir = "screenshots"
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	p := filepath.Join(dir, name+".png")
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(p)
	t.Logf("screenshot: %s", abs)
}

// createT12Pool creates, as the admin whose token is admin, the MBS
// Singapore Stud pool id linked to table T12: unit SGD 5.00, 17.33% to the
// meters of which 5.17% to the reserve, reset SGD 100,000.00.
func createT12Pool(t *testing.T, url, admin, id string) {
	t.Helper()
	api(t, "POST", url+"/v1/pools", `{"id":"`+id+`","currency":"SGD","rulesets":["mbs-megalink-ssp-v6"],"tables":["T12"],"unit":500,"contributionBp":1733,"reserveBp":517,"reset":10000000}`,
		"Authorization", "Bearer "+admin)
}

// api calls the API as a client would and returns the body.
func api(t *testing.T, method, url, body string, headers ...string) string {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
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

// text is the text of the element sel selects.
func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	got, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		t.Fatalf("text of %s: %v", sel, err)
	}
	return got
}

// do runs steps in the page and fails the test on an error.
func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// waitText waits (up to 10 s) until the text of the element sel selects
// contains want.
func waitText(t *testing.T, ctx context.Context, sel, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	var got string
	for time.Now().Before(deadline) {
		var err error
		got, err = chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err == nil && strings.Contains(got, want) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("waiting for %s to show %q; it shows %q", sel, want, got)
}
