package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/tablesettle/tablesettle/internal/principal"
)

// Issue 35: the floor screens as people on shift meet them, at every
// screen the floor uses, phones to 4K.
var floorSizes = [][2]int64{{390, 844}, {1280, 720}, {1920, 1080}, {3840, 2160}}

// eachSize runs f as a subtest named by each of floorSizes ("390x844").
func eachSize(t *testing.T, f func(t *testing.T, tag string, w, h int64)) {
	t.Helper()
	for _, size := range floorSizes {
		tag := fmt.Sprintf("%dx%d", size[0], size[1])
		t.Run(tag, func(t *testing.T) { f(t, tag, size[0], size[1]) })
	}
}

// longScreen is screen with a session of 5 minutes: a whole sequence at
// 4K on a loaded machine.
func longScreen(t *testing.T, w, h int64) context.Context {
	t.Helper()
	ctx := browserFor(t, int(w), int(h)+200, 5*time.Minute)
	do(t, ctx, chromedp.EmulateViewport(w, h))
	return ctx
}

// waitJSFor is waitJS waiting up to d.
func waitJSFor(t *testing.T, ctx context.Context, what, js string, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js)); err == nil && ok {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("waiting for %s (%s)", what, js)
}

// lines is how many lines the text of the element sel selects takes on
// screen (its text's boxes, by their distinct tops): 1 when it does not
// wrap.
func lines(t *testing.T, ctx context.Context, sel string) int {
	t.Helper()
	return eval[int](t, ctx, `(() => {
  const e = document.querySelector(`+fmt.Sprintf("%q", sel)+`);
  if (!e) return -1;
  const r = document.createRange(); r.selectNodeContents(e);
  return new Set([...r.getClientRects()].filter((b) => b.width > 0).map((b) => Math.round(b.top))).size;
})()`)
}

