package browser

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/tablesettle/tablesettle/internal/principal"
)

// The console on a shift (issue 24): live without a click, alerts that
// name the hit, actions that cannot run twice, confirmations that restate
// the money, and no button left pointing at the wrong pool.

// eval evaluates js in the page and returns its value.
func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("evaluate %s: %v", js, err)
	}
	return v
}

// waitJS waits (up to 10 s) until js evaluates to true in the page.
func waitJS(t *testing.T, ctx context.Context, what, js string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js)); err == nil && ok {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("waiting for %s (%s)", what, js)
}

// createLockPool creates pool id in SGD, unit 5.00, reset 100,000.00,
// every percentage prize verified (the jackpot lock).
func createLockPool(t *testing.T, s *server, tok map[principal.Role]string, id string) {
	t.Helper()
	api(t, "POST", s.url+"/v1/pools", `{"id":"`+id+`","currency":"SGD","rulesets":["mbs-megalink-ssp-v6"],"tables":["T12"],"unit":500,"contributionBp":1733,"reserveBp":517,"reset":10000000,"verify":{"percent":true}}`,
		"Authorization", "Bearer "+tok[principal.Admin])
}

// playRound applies a round at table T12 of pool id in which seat holds
// cards (and seat 1 a losing hand): two progressive wagers of 5.00.
func playRound(t *testing.T, s *server, tok map[principal.Role]string, id, round string, seat, cards string) string {
	t.Helper()
	body := `{"ruleset":"mbs-megalink-ssp-v6","table":"T12","roundId":"` + round + `","progressiveUnit":500,"dealtAt":"2026-03-01T20:00:00Z","dealer":"2d 3d 5h 8c 9s",` +
		`"positions":[{"seat":1,"cards":"4c 6c 7d 2h Jd","wagers":{"ante":1000,"bet":2000,"progressive":500}},{"seat":` + seat + `,"cards":"` + cards + `","wagers":{"ante":1000,"bet":2000,"progressive":500}}]}`
	return api(t, "POST", s.url+"/v1/pools/"+id+"/rounds", body, "Idempotency-Key", id+"-"+round, "Authorization", "Bearer "+tok[principal.Table])
}

// Issue 24 "the console never refreshes": a Royal posted after the
// supervisor opened the pool is shown within a second or so (one poll),
// with no click: a role="alert" banner naming table, seat, hand and
// amount (R3: 100% of the pool, 100,001.73), a beep unless muted (the
// mute survives a reload), and a row of the hit queue.
func TestConsoleAlertsOnANewHit(t *testing.T) {
	s, tok := startServerWith(t)
	createLockPool(t, s, tok, "live-1")
	ctx := browser(t, 1280, 720)
	signIn(t, ctx, s.url, tok[principal.Supervisor], "browser-supervisor (supervisor)", "live-1")
	waitText(t, ctx, `#pending tbody`, "No pending hit.")
	time.Sleep(1200 * time.Millisecond) // at least one poll with nothing new

	playRound(t, s, tok, "live-1", "R1", "3", "Ts Js Qs Ks As")
	countPolls(t, ctx, "/proposals") // polled once a tick, with the hits
	waitJS(t, ctx, "the hit alert", `(() => { const a = document.getElementById("hit-alert"); return !!a && a.getAttribute("role") === "alert" && a.offsetParent !== null && a.textContent.includes("100,001.73"); })()`)
	// The next poll shows it; counted, not timed (issue 33 item 11,
	// polls_test.go).
	if n := polls(t, ctx); n > 2 {
		t.Errorf("the console took %d polls to show the new hit; the next one should show it", n)
	}
	alert := text(t, ctx, `#hit-alert`)
	for _, want := range []string{"table T12", "seat 3", "Royal Flush", "SGD 100,001.73", "pending"} {
		if !strings.Contains(alert, want) {
			t.Errorf("the alert lacks %q: %q", want, alert)
		}
	}
	waitText(t, ctx, `#pending tbody`, "Ts Js Qs Ks As")
	waitText(t, ctx, `#queue tbody`, "pending")
	if q := text(t, ctx, `#queue tbody`); !strings.Contains(q, "T12") || !strings.Contains(q, "100,001.73") {
		t.Errorf("the hit queue lacks the hit: %q", q)
	}
	// Announced once; its sound repeats until acknowledged (issue 35).
	if n := eval[int](t, ctx, `Console.raised`); n != 1 {
		t.Errorf("alerts raised after one new hit = %d, want 1", n)
	}
	if n := eval[int](t, ctx, `Console.beeps`); n < 1 {
		t.Errorf("beeps after one new hit = %d, want at least 1", n)
	}
	shot(t, ctx, "shift-1-alert")

	// Mute: pressed, kept across a reload; the next hit alerts in silence.
	do(t, ctx, chromedp.Click(chromedp.CSS(`#mute`)))
	if p := eval[string](t, ctx, `document.getElementById("mute").getAttribute("aria-pressed")`); p != "true" {
		t.Errorf("mute aria-pressed = %q after pressing it", p)
	}
	do(t, ctx, chromedp.Reload())
	waitText(t, ctx, `#pending tbody`, "Ts Js Qs Ks As")
	if p := eval[string](t, ctx, `document.getElementById("mute").getAttribute("aria-pressed")`); p != "true" {
		t.Errorf("mute aria-pressed = %q after a reload, want it kept", p)
	}
	time.Sleep(1200 * time.Millisecond)
	playRound(t, s, tok, "live-1", "R2", "4", "Th Jh Qh Kh Ah")
	waitText(t, ctx, `#hit-alert`, "seat 4")
	if n := eval[int](t, ctx, `Console.beeps`); n != 0 {
		t.Errorf("beeps while muted = %d, want 0", n)
	}
}

