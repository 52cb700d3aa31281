package browser

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The playground as a trainee uses it (issue 24 item 7).

// Issue 24: "The playground's SSP v4 example fails with 422". Every
// ruleset's example settles.
func TestPlaygroundEveryExampleSettles(t *testing.T) {
	s := startServer(t)
	ctx := browser(t, 1280, 720)
	do(t, ctx, chromedp.Navigate(s.url+"/playground"), chromedp.WaitReady(chromedp.CSS(`#ruleset option[value="mbs-ssp-v4"]`)))
	ids := eval[[]string](t, ctx, `[...document.querySelectorAll("#ruleset option")].map((o) => o.value)`)
	if len(ids) != 5 {
		t.Fatalf("rulesets offered: %q, want the five", ids)
	}
	for _, id := range ids {
		do(t, ctx, chromedp.SetValue(chromedp.CSS(`#ruleset`), id), chromedp.Evaluate[chromedp.Void](`document.getElementById("ruleset").dispatchEvent(new Event("change"))`),
			chromedp.Evaluate[chromedp.Void](`document.getElementById("summary").textContent = ""`),
			chromedp.Click(chromedp.CSS(`#settle`)))
		waitText(t, ctx, `#summary`, "Staked")
		if p := eval[string](t, ctx, `document.getElementById("problem").textContent`); p != "" {
			t.Errorf("%s: its example is refused: %s", id, p)
		}
		// Every wager is named as its document names it, not in API words.
		if lines := text(t, ctx, `#lines tbody`); strings.Contains(lines, "pairPlus") || strings.Contains(lines, "progressivePlayer") {
			t.Errorf("%s: wagers in API words: %s", id, lines)
		}
	}
}

// Issue 24: "a void round shows no reason; the dealer's hand and whether
// it qualifies are never shown; a Royal's progressive line reads win,
// returned 0.00 with no jackpot amount; THB shows no board or best five".
func TestPlaygroundExplainsTheRound(t *testing.T) {
	s := startServer(t)
	ctx := browser(t, 1280, 720)
	do(t, ctx, chromedp.Navigate(s.url+"/playground"), chromedp.WaitReady(chromedp.CSS(`#ruleset option[value="mbs-megalink-ssp-v6"]`)))

	// A Royal: the dealer's hand and qualification; the progressive line
	// with 100% of the pool the trainee typed (SGD 250,000.00).
	settleBody(t, ctx, `{"ruleset":"mbs-megalink-ssp-v6","roundId":"PG","currency":"SGD","dealer":"Ad Kd 7h 4c 2s","progressiveUnit":100,"positions":[{"seat":1,"cards":"Ts Js Qs Ks As","wagers":{"ante":1000,"bet":2000,"progressive":100}}]}`)
	dealer := text(t, ctx, `#dealer`)
	for _, want := range []string{"Ad Kd 7h 4c 2s", "high card", "qualifies"} {
		if !strings.Contains(dealer, want) {
			t.Errorf("dealer line lacks %q: %q", want, dealer)
		}
	}
	do(t, ctx, chromedp.SetValue(chromedp.CSS(`#pool-meter`), "250000.00"), chromedp.Click(chromedp.CSS(`#settle`)))
	waitText(t, ctx, `#lines tbody`, "SGD 250,000.00")
	if l := text(t, ctx, `#lines tbody`); !strings.Contains(l, "Progressive") || !strings.Contains(l, "100% of the pool") {
		t.Errorf("the progressive line: %q", l)
	}
	shot(t, ctx, "trainee-1-royal")

	// A void round says why.
	settleBody(t, ctx, `{"ruleset":"mbs-megalink-ssp-v6","roundId":"PG","currency":"SGD","dealer":"As Kd 7h 4c 2s","positions":[{"seat":1,"cards":"Ts Js Qs Ks As","wagers":{"ante":1000,"bet":2000}}]}`)
	if sum := text(t, ctx, `#summary`); !strings.Contains(sum, "VOID") || !strings.Contains(sum, "As appears twice") {
		t.Errorf("the void round's summary gives no reason: %q", sum)
	}
	shot(t, ctx, "trainee-2-void")

	// THB: the board and each best five.
	settleBody(t, ctx, `{"ruleset":"mbs-megalink-thb-v9","roundId":"PG-THB-1","currency":"SGD","dealer":"7c 2d","community":"Ah Kh 9s 4d 3c","positions":[{"seat":1,"cards":"As Ad","wagers":{"ante":1000,"flop":2000,"turn":1000,"river":1000,"bonus":500}}]}`)
	if b := text(t, ctx, `#board`); !strings.Contains(b, "Ah Kh 9s 4d 3c") {
		t.Errorf("the board is not shown: %q", b)
	}
	if d := text(t, ctx, `#dealer`); !strings.Contains(d, "Ah Kh 9s 7c 4d") {
		t.Errorf("the dealer's best five is not shown: %q", d)
	}
	if l := text(t, ctx, `#lines tbody`); !strings.Contains(l, "As Ah Ad Kh 9s") {
		t.Errorf("the player's best five is not shown: %q", l)
	}
	shot(t, ctx, "trainee-3-thb")
	checkA11y(t, ctx, "playground THB settlement")
}

