package browser

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/tablesettle/tablesettle/internal/principal"
)

// axeSource is axe-core as npm installed it (package.json pins the
// version; `make test-browser` runs npm ci): read from disk and evaluated
// in the page, so the page fetches nothing from a network.
const axeSource = "node_modules/axe-core/axe.min.js"

// axeTags are the WCAG 2 level A and AA rules (2.0, 2.1, 2.2) of axe-core.
const axeTags = `["wcag2a","wcag2aa","wcag21a","wcag21aa","wcag22aa"]`

// violation is one failed axe rule with the elements it failed on.
type violation struct {
	ID      string   `json:"id"`
	Impact  string   `json:"impact"`
	Help    string   `json:"help"`
	Targets []string `json:"targets"`
}

// axeRun runs axe-core's WCAG 2 A/AA rules over the page as it stands and
// returns the violations and the number of rules the page passed.
func axeRun(t *testing.T, ctx context.Context, page string) ([]violation, int) {
	t.Helper()
	src, err := os.ReadFile(axeSource)
	if err != nil {
		t.Fatalf("axe-core is missing (%v): `make test-browser` installs it with npm ci in test/browser", err)
	}
	do(t, ctx, chromedp.Evaluate[chromedp.Void](string(src)))
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](`axe.run(document, {runOnly: {type: "tag", values: `+axeTags+`}, resultTypes: ["violations"]})
  .then((r) => ({passes: r.passes.length, incomplete: r.incomplete.map((v) => v.id + ": " + v.nodes.map((n) => n.target.join(" ") + " (" + n.any.concat(n.all, n.none).map((c) => c.message).join("; ") + ")").join(", ")), violations: r.violations.map((v) => ({id: v.id, impact: v.impact || "", help: v.help, targets: v.nodes.map((n) => n.target.join(" "))}))}))`,
		chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: axe.run: %v", page, err)
	}
	var out struct {
		Passes     int         `json:"passes"`
		Incomplete []string    `json:"incomplete"`
		Violations []violation `json:"violations"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s: axe result %s: %v", page, raw, err)
	}
	for _, i := range out.Incomplete {
		t.Logf("%s: axe could not decide %s", page, i)
	}
	return out.Violations, out.Passes
}

// checkA11y fails the test on any axe violation of the page, naming the
// rule, its impact and the elements it failed on; a page on which axe
// passed no rule at all was not checked, and fails too.
func checkA11y(t *testing.T, ctx context.Context, page string) {
	t.Helper()
	vs, passes := axeRun(t, ctx, page)
	for _, v := range vs {
		t.Errorf("%s: axe %s (%s): %s on %s", page, v.ID, v.Impact, v.Help, strings.Join(v.Targets, ", "))
	}
	if passes < 10 {
		t.Errorf("%s: axe passed only %d rules: the page was not checked", page, passes)
	}
	t.Logf("%s: axe: %d rules passed, %d violated", page, passes, len(vs))
}

// pendingRoyal creates pool id (it verifies percentage prizes) and applies
// a round in which seat 3 holds a Royal Flush: the hit is committed pending
// (the jackpot lock, rulings R3, R4).
func pendingRoyal(t *testing.T, s *server, tok map[principal.Role]string, id string) {
	t.Helper()
	api(t, "POST", s.url+"/v1/pools", `{"id":"`+id+`","currency":"SGD","tables":["T12"],"rulesets":["mbs-megalink-ssp-v6"],"unit":500,"contributionBp":1733,"reserveBp":517,"reset":10000000,"verify":{"percent":true}}`,
		"Authorization", "Bearer "+tok[principal.Admin])
	round := `{"ruleset":"mbs-megalink-ssp-v6","table":"T12","roundId":"R1","progressiveUnit":500,"dealtAt":"2026-03-01T20:00:00Z","dealer":"2d 3d 5h 8c 9s",` +
		`"positions":[{"seat":1,"cards":"Kc Kh Kd Ac Ah","wagers":{"ante":1000,"bet":2000,"progressive":500}},{"seat":3,"cards":"Ts Js Qs Ks As","wagers":{"ante":1000,"bet":2000,"progressive":500}}]}`
	out := api(t, "POST", s.url+"/v1/pools/"+id+"/rounds", round, "Idempotency-Key", id+"-r1", "Authorization", "Bearer "+tok[principal.Table])
	if !strings.Contains(out, `"status":"pending"`) {
		t.Fatalf("the Royal is not pending: %s", out)
	}
}

// Issue 14 must-hold "keyboard usable, sensible contrast": every floor
// page passes axe-core's WCAG 2 A/AA rules in the states the floor sees
// it: the console signed out (token and IAM sign-in) and signed in as a
// supervisor with a pending hit, a cage with a hit to pay, an admin, and a
// controller with a proposal and a reconcile; the meter display with a
// pending hit; the playground with a settled round, a clause open and a refused round.
func TestPagesPassAxe(t *testing.T) {
	s, tok := startServerWith(t)
	pendingRoyal(t, s, tok, "axe-1")

	t.Run("console signed out", func(t *testing.T) {
		ctx := browser(t, 1280, 720)
		do(t, ctx, chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(chromedp.CSS(`#signin`)))
		waitText(t, ctx, `#who`, "not signed in")
		shot(t, ctx, "a11y-1-console-signed-out")
		checkA11y(t, ctx, "console signed out")
	})
	t.Run("console supervisor with a pending hit", func(t *testing.T) {
		ctx := browser(t, 1280, 720)
		signIn(t, ctx, s.url, tok[principal.Supervisor], "browser-supervisor (supervisor)", "axe-1")
		waitText(t, ctx, `#pending tbody`, "Ts Js Qs Ks As")
		waitText(t, ctx, `#ledger-count`, "entries")
		shot(t, ctx, "a11y-2-console-supervisor-pending")
		checkA11y(t, ctx, "console supervisor")
	})
	t.Run("console IAM sign-in", func(t *testing.T) {
		ctx := browser(t, 1280, 720)
		do(t, ctx, chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(chromedp.CSS(`#signin`)),
			chromedp.Click(chromedp.CSS(`#mode-iam`)), chromedp.WaitVisible(chromedp.CSS(`#iam-key`)))
		shot(t, ctx, "a11y-1b-console-iam")
		checkA11y(t, ctx, "console IAM sign-in")
	})
	t.Run("console cage with a hit to pay", func(t *testing.T) {
		pendingRoyal(t, s, tok, "axe-2")
		api(t, "POST", s.url+"/v1/pools/axe-2/hits/4/confirm", "", "Authorization", "Bearer "+tok[principal.Supervisor], "Idempotency-Key", "axe-2-confirm")
		ctx := browser(t, 1280, 720)
		signIn(t, ctx, s.url, tok[principal.Cage], "browser-cage (cage)", "axe-2")
		waitText(t, ctx, `#topay tbody`, "browser-supervisor")
		shot(t, ctx, "a11y-2b-console-cage")
		checkA11y(t, ctx, "console cage")
	})
	t.Run("console admin and controller with a proposal", func(t *testing.T) {
		api(t, "POST", s.url+"/v1/pools/axe-1/adjustments", `{"meter":"reserve","amount":50000,"reason":"reserve top-up"}`,
			"Authorization", "Bearer "+tok[principal.Admin], "Idempotency-Key", "axe-1-adjust")
		ctx := browser(t, 1280, 720)
		signIn(t, ctx, s.url, tok[principal.Admin], "browser-admin (admin)", "axe-1")
		do(t, ctx, chromedp.WaitVisible(chromedp.CSS(`#adjust-form`)))
		shot(t, ctx, "a11y-2c-console-admin")
		checkA11y(t, ctx, "console admin")

		ctl := browser(t, 1280, 720)
		signIn(t, ctl, s.url, tok[principal.Controller], "browser-controller (controller)", "axe-1")
		waitText(t, ctl, `#proposals tbody`, "reserve top-up")
		do(t, ctl, chromedp.Click(chromedp.CSS(`#reconcile`)))
		waitText(t, ctl, `#reconcile-result`, "Reconciled")
		shot(t, ctl, "a11y-2d-console-controller")
		checkA11y(t, ctl, "console controller")
	})
	t.Run("display with a pending hit", func(t *testing.T) {
		ctx := browser(t, 1920, 1080)
		do(t, ctx, chromedp.Navigate(s.url+"/display/axe-1#token="+tok[principal.Cage]))
		waitText(t, ctx, `#lock`, "JACKPOT PENDING")
		waitText(t, ctx, `#status`, "live")
		shot(t, ctx, "a11y-3-display-pending")
		checkA11y(t, ctx, "display")
	})
	t.Run("playground with a settled round", func(t *testing.T) {
		ctx := browser(t, 1280, 720)
		settlePlayground(t, ctx, s.url)
		shot(t, ctx, "a11y-4-playground-settled")
		checkA11y(t, ctx, "playground")
		// A citation opens the clause's text in a dialog.
		do(t, ctx, chromedp.Click(chromedp.CSS(`#lines button.cite`)))
		waitText(t, ctx, `#clause-text`, "3.10")
		shot(t, ctx, "a11y-5-playground-clause")
		checkA11y(t, ctx, "playground clause dialog")
		// A refused round shows the API's problem.
		do(t, ctx, chromedp.KeyEvent(kb.Escape),
			chromedp.SetValue(chromedp.CSS(`#round`), `{"ruleset":"mbs-megalink-ssp-v6","roundId":"X","currency":"SGD","dealer":"As Kd 7h 4c 2s","positions":[{"seat":1,"cards":"Qh Qd Qs 9c ZZ","wagers":{"ante":1000}}]}`),
			chromedp.Click(chromedp.CSS(`#settle`)))
		waitText(t, ctx, `#problem`, "422")
		shot(t, ctx, "a11y-6-playground-problem")
		checkA11y(t, ctx, "playground problem")
	})
}

