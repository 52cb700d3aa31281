package ledgerlog_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"golang.org/x/mod/sumdb/tlog"

	"github.com/tablesettle/tablesettle/internal/apijson"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/ledgerlog"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// golden are three fixed entries, their leaf bytes typed by hand from
// RFC 8785 (members sorted, no space) and their leaf hashes computed with
// sha256sum, outside Go (docs/ledger.md's worked example):
//
//	{ printf '\x00'; printf '%s' "$leaf"; } | sha256sum
//
// and the root of the three, RFC 6962 §2.1's MTH(D[3]) =
// SHA-256(0x01 || SHA-256(0x01 || h1 || h2) || h3). If this test fails, a
// change altered the served bytes of entries already written: every
// checkpoint ever signed would stop verifying (issue 34 item 1).
func golden() ([]jackpot.Entry, []string, []string, string) {
	t0 := time.Date(2026, 3, 1, 20, 0, 0, 0, time.UTC)
	es := []jackpot.Entry{
		{Pool: "golden", Seq: 1, At: t0, Kind: jackpot.KindOpening, Displayed: 10_000_000,
			Actor: &jackpot.Actor{ID: "op-1", Role: "operator"}, Rules: []string{"ruling R21"}},
		{Pool: "golden", Seq: 2, At: t0.Add(time.Minute), Kind: jackpot.KindContribution, Table: "T1", Round: "r-1",
			Displayed: 866, Reserve: 258, CarryDisplayed: 5000, Wagers: 1, WagerAmount: 500, RateSum: 86_650_000,
			Commit: "c-1", Contributed: 866, ContributedReserve: 258, Rules: []string{"ruling R4"}},
		{Pool: "golden", Seq: 3, At: t0.Add(2*time.Minute + 500*time.Millisecond), Kind: jackpot.KindHit, Table: "T1", Round: "r-2",
			Seat: 3, Dealt: 2, Category: "royal_flush", Displayed: -10_000_866, Paid: 10_000_866,
			Funding: []jackpot.Funding{{Source: jackpot.SourcePool, Amount: 10_000_866}},
			Actor:   &jackpot.Actor{ID: "table:T1", Role: "table"}, Rules: []string{"mbs-megalink-tcp-v6 4.2"}, Note: "café"},
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
	return es, leaves, hashes, "4011b5043469b1f4b24520b60f72af06be8b95355fba6d8365051f4b0f3f13d6"
}

// memLog is a tlog.HashReader over stored hashes kept by index.
type memLog map[int64]tlog.Hash

func (m memLog) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(indexes))
	for i, x := range indexes {
		h, ok := m[x]
		if !ok {
			return nil, fmt.Errorf("no stored hash %d", x)
		}
		out[i] = h
	}
	return out, nil
}

// put records what Append returned for the entries after size.
func (m memLog) put(size int64, out [][]tlog.Hash) {
	for i, hs := range out {
		first := tlog.StoredHashIndex(0, size+int64(i))
		for j, h := range hs {
			m[first+int64(j)] = h
		}
	}
}

// TestGoldenLeaves pins the leaf encoding and the RFC 6962 hashes to
// vectors computed outside Go (issue 34 item 1: an entry's served bytes
// never change).
func TestGoldenLeaves(t *testing.T) {
	es, leaves, hashes, root := golden()
	log := memLog{}
	for i, e := range es {
		b, err := ledgerlog.Leaf(e)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != leaves[i] {
			t.Errorf("leaf %d:\n got %s\nwant %s", i, b, leaves[i])
		}
		h, err := ledgerlog.LeafHash(e)
		if err != nil {
			t.Fatal(err)
		}
		if hex.EncodeToString(h[:]) != hashes[i] {
			t.Errorf("leaf hash %d = %x, want %s", i, h, hashes[i])
		}
		out, err := ledgerlog.Append(log, int64(i), es[i:i+1])
		if err != nil {
			t.Fatal(err)
		}
		log.put(int64(i), out)
	}
	th, err := tlog.TreeHash(3, log)
	if err != nil {
		t.Fatal(err)
	}
	if hex.EncodeToString(th[:]) != root {
		t.Errorf("root of the three = %x, want %s", th, root)
	}
}

// TestLeafIsServedEntry checks that a leaf is the canonical form of the
// entry exactly as GET /v1/pools/{id}/ledger writes it (the API's codec,
// internal/apijson), less the floor page's derived annotations "amount"
// and "proposed" (docs/ledger.md).
func TestLeafIsServedEntry(t *testing.T) {
	es, _, _, _ := golden()
	big := es[1]
	big.Seq, big.Displayed = 4, money.Amount(1<<53+1) // beyond a double's integers: kept digit for digit
	for _, e := range append(es, big) {
		var buf bytes.Buffer
		fe := pools.FloorEntry{Entry: e, Amount: jackpot.SignedAmount(e), Proposed: &jackpot.Change{Kind: jackpot.ProposeVoid}}
		if err := apijson.Format.Marshal(&buf, fe); err != nil {
			t.Fatal(err)
		}
		var m map[string]jsontext.Value
		if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		delete(m, "amount")
		delete(m, "proposed")
		b, err := json.Marshal(m, json.Deterministic(true))
		if err != nil {
			t.Fatal(err)
		}
		want := jsontext.Value(b)
		if err := want.Canonicalize(jsontext.CanonicalizeRawInts(false)); err != nil {
			t.Fatal(err)
		}
		got, err := ledgerlog.Leaf(e)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("entry %d:\nleaf   %s\nserved %s", e.Seq, got, want)
		}
	}
	b, _ := ledgerlog.Leaf(big)
	if !bytes.Contains(b, []byte(`"displayed":9007199254740993`)) {
		t.Errorf("an amount of 2^53+1 minor units lost digits: %s", b)
	}
}

