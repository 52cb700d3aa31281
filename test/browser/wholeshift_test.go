package browser

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/tablesettle/tablesettle/internal/principal"
)

// A whole shift on the floor pages (issue 24 must-hold), at each screen
// the floor uses (390x844, 1280x720, 1920x1080, 3840x2160), with a screenshot of
// every state: the supervisor's console is open when a Royal arrives (the
// alert, the queue); Confirm is double-clicked (one dialog, one confirm);
// a pool id is mistyped (no live button of the old pool); the network
// drops and comes back (the console says so, then recovers by itself);
// the cage marks the hit paid through its dialog; the sign shows each
// stage; the playground settles a round. axe-core checks the new states
// (the alert, the queue, the dialog) at 1280x720.
func TestAShift(t *testing.T) {
	s, tok := startServerWith(t)
	eachSize(t, func(t *testing.T, tag string, w, h int64) {
		pool := "shift-" + tag
		createLockPool(t, s, tok, pool)
		sign := screen(t, w, h)
		do(t, sign, chromedp.Navigate(s.url+"/display/"+pool+"#token="+tok[principal.Cage]))
		waitText(t, sign, `#amount`, "100,000.00")
		waitText(t, sign, `#status`, "live")
		shot(t, sign, "shift-"+tag+"-sign-1-live")

		ctx := screen(t, w, h)
		signIn(t, ctx, s.url, tok[principal.Supervisor], "browser-supervisor (supervisor)", pool)
		waitText(t, ctx, `#pending tbody`, "No pending hit.")
		noHorizontalScroll(t, ctx, "console "+tag)
		shot(t, ctx, "shift-"+tag+"-console-1-open")

		// A Royal arrives while the page is open.
		playRound(t, s, tok, pool, "R1", "3", "Ts Js Qs Ks As")
		waitText(t, ctx, `#hit-alert`, "table T12 · seat 3 · Royal Flush · SGD 100,001.73")
		waitText(t, ctx, `#queue tbody`, "pending")
		noHorizontalScroll(t, ctx, "console with an alert "+tag)
		shot(t, ctx, "shift-"+tag+"-console-2-alert")
		waitText(t, sign, `#lock`, "JACKPOT PENDING · table T12 seat 3 · SGD 100,001.73")
		shot(t, sign, "shift-"+tag+"-sign-2-pending")
		if w == 1280 {
			checkA11y(t, ctx, "console with the hit alert and queue")
		}

		// A double-click on Confirm opens one dialog; OK confirms once.
		do(t, ctx, chromedp.Evaluate[chromedp.Void](`(() => { const b = document.querySelector("#pending button[data-action=confirm]"); b.click(); b.click(); })()`))
		waitJS(t, ctx, "the confirmation dialog", `document.getElementById("confirm-dialog").open`)
		noHorizontalScroll(t, ctx, "confirmation dialog "+tag)
		shot(t, ctx, "shift-"+tag+"-console-3-dialog")
		if w == 1280 {
			checkA11y(t, ctx, "console confirmation dialog")
		}
		do(t, ctx, chromedp.Evaluate[chromedp.Void](`(() => { const b = document.getElementById("confirm-ok"); b.click(); b.click(); })()`))
		waitText(t, ctx, `#pending tbody`, "No pending hit.")
		waitText(t, ctx, `#queue tbody`, "confirmed")
		waitText(t, sign, `#lock`, "JACKPOT VERIFIED")
		shot(t, sign, "shift-"+tag+"-sign-3-verified")
		var ledger struct {
			Entries []struct {
				Kind string `json:"kind"`
			} `json:"entries"`
		}
		if err := json.Unmarshal([]byte(api(t, "GET", s.url+"/v1/pools/"+pool+"/ledger", "", "Authorization", "Bearer "+tok[principal.Cage])), &ledger); err != nil {
			t.Fatal(err)
		}
		confirms := 0
		for _, e := range ledger.Entries {
			if e.Kind == "hit_confirmed" {
				confirms++
			}
		}
		if confirms != 1 {
			t.Errorf("a double-click confirmed %d times, want once", confirms)
		}

		// A typo: nothing of the old pool can be pressed; then back.
		do(t, ctx, chromedp.SetValue(chromedp.CSS(`#pool-id`), pool+"x"), chromedp.Click(chromedp.CSS(`#pool-form button`)))
		waitText(t, ctx, `#problem`, "404")
		if n := eval[int](t, ctx, `[...document.querySelectorAll("button[data-action]")].filter((b) => !b.disabled && b.offsetParent !== null).length`); n != 0 {
			t.Errorf("%d buttons of the old pool live after a typo", n)
		}
		shot(t, ctx, "shift-"+tag+"-console-4-typo")
		do(t, ctx, chromedp.SetValue(chromedp.CSS(`#pool-id`), pool), chromedp.Click(chromedp.CSS(`#pool-form button`)))
		waitText(t, ctx, `#queue tbody`, "confirmed")

		// The network drops: the console says so; back, it recovers alone.
		do(t, ctx, chromedp.Evaluate[chromedp.Void](`(() => {
  window.realFetch = window.realFetch || window.fetch;
  window.fetch = () => Promise.reject(new TypeError("Failed to fetch"));
})()`))
		waitText(t, ctx, `#problem`, "not sent: the network or the server is unreachable")
		shot(t, ctx, "shift-"+tag+"-console-5-network-down")
		do(t, ctx, chromedp.Evaluate[chromedp.Void](`window.fetch = window.realFetch`))
		waitJS(t, ctx, "the problem cleared by the next poll", `document.getElementById("problem").classList.contains("hidden")`)

		// The cage pays through its dialog; the sign says who last won.
		cage := screen(t, w, h)
		signIn(t, cage, s.url, tok[principal.Cage], "browser-cage (cage)", pool)
		waitText(t, cage, `#topay tbody`, "browser-supervisor")
		shot(t, cage, "shift-"+tag+"-cage-1-to-pay")
		do(t, cage, chromedp.Click(chromedp.CSS(`#topay button[data-action=paid]`)))
		waitJS(t, cage, "the mark-paid dialog", `document.getElementById("confirm-dialog").open`)
		if d := text(t, cage, `#confirm-dialog`); !strings.Contains(d, "SGD 100,001.73") || !strings.Contains(d, "seat 3") {
			t.Errorf("the mark-paid dialog does not restate the hit: %q", d)
		}
		shot(t, cage, "shift-"+tag+"-cage-2-dialog")
		do(t, cage, chromedp.Click(chromedp.CSS(`#confirm-ok`)))
		waitText(t, cage, `#topay tbody`, "Nothing to pay.")
		waitText(t, cage, `#queue tbody`, "paid")
		noHorizontalScroll(t, cage, "cage console "+tag)
		shot(t, cage, "shift-"+tag+"-cage-3-paid")
		waitText(t, sign, `#last-won`, "Last won · Progressive jackpot · "+pool+": SGD 100,001.73")
		shot(t, sign, "shift-"+tag+"-sign-4-last-won")

		// The sign goes stale when its data stops.
		do(t, sign, chromedp.Evaluate[chromedp.Void](`window.fetch = () => Promise.reject(new TypeError("Failed to fetch"))`))
		waitText(t, sign, `#stale`, "STALE")
		shot(t, sign, "shift-"+tag+"-sign-5-stale")

		// The playground, settled and void.
		settlePlayground(t, ctx, s.url)
		noHorizontalScroll(t, ctx, "playground "+tag)
		shot(t, ctx, "shift-"+tag+"-playground-1-settled")
		settleBody(t, ctx, `{"ruleset":"mbs-megalink-ssp-v6","roundId":"PG","currency":"SGD","dealer":"As Kd 7h 4c 2s","positions":[{"seat":1,"cards":"Ts Js Qs Ks As","wagers":{"ante":1000,"bet":2000}}]}`)
		noHorizontalScroll(t, ctx, "playground void "+tag)
		shot(t, ctx, "shift-"+tag+"-playground-2-void")
	})
}
