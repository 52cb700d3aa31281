package ledgerverify

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// signNote signs text as a C2SP signed note with an Ed25519 key named
// name, and returns it with the key as the API lists it. Written here
// from the spec, apart from the service's signer.
func signNote(t *testing.T, name, text string, seed byte) (string, Key) {
	t.Helper()
	s := make([]byte, ed25519.SeedSize)
	s[0] = seed
	priv := ed25519.NewKeyFromSeed(s)
	pub := append([]byte{algEd25519}, priv.Public().(ed25519.PublicKey)...)
	h := sha256.Sum256(append([]byte(name+"\n"), pub...))
	id := binary.BigEndian.Uint32(h[:])
	sig := append(binary.BigEndian.AppendUint32(nil, id), ed25519.Sign(priv, []byte(text))...)
	return text + "\n\u2014 " + name + " " + base64.StdEncoding.EncodeToString(sig) + "\n",
		Key{Origin: "dep/tablesettle/pools/", VerifierKey: fmt.Sprintf("%s+%08x+%s", name, id, base64.StdEncoding.EncodeToString(pub))}
}

// exampleEntries are docs/ledger.md's three entries, as served.
var exampleEntries = []string{
	`{"pool":"golden","seq":1,"at":"2026-03-01T20:00:00Z","kind":"opening","displayed":10000000,"houseFunded":10000000,"amount":10000000}`,
	`{"pool":"golden","seq":2,"at":"2026-03-01T20:01:00Z","kind":"contribution","displayed":866,"reserve":258,"carryDisplayed":5000,"carryReserve":5000,"wagers":1,"wagerAmount":500,"rateSum":86655000,"rateSumReserve":2585000,"contributed":866,"contributedReserve":258,"amount":1124}`,
	`{"pool":"golden","seq":3,"at":"2026-03-01T20:02:00Z","kind":"hit","category":"royal_flush","displayed":-10000866,"paid":10000866,"amount":10000866}`,
}

func exampleCheckpoint(t *testing.T, size int, meters string) (string, Key) {
	t.Helper()
	var tree Tree
	for _, e := range exampleEntries[:size] {
		leaf, err := Leaf([]byte(e))
		if err != nil {
			t.Fatal(err)
		}
		tree.Append(LeafHash(leaf))
	}
	r := tree.Root()
	return signNote(t, "dep", fmt.Sprintf("dep/tablesettle/pools/golden\n%d\n%s\ncurrency SGD\n%s", size, base64.StdEncoding.EncodeToString(r[:]), meters), 7)
}

// TestVerifyMeters: issue 34 item 7. The meters are re-derived from the
// entries' deltas (a hit counts in its category, its pool part is
// -displayed) and must equal the checkpoint's extension lines; a
// checkpoint whose meters are not its entries' sum names the first seq
// it signs beyond the last good one; an unknown key verifies nothing.
func TestVerifyMeters(t *testing.T) {
	good := "displayed 0\nreserve 258\noverflow 0\ncarryDisplayed 5000\ncarryReserve 5000\ncontributed 866\ncontributedReserve 258\nwagers 1\nwagerAmount 500\nhouseFunded 10000000\nresets 0\nhit royal_flush 1 10000866 10000866\nrateSum 86655000\nrateSumReserve 2585000\n"
	x := Export{}
	for _, e := range exampleEntries {
		x.Entries = append(x.Entries, []byte(e))
	}
	n1, k := exampleCheckpoint(t, 1, "displayed 10000000\nhouseFunded 10000000\nrateSum 0\nrateSumReserve 0\n")
	n3, _ := exampleCheckpoint(t, 3, good)
	x.Checkpoints, x.Keys = []string{n3, n1}, []Key{k}
	res, err := Verify(x)
	if err != nil || res.Pool != "golden" || res.Size != 3 || res.Checkpoints != 2 || res.Currency != "SGD" {
		t.Fatalf("good: %+v %v", res, err)
	}
	bad, _ := exampleCheckpoint(t, 3, strings.Replace(good, "hit royal_flush 1 10000866 10000866", "hit royal_flush 1 10000866 10000000", 1))
	x.Checkpoints = []string{n1, bad}
	var m *Mismatch
	if _, err := Verify(x); !errors.As(err, &m) || m.Seq != 2 || !strings.Contains(m.Reason, "hit royal_flush fromPool: the entries sum to 10000866, the checkpoint records 10000000") {
		t.Fatalf("wrong meters: %v", err)
	}
	other, _ := signNote(t, "dep", "x\n", 9)
	x.Checkpoints = []string{other}
	if _, err := Verify(x); !errors.As(err, &m) || !strings.Contains(m.Reason, "no listed key signed it") {
		t.Fatalf("another key under the same name: %v", err)
	}
}
