package jackpot

import (
	"fmt"
	"github.com/tablesettle/tablesettle/internal/money"
	"math/big"
)

// Difference is one meter that does not match the ledger.
type Difference struct {
	Meter  string `json:"meter"`
	Meters int64  `json:"meters"`
	Ledger int64  `json:"ledger"`
}

// Reconciliation is the meters rebuilt from the ledger and what differs.
type Reconciliation struct {
	Pool string `json:"pool"`
	// From is the size of the verified checkpoint the reconciliation
	// started from (issue 34 item 6): entries after it were re-derived
	// (Entries of them), those up to it are covered by its signed root.
	// 0: the whole ledger.
	From        int64        `json:"from" doc:"The size of the verified checkpoint it started from: the entries after it were re-derived, those up to it are covered by the checkpoint's signed root; 0 is the whole ledger."`
	Entries     int64        `json:"entries"`
	Rebuilt     Meters       `json:"rebuilt"`
	Differences []Difference `json:"differences"`
	// RateSum and RateSumReserve are sum(wager x rate) over the whole
	// ledger, in 1/10000 of the minor unit, as exact decimal integers (they
	// may outgrow an int64): Rebuilt.Contributed x 10000 + carried must
	// equal them.
	RateSum        string `json:"rateSum"`
	RateSumReserve string `json:"rateSumReserve"`
	// Problems are ledger entries that do not add up on their own (a
	// payout whose funding does not sum to it, a gap in the sequence).
	Problems []string `json:"problems"`
	OK       bool     `json:"ok"`
}

// Reconcile rebuilds p's meters from its whole ledger (oldest first) and
// reports every difference, and checks the invariants each entry and the
// whole must keep: the sequence has no gap; a payout's or a reset's funding
// sums to it, source by source to the meters it moved; a contribution's
// credit is its wagers x the rates in force (a reversal's, the rates of the
// contribution it takes back, ruling R28), split between the meters, with
// credited x 10000 + carry change == wagers x rate; the money meters never
// go below zero; and, over the whole ledger (exactly, in math/big),
// credited x 10000 + carried == sum(wager x rate) for both rates.
func Reconcile(p Pool, ledger []Entry) Reconciliation {
	return ReconcileFrom(Base{}, p, ledger)
}

// Base is where a reconciliation starts: the pool as a verified
// checkpoint recorded it at Size entries (issue 34 item 6), its meters
// and exact rate sums then. The zero Base is the empty pool before its
// opening entry.
type Base struct {
	Size   int64
	Meters Meters
	// RateSum and RateSumReserve are sum(wager x rate) over the first
	// Size entries (nil: zero).
	RateSum, RateSumReserve *big.Int
	// Rates are the settings in force after entry Size (nil before the
	// opening).
	Rates *Settings
	// Entry reads an entry at or before Size: the contribution a
	// reversal after Size takes back (nil: none is read).
	Entry func(seq int64) (Entry, bool)
}