// Issue 35 item 3, "alerts no one can miss": a Royal arrives while a
// supervisor's console is open. The alert is the first thing on screen,
// whole, at every size; the page's title says a hit waits; the sound
// repeats until a named person acknowledges the hit (by keyboard at
// 1280x720), and the API records who; the sticky alert never covers the
// queue's or the pending hits' heading scrolled to; the queue's amounts
// never wrap; mute says its state in words and lasts the browser session
// only; a desktop notification comes when asked for.
func TestFloorAlertNoOneCanMiss(t *testing.T) {
	s, tok := startServerWith(t)
	eachSize(t, func(t *testing.T, tag string, w, h int64) {
		pool := "alert-" + tag
		createLockPool(t, s, tok, pool)
		ctx := longScreen(t, w, h)
		signIn(t, ctx, s.url, tok[principal.Supervisor], "browser-supervisor (supervisor)", pool)
		waitText(t, ctx, `#pending tbody`, "No pending hit.")
		time.Sleep(700 * time.Millisecond)
		title := eval[string](t, ctx, `document.title`)

		playRound(t, s, tok, pool, "R1", "3", "Ts Js Qs Ks As")
		waitText(t, ctx, `#hit-alert`, "table T12 · seat 3 · Royal Flush · SGD 100,001.73")
		waitText(t, ctx, `#hit-alert`, "not acknowledged yet")
		// First on screen: nothing of the page but the header above it,
		// and all of it inside the window.
		if msg := eval[string](t, ctx, `(() => {
  const a = document.getElementById("hit-alert").getBoundingClientRect();
  const head = document.querySelector("header.bar").getBoundingClientRect();
  const first = [...document.querySelectorAll("main > *")].filter((e) => e.offsetParent !== null && e.id !== "hit-alert" && e.id !== "problem").map((e) => e.getBoundingClientRect().top);
  return (a.top >= head.bottom - 1 && a.top <= head.bottom + 40 ? "" : "alert top " + a.top + ", header bottom " + head.bottom + "; ") +
    (a.bottom <= innerHeight ? "" : "alert bottom " + a.bottom + " below the window's " + innerHeight + "; ") +
    (first.every((y) => y >= a.bottom) ? "" : "a card above the alert's bottom: " + first.join(",") + " vs " + a.bottom);
})()`); msg != "" {
			t.Errorf("the alert is not first on screen: %s", msg)
		}
		if got := eval[string](t, ctx, `document.title`); !strings.Contains(got, "JACKPOT HIT waiting") {
			t.Errorf("the title while a hit waits = %q", got)
		}
		noHorizontalScroll(t, ctx, "console with the alert "+tag)
		shot(t, ctx, "floor-alert-"+tag+"-1-alert")
		// The sound repeats while nobody acknowledges it.
		waitJS(t, ctx, "the sound repeated", `Console.beeps >= 2`)

		// Scrolled to the queue and the pending hits, the sticky alert
		// covers neither heading.
		for _, h := range []string{"queue-h", "pending-h"} {
			do(t, ctx, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, document.body.scrollHeight); document.getElementById("`+h+`").scrollIntoView({ block: "start" })`))
			time.Sleep(100 * time.Millisecond)
			if msg := eval[string](t, ctx, `(() => { const a = document.getElementById("hit-alert").getBoundingClientRect(), h = document.getElementById("`+h+`").getBoundingClientRect();
  return a.bottom <= h.top + 1 ? "" : "alert bottom " + a.bottom + " over heading top " + h.top; })()`); msg != "" {
				t.Errorf("%s: %s", h, msg)
			}
			shot(t, ctx, "floor-alert-"+tag+"-2-scrolled-"+h)
		}
		// The queue's amount and the alert's on one line at every size.
		if n := lines(t, ctx, `#queue tbody td.num:nth-child(6)`); n != 1 {
			t.Errorf("the queue's amount takes %d lines", n)
		}
		if n := lines(t, ctx, `#hit-alert-text .amount-now`); n != 1 {
			t.Errorf("the alert's amount takes %d lines", n)
		}

		// Acknowledged by name (the keyboard at 1280x720).
		if w == 1280 {
			do(t, ctx, chromedp.Focus(chromedp.CSS(`header nav a:last-child`)))
			tabTo(t, ctx, `#hit-alert-ack`, false, 2)
			do(t, ctx, chromedp.KeyEvent(kb.Enter))
		} else {
			do(t, ctx, chromedp.Click(chromedp.CSS(`#hit-alert-ack`)))
		}
		waitText(t, ctx, `#hit-alert`, "acknowledged by browser-supervisor (supervisor)")
		waitJS(t, ctx, "the title back", `document.title === `+fmt.Sprintf("%q", title))
		n := eval[int](t, ctx, `Console.beeps`)
		time.Sleep(3 * time.Second)
		if m := eval[int](t, ctx, `Console.beeps`); m != n {
			t.Errorf("the sound went on after the acknowledgement: %d beeps, then %d", n, m)
		}
		shot(t, ctx, "floor-alert-"+tag+"-3-acknowledged")
		var hits struct {
			Hits []struct {
				Acknowledged *struct {
					By struct{ ID, Role string } `json:"by"`
				} `json:"acknowledged"`
			} `json:"hits"`
		}
		if err := json.Unmarshal([]byte(api(t, "GET", s.url+"/v1/pools/"+pool+"/hits", "", "Authorization", "Bearer "+tok[principal.Cage])), &hits); err != nil {
			t.Fatal(err)
		}
		if len(hits.Hits) != 1 || hits.Hits[0].Acknowledged == nil || hits.Hits[0].Acknowledged.By.ID != "browser-supervisor" || hits.Hits[0].Acknowledged.By.Role != "supervisor" {
			t.Errorf("the API does not record who acknowledged: %+v", hits)
		}
		if l := api(t, "GET", s.url+"/v1/pools/"+pool+"/ledger", "", "Authorization", "Bearer "+tok[principal.Cage]); strings.Count(l, `"kind":"hit_acknowledged"`) != 1 {
			t.Errorf("the ledger holds %d acknowledgements, want 1", strings.Count(l, `"kind":"hit_acknowledged"`))
		}
		// Dismiss, now offered, hides the banner.
		do(t, ctx, chromedp.Click(chromedp.CSS(`#hit-alert-dismiss`)))
		waitJS(t, ctx, "the alert dismissed", `document.getElementById("hit-alert").classList.contains("hidden")`)

		if w != 1280 {
			return
		}
		// Mute: in words and icon, for this browser session only.
		do(t, ctx, chromedp.Click(chromedp.CSS(`#mute`)))
		if got := text(t, ctx, `#mute`); !strings.Contains(got, "Alert sound muted") || eval[string](t, ctx, `document.getElementById("mute").getAttribute("aria-pressed")`) != "true" ||
			eval[bool](t, ctx, `document.getElementById("mute-cross").classList.contains("hidden")`) {
			t.Errorf("muted, the button reads %q", got)
		}
		if eval[bool](t, ctx, `localStorage.getItem("tablesettle.mute") !== null`) {
			t.Errorf("the mute is kept beyond the session (localStorage)")
		}
		do(t, ctx, chromedp.Reload())
		waitText(t, ctx, `#queue tbody`, "pending")
		if got := text(t, ctx, `#mute`); !strings.Contains(got, "Alert sound muted") {
			t.Errorf("after a reload in the same session the button reads %q", got)
		}
		shot(t, ctx, "floor-alert-1280x720-4-muted")
		next := longScreen(t, w, h)
		signIn(t, next, s.url, tok[principal.Supervisor], "browser-supervisor (supervisor)", pool)
		if got := text(t, next, `#mute`); !strings.Contains(got, "Alert sound on") {
			t.Errorf("the next session's browser starts muted: %q", got)
		}

		// Desktop notifications, asked for on a click.
		if _, err := chromedp.CallBrowser(next, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
			Permission: &cdpbrowser.PermissionDescriptor{Name: "notifications"}, Setting: cdpbrowser.PermissionSettingGranted, Origin: s.url}); err != nil {
			t.Fatal(err)
		}
		do(t, next, chromedp.Click(chromedp.CSS(`#notify`)))
		waitText(t, next, `#notify`, "Desktop notifications: on")
		playRound(t, s, tok, pool, "R2", "4", "Th Jh Qh Kh Ah")
		waitText(t, next, `#hit-alert`, "seat 4")
		waitJS(t, next, "a desktop notification", `Console.notified >= 1`)
		checkA11y(t, next, "console with an unacknowledged hit alert")
	})
}