// Issue 24 "a card picker": a trainee picks cards with buttons (or the
// keyboard) into the round; a card already used cannot be picked twice.
func TestPlaygroundCardPicker(t *testing.T) {
	s := startServer(t)
	ctx := browser(t, 1280, 720)
	do(t, ctx, chromedp.Navigate(s.url+"/playground"), chromedp.WaitReady(chromedp.CSS(`#ruleset option[value="mbs-megalink-ssp-v6"]`)),
		chromedp.Click(chromedp.CSS(`#picker-box summary`)),
		chromedp.SetValue(chromedp.CSS(`#pick-target`), "dealer"),
		chromedp.Click(chromedp.CSS(`#pick-clear`)))
	for _, c := range []string{"Qc", "Jd", "8h", "5s", "2c"} {
		do(t, ctx, chromedp.Click(chromedp.CSS(`#picker button[data-card="`+c+`"]`)))
	}
	if got := eval[string](t, ctx, `JSON.parse(document.getElementById("round").value).dealer`); got != "Qc Jd 8h 5s 2c" {
		t.Errorf("picked dealer = %q, want Qc Jd 8h 5s 2c", got)
	}
	if !eval[bool](t, ctx, `document.querySelector('#picker button[data-card="Qc"]').disabled`) {
		t.Errorf("a picked card can be picked again")
	}
	shot(t, ctx, "trainee-4-picker")
	checkA11y(t, ctx, "playground card picker")
}

// Issue 24 "Phones scroll sideways on every page": at 390x844 no page
// scrolls sideways (console signed out, playground settled, the sign).
func TestPagesFitAPhone(t *testing.T) {
	s := startServer(t)
	for _, size := range [][2]int{{390, 844}} {
		tag := strconv.Itoa(size[0]) + "x" + strconv.Itoa(size[1])
		ctx := screen(t, int64(size[0]), int64(size[1]))
		do(t, ctx, chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(chromedp.CSS(`#signin`)))
		noHorizontalScroll(t, ctx, "console "+tag)
		shot(t, ctx, "phone-console-"+tag)
		settlePlayground(t, ctx, s.url)
		noHorizontalScroll(t, ctx, "playground "+tag)
		shot(t, ctx, "phone-playground-"+tag)
	}
}

// settleBody puts body in the round field, settles it and waits for the
// settlement.
func settleBody(t *testing.T, ctx context.Context, body string) {
	t.Helper()
	do(t, ctx, chromedp.SetValue(chromedp.CSS(`#round`), body),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("summary").textContent = ""`),
		chromedp.Click(chromedp.CSS(`#settle`)))
	waitText(t, ctx, `#summary`, "Staked")
}
