package main

import (
	"testing"

	"github.com/tablesettle/tablesettle/internal/lambdaapp/eventtest"
)

// TestEvents feeds every sample event of events/irregularities to the handler main
// gives lambda.Start.
func TestEvents(t *testing.T) {
	// The IAM identities of the events map to roles as the stack maps its
	// roles (issue 16): events/iam-principals.json.
	getenv := func(k string) string {
		return map[string]string{"LOG_LEVEL": "error", "TABLESETTLE_IAM_PRINCIPALS": eventtest.IAMPrincipals(t, "../../events")}[k]
	}
	h := handler(getenv)
	eventtest.Run(t, h, "../../events/irregularities")
}
