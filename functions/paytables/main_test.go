package main

import (
	"testing"

	"github.com/tablesettle/tablesettle/internal/lambdaapp/eventtest"
)

// TestEvents feeds every sample event of events/paytables to the handler main
// gives lambda.Start.
func TestEvents(t *testing.T) {
	getenv := func(k string) string { return map[string]string{"LOG_LEVEL": "error"}[k] }
	h := handler(getenv)
	eventtest.Run(t, h, "../../events/paytables")
}
