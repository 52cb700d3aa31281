// Command gen writes the fast evaluator's tables as Go source; `go generate
// ./internal/hand` runs it.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/tablesettle/tablesettle/internal/hand/tablegen"
)

func main() {
	out := flag.String("o", "tables_gen.go", "output file")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	t, err := tablegen.Build()
	if err != nil {
		return err
	}
	src, err := t.Source()
	if err != nil {
		return err
	}
	return os.WriteFile(out, src, 0o644)
}
