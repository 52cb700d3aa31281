package apijson

import (
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
)

// settle7 is the seven-seat settle request of the loopback benchmark
// (internal/httpapi), 661 bytes.
func settle7(t testing.TB) []byte {
	b, err := os.ReadFile("testdata/settle7.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sameAsLibrary checks decodeGeneric against the library's Unmarshal into
// any: a body it takes decodes to the value the library gives and notes
// the same unlocatable names; a body it leaves to the library is one the
// library refuses (so every refusal stays the library's).
func sameAsLibrary(t *testing.T, b []byte) {
	t.Helper()
	got, locatable, ok := decodeGeneric(b)
	var want any
	err := jsonv2.Unmarshal(b, &want, DecodeOptions)
	switch {
	case !ok && err == nil:
		t.Fatalf("decodeGeneric left to the library what it takes: %q", b)
	case ok && err != nil:
		t.Fatalf("decodeGeneric took what the library refuses (%v): %q", err, b)
	case ok && !reflect.DeepEqual(got, want):
		t.Fatalf("decodeGeneric %#v, the library %#v: %q", got, want, b)
	case ok && locatable != namesLocatable(want):
		t.Fatalf("decodeGeneric: names locatable %v, want %v: %q", locatable, !locatable, b)
	}
}

// The seven-seat settle request and seeded mutations of it (a byte
// dropped, changed or repeated, which make most of them invalid, and some
// a name repeated, a case variant, a bad escape) decode as the library
// decodes them, and are refused whenever the library refuses them.
func TestDecodeGenericIsTheLibrarysValue(t *testing.T) {
	body := settle7(t)
	rng := rand.New(rand.NewPCG(22, 7))
	alphabet := []byte(`{}[],:"\.0123456789-+eE tfnuaAx` + "\xff\x00")
	sameAsLibrary(t, body)
	for range 20000 {
		b := append([]byte(nil), body...)
		for range 1 + rng.IntN(3) {
			i := rng.IntN(len(b))
			switch rng.IntN(3) {
			case 0:
				b = append(b[:i], b[i+1:]...)
			case 1:
				b[i] = alphabet[rng.IntN(len(alphabet))]
			default:
				j := min(len(b), i+1+rng.IntN(40))
				b = append(b[:j], append(append([]byte(nil), b[i:j]...), b[j:]...)...)
			}
		}
		sameAsLibrary(t, b)
	}
}

// BenchmarkSettle7DecodeAnyLibrary is huma's pass as the library alone
// decodes it (the names checked after), for comparison with
// BenchmarkSettle7DecodeAny.
func BenchmarkSettle7DecodeAnyLibrary(b *testing.B) {
	body := settle7(b)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		var in any
		if err := jsonv2.Unmarshal(body, &in, DecodeOptions); err != nil || !namesLocatable(in) {
			b.Fatal(err)
		}
	}
}

// A number repeated in a body is boxed once, bit for bit: -0 stays -0
// beside a 0 (reflect.DeepEqual would call them equal).
func TestDecodeGenericKeepsNegativeZero(t *testing.T) {
	v, _, ok := decodeGeneric([]byte(`[0,-0,1000,1000]`))
	if !ok {
		t.Fatal("not taken")
	}
	a := v.([]any)
	if math.Signbit(a[0].(float64)) || !math.Signbit(a[1].(float64)) || a[2].(float64) != 1000 || a[3].(float64) != 1000 {
		t.Errorf("decoded %#v", a)
	}
}
