package hand

import (
	"os"
	"os/exec"
	"regexp"
	"testing"
)

// Eval5, Eval6 and Eval7 must stay small enough for Go's inliner
// (docs/evaluator-inlining.md): inlined, a caller's loop ranks a hand with no
// call, Eval5 at 1.33-1.50x OMPEval's seven-card rate where the call ran at
// 0.93-1.11x (same runs), Eval7 at 1.06-1.09x where the call ran at
// 0.83-0.86x (issue 21). The test
// asks the compiler, as Go's own TestIntendedInlining does, and is skipped
// where no go command is on the PATH. It also checks Partial's Add and
// Value, which the documented shared-card loop relies on, and the lookups
// the bulk forms inline.
func TestIntendedInlining(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the compiler")
	}
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	cmd := exec.Command(gocmd, "build", "-gcflags=-m", "-o", os.DevNull, ".")
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOEXPERIMENT=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	for _, fn := range []string{"Eval5", "Eval6", "Eval7", "Eval3", "Partial.Add", "Partial.Value", "rankLookup", "flushLookup"} {
		if !regexp.MustCompile(`(?m): can inline ` + regexp.QuoteMeta(fn) + `( |$)`).Match(out) {
			t.Errorf("%s is no longer inlinable (go build -gcflags=-m=2 ./internal/hand | grep %s gives the cost)", fn, fn)
		}
	}
}
