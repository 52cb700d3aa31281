package browser

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
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
	for _, want := range []string{"bet", "20.00", "7 to 1", "160.00", "mbs-megalink-ssp-v6 4.1.2", "SGD 200.00", "ruling R2"} {
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
	s := startServer(t)
	api(t, "POST", s.url+"/v1/pools", `{"id":"disp-1","by":"ops:alice","currency":"SGD","rulesets":["mbs-megalink-ssp-v6"],"unit":100,"contributionBp":2000,"reserveBp":500,"reset":10000000}`)
	for _, size := range [][2]int{{1920, 1080}, {1280, 720}} {
		ctx := browser(t, size[0], size[1])
		tag := "display-" + strconv.Itoa(size[0]) + "x" + strconv.Itoa(size[1])
		do(t, ctx, chromedp.Navigate(s.url+"/display/disp-1"))
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
	do(t, ctx, chromedp.Navigate(s.url+"/display/disp-1"))
	waitText(t, ctx, `#amount`, "100,000.00")
	// Two progressive wagers of SGD 1.00 at 20% each: the meter gains 2 x
	// 20 cents (ruling R4: contributions first; no hit).
	round := `{"ruleset":"mbs-megalink-ssp-v6","table":"T1","roundId":"R1","progressiveUnit":100,"dealtAt":"` + time.Now().UTC().Format(time.RFC3339) +
		`","dealer":"As Kd 7h 4c 2s","positions":[{"seat":1,"cards":"2c 5d 9h Js Qc","wagers":{"ante":1000,"bet":2000,"progressive":100}},{"seat":2,"cards":"3c 6d 8h Ts Qd","wagers":{"ante":1000,"bet":2000,"progressive":100}}]}`
	start := time.Now()
	out := api(t, "POST", s.url+"/v1/pools/disp-1/rounds", round, "Idempotency-Key", "disp-round-1")
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
	if d := time.Since(start); d > time.Second {
		t.Errorf("the display took %v to follow the round; the floor expects under a second", d)
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
