package analysis

import (
	"context"
	"math/bits"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/tablesettle/tablesettle/internal/card"
	"github.com/tablesettle/tablesettle/internal/hand"
)

// The five-card stud deal: the player's five cards, the dealer's up card
// (47 possible) and the dealer's four hidden cards (C(46,4) = 163,185).
const (
	studUpCards     = 47
	studCompletions = 163185
	// StudDeals is C(52,5) x 47 x C(46,4): every player-dealer deal with the
	// dealer's up card told apart (Wizard of Odds counts the same total).
	StudDeals = uint64(Hands5) * studUpCards * studCompletions
)

// studClass is one class of player hands under the 24 permutations of the
// suits: the four suit masks (13-bit rank masks, descending), how many hands
// it holds, and what the hand is worth.
type studClass struct {
	masks  [4]uint16
	weight uint32
	set    int32  // index of its rank multiset
	x      uint16 // dense value of the player's hand
	flush  bool
}

// flushList is, for one suit, the dealer's flushes in that suit that hold a
// given up card and avoid the player's cards of the suit: their dense values
// as flushes and, as the rank multiset counts would have scored them, as
// non-flushes (both sorted).
type flushList struct{ nf, fl []uint16 }

func (f *flushList) below(t uint16) int64 {
	return int64(countBelow(f.fl, t)) - int64(countBelow(f.nf, t))
}

