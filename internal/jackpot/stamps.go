package jackpot

import (
	"fmt"
	"maps"
	"reflect"
	"time"

	"github.com/tablesettle/tablesettle/internal/money"
)

// Stamps is what a pool knows of its ledger's times without reading it:
// enough to find the entries committed after an instant from the end of
// the ledger, so that a shift report or the meters as they stood read
// the entries since the instant, not every entry since the pool opened.
//
// A ledger's times need not rise with its sequence numbers: writers'
// clocks disagree, and a sharded store folds in rounds stamped when they
// were computed beside the pool. Lag bounds that: no entry is stamped more
// than Lag before any entry ahead of it in the ledger. So once an entry
// stamped at or before at - Lag is found, every entry ahead of it is
// stamped at or before at, and the ledger as it stood at at (MetersAt) is
// those entries and some of the ones after it.
type Stamps struct {
	// Through is how many entries, from the first, Latest and Lag cover:
	// the pool's Seq when they cover its ledger. 0 for a pool written
	// before stamps were kept (its entries are never noted: each must
	// follow the last one covered), and a view of a pool with rounds
	// folded in from its shards covers the entries before them (the
	// rounds' times are in their records, not the shards' sums).
	Through int64 `json:"through"`
	// Latest is the latest time an entry covered is stamped with.
	Latest time.Time `json:"latest"`
	// Lag is the most an entry covered is stamped before one ahead of it.
	Lag time.Duration `json:"lag"`
	// Firsts is, for each hit category in the meters (Meters.Hits), the
	// entry that put it there: a category is in the meters as they stood
	// at an instant once that entry is (MetersAt).
	Firsts map[string]int64 `json:"firsts,omitempty"`
}

// With is s having noted es, in ledger order: each entry that follows
// the last one covered (the stores keep no monotonic clock reading: the
// wall clock is compared). Stamps that stop short of an entry stay so.
func (s Stamps) With(es ...Entry) Stamps {
	for _, e := range es {
		if e.Seq != s.Through+1 {
			continue
		}
		at := e.At.Round(0)
		if s.Through > 0 {
			s.Lag = max(s.Lag, s.Latest.Sub(at))
		}
		if s.Through == 0 || at.After(s.Latest) {
			s.Latest = at
		}
		if putsHits(e.Kind) && s.Firsts[e.Category] == 0 {
			s.Firsts = maps.Clone(s.Firsts) // never the map of the stamps s was copied from
			if s.Firsts == nil {
				s.Firsts = map[string]int64{}
			}
			s.Firsts[e.Category] = e.Seq
		}
		s.Through = e.Seq
	}
	return s
}

// putsHits reports whether an entry of kind k moves the meters' hits of
// its category (applyEntry).
func putsHits(k Kind) bool {
	return k == KindHit || k == KindHitVoid || k == KindHouseRecovery
}

// StampsOf is the Stamps of a whole ledger, oldest first.
func StampsOf(ledger []Entry) Stamps {
	return Stamps{}.With(ledger...)
}

// Settled reports whether every entry before e is stamped at or before
// at, e being an entry the stamps cover stamped at least Lag before at.
func (s Stamps) Settled(e Entry, at time.Time) bool {
	return e.Seq <= s.Through && !e.At.Add(s.Lag).After(at)
}

// A Ledger is a pool's ledger up to its Seq, told as the sum of its first
// Head entries and the entries after them: the whole ledger when Head is
// 0. TailLedger makes one from the pool's meters; a shift report and the
// meters as they stood at an instant read one whose head is stamped at or
// before the instant (Stamps.Settled).
type Ledger struct {
	// Head is how many entries Before sums: Tail starts at entry Head+1.
	Head int64
	// Before is what the first Head entries sum to.
	Before Meters
	// Hits are the entries about hits (Kind.AboutHit) among the first
	// Head from entry HitsFrom on, oldest first: a report's hits and
	// liabilities read them from OpenFrom on.
	HitsFrom int64
	Hits     []Entry
	// Tail is the rest of the ledger, oldest first.
	Tail []Entry
}

// OpenFrom is the first entry of p's ledger whose hit can be open after
// the entries tail, the end of that ledger: the hits open in the pool now
// and those an entry of tail names (every entry about a hit comes after
// the hit's own), or tail's first entry when there is none. A hit of the
// ledger before it was closed before tail.
func OpenFrom(p Pool, tail []Entry) int64 {
	first := p.Seq + 1
	if len(tail) > 0 {
		first = tail[0].Seq
	}
	for _, h := range p.Locked {
		first = min(first, h.Seq)
	}
	for _, h := range p.Held {
		first = min(first, h.Seq)
	}
	for _, e := range tail {
		for _, seq := range []int64{e.HitSeq, e.HeldSeq} {
			if seq > 0 {
				first = min(first, seq)
			}
		}
	}
	return first
}

// WholeLedger is ledger (oldest first, from entry 1) as a Ledger.
func WholeLedger(ledger []Entry) Ledger {
	return Ledger{Before: Meters{Hits: map[string]CategoryMeter{}}, HitsFrom: 1, Tail: ledger}
}

