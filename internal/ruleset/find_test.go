package ruleset_test

import (
	"strings"
	"testing"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// A ruleset by id; an unknown id is not found at "id", naming the ids the
// catalogue holds, sorted.
func TestFind(t *testing.T) {
	cat := ruleset.Standard()
	if r, err := cat.Find("mbs-megalink-tcp-v6"); err != nil || r.ID != "mbs-megalink-tcp-v6" {
		t.Fatalf("%v %s", err, r.ID)
	}
	var known []string
	for _, id := range cat.IDs() {
		known = append(known, string(id))
	}
	_, err := cat.Find("nope")
	e, ok := fault.As(err)
	if !ok || e.Kind != fault.NotFound || e.Field() != "id" || e.Fields[0].Value != "nope" ||
		e.Fields[0].Message != "unknown ruleset id; known: "+strings.Join(known, ", ") || !strings.Contains(e.Fields[0].Message, "known: mbs-megalink-ssp-v6, mbs-megalink-tcp-v6, ") {
		t.Errorf("unknown: %+v", e)
	}
}
