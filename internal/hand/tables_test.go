package hand

import (
	"bytes"
	"os"
	"testing"
	"unsafe"

	"github.com/tablesettle/tablesettle/internal/card"
	"github.com/tablesettle/tablesettle/internal/hand/tablegen"
)

// tables_gen.go is what `go generate` writes: the committed tables
// were not edited by hand and match the generator.
func TestGeneratedTablesUpToDate(t *testing.T) {
	tab, err := tablegen.Build()
	if err != nil {
		t.Fatal(err)
	}
	want, err := tab.Source()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("tables_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("tables_gen.go differs from the generator's output: run go generate ./internal/hand")
	}
	// The perfect hash is minimal: one entry per rank multiset of 5-7 cards,
	// after the 8,192 flush entries.
	if numRankClasses != 73775 || flushSlots != 8192 || len(tab.Ranks) != flushSlots+numRankClasses {
		t.Errorf("%d rank multisets hashed into %d entries after %d flush entries, want 73775 after 8192", numRankClasses, len(tab.Ranks)-flushSlots, flushSlots)
	}
	// Eval7's table: the flushes, then each of the 49,205 rank multisets of
	// exactly 7 cards (at most 4 of a rank) in a slot of its own.
	for m := range flushSlots {
		if rankClasses7[m] != Value(rankClasses[m]) {
			t.Fatalf("rankClasses7[%d] = %d, rankClasses has %d: the flushes differ", m, rankClasses7[m], rankClasses[m])
		}
	}
	n := 0
	for _, v := range rankClasses7[flushSlots:] {
		if v != 0 {
			n++
		}
	}
	if n != 49205 {
		t.Errorf("rankClasses7 holds %d seven-card rank multisets, want 49205", n)
	}
}

// tableBytes is the memory the evaluator's tables take.
func tableBytes() int {
	return len(cardKeys)*int(unsafe.Sizeof(cardKeys[0])) +
		len(firstKeys)*int(unsafe.Sizeof(firstKeys[0])) +
		len(cardMasks)*int(unsafe.Sizeof(cardMasks[0])) +
		len(categoryFloor)*int(unsafe.Sizeof(categoryFloor[0])) +
		len(rankOffsets)*int(unsafe.Sizeof(rankOffsets[0])) +
		len(rankClasses)*int(unsafe.Sizeof(rankClasses[0])) +
		len(threeValues)*int(unsafe.Sizeof(threeValues[0])) +
		len(keys7)*int(unsafe.Sizeof(keys7[0])) +
		len(firstKeys7)*int(unsafe.Sizeof(firstKeys7[0])) +
		len(rankOffsets7)*int(unsafe.Sizeof(rankOffsets7[0])) +
		len(rankClasses7)*int(unsafe.Sizeof(rankClasses7[0]))
}

// The tables stay under 1 MiB of memory, so they can stay in cache. That
// counts pairMasks as the 52 rows of valid first cards that init writes
// and the flush paths read (106,496 bytes); its 512 KiB are address space
// in the BSS, zero pages never touched. Eval7 alone reads 4 KiB of keys,
// 32 KiB of offsets and 256 KiB of classes on its common path: less than
// the 512 KiB of L2 of the machine it was measured on.
func TestTableSize(t *testing.T) {
	touched := card.NumCards * int(unsafe.Sizeof(pairMasks[0]))
	n := tableBytes() + touched
	t.Logf("tables: %d bytes in memory (%d of address space)", n, tableBytes()+int(unsafe.Sizeof(pairMasks)))
	if n >= 1<<20 {
		t.Fatalf("tables take %d bytes, want under 1 MiB", n)
	}
}
