package browser

import (
	"context"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/tablesettle/tablesettle/internal/principal"
)

// noHorizontalScroll fails the test when the document is wider than the
// window: a wide table scrolls inside its own container, never the page.
func noHorizontalScroll(t *testing.T, ctx context.Context, page string) {
	t.Helper()
	w, err := chromedp.Run(ctx, chromedp.Evaluate[[2]int](`[document.documentElement.scrollWidth, window.innerWidth]`))
	if err != nil {
		t.Fatal(err)
	}
	if w[0] > w[1] {
		t.Errorf("%s: the document is %d px wide in a %d px window: the page scrolls sideways", page, w[0], w[1])
	}
}

// Issue 14 must-hold "no layout break at 1280x720 and on a 1920x1080
// display": the console (signed out, and as a supervisor with a pending
// hit and the ledger) and the playground (a settled round) never scroll
// sideways at either size.
func TestPagesFitTheScreen(t *testing.T) {
	s, tok := startServerWith(t)
	pendingRoyal(t, s, tok, "fit-1")
	for _, size := range [][2]int{{1280, 720}, {1920, 1080}} {
		tag := strconv.Itoa(size[0]) + "x" + strconv.Itoa(size[1])
		t.Run(tag, func(t *testing.T) {
			ctx := browser(t, size[0], size[1])
			do(t, ctx, chromedp.Navigate(s.url+"/"), chromedp.WaitVisible(chromedp.CSS(`#signin`)))
			waitText(t, ctx, `#who`, "not signed in")
			noHorizontalScroll(t, ctx, "console signed out")
			shot(t, ctx, "fit-"+tag+"-1-console-signed-out")

			signIn(t, ctx, s.url, tok[principal.Supervisor], "browser-supervisor (supervisor)", "fit-1")
			waitText(t, ctx, `#pending tbody`, "Ts Js Qs Ks As")
			waitText(t, ctx, `#ledger tbody`, "R1")
			noHorizontalScroll(t, ctx, "console supervisor")
			shot(t, ctx, "fit-"+tag+"-2-console-supervisor")
			wideTable(t, ctx, "console", "#ledger")
			noHorizontalScroll(t, ctx, "console with an over-wide ledger")

			settlePlayground(t, ctx, s.url)
			noHorizontalScroll(t, ctx, "playground")
			shot(t, ctx, "fit-"+tag+"-3-playground-settled")

			// A table wider than any screen scrolls inside its own
			// container; the page does not.
			wideTable(t, ctx, "playground", "#lines")
			noHorizontalScroll(t, ctx, "playground with an over-wide table")
			shot(t, ctx, "fit-"+tag+"-4-playground-wide-table")
		})
	}
}

// wideTable makes the table sel selects wider than any screen (a
// 600-character cell that cannot wrap) and fails the test unless the
// table then scrolls inside its own container.
func wideTable(t *testing.T, ctx context.Context, page, sel string) {
	t.Helper()
	inner, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
  const table = document.querySelector(`+strconv.Quote(sel)+`);
  table.querySelector("tbody td").textContent = "X".repeat(600);
  const box = table.parentElement;
  return box.scrollWidth > box.clientWidth && getComputedStyle(box).overflowX === "auto";
})()`))
	if err != nil {
		t.Fatal(err)
	}
	if !inner {
		t.Errorf("%s: the over-wide table %s does not scroll inside its own container", page, sel)
	}
}
