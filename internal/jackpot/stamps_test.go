package jackpot_test

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
)

// skewedLedger is an MBS pool opened at t0 and its ledger after five
// rounds from writers whose clocks disagree, committed in this order at
// t0+10s, t0+5s (a writer 5 s behind), t0+12s, t0+2s (10 s behind) and
// t0+20s, the second a Straight Flush (10% of the meter, R3): entries 1
// the opening, 2 r0, 3 and 4 r1's contribution and hit, 5 r2, 6 r3, 7 r4.
func skewedLedger(t *testing.T) (jackpot.Pool, []jackpot.Entry) {
	t.Helper()
	const rs = "mbs-megalink-ssp-v6"
	p, ledger, err := jackpot.New("p", jackpottest.MBSSettings(), ops, t0)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range []int{10, 5, 12, 2, 20} {
		at := t0.Add(time.Duration(s) * time.Second)
		var hits []jackpot.Hit
		if i == 1 {
			hits = append(hits, jackpottest.StraightFlush(rs, 1, 1, 500))
		}
		var es []jackpot.Entry
		if p, es, _, err = jackpot.Apply(p, jackpottest.RoundOf(rs, "T1", fmt.Sprint("r", i), at, 500, []int{1, 2, 3}, hits...), at); err != nil {
			t.Fatal(err)
		}
		ledger = append(ledger, es...)
	}
	return p, ledger
}

// TestStampsBoundTheLedger: every transition keeps a pool's stamps those
// of its ledger: the latest time an entry is stamped with (t0+20s) and the
// most an entry is stamped before one ahead of it (10 s: the t0+2s round
// behind the t0+12s one), so that the ledger as it stood at an instant
// (MetersAt) is found from its end.
func TestStampsBoundTheLedger(t *testing.T) {
	p, ledger := skewedLedger(t)
	want := jackpot.Stamps{Through: 7, Latest: t0.Add(20 * time.Second), Lag: 10 * time.Second, Firsts: map[string]int64{"straight_flush": 4}}
	if !reflect.DeepEqual(p.Stamps, want) || !reflect.DeepEqual(jackpot.StampsOf(ledger), want) {
		t.Fatalf("the pool's stamps %+v, its ledger's %+v; want %+v", p.Stamps, jackpot.StampsOf(ledger), want)
	}
	// The entries are 1 the opening (t0), 2 r0 (t0+10s), 3 and 4 r1's
	// contribution and Straight Flush (t0+5s), 5 r2 (t0+12s), 6 r3
	// (t0+2s) and 7 r4 (t0+20s). An entry is settled for an instant at
	// least the lag, 10 s, after it: every entry before it is then
	// stamped at or before the instant.
	for _, c := range []struct {
		at      time.Time
		settled []int64
	}{
		{t0.Add(11 * time.Second), []int64{1}},
		{t0.Add(12 * time.Second), []int64{1, 6}},
		{t0.Add(22 * time.Second), []int64{1, 2, 3, 4, 5, 6}},
		{t0.Add(30 * time.Second), []int64{1, 2, 3, 4, 5, 6, 7}},
	} {
		var got []int64
		for _, e := range ledger {
			if p.Stamps.Settled(e, c.at) {
				got = append(got, e.Seq)
			}
		}
		if !reflect.DeepEqual(got, c.settled) {
			t.Fatalf("settled at %s: entries %v, want %v", c.at.Format(time.TimeOnly), got, c.settled)
		}
	}
	// Stamps are a value: noting a category's first hit on a copy leaves
	// the stamps it was copied from as they were.
	before := jackpot.StampsOf(ledger[:4])
	after := before.With(jackpot.Entry{Seq: 5, Kind: jackpot.KindHit, Category: "royal_flush", At: t0})
	if len(before.Firsts) != 1 || after.Firsts["royal_flush"] != 5 || after.Firsts["straight_flush"] != 4 {
		t.Fatalf("firsts: %v, then %v", before.Firsts, after.Firsts)
	}
	// A pool written before stamps were kept covers no entry, and posting
	// to it covers none (its earlier entries' times are not in it).
	legacy, _ := skewedLedger(t)
	legacy.Stamps = jackpot.Stamps{}
	q, _, _, err := jackpot.Apply(legacy, jackpottest.RoundOf("mbs-megalink-ssp-v6", "T1", "r9", t0, 500, []int{1}), t0.Add(30*time.Second))
	if err != nil || !reflect.DeepEqual(q.Stamps, jackpot.Stamps{}) || q.Stamps.Settled(ledger[0], t0.Add(time.Hour)) {
		t.Fatalf("legacy: %v %+v", err, q.Stamps)
	}
}

