package browser

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tablesettle/tablesettle/internal/principal"
)

// The playground settles a round through the API and shows every line with
// the rules it cites (SSP v6: a full house wins the Bet 7 to 1, 4.1.2, and
// the progressive's fixed SGD 200.00, 4.2).
func TestPlaygroundSettlesARound(t *testing.T) {
	s := startServer(t)
	ctx := browser(t, 1280, 720)
	do(t, ctx,
		chromedp.Navigate(s.url+"/playground"),
		chromedp.WaitReady(chromedp.CSS(`#ruleset option[value="mbs-megalink-ssp-v6"]`)),
		chromedp.SetValue(chromedp.CSS(`#ruleset`), "mbs-megalink-ssp-v6"),
		chromedp.Click(chromedp.CSS(`#example`)),
	)
	shot(t, ctx, "playground-1-composed")
	do(t, ctx, chromedp.Click(chromedp.CSS(`#settle`)), chromedp.WaitVisible(chromedp.CSS(`#result-card`)))
	rows := text(t, ctx, `#lines tbody`)
	// Seat 1: Qh Qd Qs 9c 9d, Bet 20.00 returns 160.00 (7 to 1, 4.1.2);
	// progressive 1.00 returns SGD 200.00 (4.2).
	for _, want := range []string{"Bet", "20.00", "7 to 1", "160.00", "mbs-megalink-ssp-v6 4.1.2", "SGD 200.00", "ruling R2"} {
		if !strings.Contains(rows, want) {
			t.Errorf("settlement lines lack %q:\n%s", want, rows)
		}
	}
	// Staked 31.00 + 30.00; returned 20.00+160.00+200.00 for seat 1 and
	// 20.00+1,020.00 for seat 2 (a straight flush wins the Bet 50 to 1).
	if got, want := text(t, ctx, `#summary`), "Staked SGD 61.00, returned SGD 1,420.00, house net SGD -1,359.00."; got != want {
		t.Errorf("summary = %q, want %q", got, want)
	}
	shot(t, ctx, "playground-2-settled")

	// A bad round is answered with the API's problem, naming the field.
	do(t, ctx,
		chromedp.SetValue(chromedp.CSS(`#round`), `{"ruleset":"mbs-megalink-ssp-v6","roundId":"X","currency":"SGD","dealer":"As Kd 7h 4c 2s","positions":[{"seat":1,"cards":"Qh Qd Qs 9c ZZ","wagers":{"ante":1000}}]}`),
		chromedp.Click(chromedp.CSS(`#settle`)),
	)
	waitText(t, ctx, `#problem`, "422")
	if p := text(t, ctx, `#problem`); !strings.Contains(p, "body.positions[0].cards") {
		t.Errorf("the problem does not name the field: %q", p)
	}
	shot(t, ctx, "playground-3-problem")
}