// "People on shift must see at once what needs them": a new pending hit
// is on screen, announced, while the hit history (/hits?state=all, read
// when a hit appears) is still on its way: the open hits are drawn first.
// The server holds every history request here until the alert is up.
func TestConsoleAlertsBeforeTheHistory(t *testing.T) {
	var holding atomic.Bool
	var held atomic.Int32
	release := make(chan struct{})
	s, tok := startServerWrapped(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if holding.Load() && r.URL.Query().Get("state") == "all" {
				held.Add(1)
				select {
				case <-release:
				case <-r.Context().Done():
				}
			}
			h.ServeHTTP(w, r)
		})
	})
	createLockPool(t, s, tok, "live-h")
	ctx := browser(t, 1280, 720)
	signIn(t, ctx, s.url, tok[principal.Supervisor], "browser-supervisor (supervisor)", "live-h")
	waitText(t, ctx, `#pending tbody`, "No pending hit.")
	holding.Store(true)
	playRound(t, s, tok, "live-h", "R1", "3", "Ts Js Qs Ks As")
	waitJS(t, ctx, "the hit alert while the history is held", `(() => { const a = document.getElementById("hit-alert"); return !!a && a.offsetParent !== null && a.textContent.includes("100,001.73"); })()`)
	if held.Load() == 0 {
		t.Fatal("the console never asked for the history: the test held nothing")
	}
	waitText(t, ctx, `#pending tbody`, "Ts Js Qs Ks As")
	close(release)
	holding.Store(false)
	waitText(t, ctx, `#queue tbody`, "pending")
	if n := eval[int](t, ctx, `Console.raised`); n != 1 {
		t.Errorf("alerts raised after one new hit = %d, want 1 (the history's redraw announces nothing again)", n)
	}
}

