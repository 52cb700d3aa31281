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
// keyboard alone a supervisor dismisses the hit alert, mutes the sound,
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

	do(t, ctx, chromedp.Focus(chromedp.CSS(`#pool-id`)))
	tabTo(t, ctx, `#hit-alert-dismiss`, false, 6)
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
