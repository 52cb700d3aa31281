package main

import (
	"testing"

	"github.com/tablesettle/tablesettle/internal/lambdaapp/eventtest"
)

// TestEvents feeds every sample event of events/pools to the handler main
// gives lambda.Start.
func TestEvents(t *testing.T) {
	getenv := func(k string) string {
		return map[string]string{"LOG_LEVEL": "error", "TABLESETTLE_TABLE": "tablesettle-test"}[k]
	}
	h, err := handler(getenv)
	if err != nil {
		t.Fatal(err)
	}
	eventtest.Run(t, h, "../../events/pools")
}

// TestNeedsTable: without TABLESETTLE_TABLE the function reports a
// configuration error instead of serving pools it cannot store.
func TestNeedsTable(t *testing.T) {
	if _, err := handler(func(string) string { return "" }); err == nil {
		t.Fatal("no error without TABLESETTLE_TABLE")
	}
}