// Issue 24 "a double-click moves money twice": a double-click on Propose
// sends one request; the button is disabled while it is sent; a retry
// after a network failure sends the same Idempotency-Key (the same
// submission), so the API applies it once. "500.50" is SGD 500.50, 50,050
// minor units exactly (no float).
func TestConsoleProposesOnce(t *testing.T) {
	s, tok := startServerWith(t)
	createT12Pool(t, s.url, tok[principal.Admin], "once-1")
	ctx := browser(t, 1280, 720)
	signIn(t, ctx, s.url, tok[principal.Admin], "browser-admin (admin)", "once-1")
	do(t, ctx,
		chromedp.SetValue(chromedp.CSS(`#adjust-meter`), "reserve"),
		chromedp.SendKeys(chromedp.CSS(`#adjust-amount`), "500.50"),
		chromedp.SendKeys(chromedp.CSS(`#adjust-reason`), "reserve top-up, memo 7"),
		// The first send fails as a dropped network would; every key sent is kept.
		chromedp.Evaluate[chromedp.Void](`(() => {
  window.sentKeys = [];
  const real = window.fetch;
  let dropped = false;
  window.fetch = (url, opts) => {
    if (opts && opts.method === "POST" && String(url).includes("/adjustments")) {
      window.sentKeys.push(opts.headers["Idempotency-Key"]);
      if (!dropped) { dropped = true; return new Promise((_, reject) => setTimeout(() => reject(new TypeError("Failed to fetch")), 300)); }
    }
    return real(url, opts);
  };
})()`),
		chromedp.Evaluate[chromedp.Void](`(() => { const b = document.querySelector("#adjust-form button[type=submit]"); b.click(); b.click(); })()`),
	)
	if d := eval[bool](t, ctx, `document.querySelector("#adjust-form button[type=submit]").disabled`); !d {
		t.Errorf("Propose is not disabled while its request is sent")
	}
	waitText(t, ctx, `#problem`, "not sent")
	shot(t, ctx, "shift-2-propose-network-dropped")
	do(t, ctx, chromedp.Click(chromedp.CSS(`#adjust-form button[type=submit]`)))
	waitText(t, ctx, `#adjust-result`, "waits for a controller's approval")
	keys := eval[[]string](t, ctx, `window.sentKeys`)
	if len(keys) != 2 || keys[0] == "" || keys[0] != keys[1] {
		t.Errorf("keys sent = %q, want two sends (a double-click is one) of one key", keys)
	}
	var out struct {
		Proposals []struct {
			Adjustment struct {
				Amount int64 `json:"amount"`
			} `json:"adjustment"`
		} `json:"proposals"`
	}
	if err := json.Unmarshal([]byte(api(t, "GET", s.url+"/v1/pools/once-1/proposals", "", "Authorization", "Bearer "+tok[principal.Controller])), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Proposals) != 1 || out.Proposals[0].Adjustment.Amount != 50050 {
		t.Errorf("proposals = %+v, want one of 50,050 minor units (SGD 500.50)", out.Proposals)
	}

	// More decimals than SGD has is refused in money, before any request.
	// (Enter in the field: the rows above may still be moving under a click.)
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`document.getElementById("adjust-amount").value = ""`), chromedp.SendKeys(chromedp.CSS(`#adjust-amount`), "1.005"+kb.Enter))
	waitText(t, ctx, `#problem`, "SGD amounts have at most 2 decimals")
	// A meter cannot go below zero: said in money, not in cents.
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`document.getElementById("adjust-amount").value = ""`), chromedp.SendKeys(chromedp.CSS(`#adjust-amount`), "-14.75"+kb.Enter))
	waitText(t, ctx, `#problem`, "The reserve meter holds SGD 0.00: -SGD 14.75 would take it below zero.")
}

// Issue 24 "Confirm (SGD 100k) takes one click, beside Void": Confirm
// opens a dialog restating amount, table, seat and hand; Cancel leaves the
// hit pending; OK confirms it. Confirm and Void are not in one cell.
func TestConsoleConfirmRestatesTheHit(t *testing.T) {
	s, tok := startServerWith(t)
	pendingRoyal(t, s, tok, "dlg-1")
	ctx := browser(t, 1280, 720)
	signIn(t, ctx, s.url, tok[principal.Supervisor], "browser-supervisor (supervisor)", "dlg-1")
	waitText(t, ctx, `#pending tbody`, "Ts Js Qs Ks As")
	if eval[bool](t, ctx, `(() => { const c = document.querySelector("#pending [data-action=confirm]"), v = document.querySelector("#pending [data-action=void]"); return c.closest("td") === v.closest("td"); })()`) {
		t.Errorf("Confirm and Void share one cell")
	}
	do(t, ctx, chromedp.Click(chromedp.CSS(`#pending button[data-action=confirm]`)))
	waitJS(t, ctx, "the confirmation dialog", `document.getElementById("confirm-dialog").open`)
	d := text(t, ctx, `#confirm-dialog`)
	for _, want := range []string{"SGD 100,001.73", "table T12", "seat 3", "Royal Flush"} {
		if !strings.Contains(d, want) {
			t.Errorf("the dialog lacks %q: %q", want, d)
		}
	}
	shot(t, ctx, "shift-3-confirm-dialog")
	do(t, ctx, chromedp.Click(chromedp.CSS(`#confirm-cancel`)))
	waitJS(t, ctx, "the dialog closed", `!document.getElementById("confirm-dialog").open`)
	time.Sleep(300 * time.Millisecond)
	if out := api(t, "GET", s.url+"/v1/pools/dlg-1/hits", "", "Authorization", "Bearer "+tok[principal.Cage]); !strings.Contains(out, `"state":"pending"`) {
		t.Fatalf("Cancel confirmed the hit: %s", out)
	}
	do(t, ctx, chromedp.Click(chromedp.CSS(`#pending button[data-action=confirm]`)))
	waitJS(t, ctx, "the confirmation dialog", `document.getElementById("confirm-dialog").open`)
	do(t, ctx, chromedp.Click(chromedp.CSS(`#confirm-ok`)))
	waitText(t, ctx, `#pending tbody`, "No pending hit.")
	if out := api(t, "GET", s.url+"/v1/pools/dlg-1/hits", "", "Authorization", "Bearer "+tok[principal.Cage]); !strings.Contains(out, `"state":"confirmed"`) {
		t.Errorf("OK did not confirm the hit: %s", out)
	}
}