func countBelow(a []uint16, t uint16) int {
	lo, hi := 0, len(a)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if a[m] < t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// studEngine holds the paytable-independent counts: for every class of
// player hand and every dealer up card, how many of the 163,185 dealer
// completions do not qualify, qualify and lose to the player, tie, or win.
type studEngine struct {
	ft      *fiveTables
	classes []studClass
	// rank[i][ru] counts, for the player's rank multiset i and an up card
	// of rank index ru, the dealer hands holding that up card and avoiding
	// the player's cards, scored by rank multiset (suits ignored), below
	// each threshold: q, nf, nf+1, fl, fl+1.
	rank  [][13][5]int64
	flush []*flushList // index mask*13+ru
}

func newStudEngine(ft *fiveTables) *studEngine {
	e := &studEngine{ft: ft}
	e.classes = studClasses(ft)
	e.buildRank()
	e.buildFlush()
	return e
}

// studClasses enumerates all 2,598,960 player hands and groups them by suit
// pattern (134,459 classes).
func studClasses(ft *fiveTables) []studClass {
	idx := make(map[uint64]int32, 140000)
	var out []studClass
	for c0 := 0; c0 < 52; c0++ {
		for c1 := c0 + 1; c1 < 52; c1++ {
			for c2 := c1 + 1; c2 < 52; c2++ {
				for c3 := c2 + 1; c3 < 52; c3++ {
					for c4 := c3 + 1; c4 < 52; c4++ {
						var m [4]uint16
						for _, c := range [5]int{c0, c1, c2, c3, c4} {
							m[c&3] |= 1 << (c >> 2)
						}
						// sort descending (4 elements)
						for i := 1; i < 4; i++ {
							for j := i; j > 0 && m[j] > m[j-1]; j-- {
								m[j], m[j-1] = m[j-1], m[j]
							}
						}
						key := uint64(m[0])<<39 | uint64(m[1])<<26 | uint64(m[2])<<13 | uint64(m[3])
						if i, ok := idx[key]; ok {
							out[i].weight++
							continue
						}
						idx[key] = int32(len(out))
						out = append(out, studClass{masks: m, weight: 1})
					}
				}
			}
		}
	}
	for i := range out {
		cl := &out[i]
		var cnt [13]uint8
		for _, m := range cl.masks {
			for r := 0; r < 13; r++ {
				if m&(1<<r) != 0 {
					cnt[r]++
				}
			}
		}
		cl.set = ft.byKey[countsKey(&cnt)]
		s := &ft.sets[cl.set]
		cl.flush = bits.OnesCount16(cl.masks[0]) == 5
		if cl.flush {
			cl.x = s.fl
		} else {
			cl.x = s.nf
		}
	}
	return out
}

// buildRank counts, for every pair of player and dealer rank multisets, the
// dealer hands of that multiset holding a given up card: with a_r = 4 - M_r
// cards of rank r left, prod_r C(a_r, R_r) hands, of which a fraction R_u/a_u
// hold a given card of the up card's rank u.
func (e *studEngine) buildRank() {
	ft := e.ft
	n := len(ft.sets)
	e.rank = make([][13][5]int64, n)
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	next := make(chan int, n)
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	var c [5][5]int64
	for a := 0; a <= 4; a++ {
		for k := 0; k <= 4; k++ {
			c[a][k] = binom(a, k)
		}
	}
	// the dealer multisets, compact, in ascending order of their (non-flush)
	// value, so that each adds to one segment between thresholds
	type dset struct {
		nf uint16
		np uint8
		r  [5]uint8
		n  [5]uint8
	}
	order := make([]dset, len(ft.sets))
	for j := range ft.sets {
		d := dset{nf: ft.sets[j].nf, np: uint8(len(ft.sets[j].parts))}
		for k, p := range ft.sets[j].parts {
			d.r[k], d.n[k] = p.r, p.n
		}
		order[j] = d
	}
	sort.Slice(order, func(a, b int) bool { return order[a].nf < order[b].nf })
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				m := &ft.sets[i]
				var a [13]int
				for r := 0; r < 13; r++ {
					a[r] = 4 - int(m.counts[r])
				}
				fl := m.nf
				if m.distinct {
					fl = m.fl
				}
				t := [5]uint16{ft.qualify, m.nf, m.nf + 1, fl, fl + 1}
				ts := t
				sort.Slice(ts[:], func(x, y int) bool { return ts[x] < ts[y] })
				// seg[r][s]: the weight of dealer values in [ts[s-1], ts[s])
				var seg [13][6]int64
				s := 0
			dealer:
				for j := range order {
					r := &order[j]
					for s < 5 && r.nf >= ts[s] {
						s++
					}
					np := int(r.np)
					// pre[k] = prod of C(a, n) over parts before k, suf after
					var f, g [5]int64
					for k := 0; k < np; k++ {
						ar, n := a[r.r[k]], r.n[k]
						if int(n) > ar {
							continue dealer
						}
						f[k] = c[ar][n]
						g[k] = c[ar-1][n-1]
					}
					var pre [6]int64
					pre[0] = 1
					for k := 0; k < np; k++ {
						pre[k+1] = pre[k] * f[k]
					}
					suf := int64(1)
					for k := np - 1; k >= 0; k-- {
						seg[r.r[k]][s] += pre[k] * g[k] * suf
						suf *= f[k]
					}
				}
				acc := &e.rank[i]
				for k := 0; k < 5; k++ {
					// count below t[k] = the segments below its place in ts
					n := 0
					for n < 5 && ts[n] < t[k] {
						n++
					}
					for r := 0; r < 13; r++ {
						var sum int64
						for x := 0; x <= n; x++ {
							sum += seg[r][x]
						}
						acc[r][k] = sum
					}
				}
			}
		}()
	}
	wg.Wait()
}

// buildFlush lists, for every set of the player's ranks in one suit (at most
// five) and every up card rank not among them, the dealer's flushes in that
// suit through the up card.
func (e *studEngine) buildFlush() {
	ft := e.ft
	e.flush = make([]*flushList, 8192*13)
	for m := 0; m < 8192; m++ {
		if bits.OnesCount16(uint16(m)) > 5 {
			continue
		}
		for ru := 0; ru < 13; ru++ {
			if m&(1<<ru) != 0 {
				continue
			}
			free := (^m & 0x1fff) &^ (1 << ru)
			f := &flushList{}
			// every 4-subset of free ranks
			for s := free; s != 0; s = (s - 1) & free {
				if bits.OnesCount16(uint16(s)) != 4 {
					continue
				}
				set := &ft.sets[ft.byMask[s|1<<ru]]
				f.nf = append(f.nf, set.nf)
				f.fl = append(f.fl, set.fl)
			}
			sort.Slice(f.nf, func(i, j int) bool { return f.nf[i] < f.nf[j] })
			sort.Slice(f.fl, func(i, j int) bool { return f.fl[i] < f.fl[j] })
			e.flush[m*13+ru] = f
		}
	}
}