// Issue 35 item 4, "a sign players trust and enjoy": an RWS Royal held
// for its 25 s settle window (R7) takes the sign over with what it would
// be paid now, marked not final; paid when its window closes, it takes the
// sign over again, PAID. Each pool of a two-pool sign says its own Last
// won by name; the paytable's amounts never wrap and grow with the screen;
// hands are named as the documents write them; when the network drops,
// STALE dims the paytable, the banners and Last won, not only the meter.
func TestFloorSignHeldRoyalThroughToPaid(t *testing.T) {
	s, tok := startServerWith(t)
	eachSize(t, func(t *testing.T, tag string, w, h int64) {
		rws, mbs := "rws-"+tag, "mbs-"+tag
		api(t, "POST", s.url+"/v1/pools", `{"id":"`+rws+`","displayName":"Mystery Stud","currency":"SGD","rulesets":["rws-mlp-csp-v2"],"tables":["T12"],"unit":100,"contributionBp":2000,"reserveBp":500,"reset":10000000,"settleWindowMs":25000}`,
			"Authorization", "Bearer "+tok[principal.Admin])
		createLockPool(t, s, tok, mbs)
		sign := longScreen(t, w, h)
		do(t, sign, chromedp.Navigate(s.url+"/display/"+rws+","+mbs+"?takeover=8#token="+tok[principal.Display]))
		waitText(t, sign, `#status`, "live")
		waitText(t, sign, `#paytable`, "Royal Flush")
		// Every paytable line on one line; the type grows with the screen.
		if n := eval[string](t, sign, `[...document.querySelectorAll(".pt-row")].map((e) => { const r = document.createRange(); r.selectNodeContents(e);
  return new Set([...r.getClientRects()].filter((b) => b.width > 0).map((b) => Math.round(b.top))).size; }).filter((n) => n !== 1).join(",")`); n != "" {
			t.Errorf("paytable lines wrap: %s", n)
		}
		pt := eval[float64](t, sign, `parseFloat(getComputedStyle(document.getElementById("paytable")).fontSize)`)
		st := eval[float64](t, sign, `parseFloat(getComputedStyle(document.getElementById("status")).fontSize)`)
		if w == 3840 && (pt < 40 || st < 30) {
			t.Errorf("at 4K the paytable is %.0f px and the status line %.0f px", pt, st)
		}
		shot(t, sign, "floor-sign-"+tag+"-1-live")

		console := longScreen(t, w, h)
		signIn(t, console, s.url, tok[principal.Supervisor], "browser-supervisor (supervisor)", rws)
		waitText(t, console, `#queue tbody`, "No hit yet.")

		round := `{"ruleset":"rws-mlp-csp-v2","table":"T12","roundId":"H1","progressiveUnit":100,"dealtAt":"` + time.Now().UTC().Format(time.RFC3339) + `","dealer":"2d 3d 5h 8c 9s",` +
			`"positions":[{"seat":3,"cards":"Ts Js Qs Ks As","wagers":{"ante":1000,"bet":2000,"progressive":100}}]}`
		api(t, "POST", s.url+"/v1/pools/"+rws+"/rounds", round, "Idempotency-Key", rws+"-h1", "Authorization", "Bearer "+tok[principal.Table])
		// 1 x 100 x 20% = 20: the Royal would be paid SGD 100,000.20 now.
		waitText(t, sign, `#takeover`, "HELD for its settle window")
		held := eval[string](t, sign, `(Sign.takeovers.find((x) => x.state === "held") || {}).text || ""`)
		for _, want := range []string{"JACKPOT!", "SGD 100,000.20", "not final until paid", "Royal Flush · table T12 seat 3 · Mystery Stud"} {
			if !strings.Contains(held, want) {
				t.Errorf("the held takeover lacks %q: %q", want, held)
			}
		}
		if n := lines(t, sign, `#to-amount`); n != 1 {
			t.Errorf("the takeover's amount takes %d lines", n)
		}
		// The console while the hit is held, before any screenshot: one at
		// 4K takes seconds on a loaded machine.
		waitText(t, console, `#queue tbody`, "SGD 100,000.20")
		waitText(t, console, `#queue tbody`, "not final until paid")
		if n := lines(t, console, `#queue tbody .amount-now`); n != 1 {
			t.Errorf("the held amount takes %d lines", n)
		}
		shot(t, sign, "floor-sign-"+tag+"-2-held-takeover")
		shot(t, console, "floor-sign-"+tag+"-3-console-held")

		// The window closes: paid, the sign takes over again (each
		// takeover the sign showed is logged in Sign.takeovers: a slow
		// screenshot may outlast one).
		deadline := time.Now().Add(40 * time.Second)
		var paid string
		for time.Now().Before(deadline) && paid == "" {
			paid = eval[string](t, sign, `(Sign.takeovers.find((x) => x.state === "paid") || {}).text || ""`)
			time.Sleep(100 * time.Millisecond)
		}
		if !strings.Contains(paid, "PAID") || !strings.Contains(paid, "SGD 100,000.20") || !strings.Contains(paid, "Mystery Stud") || strings.Contains(paid, "not final") {
			t.Errorf("the paid takeover: %q", paid)
		}
		if eval[bool](t, sign, `!document.getElementById("takeover").classList.contains("hidden")`) {
			shot(t, sign, "floor-sign-"+tag+"-4-paid-takeover")
		}
		if w == 1280 {
			checkA11y(t, sign, "sign with a takeover")
		}
		waitText(t, sign, `#last-won`, "Last won · Mystery Stud: SGD 100,000.20 · Royal Flush · table T12 seat 3")

		// The other pool's Royal, confirmed and paid: its own line.
		playRound(t, s, tok, mbs, "R1", "3", "Ts Js Qs Ks As")
		seq := hitSeq(t, s, tok, mbs, 3)
		api(t, "POST", s.url+"/v1/pools/"+mbs+"/hits/"+seq+"/confirm", "", "Authorization", "Bearer "+tok[principal.Supervisor], "Idempotency-Key", mbs+"-c")
		api(t, "POST", s.url+"/v1/pools/"+mbs+"/hits/"+seq+"/paid", "", "Authorization", "Bearer "+tok[principal.Cage], "Idempotency-Key", mbs+"-p")
		waitText(t, sign, `#last-won-1`, "Last won · Progressive jackpot · "+mbs+": SGD 100,001.73 · Royal Flush")
		if got := text(t, sign, `#last-won`); !strings.Contains(got, "Mystery Stud: SGD 100,000.20") {
			t.Errorf("the first pool's Last won changed: %q", got)
		}
		waitJSFor(t, sign, "the takeovers over", `document.getElementById("takeover").classList.contains("hidden")`, time.Minute)
		shot(t, sign, "floor-sign-"+tag+"-5-last-won")

		// STALE dims everything that may be out of date.
		playRound(t, s, tok, mbs, "R2", "4", "9h Th Jh Qh Kh")
		waitText(t, sign, `#lock`, "STRAIGHT FLUSH PRIZE PENDING")
		waitJSFor(t, sign, "the takeovers over", `document.getElementById("takeover").classList.contains("hidden")`, time.Minute)
		do(t, sign, chromedp.Evaluate[chromedp.Void](`window.fetch = () => Promise.reject(new TypeError("Failed to fetch"))`))
		waitText(t, sign, `#stale`, "STALE")
		if dim := eval[string](t, sign, `["#meter", "#paytable", "#lock", "#last-won", "#last-won-1", "#paytable-1"].filter((s) => parseFloat(getComputedStyle(document.querySelector(s)).opacity) > 0.4).join(", ")`); dim != "" {
			t.Errorf("STALE leaves bright: %s", dim)
		}
		shot(t, sign, "floor-sign-"+tag+"-6-stale")
	})
}