// Issue 24 "a pool-id typo leaves the old pool's buttons live": after a
// pool id that is not there, no action button of the old pool can be
// pressed, and its rows are gone.
func TestConsolePoolTypoDisablesTheOldPool(t *testing.T) {
	s, tok := startServerWith(t)
	pendingRoyal(t, s, tok, "typo-1")
	ctx := browser(t, 1280, 720)
	signIn(t, ctx, s.url, tok[principal.Supervisor], "browser-supervisor (supervisor)", "typo-1")
	waitText(t, ctx, `#pending tbody`, "Ts Js Qs Ks As")
	do(t, ctx, chromedp.SetValue(chromedp.CSS(`#pool-id`), "typo-11"), chromedp.Click(chromedp.CSS(`#pool-form button`)))
	waitText(t, ctx, `#problem`, "404")
	if n := eval[int](t, ctx, `[...document.querySelectorAll("button[data-action]")].filter((b) => !b.disabled && b.offsetParent !== null).length`); n != 0 {
		t.Errorf("%d action buttons of the old pool are live after a pool id that is not there", n)
	}
	if strings.Contains(text(t, ctx, `main`), "Ts Js Qs Ks As") {
		t.Errorf("the old pool's hit is still shown")
	}
	shot(t, ctx, "shift-4-pool-typo")
}

// screen starts a browser whose viewport is exactly w x h CSS pixels (a
// window of that size has less: its own frame).
func screen(t *testing.T, w, h int64) context.Context {
	t.Helper()
	ctx := browser(t, int(w), int(h)+200)
	do(t, ctx, chromedp.EmulateViewport(w, h))
	return ctx
}

// Issue 24 "the ledger view ... loads from the oldest entry, at most
// 20,000, and reloads all after every action": the newest 200 entries come
// first, older pages on demand, and a new round adds its entry alone
// (one request after the newest, not the ledger again); amounts are
// signed per meter.
func TestConsoleLedgerNewestFirst(t *testing.T) {
	s, tok := startServerWith(t)
	createT12Pool(t, s.url, tok[principal.Admin], "deep-1")
	for i := 1; i <= 230; i++ { // the opening entry and one contribution a round: 231 entries
		playRound(t, s, tok, "deep-1", "D"+strconv.Itoa(i), "2", "3c 5d 9h Js Qh")
	}
	ctx := browser(t, 1280, 720)
	signIn(t, ctx, s.url, tok[principal.Cage], "browser-cage (cage)", "deep-1")
	waitText(t, ctx, `#ledger-count`, "200 of 200 loaded entries shown (231 in the ledger)")
	if first := eval[string](t, ctx, `document.querySelector("#ledger tbody tr").dataset.seq`); first != "231" {
		t.Errorf("the ledger starts at seq %s, want the newest, 231", first)
	}
	// Contribution of 2 x 5.00 at 17.33% and 5.17%: the meters gain.
	if row := text(t, ctx, `#ledger tbody tr`); !strings.Contains(row, "displayed +SGD") || !strings.Contains(row, "reserve +SGD") {
		t.Errorf("the newest row is not signed per meter: %q", row)
	}
	do(t, ctx, chromedp.Click(chromedp.CSS(`#ledger-more`)))
	waitText(t, ctx, `#ledger-count`, "231 of 231 loaded entries")
	if last := eval[string](t, ctx, `[...document.querySelectorAll("#ledger tbody tr")].pop().dataset.seq`); last != "1" {
		t.Errorf("the oldest row shown is seq %s, want 1", last)
	}
	if eval[bool](t, ctx, `!document.getElementById("ledger-more").classList.contains("hidden")`) {
		t.Errorf("Show older entries still offered after the oldest page")
	}

	recordLedgerRequests(t, ctx)
	playRound(t, s, tok, "deep-1", "D231", "2", "3c 5d 9h Js Qh")
	waitJS(t, ctx, "the new entry on top", `document.querySelector("#ledger tbody tr").dataset.seq === "232"`)
	if urls := ledgerRequests(t, ctx); len(urls) != 1 || !strings.Contains(urls[0], "after=231") {
		t.Errorf("ledger requests after a new round: %q, want one, after=231", urls)
	}
}