// settlePlayground opens the playground and settles its example round
// (SSP v6).
func settlePlayground(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	do(t, ctx,
		chromedp.Navigate(url+"/playground"),
		chromedp.WaitReady(chromedp.CSS(`#ruleset option[value="mbs-megalink-ssp-v6"]`)),
		chromedp.SetValue(chromedp.CSS(`#ruleset`), "mbs-megalink-ssp-v6"),
		chromedp.Click(chromedp.CSS(`#example`)),
		chromedp.Click(chromedp.CSS(`#settle`)),
		chromedp.WaitVisible(chromedp.CSS(`#result-card`)),
	)
	waitText(t, ctx, `#summary`, "Staked SGD")
}

// The check itself fails where it must: a page with an unlabelled field,
// grey-on-grey text (1.3:1) and no language has exactly those violations.
func TestAxeFindsViolations(t *testing.T) {
	s := startServer(t)
	ctx := browser(t, 1280, 720)
	do(t, ctx, chromedp.Navigate(s.url+"/playground"), chromedp.Evaluate[chromedp.Void](`
document.documentElement.removeAttribute("lang");
const main = document.querySelector("main");
main.insertAdjacentHTML("afterbegin", '<input id="bad-field"><p id="bad-text">low contrast</p>');
const p = document.getElementById("bad-text"); // the pages' CSP refuses inline style attributes
p.style.color = "#777"; p.style.background = "#666";`))
	vs, _ := axeRun(t, ctx, "broken playground")
	got := map[string]string{}
	for _, v := range vs {
		got[v.ID] = strings.Join(v.Targets, ", ")
	}
	for id, target := range map[string]string{"label": "#bad-field", "color-contrast": "#bad-text", "html-has-lang": "html"} {
		if !strings.Contains(got[id], target) {
			t.Errorf("axe did not report %s on %s; it reported %v", id, target, got)
		}
	}
}