// TailLedger is the Ledger of p whose Tail is tail, the entries of p's
// ledger after a head (oldest first, ending at p's Seq), and hits the
// head's entries about hits from entry from on (oldest first; later ones
// are ignored): for a shift report, from OpenFrom(p, tail) on. The head's
// sum is p's meters less the tail's, its hits per category those p's
// stamps put in the meters by the head (Stamps.Firsts): p must be the
// pool as read with its ledger (its meters are then that ledger's sum),
// its stamps covering it. It refuses a tail that is not the end of p's
// ledger, stamps that do not cover it, and a head whose hits do not add
// up (with hits from entry 1, every one, their sum must be the head's),
// so a caller falls back to the whole ledger rather than report meters
// the ledger does not hold.
func TailLedger(p Pool, from int64, hits, tail []Entry) (Ledger, error) {
	if len(tail) == 0 {
		return Ledger{}, fmt.Errorf("jackpot: an empty tail of %s", p.ID)
	}
	head := tail[0].Seq - 1
	for i, e := range tail {
		if e.Seq != head+1+int64(i) {
			return Ledger{}, fmt.Errorf("jackpot: the tail of %s skips from entry %d to %d", p.ID, head+int64(i), e.Seq)
		}
	}
	if last := tail[len(tail)-1].Seq; last != p.Seq {
		return Ledger{}, fmt.Errorf("jackpot: the tail of %s ends at entry %d, the pool at %d", p.ID, last, p.Seq)
	}
	if p.Stamps.Through != p.Seq {
		return Ledger{}, fmt.Errorf("jackpot: the stamps of %s cover %d entries, not its %d", p.ID, p.Stamps.Through, p.Seq)
	}
	t := Meters{Hits: map[string]CategoryMeter{}}
	for _, e := range tail {
		if err := applyEntry(&t, e); err != nil {
			return Ledger{}, err
		}
	}
	before, err := p.Meters.minus(t)
	if err != nil {
		return Ledger{}, err
	}
	before.Hits = map[string]CategoryMeter{}
	for k, v := range p.Meters.Hits {
		count, ok1 := sub(v.Count, t.Hits[k].Count)
		paid, ok2 := sub(int64(v.Paid), int64(t.Hits[k].Paid))
		fromPool, ok3 := sub(int64(v.FromPool), int64(t.Hits[k].FromPool))
		d := CategoryMeter{Count: count, Paid: money.Amount(paid), FromPool: money.Amount(fromPool)}
		first, ok := p.Stamps.Firsts[k]
		switch {
		case !ok1 || !ok2 || !ok3:
			return Ledger{}, fmt.Errorf("jackpot: the hits of %s in category %s less the tail's would overflow", p.ID, k)
		case ok && first <= head:
			before.Hits[k] = d
		case d != CategoryMeter{} || !ok:
			return Ledger{}, fmt.Errorf("jackpot: the hits of %s in category %s: %+v before entry %d, whose stamps put its first at %d", p.ID, k, d, head+1, first)
		}
	}
	for k := range t.Hits {
		if _, ok := p.Meters.Hits[k]; !ok {
			return Ledger{}, fmt.Errorf("jackpot: the tail of %s has hits in category %s, the pool none", p.ID, k)
		}
	}
	l := Ledger{Head: head, Before: before, HitsFrom: max(from, 1), Tail: tail}
	h := Meters{Hits: map[string]CategoryMeter{}}
	for _, e := range hits {
		if e.Seq > head {
			break
		}
		if e.Seq < l.HitsFrom {
			return Ledger{}, fmt.Errorf("jackpot: entry %d of %s is before %d, the first about hits given", e.Seq, p.ID, l.HitsFrom)
		}
		if !e.Kind.AboutHit() {
			return Ledger{}, fmt.Errorf("jackpot: entry %d of %s is %s, not about a hit", e.Seq, p.ID, e.Kind)
		}
		l.Hits = append(l.Hits, e)
		if err := applyEntry(&h, e); err != nil {
			return Ledger{}, err
		}
	}
	if l.HitsFrom == 1 && !reflect.DeepEqual(h.Hits, before.Hits) {
		return Ledger{}, fmt.Errorf("jackpot: the hits of %s before entry %d: its entries about hits make %+v, the pool less the tail %+v", p.ID, head+1, h.Hits, before.Hits)
	}
	return l, nil
}

// minus is m less t, meter by meter: every int64 meter of Meters (a meter
// added to it is subtracted too), each subtraction checked; the hits
// aside.
func (m Meters) minus(t Meters) (Meters, error) {
	out := m
	out.Hits = nil
	o, tv := reflect.ValueOf(&out).Elem(), reflect.ValueOf(t)
	for i := range o.NumField() {
		f := o.Field(i)
		if f.Kind() != reflect.Int64 {
			continue
		}
		d, ok := sub(f.Int(), tv.Field(i).Int())
		if !ok {
			return Meters{}, fmt.Errorf("the %s meter less the tail's would overflow", o.Type().Field(i).Name)
		}
		f.SetInt(d)
	}
	return out, nil
}

// sub is a - b, and false where that would overflow an int64.
func sub(a, b int64) (int64, bool) {
	d := a - b
	return d, (b >= 0 || d > a) && (b <= 0 || d < a)
}
