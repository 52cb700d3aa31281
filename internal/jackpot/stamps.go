package jackpot

import (
	"fmt"
	"reflect"
	"time"
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
		s.Through = e.Seq
	}
	return s
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
	// Before is what the first Head entries sum to; its hits are nil
	// when Hits do not reach back to the first entry.
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
// ledger after a head (oldest first, ending at p's Seq), and hits its
// entries about hits from entry from on up to the head (oldest first;
// later ones are ignored): from 1, every one, for the meters as they
// stood (MetersAt: the hits per category); from OpenFrom(p, tail) on for
// a shift report. The head's sum is p's meters less the tail's: p must be
// the pool as read with its ledger (its meters are then that ledger's
// sum). It refuses a tail that is not the end of p's ledger, and every
// hit of the head whose sum is not the head's, so a caller falls back to
// the whole ledger rather than report meters the ledger does not hold.
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
	if l.HitsFrom > 1 {
		return l, nil // the hits per category are not known
	}
	// The head's hits are those its entries about hits make (a category
	// is in the map once a hit of it is), and with the tail's they must
	// be the pool's.
	l.Before.Hits = map[string]CategoryMeter{}
	for k, v := range h.Hits {
		l.Before.Hits[k] = v
	}
	sum := map[string]CategoryMeter{}
	for _, m := range []map[string]CategoryMeter{h.Hits, t.Hits} {
		for k, v := range m {
			s := sum[k]
			s.Count += v.Count
			s.Paid += v.Paid
			s.FromPool += v.FromPool
			sum[k] = s
		}
	}
	for k, v := range p.Meters.Hits {
		if sum[k] != v {
			return Ledger{}, fmt.Errorf("jackpot: the hits of %s in category %s: the ledger's %+v, the pool's %+v", p.ID, k, sum[k], v)
		}
		delete(sum, k)
	}
	for k, v := range sum {
		if v != (CategoryMeter{}) {
			return Ledger{}, fmt.Errorf("jackpot: the hits of %s in category %s: the ledger's %+v, the pool's none", p.ID, k, v)
		}
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
		a, b := f.Int(), tv.Field(i).Int()
		d := a - b
		if (b > 0 && d > a) || (b < 0 && d < a) {
			return Meters{}, fmt.Errorf("the %s meter less the tail's would overflow", o.Type().Field(i).Name)
		}
		f.SetInt(d)
	}
	return out, nil
}