// TestTailLedgerIsTheWholeLedger: cut at any entry, the pool's meters
// less the tail's entries and the head's entries about hits give the
// meters at every instant the cut allows and the shift report from it,
// as the whole ledger does (exact to the minor unit: reflect.DeepEqual).
func TestTailLedgerIsTheWholeLedger(t *testing.T) {
	p, ledger := skewedLedger(t)
	cuts := 0
	for _, s := range []int{-1, 0, 2, 5, 10, 11, 12, 20, 21, 22, 30} {
		at := t0.Add(time.Duration(s) * time.Second)
		wantAt, err := jackpot.MetersAt("p", ledger, at)
		if err != nil {
			t.Fatal(err)
		}
		wantReport, err := jackpot.ShiftReport(p, ledger, at, t0.Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		var hits []jackpot.Entry
		for j, e := range ledger {
			if p.Stamps.Settled(e, at) {
				cuts++
				l, err := jackpot.TailLedger(p, 1, hits, ledger[j:])
				if err != nil {
					t.Fatal(err)
				}
				if got, err := l.MetersAt("p", at); err != nil || !reflect.DeepEqual(got, wantAt) {
					t.Fatalf("as of t0%+ds cut at %d: %v\n got %+v\nwant %+v", s, e.Seq, err, got, wantAt)
				}
				if got, err := l.ShiftReport(p, at, t0.Add(time.Hour)); err != nil || !reflect.DeepEqual(got, wantReport) {
					t.Fatalf("report from t0%+ds cut at %d: %v\n got %+v\nwant %+v", s, e.Seq, err, got, wantReport)
				}
				// Read for a report: the head's hits from the first that can
				// be open after it (none here: the Straight Flush was paid at
				// once); the hits per category from the pool's stamps.
				from := jackpot.OpenFrom(p, ledger[j:])
				bounded, err := jackpot.TailLedger(p, from, nil, ledger[j:])
				if err != nil || from != e.Seq {
					t.Fatalf("hits from %d cut at %d: %v", from, e.Seq, err)
				}
				if got, err := bounded.ShiftReport(p, at, t0.Add(time.Hour)); err != nil || !reflect.DeepEqual(got, wantReport) {
					t.Fatalf("report from t0%+ds cut at %d, no hits of the head: %v\n got %+v\nwant %+v", s, e.Seq, err, got, wantReport)
				}
				if got, err := bounded.MetersAt("p", at); err != nil || !reflect.DeepEqual(got, wantAt) {
					t.Fatalf("as of t0%+ds cut at %d, no hits of the head: %v\n got %+v\nwant %+v", s, e.Seq, err, got, wantAt)
				}
			}
			if e.Kind.AboutHit() {
				hits = append(hits, e)
			}
		}
	}
	if cuts != 27 { // 0 up to t0+5s, 1, 1, 2, 5, 5, 6 and 7
		t.Fatalf("%d cuts, want 27", cuts)
	}
	// Cut after entry 5 (its head's one hit the Straight Flush's entry 4,
	// 1,000,051: 10% of 10,000,519, the meter with r0's 259 and r1's own
	// 260, R3), the meters as of t0+12s
	// are the head's and r3's (t0+2s): through entry 6, as the whole
	// ledger's.
	l, err := jackpot.TailLedger(p, 1, ledger[3:4], ledger[5:])
	if err != nil {
		t.Fatal(err)
	}
	got, err := l.MetersAt("p", t0.Add(12*time.Second))
	if err != nil || got.Meters.Hits["straight_flush"].Paid != 1_000_051 || got.ThroughSeq != 6 || got.Entries != 6 {
		t.Fatalf("as of t0+12s: %v %+v", err, got)
	}
}

// TestTailLedgerRefuses a tail that is not the end of the pool's ledger
// and hits that do not add up with it to the pool's: the caller reads the
// whole ledger instead of reporting meters it does not hold.
func TestTailLedgerRefuses(t *testing.T) {
	p, ledger := skewedLedger(t)
	hits := []jackpot.Entry{ledger[3]} // the Straight Flush's hit entry
	if ledger[2].Kind != jackpot.KindContribution || ledger[3].Kind != jackpot.KindHit {
		t.Fatalf("fixture: entries 3 and 4 are %s and %s", ledger[2].Kind, ledger[3].Kind)
	}
	gap := append(append([]jackpot.Entry{}, ledger[4]), ledger[6:]...)
	for _, c := range []struct {
		name       string
		hits, tail []jackpot.Entry
		want       string
	}{
		{"empty", nil, nil, "empty tail"},
		{"a gap", hits, gap, "skips from entry 5 to 7"},
		{"short of the pool", hits, ledger[4:6], "ends at entry 6, the pool at 7"},
		{"a hit left out", nil, ledger[4:], "its entries about hits make map[]"},
		{"not about a hit", ledger[2:4], ledger[4:], "is contribution, not about a hit"},
	} {
		if _, err := jackpot.TailLedger(p, 1, c.hits, c.tail); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	if _, err := jackpot.TailLedger(p, 1, hits, ledger[4:]); err != nil {
		t.Fatal(err)
	}
	// Stamps that stop short of the ledger, or put the Straight Flush's
	// category in the meters after the head that sums it.
	short := p
	short.Stamps.Through = 6
	if _, err := jackpot.TailLedger(short, 5, nil, ledger[4:]); err == nil || !strings.Contains(err.Error(), "cover 6 entries, not its 7") {
		t.Fatalf("short stamps: %v", err)
	}
	late := p
	late.Stamps.Firsts = map[string]int64{"straight_flush": 6}
	if _, err := jackpot.TailLedger(late, 5, nil, ledger[4:]); err == nil || !strings.Contains(err.Error(), "whose stamps put its first at 6") {
		t.Fatalf("a category first after the head: %v", err)
	}
	// Hits from entry 5 on (a report's read) with entry 4 among them.
	if _, err := jackpot.TailLedger(p, 5, hits, ledger[4:]); err == nil || !strings.Contains(err.Error(), "entry 4 of p is before 5") {
		t.Fatalf("a hit before the first asked for: %v", err)
	}
	// A meter the subtraction would take past an int64 (never one the
	// ledger made: the pool's is its sum).
	q := p
	q.Meters.HouseFunded = math.MinInt64 + 1
	if _, err := jackpot.TailLedger(q, 1, nil, ledger); err == nil || !strings.Contains(err.Error(), "the HouseFunded meter less the tail's would overflow") {
		t.Fatalf("overflow: %v", err)
	}
}

// TestMetersMinusEveryMeter: the head's sum is the pool's meters less
// the tail's, every meter of them: a meter added to Meters and left out
// of the subtraction fails here (the head would carry the pool's value).
func TestMetersMinusEveryMeter(t *testing.T) {
	p, ledger := skewedLedger(t)
	v := reflect.ValueOf(&p.Meters).Elem()
	for i := range v.NumField() {
		if f := v.Field(i); f.Kind() == reflect.Int64 {
			f.SetInt(f.Int() + int64(1000+i))
		}
	}
	l, err := jackpot.TailLedger(p, 1, ledger[3:4], ledger[4:])
	if err != nil {
		t.Fatal(err)
	}
	whole, _ := jackpot.MetersAt("p", ledger[:4], t0.Add(time.Hour))
	b := reflect.ValueOf(l.Before)
	w := reflect.ValueOf(whole.Meters)
	for i := range b.NumField() {
		if b.Field(i).Kind() == reflect.Int64 && b.Field(i).Int() != w.Field(i).Int()+int64(1000+i) {
			t.Errorf("%s: %d, want %d", b.Type().Field(i).Name, b.Field(i).Int(), w.Field(i).Int()+int64(1000+i))
		}
	}
}