// ReconcileFrom is Reconcile of the entries after b.Size: ledger holds
// entries b.Size+1 to the pool's Seq, and the meters rebuilt are b's
// plus theirs. Every check of Reconcile is made on them; the pool's last
// hits and held hits, which name entries of the whole history, are
// checked only from the start (b.Size 0). Its cost is the new entries'.
func ReconcileFrom(b Base, p Pool, ledger []Entry) Reconciliation {
	r := Reconciliation{Pool: p.ID, From: b.Size, Entries: int64(len(ledger)), Rebuilt: b.Meters}
	r.Rebuilt.Hits = map[string]CategoryMeter{}
	for k, v := range b.Meters.Hits {
		r.Rebuilt.Hits[k] = v
	}
	problem := func(format string, args ...any) { r.Problems = append(r.Problems, fmt.Sprintf(format, args...)) }
	rateSum, rateSumR := new(big.Int), new(big.Int)
	if b.RateSum != nil {
		rateSum.Set(b.RateSum)
	}
	if b.RateSumReserve != nil {
		rateSumR.Set(b.RateSumReserve)
	}
	rates := b.Rates                   // the settings in force: the opening's, then each that took effect
	contributions := map[int64]Entry{} // by seq: what a reversal takes back
	b10k := big.NewInt(10000)
	// credit reports whether credited x 10000 + carry == rate, exactly.
	credit := func(credited money.Amount, carry, rate int64) bool {
		x := new(big.Int).Mul(big.NewInt(int64(credited)), b10k)
		x.Add(x, big.NewInt(carry))
		return x.Cmp(big.NewInt(rate)) == 0
	}
	for i, e := range ledger {
		if e.Seq != b.Size+int64(i+1) {
			problem("entry %d has seq %d: the ledger has a gap or a repeat", b.Size+int64(i+1), e.Seq)
		}
		if err := applyEntry(&r.Rebuilt, e); err != nil {
			problem("entry %d: %v", e.Seq, err)
		}
		var funded money.Amount
		by := map[Source]money.Amount{}
		for _, f := range e.Funding {
			if f.Amount <= 0 {
				problem("entry %d: a %s funding of %d is not positive", e.Seq, f.Source, f.Amount)
			}
			var err1, err2 error
			funded, err1 = money.Add(funded, f.Amount)
			by[f.Source], err2 = money.Add(by[f.Source], f.Amount)
			if err1 != nil || err2 != nil {
				problem("entry %d: its funding overflows", e.Seq)
			}
		}
		sources := func() {
			if by[SourcePool] != -e.Displayed || by[SourceOverflow] != -e.Overflow || by[SourceReserve] != -e.Reserve || by[SourceHouse] != e.HouseFunded {
				problem("entry %d: %s funded pool %d overflow %d reserve %d house %d but moved displayed %d overflow %d reserve %d house %d",
					e.Seq, e.Kind, by[SourcePool], by[SourceOverflow], by[SourceReserve], by[SourceHouse], e.Displayed, e.Overflow, e.Reserve, e.HouseFunded)
			}
		}
		switch e.Kind {
		case KindHit:
			if funded != e.Paid {
				problem("entry %d: hit paid %d but funded %d", e.Seq, e.Paid, funded)
			}
			sources()
		case KindHitVoid:
			// A reversal returns the funding to its sources.
			if funded != e.Paid {
				problem("entry %d: void returned %d but the hit was funded %d", e.Seq, e.Paid, funded)
			}
			if by[SourcePool] != e.Displayed || by[SourceOverflow] != e.Overflow || by[SourceReserve] != e.Reserve || by[SourceHouse] != -e.HouseFunded {
				problem("entry %d: hit_void does not return its funding to its sources", e.Seq)
			}
		case KindHouseRecovery, KindHouseTopUp:
			if funded != e.HouseFunded || by[SourceHouse] != e.HouseFunded || e.Displayed+e.Overflow+e.Reserve != e.HouseFunded {
				problem("entry %d: house_recovery returns %d to the meters but the house funded %d", e.Seq, e.Displayed+e.Overflow+e.Reserve, funded)
			}
		case KindResetVoid:
			if funded != -e.Displayed || by[SourcePool] != 0 || by[SourceOverflow] != e.Overflow || by[SourceReserve] != e.Reserve || by[SourceHouse] != -e.HouseFunded {
				problem("entry %d: reset_void does not return the reset's funding to its sources", e.Seq)
			}
		case KindReset, KindOpening:
			if funded != e.Displayed {
				problem("entry %d: %s credited %d but funded %d", e.Seq, e.Kind, e.Displayed, funded)
			}
			if by[SourcePool] != 0 {
				problem("entry %d: the pool cannot fund its own %s", e.Seq, e.Kind)
			}
			by[SourcePool] = -e.Displayed // it credits the displayed meter
			sources()
		case KindContribution:
			if e.Contributed != e.Displayed+e.Overflow || e.ContributedReserve != e.Reserve {
				problem("entry %d: contribution credited %d and %d but moved displayed %d overflow %d reserve %d", e.Seq, e.Contributed, e.ContributedReserve, e.Displayed, e.Overflow, e.Reserve)
			}
			if !credit(e.Contributed, e.CarryDisplayed, e.RateSum) || !credit(e.ContributedReserve, e.CarryReserve, e.RateSumReserve) {
				problem("entry %d: credited x 10000 + carry change != wagers x rate", e.Seq)
			}
			orig, ok := contributions[e.HitSeq]
			if !ok && e.HitSeq != 0 && e.HitSeq <= b.Size && e.Corrects != "" && b.Entry != nil {
				orig, ok = b.Entry(e.HitSeq)
				ok = ok && orig.Kind == KindContribution
			}
			if ok && e.HitSeq != 0 && e.Corrects != "" {
				// A reversal (ruling R28) carries the rates of the entry it
				// takes back, whatever rates are in force since.
				if e.WagerAmount != -orig.WagerAmount || e.Wagers != -orig.Wagers || e.RateSum != -orig.RateSum || e.RateSumReserve != -orig.RateSumReserve {
					problem("entry %d: a reversal of entry %d takes back wagers %d with rate sums %d and %d, not the entry's %d, %d and %d",
						e.Seq, orig.Seq, -e.WagerAmount, -e.RateSum, -e.RateSumReserve, orig.WagerAmount, orig.RateSum, orig.RateSumReserve)
				}
			} else if rates != nil {
				w := big.NewInt(int64(e.WagerAmount))
				if new(big.Int).Mul(w, big.NewInt(int64(rates.ContributionBP))).Cmp(big.NewInt(e.RateSum)) != 0 ||
					new(big.Int).Mul(w, big.NewInt(int64(rates.ReserveBP))).Cmp(big.NewInt(e.RateSumReserve)) != 0 {
					problem("entry %d: wagers %d at %d and %d bp are not the entry's rate sums %d and %d", e.Seq, e.WagerAmount, rates.ContributionBP, rates.ReserveBP, e.RateSum, e.RateSumReserve)
				}
			}
			contributions[e.Seq] = e
			rateSum.Add(rateSum, big.NewInt(e.RateSum))
			rateSumR.Add(rateSumR, big.NewInt(e.RateSumReserve))
		}
		if m := r.Rebuilt; m.Displayed < 0 || m.Reserve < 0 || m.Overflow < 0 || m.CarryDisplayed < 0 || m.CarryDisplayed >= 10000 || m.CarryReserve < 0 || m.CarryReserve >= 10000 {
			problem("entry %d leaves displayed %d reserve %d overflow %d carries %d %d: out of range", e.Seq, m.Displayed, m.Reserve, m.Overflow, m.CarryDisplayed, m.CarryReserve)
		}
		if e.New != nil && (e.Kind == KindOpening || e.Kind == KindSettingsEffective) {
			s := *e.New
			rates = &s
		}
	}
	if n := b.Size + int64(len(ledger)); n < p.Seq {
		problem("entry %d is missing: the pool counts %d entries, the ledger has %d", n+1, p.Seq, n)
	} else if n != p.Seq {
		problem("entry %d is past the pool's end: the pool counts %d entries, the ledger has %d", p.Seq+1, p.Seq, n)
	}
	if b.Size == 0 {
		wholeHistory(p, ledger, problem)
	}
	m, bm := p.Meters, r.Rebuilt
	cmp := func(name string, meters, ledger int64) {
		if meters != ledger {
			r.Differences = append(r.Differences, Difference{Meter: name, Meters: meters, Ledger: ledger})
		}
	}
	cmp("displayed", int64(m.Displayed), int64(bm.Displayed))
	cmp("reserve", int64(m.Reserve), int64(bm.Reserve))
	cmp("overflow", int64(m.Overflow), int64(bm.Overflow))
	cmp("carry_displayed", m.CarryDisplayed, bm.CarryDisplayed)
	cmp("carry_reserve", m.CarryReserve, bm.CarryReserve)
	cmp("contributed", int64(m.Contributed), int64(bm.Contributed))
	cmp("contributed_reserve", int64(m.ContributedReserve), int64(bm.ContributedReserve))
	cmp("wagers", m.Wagers, bm.Wagers)
	cmp("wager_amount", int64(m.WagerAmount), int64(bm.WagerAmount))
	cmp("house_funded", int64(m.HouseFunded), int64(bm.HouseFunded))
	cmp("resets", m.Resets, bm.Resets)
	cats := map[string]bool{}
	for k := range m.Hits {
		cats[k] = true
	}
	for k := range bm.Hits {
		cats[k] = true
	}
	for _, k := range sortedKeys(cats) {
		cmp("hits."+k+".count", m.Hits[k].Count, bm.Hits[k].Count)
		cmp("hits."+k+".paid", int64(m.Hits[k].Paid), int64(bm.Hits[k].Paid))
		cmp("hits."+k+".from_pool", int64(m.Hits[k].FromPool), int64(bm.Hits[k].FromPool))
	}
	r.RateSum, r.RateSumReserve = rateSum.String(), rateSumR.String()
	total := func(credited money.Amount, carry int64) *big.Int {
		x := new(big.Int).Mul(big.NewInt(int64(credited)), b10k)
		return x.Add(x, big.NewInt(carry))
	}
	if total(bm.Contributed, bm.CarryDisplayed).Cmp(rateSum) != 0 {
		problem("contributed %d x 10000 + carried %d != sum(wager x rate) %s", bm.Contributed, bm.CarryDisplayed, rateSum)
	}
	if total(bm.ContributedReserve, bm.CarryReserve).Cmp(rateSumR) != 0 {
		problem("reserve contributed %d x 10000 + carried %d != sum(wager x reserve rate) %s", bm.ContributedReserve, bm.CarryReserve, rateSumR)
	}
	r.OK = len(r.Differences) == 0 && len(r.Problems) == 0
	return r
}