// TestAppendMatchesTlog checks Append against tlog.StoredHashes applied
// entry by entry, for appends of every size split at every point, and
// that it reads no more than O(log n) hashes through its reader.
func TestAppendMatchesTlog(t *testing.T) {
	const n = 70
	es := make([]jackpot.Entry, n)
	for i := range es {
		es[i] = jackpot.Entry{Pool: "p", Seq: int64(i + 1), Kind: jackpot.KindContribution, Displayed: money.Amount(i)}
	}
	want := memLog{}
	for i, e := range es {
		b, _ := ledgerlog.Leaf(e)
		hs, err := tlog.StoredHashes(int64(i), b, want)
		if err != nil {
			t.Fatal(err)
		}
		want.put(int64(i), [][]tlog.Hash{hs})
	}
	for _, step := range []int{1, 2, 3, 7, 16, n} {
		got := memLog{}
		for size := 0; size < n; size += step {
			end := min(size+step, n)
			var reads int
			counted := tlog.HashReaderFunc(func(ix []int64) ([]tlog.Hash, error) {
				reads += len(ix)
				for _, x := range ix {
					if x >= tlog.StoredHashIndex(0, int64(size)) {
						t.Fatalf("step %d: read index %d, written by this very append", step, x)
					}
				}
				return got.ReadHashes(ix)
			})
			out, err := ledgerlog.Append(counted, int64(size), es[size:end])
			if err != nil {
				t.Fatal(err)
			}
			if reads > 8*(end-size) { // log2(70) < 7 per entry
				t.Errorf("step %d at %d: %d hashes read", step, size, reads)
			}
			got.put(int64(size), out)
		}
		if len(got) != len(want) {
			t.Fatalf("step %d: %d stored hashes, want %d", step, len(got), len(want))
		}
		for x, h := range want {
			if got[x] != h {
				t.Fatalf("step %d: stored hash %d differs", step, x)
			}
		}
	}
}

// TestAppendRefusesAGap checks that entries must follow size one by one.
func TestAppendRefusesAGap(t *testing.T) {
	es, _, _, _ := golden()
	if _, err := ledgerlog.Append(memLog{}, 0, []jackpot.Entry{es[0], es[2]}); err == nil {
		t.Error("entries 1 and 3 appended as consecutive")
	}
	if _, err := ledgerlog.Append(memLog{}, 1, es[:1]); err == nil {
		t.Error("entry 1 appended at size 1")
	}
	fail := tlog.HashReaderFunc(func([]int64) ([]tlog.Hash, error) { return nil, errors.New("down") })
	if _, err := ledgerlog.Append(fail, 1, es[1:2]); err == nil {
		t.Error("a failing reader went unreported")
	}
}

// TestOwner checks that every stored hash an entry adds is owned by it,
// at its position in the entry's list.
func TestOwner(t *testing.T) {
	for n := int64(0); n < 300; n++ {
		first := tlog.StoredHashIndex(0, n)
		count := tlog.StoredHashCount(n+1) - tlog.StoredHashCount(n)
		for pos := int64(0); pos < count; pos++ {
			seq, p := ledgerlog.Owner(first + pos)
			if seq != n+1 || int64(p) != pos {
				t.Fatalf("Owner(%d) = %d, %d; want entry %d position %d", first+pos, seq, p, n+1, pos)
			}
		}
	}
}

// TestPack checks the stored form round-trips and refuses a torn blob.
func TestPack(t *testing.T) {
	hs := []tlog.Hash{tlog.RecordHash([]byte("a")), tlog.RecordHash([]byte("b"))}
	got, err := ledgerlog.Unpack(ledgerlog.Pack(hs))
	if err != nil || len(got) != 2 || got[0] != hs[0] || got[1] != hs[1] {
		t.Fatalf("round trip: %v %v", got, err)
	}
	if _, err := ledgerlog.Unpack(make([]byte, 33)); err == nil {
		t.Error("33 bytes unpacked")
	}
}

// BenchmarkAppend is what the log adds to a commit of one contribution
// entry: its leaf (canonical JSON) and its stored hashes, reading the
// earlier ones it needs (issue 34: per-round cost).
func BenchmarkAppend(b *testing.B) {
	es, _, _, _ := golden()
	log := memLog{}
	out, err := ledgerlog.Append(log, 0, es)
	if err != nil {
		b.Fatal(err)
	}
	log.put(0, out)
	e := es[1]
	b.ReportAllocs()
	for b.Loop() {
		e.Seq = 4
		if _, err := ledgerlog.Append(log, 3, []jackpot.Entry{e}); err != nil {
			b.Fatal(err)
		}
	}
}
