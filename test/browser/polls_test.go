package browser

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// Issue 33 item 11: a page "follows within a second" is a promise about
// its polling (one poll after the change shows it), not about this
// machine's speed: a shared machine at a load average of 20 takes seconds
// to render. So the tests count the page's polls of a resource from the
// moment the change is committed until it shows, instead of timing them.

// countPolls starts counting the page's requests whose URL ends in suffix
// (its query string aside).
func countPolls(t *testing.T, ctx context.Context, suffix string) {
	t.Helper()
	do(t, ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
  window.tsPolls = 0;
  const real = window.tsRealFetch || window.fetch;
  window.tsRealFetch = real;
  window.fetch = (url, opts) => { if (String(url).split("?")[0].endsWith(%q)) window.tsPolls++; return real(url, opts); };
})()`, suffix)))
}

// polls is the number of polls counted since countPolls.
func polls(t *testing.T, ctx context.Context) int {
	t.Helper()
	return eval[int](t, ctx, `window.tsPolls`)
}