// Issue 35 item 8, the console's layout: at 1920 and 4K the cards use the
// screen's width; amounts never wrap; an old "A void needs its reason"
// goes once the reason is typed and the void proposed.
func TestFloorConsoleLayout(t *testing.T) {
	s, tok := startServerWith(t)
	eachSize(t, func(t *testing.T, tag string, w, h int64) {
		pool := "layout-" + tag
		pendingRoyal(t, s, tok, pool)
		ctx := longScreen(t, w, h)
		signIn(t, ctx, s.url, tok[principal.Supervisor], "browser-supervisor (supervisor)", pool)
		waitText(t, ctx, `#pending tbody`, "Ts Js Qs Ks As")
		noHorizontalScroll(t, ctx, "console "+tag)
		if w := eval[float64](t, ctx, `document.getElementById("queue-card").getBoundingClientRect().width / innerWidth`); w < 0.9 {
			t.Errorf("the queue uses %.0f%% of the width", w*100)
		}
		for _, sel := range []string{`#queue tbody td.num:nth-child(6)`, `#pending tbody td.num:nth-child(7)`} {
			if n := lines(t, ctx, sel); n != 1 {
				t.Errorf("%s takes %d lines", sel, n)
			}
		}
		if w == 3840 {
			if f := eval[float64](t, ctx, `parseFloat(getComputedStyle(document.body).fontSize)`); f < 24 {
				t.Errorf("at 4K the console's type is %.0f px", f)
			}
		}
		// A void without its reason, then with it.
		do(t, ctx, chromedp.Click(chromedp.CSS(`#pending button[data-action=void]`)))
		waitText(t, ctx, `#problem`, "A void needs its reason")
		do(t, ctx, chromedp.Click(chromedp.CSS(`#pending input[data-reason-for]`)))
		typeKeys(t, ctx, "the ten was a club")
		waitJS(t, ctx, "the message cleared as the reason is typed", `document.getElementById("problem").classList.contains("hidden")`)
		do(t, ctx, chromedp.Click(chromedp.CSS(`#pending button[data-action=void]`)))
		waitJS(t, ctx, "the void dialog", `document.getElementById("confirm-dialog").open`)
		do(t, ctx, chromedp.Click(chromedp.CSS(`#confirm-ok`)))
		waitText(t, ctx, `#pending tbody`, "waits for a controller")
		if eval[bool](t, ctx, `!document.getElementById("problem").classList.contains("hidden")`) {
			t.Errorf("a message stays up after a valid void: %q", text(t, ctx, `#problem`))
		}
		shot(t, ctx, "floor-layout-"+tag)
	})
}

