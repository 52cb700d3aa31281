package ledgerverify

import (
	"encoding/hex"
	"testing"
)

// TestWorkedExample: docs/ledger.md's worked example of three entries
// (the same values ledgerlog's golden test pins for the writer): each
// served entry, in the API's member order and with the floor's derived
// "amount", canonicalizes to the leaf bytes typed by hand; their RFC 6962
// leaf hashes and the root of the three are the ones written down.
func TestWorkedExample(t *testing.T) {
	served := []string{
		`{"pool":"golden","seq":1,"at":"2026-03-01T20:00:00Z","kind":"opening","displayed":10000000,"actor":{"role":"operator","id":"op-1"},"rules":["ruling R21"],"amount":10000000}`,
		`{"pool":"golden","seq":2,"at":"2026-03-01T20:01:00Z","kind":"contribution","table":"T1","round":"r-1","displayed":866,"reserve":258,"carryDisplayed":5000,"wagers":1,"wagerAmount":500,"rateSum":86650000,"commit":"c-1","contributed":866,"contributedReserve":258,"rules":["ruling R4"],"amount":1124}`,
		`{"pool":"golden","seq":3,"at":"2026-03-01T20:02:00.5Z","kind":"hit","table":"T1","round":"r-2","seat":3,"dealt":2,"category":"royal_flush","displayed":-10000866,"paid":10000866,"funding":[{"source":"pool","amount":10000866}],"actor":{"id":"table:T1","role":"table"},"rules":["mbs-megalink-tcp-v6 4.2"],"note":"caf\u00e9","amount":10000866}`,
	}
	leaves := []string{
		`{"actor":{"id":"op-1","role":"operator"},"at":"2026-03-01T20:00:00Z","displayed":10000000,"kind":"opening","pool":"golden","rules":["ruling R21"],"seq":1}`,
		`{"at":"2026-03-01T20:01:00Z","carryDisplayed":5000,"commit":"c-1","contributed":866,"contributedReserve":258,"displayed":866,"kind":"contribution","pool":"golden","rateSum":86650000,"reserve":258,"round":"r-1","rules":["ruling R4"],"seq":2,"table":"T1","wagerAmount":500,"wagers":1}`,
		`{"actor":{"id":"table:T1","role":"table"},"at":"2026-03-01T20:02:00.5Z","category":"royal_flush","dealt":2,"displayed":-10000866,"funding":[{"amount":10000866,"source":"pool"}],"kind":"hit","note":"café","paid":10000866,"pool":"golden","round":"r-2","rules":["mbs-megalink-tcp-v6 4.2"],"seat":3,"seq":3,"table":"T1"}`,
	}
	hashes := []string{
		"2cbd1c1cda8c26d87fbd73c9e44417401b44eb28f511613bbed478efb367eb2d",
		"246945f316b1253339e5c48aaf2450c7b8e84607d53a8801ffd69e287ffbccf3",
		"9e78570fb40b1d0d413205714d40fd4bf696813cf6ea5900d16d98f3126ecfab",
	}
	var hs []Hash
	for i, s := range served {
		leaf, err := Leaf([]byte(s))
		if err != nil || string(leaf) != leaves[i] {
			t.Fatalf("entry %d: leaf %s %v\nwant %s", i+1, leaf, err, leaves[i])
		}
		h := LeafHash(leaf)
		if hex.EncodeToString(h[:]) != hashes[i] {
			t.Fatalf("entry %d: leaf hash %x, want %s", i+1, h, hashes[i])
		}
		hs = append(hs, h)
	}
	if r := RootOf(hs); hex.EncodeToString(r[:]) != "4011b5043469b1f4b24520b60f72af06be8b95355fba6d8365051f4b0f3f13d6" {
		t.Fatalf("root %x", r)
	}
	// Integers keep every digit: 2^53+1 is not read as a double.
	if leaf, err := Leaf([]byte(`{"seq":9007199254740993}`)); err != nil || string(leaf) != `{"seq":9007199254740993}` {
		t.Fatalf("2^53+1: %s %v", leaf, err)
	}
}
