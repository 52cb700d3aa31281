package browser

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/tablesettle/tablesettle/internal/principal"
)

// cents reads an amount as the console writes it ("SGD 100,001.73",
// "+SGD 5.00", "-SGD 0.86") in minor units.
func cents(t *testing.T, s string) int64 {
	t.Helper()
	neg := strings.Contains(s, "-") || strings.Contains(s, "−")
	digits := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		t.Fatalf("amount %q: %v", s, err)
	}
	if neg {
		n = -n
	}
	return n
}

// Issue 35 items 2, 5 and 6, at 390x844, 1280x720, 1920x1080 and
// 3840x2160, with the keyboard for every action. A pool linked to T12 (no
// jackpot lock) pays a Royal at R1's commit (SGD 100,001.73, R3); R2 has
// no hit. A supervisor finds T12/R2 in the console, removes seat 1's
// progressive wager and proposes the correction: the answer shows every
// meter before and after (the proposal's effect). A controller, another
// principal, approves it: the dialog states the change in the round
// ("Seat 1 progressive: SGD 5.00 → none") before the meters. The cage
// prints the Royal's slip (serial 1, four signature lines) and prints it
// again: REPRINT 1. The report of the current shift has lines that add up,
// meter by meter and to the cent, to the closing meters, which are the
// pool's; the correction names its proposer and its approver. axe finds
// nothing at each step.
func TestFloorCorrectionSlipAndReportAtEverySize(t *testing.T) {
	s, tok := startServerWith(t)
	for _, sz := range []struct{ w, h int64 }{{390, 844}, {1280, 720}, {1920, 1080}, {3840, 2160}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			id := fmt.Sprintf("c35-%d", sz.w)
			createT12Pool(t, s.url, tok[principal.Admin], id)
			if out := playRound(t, s, tok, id, "R1", "3", "Ts Js Qs Ks As"); !strings.Contains(out, `"amount":10000173`) || !strings.Contains(out, `"status":"paid"`) {
				t.Fatalf("R1: %s", out)
			}
			playRound(t, s, tok, id, "R2", "3", "3s 5c 8d Tc Kh")
			name := func(step string) string { return fmt.Sprintf("issue35-%dx%d-%s", sz.w, sz.h, step) }
			ctx := screen(t, sz.w, sz.h)

			// The supervisor proposes the correction, by keyboard.
			signIn(t, ctx, s.url, tok[principal.Supervisor], "browser-supervisor (supervisor)", id)
			do(t, ctx, chromedp.Focus(chromedp.CSS(`#c-table`)))
			typeKeys(t, ctx, "T12")
			tabTo(t, ctx, `#c-round`, false, 1)
			typeKeys(t, ctx, "R2")
			do(t, ctx, chromedp.KeyEvent(kb.Enter))
			waitText(t, ctx, `#c-round-view`, "Seat 3")
			if v := text(t, ctx, `#c-round-view`); !strings.Contains(v, "Payouts") && !strings.Contains(v, "No jackpot payout") {
				t.Errorf("the round found: %q", v)
			}
			do(t, ctx, chromedp.Focus(chromedp.CSS(`#c-w-0-progressive`)))
			do(t, ctx, chromedp.Evaluate[chromedp.Void](`document.getElementById("c-w-0-progressive").select()`))
			typeKeys(t, ctx, "0")
			do(t, ctx, chromedp.Focus(chromedp.CSS(`#c-reason`)))
			typeKeys(t, ctx, "seat 1 declined the progressive")
			do(t, ctx, chromedp.KeyEvent(kb.Enter))
			pressOK(t, ctx, "Seat 1 progressive: SGD 5.00 → none", "seat 1 declined the progressive")
			waitJS(t, ctx, "the meters before and after", `!!document.getElementById("c-meters")`)
			shot(t, ctx, name("1-proposed"))
			checkA11y(t, ctx, "correction proposed")
			var props struct {
				Proposals []struct {
					ID     int64 `json:"id"`
					Effect struct {
						Meters map[string]struct{ Before, After int64 } `json:"meters"`
					} `json:"effect"`
				} `json:"proposals"`
			}
			if err := json.Unmarshal([]byte(api(t, "GET", s.url+"/v1/pools/"+id+"/proposals", "", "Authorization", "Bearer "+tok[principal.Controller])), &props); err != nil || len(props.Proposals) != 1 {
				t.Fatalf("proposals: %v %+v", err, props)
			}
			rows := eval[[][]string](t, ctx, `[...document.querySelectorAll("#c-meters tbody tr")].map((r) => [...r.children].map((c) => c.textContent))`)
			if len(rows) != 3 {
				t.Fatalf("the meters: %v", rows)
			}
			for _, r := range rows {
				m := props.Proposals[0].Effect.Meters[r[0]]
				if cents(t, r[1]) != m.Before || cents(t, r[2]) != m.After || cents(t, r[3]) != m.After-m.Before {
					t.Errorf("meter %s: the page says %v, the API %+v", r[0], r, m)
				}
			}
			if m := props.Proposals[0].Effect.Meters["displayed"]; m.After >= m.Before {
				t.Errorf("taking a wager back lowers the displayed meter: %+v", m)
			}

			// The controller approves it, by keyboard, seeing the change (a
			// browser of its own: each has 90 s).
			ctx = screen(t, sz.w, sz.h)
			signIn(t, ctx, s.url, tok[principal.Controller], "browser-controller (controller)", id)
			waitText(t, ctx, `#proposals tbody`, "round T12/R2")
			do(t, ctx, chromedp.Focus(chromedp.CSS(`#proposals-h`)))
			tabTo(t, ctx, `#proposals button[data-action=approve]`, false, 4)
			do(t, ctx, chromedp.KeyEvent(kb.Enter))
			waitJS(t, ctx, "the approval dialog", `document.getElementById("confirm-dialog").open`)
			shot(t, ctx, name("2-approve"))
			checkA11y(t, ctx, "approval of a correction")
			pressOK(t, ctx, "Round R2 of table T12", "Seat 1 progressive: SGD 5.00 → none", "displayed meter")
			waitText(t, ctx, `#proposals tbody`, "Nothing waits for a second signature.")

			// The cage prints the Royal's slip, then reprints it.
			ctx = screen(t, sz.w, sz.h)
			signIn(t, ctx, s.url, tok[principal.Cage], "browser-cage (cage)", id)
			waitJS(t, ctx, "the slip button", `!!document.querySelector("#queue button[data-action=slip]")`)
			do(t, ctx, chromedp.Focus(chromedp.CSS(`#queue-h`)))
			tabTo(t, ctx, `#queue button[data-action=slip]`, false, 4)
			do(t, ctx, chromedp.KeyEvent(kb.Enter))
			waitJS(t, ctx, "the slip", `document.getElementById("slip-dialog").open`)
			do(t, ctx, chromedp.Focus(chromedp.CSS(`#slip-print`)), chromedp.KeyEvent(kb.Enter))
			waitText(t, ctx, `#slip-result`, "Original of slip 1 recorded as printed by browser-cage (cage)")
			sl := text(t, ctx, `#slip-body`)
			for _, want := range []string{"Serial\t1", "SGD 100,001.73", "Winner", "Supervisor", "Cashier", "Security", "original · browser-cage (cage)"} {
				if !strings.Contains(sl, want) {
					t.Errorf("the slip lacks %q: %q", want, sl)
				}
			}
			shot(t, ctx, name("3-slip"))
			do(t, ctx, chromedp.Focus(chromedp.CSS(`#slip-print`)), chromedp.KeyEvent(kb.Enter))
			waitText(t, ctx, `#slip-result`, "REPRINT 1 of slip 1")
			if m := text(t, ctx, `#slip-mark`); m != "REPRINT 1" {
				t.Errorf("the reprint's mark: %q", m)
			}
			shot(t, ctx, name("4-reprint"))
			checkA11y(t, ctx, "reprinted slip")
			do(t, ctx, chromedp.Evaluate[chromedp.Void](`document.getElementById("slip-dialog").close()`))

			// The current shift's report adds up to the closing meters.
			ctx = screen(t, sz.w, sz.h)
			signIn(t, ctx, s.url, tok[principal.Cage], "browser-cage (cage)", id)
			do(t, ctx, chromedp.Focus(chromedp.CSS(`#r-shift`)), chromedp.KeyEvent(kb.Enter))
			waitJS(t, ctx, "the reconciliation", `!!document.getElementById("reconciliation-check")`)
			if c := text(t, ctx, `#reconciliation-check`); c != "The lines add up to the closing meters, to the cent." {
				t.Errorf("the check: %q", c)
			}
			lines := eval[[][]string](t, ctx, `[...document.querySelectorAll("#reconciliation tbody tr")].map((r) => [r.dataset.line, ...[...r.children].slice(2).map((c) => c.textContent)])`)
			if len(lines) != 7 || lines[0][0] != "opening" || lines[6][0] != "closing" {
				t.Fatalf("the lines: %v", lines)
			}
			var pool struct {
				Meters struct{ Displayed, Reserve, Overflow int64 } `json:"meters"`
			}
			if err := json.Unmarshal([]byte(api(t, "GET", s.url+"/v1/pools/"+id, "", "Authorization", "Bearer "+tok[principal.Cage])), &pool); err != nil {
				t.Fatal(err)
			}
			want := []int64{pool.Meters.Displayed, pool.Meters.Reserve, pool.Meters.Overflow}
			for m := range 4 {
				var sum int64
				for _, l := range lines[:6] {
					sum += cents(t, l[1+m])
				}
				if closing := cents(t, lines[6][1+m]); sum != closing || (m < 3 && closing != want[m]) {
					t.Errorf("meter %d: the lines add to %d, closing %d, the pool %v", m, sum, closing, want)
				}
			}
			if d := cents(t, lines[3][1]); d != -10_000_173 {
				t.Errorf("the hits line on the displayed meter: %d, want -10,000,173", d)
			}
			if r := text(t, ctx, `#report-result`); !strings.Contains(r, "browser-supervisor (supervisor) approved by browser-controller (controller)") || !strings.Contains(r, "current shift") {
				t.Errorf("the report: %q", r)
			}
			shot(t, ctx, name("5-report"))
			checkA11y(t, ctx, "shift report")
		})
	}
}