// wholeHistory checks that the pool's last hits and held hits are what
// its whole ledger says.
func wholeHistory(p Pool, ledger []Entry, problem func(string, ...any)) {
	var hits []HitRecord
	held := map[int64]bool{}
	for _, e := range ledger {
		switch e.Kind {
		case KindHit:
			hits = append(hits, HitRecord{Seq: e.Seq, Table: e.Table, Round: e.Round, Seat: e.Seat, Category: e.Category, Paid: e.Paid, PaidAt: e.At})
			if e.HeldSeq != 0 {
				delete(held, e.HeldSeq)
			}
		case KindHeld:
			held[e.Seq] = true
		case KindHeldVoid:
			delete(held, e.HitSeq)
		}
	}
	hits = hits[max(0, len(hits)-LastHitsKept):]
	same := len(hits) == len(p.LastHits)
	for i := 0; same && i < len(hits); i++ {
		a, b := hits[i], p.LastHits[i]
		same = a.Seq == b.Seq && a.Table == b.Table && a.Round == b.Round && a.Seat == b.Seat && a.Category == b.Category && a.Paid == b.Paid && a.PaidAt.Equal(b.PaidAt)
	}
	if !same {
		problem("the pool's last hits are not the ledger's last %d hits", len(hits))
	}
	same = len(held) == len(p.Held)
	for _, h := range p.Held {
		same = same && held[h.Seq]
	}
	if !same {
		problem("the pool holds %d hits, the ledger %d still unpaid", len(p.Held), len(held))
	}
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