// While the tables play, the console's ledger follows the contributions
// at once and then at most every 5 s (ledgerQuietMs), not at every poll:
// on a pool with contribution shards each ledger read folds them into the
// pool, a write (docs/scale.md), and a console open all shift on a busy
// pool would otherwise commit it twice a second. Twelve rounds a quarter
// second apart make at most two ledger requests (the first round's at
// once), the meters follow each round, and the ledger has them all within
// 5 s of the last.
func TestConsoleLedgerFollowsContributionsQuietly(t *testing.T) {
	s, tok := startServerWith(t)
	createT12Pool(t, s.url, tok[principal.Admin], "busy-1")
	ctx := browser(t, 1280, 720)
	signIn(t, ctx, s.url, tok[principal.Cage], "browser-cage (cage)", "busy-1")
	waitText(t, ctx, `#ledger-count`, "1 of 1 loaded entries")
	recordLedgerRequests(t, ctx)
	playRound(t, s, tok, "busy-1", "Q1", "2", "3c 5d 9h Js Qh")
	countPolls(t, ctx, "/v1/pools/busy-1")
	waitText(t, ctx, `#ledger-count`, "2 of 2 loaded entries")
	// Counted, not timed (issue 33 item 11, polls_test.go).
	if n := polls(t, ctx); n > 2 {
		t.Errorf("the first round after a quiet spell reached the ledger after %d polls of the pool, want at the next poll", n)
	}
	for i := 2; i <= 12; i++ {
		playRound(t, s, tok, "busy-1", "Q"+strconv.Itoa(i), "2", "3c 5d 9h Js Qh")
		time.Sleep(250 * time.Millisecond)
	}
	// The meters follow at once: each round's progressive wagers are
	// 2 x SGD 5 = SGD 10.00, 17.33% of it SGD 1.733; twelve make
	// SGD 20.796, of which SGD 20.79 is credited and 0.6 of a cent carried
	// (R1), on the reset of SGD 100,000.
	waitText(t, ctx, `#pool-summary`, "Displayed SGD 100,020.79")
	if urls := ledgerRequests(t, ctx); len(urls) > 2 {
		t.Errorf("%d ledger requests in 3 s of play, want at most 2: %q", len(urls), urls)
	}
	waitText(t, ctx, `#ledger-count`, "13 of 13 loaded entries")
}

