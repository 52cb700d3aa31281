package browser

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/tablesettle/tablesettle/internal/principal"
)

// focused describes the element that has the focus and whether its focus
// is visible: a drawn outline (not none, not zero wide).
type focused struct {
	Matches bool   `json:"matches"`
	Desc    string `json:"desc"`
	Outline string `json:"outline"`
	Visible bool   `json:"visible"`
}

// focus reports on the focused element; matches says whether it is the
// element sel selects.
func focus(t *testing.T, ctx context.Context, sel string) focused {
	t.Helper()
	f, err := chromedp.Run(ctx, chromedp.Evaluate[focused](`(() => {
  const e = document.activeElement;
  const s = getComputedStyle(e);
  return {
    matches: !!e && e.matches(`+strconv.Quote(sel)+`),
    desc: e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.dataset.action ? "[data-action=" + e.dataset.action + "]" : "") + " " + (e.textContent || "").trim().slice(0, 20),
    outline: s.outlineStyle + " " + s.outlineWidth + " " + s.outlineColor,
    visible: e !== document.body && s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0,
  };
})()`))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// tabTo presses Tab (or Shift+Tab when back) until the element sel
// selects has the focus, at most max times, and fails the test when it
// never does or when any element the focus passes shows no visible focus.
func tabTo(t *testing.T, ctx context.Context, sel string, back bool, max int) {
	t.Helper()
	var opts []chromedp.KeyOption
	if back {
		opts = append(opts, chromedp.KeyModifiers(chromedp.ModifierShift))
	}
	var path []string
	for i := 0; i < max; i++ {
		do(t, ctx, chromedp.KeyEvent(kb.Tab, opts...))
		f := focus(t, ctx, sel)
		path = append(path, f.Desc)
		if !f.Visible {
			t.Errorf("focus on %s is not visible (outline %s)", f.Desc, f.Outline)
		}
		if f.Matches {
			return
		}
	}
	t.Fatalf("%d presses of Tab (back %v) never reached %s; the focus went %s", max, back, sel, strings.Join(path, " → "))
}

// typeKeys types s into the focused element as key presses.
func typeKeys(t *testing.T, ctx context.Context, s string) {
	t.Helper()
	do(t, ctx, chromedp.KeyEvent(s))
}

// Issue 14 must-hold "keyboard usable": a supervisor signs in to the
// console and confirms a pending hit with the keyboard alone (Tab,
// Shift+Tab, Enter, Space; no click, no value set by script), and every
// element the focus passes shows it with an outline.
func TestConsoleByKeyboard(t *testing.T) {
	s, tok := startServerWith(t)
	pendingRoyal(t, s, tok, "kbd-1")
	ctx := browser(t, 1280, 720)
	do(t, ctx, chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(chromedp.CSS(`#signin`)))
	waitText(t, ctx, `#who`, "not signed in")

	// Sign in: Tab to the token field, type it, Tab to Sign in, Enter.
	tabTo(t, ctx, `#token`, false, 10)
	typeKeys(t, ctx, tok[principal.Supervisor])
	tabTo(t, ctx, `#signin button[type=submit]`, false, 3)
	shot(t, ctx, "kbd-1-focus-sign-in")
	do(t, ctx, chromedp.KeyEvent(kb.Enter))
	waitText(t, ctx, `#who`, "browser-supervisor (supervisor)")

	// Open the pool: Tab to the pool id, type it, Enter submits.
	tabTo(t, ctx, `#pool-id`, false, 5)
	typeKeys(t, ctx, "kbd-1")
	do(t, ctx, chromedp.KeyEvent(kb.Enter))
	waitText(t, ctx, `#pending tbody`, "Ts Js Qs Ks As")

	// Past Confirm to Void, then Shift+Tab back to Confirm, and Space.
	tabTo(t, ctx, `#pending button[data-action=void]`, false, 8)
	tabTo(t, ctx, `#pending button[data-action=confirm]`, true, 3)
	shot(t, ctx, "kbd-2-focus-confirm")
	do(t, ctx, chromedp.KeyEvent(" "))
	// The dialog restates the hit with Cancel focused; Tab to OK, Space.
	waitJS(t, ctx, "the confirmation dialog", `document.getElementById("confirm-dialog").open`)
	if f := focus(t, ctx, `#confirm-cancel`); !f.Matches {
		t.Errorf("the dialog opened with the focus on %s, want Cancel", f.Desc)
	}
	tabTo(t, ctx, `#confirm-ok`, false, 2)
	shot(t, ctx, "kbd-2b-focus-dialog-ok")
	do(t, ctx, chromedp.KeyEvent(" "))
	waitText(t, ctx, `#pending tbody`, "No pending hit.")
	waitText(t, ctx, `#ledger tbody`, "browser-supervisor")
	// The confirmed row is gone; the focus went to its card's heading, not
	// back to the top of the page.
	if f := focus(t, ctx, `#pending-h`); !f.Matches || !f.Visible {
		t.Errorf("after the confirm the focus is on %s (outline %s), want a visible focus on the pending hits' heading", f.Desc, f.Outline)
	}
	shot(t, ctx, "kbd-3-confirmed")

	// The API holds it confirmed by the supervisor.
	out := api(t, "GET", s.url+"/v1/pools/kbd-1/hits", "", "Authorization", "Bearer "+tok[principal.Cage])
	if !strings.Contains(out, `"state":"confirmed"`) || !strings.Contains(out, `"browser-supervisor"`) {
		t.Errorf("the hit is not confirmed by the supervisor: %s", out)
	}
}

// Issue 24 must-hold "keyboard-only paths for every action": with the
// keyboard alone a supervisor acknowledges and dismisses the hit alert, mutes the sound,
// proposes a void through its dialog (the row then says the proposal
// waits) and withdraws it; every stop shows its focus.
func TestConsoleVoidAndWithdrawByKeyboard(t *testing.T) {
	s, tok := startServerWith(t)
	createLockPool(t, s, tok, "kbd-2")
	ctx := browser(t, 1280, 720)
	signIn(t, ctx, s.url, tok[principal.Supervisor], "browser-supervisor (supervisor)", "kbd-2")
	waitText(t, ctx, `#pending tbody`, "No pending hit.")
	time.Sleep(700 * time.Millisecond)
	playRound(t, s, tok, "kbd-2", "R1", "3", "Ts Js Qs Ks As")
	waitText(t, ctx, `#hit-alert`, "seat 3")

	// The alert comes first after the header: acknowledge it (issue 35),
	// then Dismiss, which has the focus then.
	do(t, ctx, chromedp.Focus(chromedp.CSS(`header nav a:last-child`)))
	tabTo(t, ctx, `#hit-alert-ack`, false, 2)
	do(t, ctx, chromedp.KeyEvent(kb.Enter))
	waitText(t, ctx, `#hit-alert`, "acknowledged by browser-supervisor")
	if f := focus(t, ctx, `#hit-alert-dismiss`); !f.Matches {
		t.Errorf("after Acknowledge the focus is on %s, want Dismiss", f.Desc)
	}
	do(t, ctx, chromedp.KeyEvent(kb.Enter))
	waitJS(t, ctx, "the alert dismissed", `document.getElementById("hit-alert").classList.contains("hidden")`)
	if f := focus(t, ctx, `#queue-h`); !f.Matches {
		t.Errorf("after Dismiss the focus is on %s, want the hit queue's heading", f.Desc)
	}
	tabTo(t, ctx, `#mute`, false, 3)
	do(t, ctx, chromedp.KeyEvent(" "))
	if p := eval[string](t, ctx, `document.getElementById("mute").getAttribute("aria-pressed")`); p != "true" {
		t.Errorf("Space on mute: aria-pressed %q", p)
	}

	tabTo(t, ctx, `#pending input[aria-label^="reason to void"]`, false, 12)
	typeKeys(t, ctx, "the ten was a club")
	tabTo(t, ctx, `#pending button[data-action=void]`, false, 2)
	do(t, ctx, chromedp.KeyEvent(kb.Enter))
	waitJS(t, ctx, "the void dialog", `document.getElementById("confirm-dialog").open`)
	if d := text(t, ctx, `#confirm-dialog`); !strings.Contains(d, "SGD 100,001.73") || !strings.Contains(d, "the ten was a club") {
		t.Errorf("the void dialog does not restate the hit and the reason: %q", d)
	}
	tabTo(t, ctx, `#confirm-ok`, false, 2)
	do(t, ctx, chromedp.KeyEvent(" "))
	waitText(t, ctx, `#pending tbody`, "waits for a controller")
	waitText(t, ctx, `#proposals tbody`, "the ten was a club")
	shot(t, ctx, "kbd-4-void-proposed")

	do(t, ctx, chromedp.Focus(chromedp.CSS(`#proposals-h`)))
	tabTo(t, ctx, `#proposals button[data-action=withdraw]`, false, 4)
	do(t, ctx, chromedp.KeyEvent(kb.Enter))
	waitText(t, ctx, `#proposals tbody`, "Nothing waits for a second signature.")
	waitJS(t, ctx, "the void controls back", `!!document.querySelector("#pending button[data-action=void]")`)
	shot(t, ctx, "kbd-5-void-withdrawn")
}

// pressOK, with a confirmation dialog open, checks the focus starts on
// Cancel, Tabs to OK and presses Space.
func pressOK(t *testing.T, ctx context.Context, wants ...string) {
	t.Helper()
	waitJS(t, ctx, "the confirmation dialog", `document.getElementById("confirm-dialog").open`)
	if f := focus(t, ctx, `#confirm-cancel`); !f.Matches || !f.Visible {
		t.Errorf("the dialog opened with the focus on %s (visible %v), want a visible focus on Cancel", f.Desc, f.Visible)
	}
	d := text(t, ctx, `#confirm-dialog`)
	for _, w := range wants {
		if !strings.Contains(d, w) {
			t.Errorf("the dialog lacks %q: %q", w, d)
		}
	}
	tabTo(t, ctx, `#confirm-ok`, false, 2)
	do(t, ctx, chromedp.KeyEvent(" "))
	waitJS(t, ctx, "the dialog closed", `!document.getElementById("confirm-dialog").open`)
}

// headingFocused fails unless the focus is visibly on heading sel (where
// the console puts it when the focused row went away).
func headingFocused(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	// The page moves the focus once the action's answer is drawn (the
	// dialog closed, the lists redrawn): looked at for up to 2 s.
	var f focused
	for i := 0; i < 20; i++ {
		if f = focus(t, ctx, sel); f.Matches && f.Visible {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Errorf("the focus is on %s (outline %s), want a visible focus on %s", f.Desc, f.Outline, sel)
}

// Issue 24 must-hold "keyboard-only paths for every action": a controller
// approves an admin's +SGD 500.00 reserve adjustment with the keyboard
// alone, through the dialog that restates it; the reserve then holds it
// (dual control, ruling R9's second signature).
func TestControllerApprovesByKeyboard(t *testing.T) {
	s, tok := startServerWith(t)
	createLockPool(t, s, tok, "kbd-approve")
	api(t, "POST", s.url+"/v1/pools/kbd-approve/adjustments", `{"meter":"reserve","amount":50000,"reason":"opening float"}`,
		"Authorization", "Bearer "+tok[principal.Admin], "Idempotency-Key", "kbd-approve-adj")
	ctx := browser(t, 1280, 720)
	signIn(t, ctx, s.url, tok[principal.Controller], "browser-controller (controller)", "kbd-approve")
	waitText(t, ctx, `#proposals tbody`, "opening float")

	do(t, ctx, chromedp.Focus(chromedp.CSS(`#proposals-h`)))
	tabTo(t, ctx, `#proposals button[data-action=approve]`, false, 4)
	shot(t, ctx, "kbd-6-focus-approve")
	do(t, ctx, chromedp.KeyEvent(kb.Enter))
	pressOK(t, ctx, "+SGD 500.00", "opening float")
	waitText(t, ctx, `#proposals tbody`, "Nothing waits for a second signature.")
	headingFocused(t, ctx, `#proposals-h`)
	shot(t, ctx, "kbd-7-approved")
	if out := api(t, "GET", s.url+"/v1/pools/kbd-approve", "", "Authorization", "Bearer "+tok[principal.Cage]); !strings.Contains(out, `"reserve":50000`) {
		t.Errorf("the reserve does not hold the approved SGD 500.00: %s", out)
	}
}

// Issue 24 must-hold "keyboard-only paths for every action": the cage
// marks a confirmed Royal paid through its dialog (SGD 100,001.73, R3),
// opens the paid hit's jackpot slip and closes it, and runs the shift
// report and its CSV download, with the keyboard alone.
func TestCagePaysSlipsAndReportsByKeyboard(t *testing.T) {
	s, tok := startServerWith(t)
	pendingRoyal(t, s, tok, "kbd-cage")
	seq := hitSeq(t, s, tok, "kbd-cage", 3)
	api(t, "POST", s.url+"/v1/pools/kbd-cage/hits/"+seq+"/confirm", "", "Authorization", "Bearer "+tok[principal.Supervisor], "Idempotency-Key", "kbd-cage-confirm")
	ctx := browser(t, 1280, 720)
	signIn(t, ctx, s.url, tok[principal.Cage], "browser-cage (cage)", "kbd-cage")
	waitText(t, ctx, `#topay tbody`, "100,001.73")

	// Mark paid.
	do(t, ctx, chromedp.Focus(chromedp.CSS(`#pay-h`)))
	tabTo(t, ctx, `#topay button[data-action=paid]`, false, 3)
	shot(t, ctx, "kbd-8-focus-mark-paid")
	do(t, ctx, chromedp.KeyEvent(kb.Enter))
	pressOK(t, ctx, "SGD 100,001.73", "table T12 · seat 3")
	waitText(t, ctx, `#topay tbody`, "Nothing to pay.")
	headingFocused(t, ctx, `#pay-h`)
	if out := api(t, "GET", s.url+"/v1/pools/kbd-cage/hits?state=all", "", "Authorization", "Bearer "+tok[principal.Cage]); !strings.Contains(out, `"state":"paid"`) {
		t.Errorf("the hit is not paid: %s", out)
	}

	// The slip: Enter opens it, the focus is inside it, Close returns the
	// focus to the Slip button.
	waitJS(t, ctx, "the slip button", `!!document.querySelector("#queue button[data-action=slip]")`)
	do(t, ctx, chromedp.Focus(chromedp.CSS(`#queue-h`)))
	tabTo(t, ctx, `#queue button[data-action=slip]`, false, 4)
	do(t, ctx, chromedp.KeyEvent(kb.Enter))
	waitJS(t, ctx, "the slip", `document.getElementById("slip-dialog").open`)
	waitText(t, ctx, `#slip-body`, "Paid by")
	if s := text(t, ctx, `#slip-body`); !strings.Contains(s, "SGD 100,001.73") || !strings.Contains(s, "browser-cage (cage)") {
		t.Errorf("the slip: %q", s)
	}
	if f := focus(t, ctx, `#slip-dialog *`); !f.Matches || !f.Visible {
		t.Errorf("with the slip open the focus is on %s (visible %v), want a visible focus inside the slip", f.Desc, f.Visible)
	}
	shot(t, ctx, "kbd-9-slip")
	tabTo(t, ctx, `#slip-dialog form button`, false, 3)
	do(t, ctx, chromedp.KeyEvent(kb.Enter))
	waitJS(t, ctx, "the slip closed", `!document.getElementById("slip-dialog").open`)
	if f := focus(t, ctx, `#queue button[data-action=slip]`); !f.Matches {
		t.Errorf("after the slip closed the focus is on %s, want the Slip button", f.Desc)
	}

	// The report: Tab to Show the report, Enter; Tab to Download CSV, Enter.
	do(t, ctx, chromedp.Focus(chromedp.CSS(`#r-to`)))
	tabTo(t, ctx, `#report-form button[type=submit]`, false, 12)
	do(t, ctx, chromedp.KeyEvent(kb.Enter))
	waitText(t, ctx, `#report-result`, "Closing meters")
	if r := text(t, ctx, `#report-result`); !strings.Contains(r, "SGD 100,001.73 (paid)") {
		t.Errorf("the report lacks the paid Royal: %q", r)
	}
	tabTo(t, ctx, `#r-csv`, false, 2)
	shot(t, ctx, "kbd-10-focus-csv")
	do(t, ctx, chromedp.KeyEvent(kb.Enter))
	waitJS(t, ctx, "the CSV", `!!document.getElementById("report-result").dataset.csv`)
	if csv := eval[string](t, ctx, `document.getElementById("report-result").dataset.csv`); !strings.Contains(csv, "T12") {
		t.Errorf("the CSV report: %q", csv)
	}
}

// Issue 24 must-hold "keyboard-only paths for every action": Release by
// keyboard. A held RWS Royal is paid by the service's clock at its
// window's close (release on read), so the console never lists a due held
// hit; Release on a held hit whose window is open pays nothing (ruling R7:
// not before its window closes) and says so, naming when it closes.
func TestReleaseByKeyboard(t *testing.T) {
	s, tok := startServerWith(t)
	api(t, "POST", s.url+"/v1/pools", `{"id":"kbd-rws","currency":"SGD","rulesets":["rws-mlp-csp-v2"],"tables":["T12"],"unit":100,"contributionBp":2000,"reserveBp":500,"reset":10000000,"settleWindowMs":600000}`,
		"Authorization", "Bearer "+tok[principal.Admin])
	round := `{"ruleset":"rws-mlp-csp-v2","table":"T12","roundId":"H1","progressiveUnit":100,"dealtAt":"` + time.Now().UTC().Format(time.RFC3339) + `","dealer":"2d 3d 5h 8c 9s",` +
		`"positions":[{"seat":3,"cards":"Ts Js Qs Ks As","wagers":{"ante":1000,"bet":2000,"progressive":100}}]}`
	api(t, "POST", s.url+"/v1/pools/kbd-rws/rounds", round, "Idempotency-Key", "kbd-rws-h1", "Authorization", "Bearer "+tok[principal.Table])
	ctx := browser(t, 1280, 720)
	signIn(t, ctx, s.url, tok[principal.Supervisor], "browser-supervisor (supervisor)", "kbd-rws")
	waitText(t, ctx, `#queue tbody`, "held")

	do(t, ctx, chromedp.Focus(chromedp.CSS(`#queue-h`)))
	tabTo(t, ctx, `#release`, false, 3)
	shot(t, ctx, "kbd-11-focus-release")
	do(t, ctx, chromedp.KeyEvent(kb.Enter))
	waitText(t, ctx, `#release-result`, "No held hit is due")
	if r := text(t, ctx, `#release-result`); !strings.Contains(r, "table T12 seat 3") || !strings.Contains(r, "window closes") {
		t.Errorf("the release result does not say which hit waits and until when: %q", r)
	}
	if f := focus(t, ctx, `#release`); !f.Matches || !f.Visible {
		t.Errorf("after Release the focus is on %s, want it kept visibly on Release", f.Desc)
	}
	waitText(t, ctx, `#queue tbody`, "held")
	shot(t, ctx, "kbd-12-released-none-due")
}