// studCounts is how the 163,185 dealer completions of one player hand and
// up card fall: dealer does not qualify, qualifies and loses, ties (the
// player wins nothing and loses nothing), qualifies and wins.
type studCounts struct{ nq, win, tie, lose int64 }

// visit calls f for every class of player hand and every dealer up card,
// with the class, and the counts. Classes are split among goroutines; each
// goroutine gets its own index g (0 <= g < workers) so that f can keep
// per-goroutine accumulators.
func (e *studEngine) visit(ctx context.Context, workers int, f func(g int, cl *studClass, ru int, c studCounts)) error {
	var wg sync.WaitGroup
	var stop atomic.Bool
	chunk := (len(e.classes) + workers - 1) / workers
	for g := 0; g < workers; g++ {
		lo, hi := g*chunk, min((g+1)*chunk, len(e.classes))
		wg.Add(1)
		go func(g, lo, hi int) {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				if i&1023 == 0 && (stop.Load() || ctx.Err() != nil) {
					stop.Store(true)
					return
				}
				cl := &e.classes[i]
				e.visitClass(cl, func(_ uint16, ru int, c studCounts) { f(g, cl, ru, c) })
			}
		}(g, lo, hi)
	}
	wg.Wait()
	if stop.Load() {
		return ErrTooSlow
	}
	return nil
}

// visitClass calls f for each of the 47 up cards of one class, with the
// player's rank mask in the up card's suit, the up card's rank index and
// the counts.
func (e *studEngine) visitClass(cl *studClass, f func(mask uint16, ru int, c studCounts)) {
	q := e.ft.qualify
	rp := &e.rank[cl.set]
	ix := 1
	if cl.flush {
		ix = 3
	}
	x := cl.x
	for _, m := range cl.masks {
		for ru := 0; ru < 13; ru++ {
			if m&(1<<ru) != 0 {
				continue
			}
			fc := e.flush[int(m)*13+ru]
			r := &rp[ru]
			cq := r[0] + fc.below(q)
			var c studCounts
			c.nq = cq
			if x >= q {
				cx := r[ix] + fc.below(x)
				cx1 := r[ix+1] + fc.below(x+1)
				c.win = cx - cq
				c.tie = cx1 - cx
			}
			c.lose = studCompletions - c.nq - c.win - c.tie
			f(m, ru, c)
		}
	}
}

// category returns the class's hand category.
func (e *studEngine) category(cl *studClass) hand.Category { return e.ft.category[cl.x] }

// countsFor returns the counts of one player hand and up card, for tests.
func (e *studEngine) countsFor(p []card.Card, u card.Card) (studCounts, bool) {
	var m [4]uint16
	for _, c := range p {
		m[c.Suit()] |= 1 << (c.Rank() - 2)
	}
	um, ur := m[u.Suit()], int(u.Rank()-2)
	sorted := m
	for i := 1; i < 4; i++ {
		for j := i; j > 0 && sorted[j] > sorted[j-1]; j-- {
			sorted[j], sorted[j-1] = sorted[j-1], sorted[j]
		}
	}
	for i := range e.classes {
		if e.classes[i].masks != sorted {
			continue
		}
		var out studCounts
		found := false
		e.visitClass(&e.classes[i], func(mask uint16, ru int, c studCounts) {
			if mask == um && ru == ur {
				out, found = c, true
			}
		})
		return out, found
	}
	return studCounts{}, false
}
