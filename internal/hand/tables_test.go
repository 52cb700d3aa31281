package hand

import (
	"bytes"
	"os"
	"testing"
	"unsafe"

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
		int(unsafe.Sizeof(pairMasks))
}

// The tables stay under 1 MB (the memory target), so they can stay
// in cache. pairMasks counts in full (512 KiB), though only its 104 KiB of
// valid card pairs are ever touched.
func TestTableSize(t *testing.T) {
	n := tableBytes()
	t.Logf("tables: %d bytes", n)
	if n >= 1<<20 {
		t.Fatalf("tables take %d bytes, want under 1 MiB", n)
	}
}