// Issue 24 "a Royal on an RWS pool is invisible: held for its settle
// window, it is listed nowhere ... no banner ... no Release button": the
// held Royal raises the alert, joins the queue as held with the time its
// window closes, the console offers Release, and the sign says HELD.
func TestConsoleShowsAHeldHit(t *testing.T) {
	s, tok := startServerWith(t)
	api(t, "POST", s.url+"/v1/pools", `{"id":"rws-1","currency":"SGD","rulesets":["rws-mlp-csp-v2"],"tables":["T12"],"unit":100,"contributionBp":2000,"reserveBp":500,"reset":10000000,"settleWindowMs":600000}`,
		"Authorization", "Bearer "+tok[principal.Admin])
	sign := screen(t, 1280, 720)
	do(t, sign, chromedp.Navigate(s.url+"/display/rws-1#token="+tok[principal.Display]))
	waitText(t, sign, `#amount`, "100,000.00")
	ctx := browser(t, 1280, 720)
	signIn(t, ctx, s.url, tok[principal.Supervisor], "browser-supervisor (supervisor)", "rws-1")
	waitText(t, ctx, `#queue tbody`, "No hit yet.")
	time.Sleep(700 * time.Millisecond)

	round := `{"ruleset":"rws-mlp-csp-v2","table":"T12","roundId":"H1","progressiveUnit":100,"dealtAt":"` + time.Now().UTC().Format(time.RFC3339) + `","dealer":"2d 3d 5h 8c 9s",` +
		`"positions":[{"seat":3,"cards":"Ts Js Qs Ks As","wagers":{"ante":1000,"bet":2000,"progressive":100}}]}`
	api(t, "POST", s.url+"/v1/pools/rws-1/rounds", round, "Idempotency-Key", "rws-1-h1", "Authorization", "Bearer "+tok[principal.Table])
	waitText(t, ctx, `#hit-alert`, "Hit held for its settle window: table T12 · seat 3 · Royal Flush")
	waitText(t, ctx, `#queue tbody`, "held")
	if q := text(t, ctx, `#queue tbody`); !strings.Contains(q, "T12") {
		t.Errorf("the queue lacks the held hit: %q", q)
	}
	if eval[bool](t, ctx, `document.getElementById("release").classList.contains("hidden")`) {
		t.Errorf("no Release button with a held hit")
	}
	if w := eval[string](t, ctx, `document.querySelector("#queue tbody tr").children[7].textContent`); w == "" {
		t.Errorf("the held hit does not say when its window closes")
	}
	shot(t, ctx, "shift-held-console")
	waitText(t, sign, `#lock`, "JACKPOT HELD · table T12 seat 3")
	shot(t, sign, "shift-held-sign")
}

// Issue 24 item 8: a printable jackpot slip for a paid hit (table, seat,
// hand, amount, who verified, who paid) and the shift report (opening and
// closing meters, contributions, hits, liabilities) with its CSV.
func TestConsoleSlipAndReport(t *testing.T) {
	s, tok := startServerWith(t)
	pendingRoyal(t, s, tok, "slip-1")
	seq := hitSeq(t, s, tok, "slip-1", 3)
	api(t, "POST", s.url+"/v1/pools/slip-1/hits/"+seq+"/confirm", "", "Authorization", "Bearer "+tok[principal.Supervisor], "Idempotency-Key", "slip-confirm")
	api(t, "POST", s.url+"/v1/pools/slip-1/hits/"+seq+"/paid", "", "Authorization", "Bearer "+tok[principal.Cage], "Idempotency-Key", "slip-paid")
	ctx := browser(t, 1280, 720)
	signIn(t, ctx, s.url, tok[principal.Cage], "browser-cage (cage)", "slip-1")
	waitJS(t, ctx, "the slip button", `!!document.querySelector("#queue button[data-action=slip]")`)
	do(t, ctx, chromedp.Click(chromedp.CSS(`#queue button[data-action=slip]`)))
	waitJS(t, ctx, "the slip", `document.getElementById("slip-dialog").open`)
	waitText(t, ctx, `#slip-body`, "Paid by")
	slip := text(t, ctx, `#slip-body`)
	for _, want := range []string{"T12", "Royal Flush", "SGD 100,001.73", "browser-supervisor (supervisor)", "browser-cage (cage)"} {
		if !strings.Contains(slip, want) {
			t.Errorf("the slip lacks %q: %q", want, slip)
		}
	}
	shot(t, ctx, "shift-slip")
	checkA11y(t, ctx, "jackpot slip")
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`document.getElementById("slip-dialog").close()`))

	do(t, ctx, chromedp.Click(chromedp.CSS(`#report-form button[type=submit]`)))
	waitText(t, ctx, `#report-result`, "Closing meters")
	rep := text(t, ctx, `#report-result`)
	for _, want := range []string{"Opening meters", "Hits: 2", "SGD 100,001.73 (paid)", "Liabilities: SGD 0.00"} {
		if !strings.Contains(rep, want) {
			t.Errorf("the report lacks %q: %q", want, rep)
		}
	}
	do(t, ctx, chromedp.Click(chromedp.CSS(`#r-csv`)))
	waitJS(t, ctx, "the CSV", `!!document.getElementById("report-result").dataset.csv`)
	if csv := eval[string](t, ctx, `document.getElementById("report-result").dataset.csv`); !strings.Contains(csv, "T12") {
		t.Errorf("the CSV report: %q", csv)
	}
	shot(t, ctx, "shift-report")
}

