package ledgerlog

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/money"
)

// Checkpoint is a pool's tree head with what the pool's meters were at
// its size (issue 34 items 2 and 6). Its text (Text) is a C2SP
// tlog-checkpoint: the origin, the size, the base64 root, then extension
// lines, one per meter, hit category and rate sum, in a fixed order
// (docs/ledger.md):
//
//	<deployment>/tablesettle/pools/<id>
//	<size>
//	<base64 root>
//	currency SGD
//	displayed 10000866
//	reserve 258
//	overflow 0
//	carryDisplayed 5000
//	carryReserve 0
//	contributed 866
//	contributedReserve 258
//	wagers 1
//	wagerAmount 500
//	houseFunded 10000000
//	resets 0
//	hit royal_flush 1 10000866 10000866
//	rateSum 8665000
//	rateSumReserve 2580000
//
// A hit line is the category, its count, paid and paid from the pool,
// one per category in name order. The rate sums are sum(wager x rate) in
// 1/10000 of the minor unit, exact decimal integers: by the meters'
// identity, contributed x 10000 + carryDisplayed (and the reserve's).
type Checkpoint struct {
	Origin   string
	Size     int64
	Root     tlog.Hash
	Currency money.Currency
	Meters   jackpot.Meters
	// RateSum and RateSumReserve are exact (they may outgrow an int64).
	RateSum, RateSumReserve *big.Int
}

// Origin is the checkpoint origin of pool id in deployment: unique to the
// deployment and the pool, and naming the pool.
func Origin(deployment, id string) string {
	return deployment + "/tablesettle/pools/" + id
}

// CheckpointOf is pool p's checkpoint at its size (p.Seq) with root.
func CheckpointOf(deployment string, p jackpot.Pool, root tlog.Hash) Checkpoint {
	return Checkpoint{Origin: Origin(deployment, p.ID), Size: p.Seq, Root: root, Currency: p.Settings.Currency, Meters: p.Meters,
		RateSum: rateSum(p.Meters.Contributed, p.Meters.CarryDisplayed), RateSumReserve: rateSum(p.Meters.ContributedReserve, p.Meters.CarryReserve)}
}

func rateSum(credited money.Amount, carry int64) *big.Int {
	x := new(big.Int).Mul(big.NewInt(int64(credited)), big.NewInt(10000))
	return x.Add(x, big.NewInt(carry))
}

// meterLines are the meters' extension lines, in their order.
func meterLines(m *jackpot.Meters) []struct {
	name string
	v    *int64
} {
	return []struct {
		name string
		v    *int64
	}{
		{"displayed", (*int64)(&m.Displayed)}, {"reserve", (*int64)(&m.Reserve)}, {"overflow", (*int64)(&m.Overflow)},
		{"carryDisplayed", &m.CarryDisplayed}, {"carryReserve", &m.CarryReserve},
		{"contributed", (*int64)(&m.Contributed)}, {"contributedReserve", (*int64)(&m.ContributedReserve)},
		{"wagers", &m.Wagers}, {"wagerAmount", (*int64)(&m.WagerAmount)},
		{"houseFunded", (*int64)(&m.HouseFunded)}, {"resets", &m.Resets},
	}
}

// Text is the checkpoint's C2SP tlog-checkpoint text (the signed note's
// body), ending in a newline.
func (c Checkpoint) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n%d\n%s\n", c.Origin, c.Size, base64.StdEncoding.EncodeToString(c.Root[:]))
	fmt.Fprintf(&b, "currency %s\n", c.Currency)
	m := c.Meters
	for _, l := range meterLines(&m) {
		fmt.Fprintf(&b, "%s %d\n", l.name, *l.v)
	}
	cats := make([]string, 0, len(m.Hits))
	for k := range m.Hits {
		cats = append(cats, k)
	}
	sort.Strings(cats)
	for _, k := range cats {
		h := m.Hits[k]
		fmt.Fprintf(&b, "hit %s %d %d %d\n", k, h.Count, h.Paid, h.FromPool)
	}
	fmt.Fprintf(&b, "rateSum %s\nrateSumReserve %s\n", orZero(c.RateSum), orZero(c.RateSumReserve))
	return b.String()
}

func orZero(x *big.Int) string {
	if x == nil {
		return "0"
	}
	return x.String()
}

// ParseCheckpoint reads a checkpoint's text (Text's format).
func ParseCheckpoint(text string) (Checkpoint, error) {
	var c Checkpoint
	if !strings.HasSuffix(text, "\n") {
		return c, errors.New("checkpoint: the text does not end in a newline")
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(lines) < 3 {
		return c, errors.New("checkpoint: fewer than three lines")
	}
	c.Origin = lines[0]
	var err error
	if c.Size, err = strconv.ParseInt(lines[1], 10, 64); err != nil || c.Size < 0 || strconv.FormatInt(c.Size, 10) != lines[1] {
		return c, fmt.Errorf("checkpoint: size %q", lines[1])
	}
	root, err := base64.StdEncoding.DecodeString(lines[2])
	if err != nil || len(root) != tlog.HashSize {
		return c, fmt.Errorf("checkpoint: root %q", lines[2])
	}
	copy(c.Root[:], root)
	c.Meters.Hits = map[string]jackpot.CategoryMeter{}
	meters := map[string]*int64{}
	for _, l := range meterLines(&c.Meters) {
		meters[l.name] = l.v
	}
	for _, line := range lines[3:] {
		f := strings.Fields(line)
		bad := fmt.Errorf("checkpoint: extension line %q", line)
		switch {
		case len(f) == 2 && f[0] == "currency":
			c.Currency = money.Currency(f[1])
		case len(f) == 2 && (f[0] == "rateSum" || f[0] == "rateSumReserve"):
			x, ok := new(big.Int).SetString(f[1], 10)
			if !ok {
				return c, bad
			}
			if f[0] == "rateSum" {
				c.RateSum = x
			} else {
				c.RateSumReserve = x
			}
		case len(f) == 5 && f[0] == "hit":
			var n [3]int64
			for i := range n {
				if n[i], err = strconv.ParseInt(f[2+i], 10, 64); err != nil {
					return c, bad
				}
			}
			c.Meters.Hits[f[1]] = jackpot.CategoryMeter{Count: n[0], Paid: money.Amount(n[1]), FromPool: money.Amount(n[2])}
		case len(f) == 2 && meters[f[0]] != nil:
			if *meters[f[0]], err = strconv.ParseInt(f[1], 10, 64); err != nil {
				return c, bad
			}
		default:
			return c, bad
		}
	}
	if c.RateSum == nil || c.RateSumReserve == nil {
		return c, errors.New("checkpoint: no rate sums")
	}
	return c, nil
}

// Sign returns c as a C2SP signed note signed by signer.
func Sign(c Checkpoint, signer note.Signer) ([]byte, error) {
	return note.Sign(&note.Note{Text: c.Text()}, signer)
}

// Open verifies a signed checkpoint's signature by one of the known keys
// and parses its text.
func Open(msg []byte, known note.Verifiers) (Checkpoint, error) {
	n, err := note.Open(msg, known)
	if err != nil {
		return Checkpoint{}, fmt.Errorf("checkpoint: %w", err)
	}
	return ParseCheckpoint(n.Text)
}