// Issue 35 item 7, table health: a pool links T12 and T13; T12 deals, the
// service's clock moves on 11 minutes, T12 deals again; T13 has sent
// nothing since the pool opened: the console flags it silent while T12
// deals (10 minutes, the default), and not with 15.
func TestFloorSilentTableFlagged(t *testing.T) {
	var offset atomic.Int64
	s, tok := startServerAt(t, nil, func() time.Time { return time.Now().Add(time.Duration(offset.Load())) })
	api(t, "POST", s.url+"/v1/pools", `{"id":"tables-1","currency":"SGD","rulesets":["mbs-megalink-ssp-v6"],"tables":["T12","T13"],"unit":500,"contributionBp":1733,"reserveBp":517,"reset":10000000}`,
		"Authorization", "Bearer "+tok[principal.Admin])
	playRound(t, s, tok, "tables-1", "R1", "3", "2c 4d 6h 8s Tc")
	offset.Store(int64(11 * time.Minute))
	playRound(t, s, tok, "tables-1", "R2", "3", "2c 4d 6h 8s Tc")
	ctx := screen(t, 1280, 720)
	signIn(t, ctx, s.url, tok[principal.Supervisor], "browser-supervisor (supervisor)", "tables-1")
	waitText(t, ctx, `#tables-flag`, "Silent while others deal: table T13")
	if row := text(t, ctx, `#tables tr[data-table=T13]`); !strings.Contains(row, "SILENT") {
		t.Errorf("T13's row: %q", row)
	}
	if row := text(t, ctx, `#tables tr[data-table=T12]`); !strings.Contains(row, "R2") || !strings.Contains(row, "dealing") {
		t.Errorf("T12's row: %q", row)
	}
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`document.getElementById("tables-card").scrollIntoView()`))
	shot(t, ctx, "floor-tables-1280x720-silent")
	checkA11y(t, ctx, "console with a silent table")
	// By keyboard: 15 minutes, and T13 (11 minutes) is no longer silent.
	do(t, ctx, chromedp.Focus(chromedp.CSS(`#silent-after`)), chromedp.KeyEvent(kb.End))
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`document.getElementById("silent-after").select()`))
	typeKeys(t, ctx, "15")
	do(t, ctx, chromedp.KeyEvent(kb.Tab))
	waitJS(t, ctx, "no silent table with 15 minutes", `document.getElementById("tables-flag").classList.contains("hidden")`)
}