// A void reason half typed when a round at another table changes the pool
// (the console redraws live) is kept, with the focus in it; a focused
// button keeps the focus too.
func TestConsoleKeepsATypedReason(t *testing.T) {
	s, tok := startServerWith(t)
	pendingRoyal(t, s, tok, "draft-1")
	ctx := browser(t, 1280, 720)
	signIn(t, ctx, s.url, tok[principal.Supervisor], "browser-supervisor (supervisor)", "draft-1")
	waitText(t, ctx, `#pending tbody`, "Ts Js Qs Ks As")
	do(t, ctx, chromedp.Click(chromedp.CSS(`#pending input[data-reason-for]`)), chromedp.KeyEvent("the ten was"))
	playRound(t, s, tok, "draft-1", "R9", "2", "3c 5d 9h Js Qh")
	waitText(t, ctx, `#pool-summary`, "version")
	time.Sleep(1500 * time.Millisecond) // a redraw or two
	do(t, ctx, chromedp.KeyEvent(" a club"))
	if got := eval[string](t, ctx, `document.querySelector("#pending input[data-reason-for]").value`); got != "the ten was a club" {
		t.Errorf("the reason being typed reads %q after a live redraw, want %q", got, "the ten was a club")
	}
	// A keyboard user on Confirm stays on Confirm through a redraw.
	do(t, ctx, chromedp.Focus(chromedp.CSS(`#pending button[data-action=confirm]`)))
	playRound(t, s, tok, "draft-1", "R10", "2", "3c 5d 9h Js Qh")
	time.Sleep(1500 * time.Millisecond)
	if f := focus(t, ctx, `#pending button[data-action=confirm]`); !f.Matches {
		t.Errorf("after a live redraw the focus is on %s, want Confirm", f.Desc)
	}
}

// Issue 24 item 1 "a new pending or held hit raises an alert": a hit that
// is already pending (the jackpot lock) or held (an RWS settle window)
// when the console opens the pool is announced too, by the same
// role="alert" banner naming table, seat, hand and amount (R3: the Royal
// is 100% of the pool, SGD 100,001.73); Dismiss hides the banner and the
// hit stays in the queue and in the pending hits, not announced again.
func TestConsoleAlertsOnHitsWaitingAtOpen(t *testing.T) {
	s, tok := startServerWith(t)
	pendingRoyal(t, s, tok, "open-1")
	ctx := browser(t, 1280, 720)
	signIn(t, ctx, s.url, tok[principal.Supervisor], "browser-supervisor (supervisor)", "open-1")
	waitJS(t, ctx, "the hit alert at open", `(() => { const a = document.getElementById("hit-alert"); return a.getAttribute("role") === "alert" && a.offsetParent !== null && a.textContent.includes("100,001.73"); })()`)
	alert := text(t, ctx, `#hit-alert`)
	for _, want := range []string{"pending", "table T12", "seat 3", "Royal Flush", "SGD 100,001.73"} {
		if !strings.Contains(alert, want) {
			t.Errorf("the alert at open lacks %q: %q", want, alert)
		}
	}
	shot(t, ctx, "shift-alert-at-open")
	// Dismiss is offered once the hits are acknowledged (issue 35).
	do(t, ctx, chromedp.Click(chromedp.CSS(`#hit-alert-ack`)))
	waitText(t, ctx, `#hit-alert`, "acknowledged by browser-supervisor")
	do(t, ctx, chromedp.Click(chromedp.CSS(`#hit-alert-dismiss`)))
	waitJS(t, ctx, "the alert dismissed", `document.getElementById("hit-alert").classList.contains("hidden")`)
	time.Sleep(1200 * time.Millisecond) // two polls: the hit is not announced again
	if eval[bool](t, ctx, `!document.getElementById("hit-alert").classList.contains("hidden")`) {
		t.Errorf("the dismissed alert came back: %q", text(t, ctx, `#hit-alert`))
	}
	if q := text(t, ctx, `#queue tbody`); !strings.Contains(q, "pending") || !strings.Contains(q, "100,001.73") {
		t.Errorf("after Dismiss the hit queue lacks the hit: %q", q)
	}
	waitText(t, ctx, `#pending tbody`, "Ts Js Qs Ks As")

	// A held RWS Royal, committed before the console opens its pool.
	api(t, "POST", s.url+"/v1/pools", `{"id":"open-rws","currency":"SGD","rulesets":["rws-mlp-csp-v2"],"tables":["T12"],"unit":100,"contributionBp":2000,"reserveBp":500,"reset":10000000,"settleWindowMs":600000}`,
		"Authorization", "Bearer "+tok[principal.Admin])
	round := `{"ruleset":"rws-mlp-csp-v2","table":"T12","roundId":"H1","progressiveUnit":100,"dealtAt":"` + time.Now().UTC().Format(time.RFC3339) + `","dealer":"2d 3d 5h 8c 9s",` +
		`"positions":[{"seat":4,"cards":"Ts Js Qs Ks As","wagers":{"ante":1000,"bet":2000,"progressive":100}}]}`
	api(t, "POST", s.url+"/v1/pools/open-rws/rounds", round, "Idempotency-Key", "open-rws-h1", "Authorization", "Bearer "+tok[principal.Table])
	do(t, ctx, chromedp.SetValue(chromedp.CSS(`#pool-id`), "open-rws"), chromedp.Click(chromedp.CSS(`#pool-form button`)))
	waitText(t, ctx, `#hit-alert`, "Hit held for its settle window: table T12 · seat 4 · Royal Flush")
	waitText(t, ctx, `#queue tbody`, "held")
}

