// Command gen precomputes every ruleset's paytable figures into
// internal/analysis/data/<ruleset>.json (`make analysis`); package analysis
// embeds them and its tests check they are what the code computes.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/tablesettle/tablesettle/internal/analysis"
)

func main() {
	out := flag.String("out", "internal/analysis/data", "directory to write <ruleset>.json into")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "analysis:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	start := time.Now()
	en := analysis.Engines{RecomputeHoldem: true}
	reports, err := en.Rulesets(context.Background(), analysis.DefaultUnit)
	if err != nil {
		return err
	}
	elapsed := time.Since(start)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for _, r := range reports {
		b, err := analysis.Encode(r)
		if err != nil {
			return err
		}
		p := filepath.Join(out, r.Ruleset+".json")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return err
		}
		fmt.Printf("wrote %s\n", p)
	}
	fmt.Printf("computed every figure of %d rulesets in %v\n", len(reports), elapsed.Round(time.Millisecond))
	return nil
}