// The meter display shows the pool's displayed meter and follows a round
// applied to the pool within a second (RWS 4.5.1: the amount displayed is
// the amount paid), at 1920x1080 and 1280x720; it says when its data is
// stale.
func TestDisplayFollowsThePool(t *testing.T) {
	s, tok := startServerWith(t)
	admin, cage, table := "Bearer "+tok[principal.Admin], tok[principal.Cage], "Bearer "+tok[principal.Table]
	api(t, "POST", s.url+"/v1/pools", `{"id":"disp-1","currency":"SGD","tables":["T12"],"rulesets":["mbs-megalink-ssp-v6"],"unit":100,"contributionBp":2000,"reserveBp":500,"reset":10000000}`, "Authorization", admin)
	for _, size := range [][2]int{{1920, 1080}, {1280, 720}} {
		ctx := browser(t, size[0], size[1])
		tag := "display-" + strconv.Itoa(size[0]) + "x" + strconv.Itoa(size[1])
		do(t, ctx, chromedp.Navigate(s.url+"/display/disp-1#token="+cage))
		waitText(t, ctx, `#amount`, "100,000.00")
		waitText(t, ctx, `#status`, "live")
		shot(t, ctx, tag+"-1-reset")
		overflow, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth || document.documentElement.scrollHeight > window.innerHeight`))
		if err != nil {
			t.Fatal(err)
		}
		if overflow {
			t.Errorf("%s: the display does not fit its screen", tag)
		}
	}

	ctx := browser(t, 1280, 720)
	do(t, ctx, chromedp.Navigate(s.url+"/display/disp-1#token="+cage))
	waitText(t, ctx, `#amount`, "100,000.00")
	// Two progressive wagers of SGD 1.00 at 20% each: the meter gains 2 x
	// 20 cents (ruling R4: contributions first; no hit).
	round := `{"ruleset":"mbs-megalink-ssp-v6","table":"T12","roundId":"R1","progressiveUnit":100,"dealtAt":"` + time.Now().UTC().Format(time.RFC3339) +
		`","dealer":"As Kd 7h 4c 2s","positions":[{"seat":1,"cards":"2c 5d 9h Js Qc","wagers":{"ante":1000,"bet":2000,"progressive":100}},{"seat":2,"cards":"3c 6d 8h Ts Qd","wagers":{"ante":1000,"bet":2000,"progressive":100}}]}`
	out := api(t, "POST", s.url+"/v1/pools/disp-1/rounds", round, "Idempotency-Key", "disp-round-1", "Authorization", table)
	countPolls(t, ctx, "/display")
	var applied struct {
		Meters struct{ Displayed int64 } `json:"meters"`
	}
	if err := json.Unmarshal([]byte(out), &applied); err != nil {
		t.Fatal(err)
	}
	if applied.Meters.Displayed != 10000040 {
		t.Fatalf("meter after the round = %d, want 10000040", applied.Meters.Displayed)
	}
	waitText(t, ctx, `#amount`, "100,000.40")
	// The next poll shows it (one a second: the floor expects under a
	// second); counted, not timed (issue 33 item 11, polls_test.go).
	if n := polls(t, ctx); n > 2 {
		t.Errorf("the display took %d polls to follow the round; the next one should show it", n)
	}
	shot(t, ctx, "display-2-after-round")

	// The server goes away: the display keeps the last amount and says its
	// data is stale.
	_ = s.srv.Close()
	waitText(t, ctx, `#status`, "STALE")
	if got := text(t, ctx, `#amount`); got != "100,000.40" {
		t.Errorf("stale display shows %q, want the last amount 100,000.40", got)
	}
	shot(t, ctx, "display-3-stale")
}

// The jackpot lock through the console (issue 13, issue 14): a Royal
// Flush at a pool that verifies percentage prizes is committed pending and
// the pool reset; the meter display shows the pending win with its table
// and seat; a supervisor signs in to the console, sees the cards and the
// evaluated hand, and confirms; the cage then sees it to pay and marks it
// paid; the ledger names both principals.
func TestConsoleConfirmsAPendingRoyal(t *testing.T) {
	s, tok := startServerWith(t)
	api(t, "POST", s.url+"/v1/pools", `{"id":"lock-1","currency":"SGD","tables":["T12"],"rulesets":["mbs-megalink-ssp-v6"],"unit":500,"contributionBp":1733,"reserveBp":517,"reset":10000000,"verify":{"percent":true}}`,
		"Authorization", "Bearer "+tok[principal.Admin])
	// Seat 3's Royal: contributions first (2 x 500 at 17.33%: 173 with the
	// carry), then 100% of the pool, 10,000,173 (rulings R3, R4), pending.
	round := `{"ruleset":"mbs-megalink-ssp-v6","table":"T12","roundId":"R1","progressiveUnit":500,"dealtAt":"2026-03-01T20:00:00Z","dealer":"2d 3d 5h 8c 9s",` +
		`"positions":[{"seat":1,"cards":"Kc Kh Kd Ac Ah","wagers":{"ante":1000,"bet":2000,"progressive":500}},{"seat":3,"cards":"Ts Js Qs Ks As","wagers":{"ante":1000,"bet":2000,"progressive":500}}]}`
	out := api(t, "POST", s.url+"/v1/pools/lock-1/rounds", round, "Idempotency-Key", "lock-r1", "Authorization", "Bearer "+tok[principal.Table])
	if !strings.Contains(out, `"status":"pending"`) || !strings.Contains(out, `"amount":10000173`) {
		t.Fatalf("the Royal is not pending at 10,000,173: %s", out)
	}

	display := browser(t, 1920, 1080)
	do(t, display, chromedp.Navigate(s.url+"/display/lock-1#token="+tok[principal.Cage]))
	waitText(t, display, `#lock`, "JACKPOT PENDING · table T12 seat 3 · SGD 100,001.73")
	waitText(t, display, `#amount`, "100,000.00") // the pool reset at once
	shot(t, display, "lock-1-display-pending")

	ctx := browser(t, 1280, 720)
	do(t, ctx,
		chromedp.Navigate(s.url+"/"),
		chromedp.SetValue(chromedp.CSS(`#token`), tok[principal.Supervisor]),
		chromedp.Click(chromedp.CSS(`#signin button[type=submit]`)),
	)
	waitText(t, ctx, `#who`, "browser-supervisor (supervisor)")
	do(t, ctx, chromedp.SetValue(chromedp.CSS(`#pool-id`), "lock-1"), chromedp.Click(chromedp.CSS(`#pool-form button`)))
	waitText(t, ctx, `#pending tbody`, "Ts Js Qs Ks As")
	row := text(t, ctx, `#pending tbody`)
	for _, want := range []string{"T12", "R1", "royal flush", "100,001.73"} {
		if !strings.Contains(row, want) {
			t.Errorf("pending row lacks %q: %s", want, row)
		}
	}
	shot(t, ctx, "lock-2-console-pending")
	do(t, ctx, chromedp.Click(chromedp.CSS(`#pending button[data-action=confirm]`)))
	confirmDialog(t, ctx, "SGD 100,001.73")
	waitText(t, ctx, `#pending tbody`, "No pending hit.")
	shot(t, ctx, "lock-3-console-confirmed")
	// The display shows the hit verified once it is confirmed (issue 24:
	// a confirmed but unpaid hit does not vanish).
	waitText(t, display, `#status`, "live")
	waitText(t, display, `#lock`, "JACKPOT VERIFIED · table T12 seat 3 · SGD 100,001.73")

	// The cage pays it.
	cage := browser(t, 1280, 720)
	do(t, cage,
		chromedp.Navigate(s.url+"/"),
		chromedp.SetValue(chromedp.CSS(`#token`), tok[principal.Cage]),
		chromedp.Click(chromedp.CSS(`#signin button[type=submit]`)),
	)
	waitText(t, cage, `#who`, "(cage)")
	do(t, cage, chromedp.SetValue(chromedp.CSS(`#pool-id`), "lock-1"), chromedp.Click(chromedp.CSS(`#pool-form button`)))
	waitText(t, cage, `#topay tbody`, "browser-supervisor")
	if row := text(t, cage, `#topay tbody`); !strings.Contains(row, "100,001.73") {
		t.Errorf("the cage's row lacks the amount: %s", row)
	}
	shot(t, cage, "lock-4-cage-to-pay")
	do(t, cage, chromedp.Click(chromedp.CSS(`#topay button[data-action=paid]`)))
	confirmDialog(t, cage, "SGD 100,001.73")
	waitText(t, cage, `#topay tbody`, "Nothing to pay.")
	// Paid: the display leaves the lock and says who last won.
	waitText(t, display, `#last-won`, "Last won: SGD 100,001.73 · royal flush · table T12 seat 3")
	if got := text(t, display, `#lock`); got != "" {
		t.Errorf("the display still shows the lock after the payment: %q", got)
	}
	// The ledger names who confirmed and who paid.
	waitText(t, cage, `#ledger tbody`, "browser-cage")
	if l := text(t, cage, `#ledger tbody`); !strings.Contains(l, "browser-supervisor") {
		t.Errorf("the ledger does not name the supervisor:\n%s", l)
	}
	shot(t, cage, "lock-5-cage-ledger")
}

// signIn signs the console in with a bearer token and opens pool.
func signIn(t *testing.T, ctx context.Context, url, token, who, pool string) {
	t.Helper()
	do(t, ctx,
		chromedp.Navigate(url+"/"),
		chromedp.SetValue(chromedp.CSS(`#token`), token),
		chromedp.Click(chromedp.CSS(`#signin button[type=submit]`)),
	)
	waitText(t, ctx, `#who`, who)
	do(t, ctx, chromedp.SetValue(chromedp.CSS(`#pool-id`), pool), chromedp.Click(chromedp.CSS(`#pool-form button`)))
	waitText(t, ctx, `#pool-summary`, "Displayed SGD")
}

// Dual control through the console (issue 16 item 3, issue 14): an admin
// proposes a +SGD 500.00 reserve adjustment; the reserve does not move; the
// same admin cannot approve it (the API refuses, the console shows why); a
// controller, another principal, approves it and the reserve is exactly
// 50,000 minor units, the ledger entry naming both.
func TestConsoleDualControlAdjustment(t *testing.T) {
	s, tok := startServerWith(t)
	createT12Pool(t, s.url, tok[principal.Admin], "dual-1")

	admin := browser(t, 1280, 720)
	signIn(t, admin, s.url, tok[principal.Admin], "browser-admin (admin)", "dual-1")
	do(t, admin,
		chromedp.SetValue(chromedp.CSS(`#adjust-meter`), "reserve"),
		chromedp.SendKeys(chromedp.CSS(`#adjust-amount`), "500.00"), // SGD, in currency units
		chromedp.SendKeys(chromedp.CSS(`#adjust-reason`), "reserve top-up, finance memo 12"),
		chromedp.Click(chromedp.CSS(`#adjust-form button[type=submit]`)),
	)
	waitText(t, admin, `#adjust-result`, "waits for a controller's approval.")
	waitText(t, admin, `#pool-summary`, "reserve 0.00")
	shot(t, admin, "dual-1-admin-proposed")

	// The proposer's own approval is refused by the API (403), whatever the
	// page does: the console has no way around it.
	var proposals struct {
		Proposals []struct {
			ID int64 `json:"id"`
		} `json:"proposals"`
	}
	out := api(t, "GET", s.url+"/v1/pools/dual-1/proposals", "", "Authorization", "Bearer "+tok[principal.Controller])
	if err := json.Unmarshal([]byte(out), &proposals); err != nil || len(proposals.Proposals) != 1 {
		t.Fatalf("open proposals: %s %v", out, err)
	}
	self := status(t, "POST", s.url+"/v1/pools/dual-1/proposals/"+strconv.FormatInt(proposals.Proposals[0].ID, 10)+"/approve", "",
		"Authorization", "Bearer "+tok[principal.Admin], "Idempotency-Key", "self-approve")
	if self != 403 {
		t.Errorf("the admin approving its own proposal: %d, want 403", self)
	}

	ctl := browser(t, 1280, 720)
	signIn(t, ctl, s.url, tok[principal.Controller], "browser-controller (controller)", "dual-1")
	waitText(t, ctl, `#proposals tbody`, "reserve meter +SGD 500.00 (now SGD 0.00, after SGD 500.00) · reason: reserve top-up, finance memo 12")
	if row := text(t, ctl, `#proposals tbody`); !strings.Contains(row, "browser-admin (admin)") {
		t.Errorf("the proposal does not name its proposer: %s", row)
	}
	shot(t, ctl, "dual-2-controller-sees-proposal")
	do(t, ctl, chromedp.Click(chromedp.CSS(`#proposals button[data-action=approve]`)))
	confirmDialog(t, ctl, "+SGD 500.00")
	waitText(t, ctl, `#proposals tbody`, "Nothing waits for a second signature.")
	waitText(t, ctl, `#pool-summary`, "reserve 500.00")
	waitText(t, ctl, `#ledger tbody`, "approved by browser-controller (controller)")
	if l := text(t, ctl, `#ledger tbody`); !strings.Contains(l, "500.00") {
		t.Errorf("the ledger shows no adjustment of 500.00:\n%s", l)
	}
	shot(t, ctl, "dual-3-controller-approved")

	var pool struct {
		Meters struct{ Displayed, Reserve int64 } `json:"meters"`
	}
	if err := json.Unmarshal([]byte(api(t, "GET", s.url+"/v1/pools/dual-1", "", "Authorization", "Bearer "+tok[principal.Cage])), &pool); err != nil {
		t.Fatal(err)
	}
	if pool.Meters.Reserve != 50000 || pool.Meters.Displayed != 10000000 {
		t.Errorf("meters after the approval: %+v, want reserve 50000, displayed 10000000", pool.Meters)
	}
	var ledger struct {
		Entries []struct {
			Kind       string `json:"kind"`
			Reserve    int64  `json:"reserve"`
			Actor      *struct{ ID, Role string }
			ApprovedBy *struct{ ID, Role string } `json:"approvedBy"`
		} `json:"entries"`
	}
	if err := json.Unmarshal([]byte(api(t, "GET", s.url+"/v1/pools/dual-1/ledger", "", "Authorization", "Bearer "+tok[principal.Cage])), &ledger); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range ledger.Entries {
		if e.Kind == "adjustment" {
			found = true
			if e.Reserve != 50000 || e.Actor == nil || e.Actor.ID != "browser-admin" || e.ApprovedBy == nil || e.ApprovedBy.ID != "browser-controller" {
				t.Errorf("the adjustment entry: %+v %+v %+v, want reserve 50000 by browser-admin approved by browser-controller", e, e.Actor, e.ApprovedBy)
			}
		}
	}
	if !found {
		t.Errorf("no adjustment entry in the ledger")
	}
}

// confirmDialog waits for the confirmation dialog, checks that it
// restates want, and presses its OK button.
func confirmDialog(t *testing.T, ctx context.Context, want string) {
	t.Helper()
	waitJS(t, ctx, "the confirmation dialog", `document.getElementById("confirm-dialog").open`)
	if d := text(t, ctx, `#confirm-dialog`); !strings.Contains(d, want) {
		t.Errorf("the confirmation dialog does not restate %q: %q", want, d)
	}
	do(t, ctx, chromedp.Click(chromedp.CSS(`#confirm-ok`)))
}

// status sends a request and returns its status.
func status(t *testing.T, method, url, body string, headers ...string) int {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}