// recordLedgerRequests makes the page note every ledger request it sends
// from now on (ledgerRequests).
func recordLedgerRequests(t *testing.T, ctx context.Context) {
	t.Helper()
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`(() => {
  window.ledgerURLs = [];
  const real = window.fetch;
  window.fetch = (url, opts) => { if (String(url).includes("/ledger")) window.ledgerURLs.push(String(url)); return real(url, opts); };
})()`))
}

// ledgerRequests are the ledger requests noted since recordLedgerRequests.
func ledgerRequests(t *testing.T, ctx context.Context) []string {
	t.Helper()
	return eval[[]string](t, ctx, `window.ledgerURLs`)
}

// Issue 33 item 1: a round voided by a duplicate card (the Ten of spades
// at seats 1 and 2) that held a Royal Flush at seat 3 shows in the
// supervisor's hit queue, within a poll and with no click, as a
// round_void row naming the hand and why the round is void.
func TestConsoleShowsAVoidRoundsRoyal(t *testing.T) {
	s, tok := startServerWith(t)
	createLockPool(t, s, tok, "void-1")
	ctx := browser(t, 1280, 720)
	signIn(t, ctx, s.url, tok[principal.Supervisor], "browser-supervisor (supervisor)", "void-1")
	waitText(t, ctx, `#queue tbody`, "No hit yet.")
	time.Sleep(700 * time.Millisecond)
	w := `"wagers":{"ante":1000,"bet":2000,"progressive":500}`
	round := `{"ruleset":"mbs-megalink-ssp-v6","table":"T12","roundId":"V1","progressiveUnit":500,"dealtAt":"2026-03-01T20:00:00Z","dealer":"2d 3d 5h 8c 9s",` +
		`"positions":[{"seat":1,"cards":"Ts 4c 6d 7h Kd",` + w + `},{"seat":2,"cards":"Ts 2c 5d 8h 9c",` + w + `},{"seat":3,"cards":"Th Jh Qh Kh Ah",` + w + `}]}`
	if out := api(t, "POST", s.url+"/v1/pools/void-1/rounds", round, "Idempotency-Key", "void-1-v1", "Authorization", "Bearer "+tok[principal.Table]); !strings.Contains(out, `"void":true`) {
		t.Fatalf("the round: %s", out)
	}
	waitText(t, ctx, `#queue tbody`, "round_void")
	q := text(t, ctx, `#queue tbody`)
	for _, want := range []string{"T12", "Royal Flush", "round V1 void, nothing paid", "duplicate_card: Ts appears twice"} {
		if !strings.Contains(q, want) {
			t.Errorf("the queue's row lacks %q: %q", want, q)
		}
	}
	shot(t, ctx, "shift-void-round-console")
}
