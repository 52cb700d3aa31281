package irregularity

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/money"
)

// FactType is the type of a fact's value.
type FactType string

// The fact types.
const (
	Bool  FactType = "bool"
	Int   FactType = "int"
	Enum  FactType = "enum"
	Seats FactType = "seats" // a list of distinct seat numbers, 1-7
	// Amount is a sum of money in minor units (int64), 1 up to the bound
	// settlement accepts for a wager (maxAmount).
	Amount FactType = "amount"
)

// Fact is one fact an event kind needs.
type Fact struct {
	Name     string   `json:"name"`
	Type     FactType `json:"type" enum:"bool,int,enum,seats,amount"`
	Required bool     `json:"required"`
	Values   []string `json:"values,omitempty"`
	Min      int      `json:"min,omitempty"`
	Max      int      `json:"max,omitempty"`
	// SubsetOf names a Seats fact this one must be a subset of.
	SubsetOf string `json:"subsetOf,omitempty"`
	// Exceeds names an Amount fact this one must be greater than.
	Exceeds string `json:"exceeds,omitempty"`
	Doc     string `json:"doc"`
}

// Facts are the facts of one event, validated against their kind: bool,
// int (as int), amount (as money.Amount), enum (as string) and seats (as
// sorted []int). An optional
// fact that was not sent is absent.
type Facts map[string]any

// Problem is one thing wrong with a request: the field (a path such as
// "facts.cardsExposed" or "round.positions[2].wagers.ante"), what is wrong
// and the value received. Decide returns them in a *fault.Error of kind
// Invalid: the client's error, never a guess.
type Problem = fault.Problem

// refused is the error of a refused event: unknown kind, missing, mistyped
// or contradicting facts, or a round that does not fit the facts.
func refused(detail string, probs ...Problem) *fault.Error {
	return fault.InvalidFields(detail, probs...)
}

// parseFacts checks raw (as decoded from JSON) against the kind's facts.
func parseFacts(k *Kind, raw map[string]any) (Facts, []Problem) {
	var probs []Problem
	out := Facts{}
	names := make([]string, 0, len(raw))
	for n := range raw {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if !slices.ContainsFunc(k.Facts, func(f Fact) bool { return f.Name == n }) {
			probs = append(probs, Problem{Field: "facts." + n, Message: fmt.Sprintf("%s is not a fact of kind %s (its facts: %s)", n, k.Name, factNames(k)), Value: raw[n]})
		}
	}
	for _, f := range k.Facts {
		v, ok := raw[f.Name]
		if !ok || v == nil {
			if f.Required {
				probs = append(probs, Problem{Field: "facts." + f.Name, Message: fmt.Sprintf("required fact missing: %s", f.Doc)})
			}
			continue
		}
		val, at, msg := f.parse(v)
		if msg != "" {
			probs = append(probs, atElement(Problem{Field: "facts." + f.Name, Message: msg, Value: v}, v, at))
			continue
		}
		out[f.Name] = val
	}
	if len(probs) > 0 {
		return nil, probs
	}
	for _, f := range k.Facts {
		if f.SubsetOf == "" {
			continue
		}
		sub, _ := out[f.Name].([]int)
		sup, given := out[f.SubsetOf].([]int)
		if !given {
			continue
		}
		for _, s := range sub {
			if !slices.Contains(sup, s) {
				p := Problem{Field: "facts." + f.Name, Message: fmt.Sprintf("seat %d is not one of facts.%s %v", s, f.SubsetOf, sup), Value: sub}
				probs = append(probs, atElement(p, raw[f.Name], seatIndex(raw[f.Name], s)))
			}
		}
	}
	for _, f := range k.Facts {
		a, ok1 := out[f.Name].(money.Amount)
		b, ok2 := out[f.Exceeds].(money.Amount)
		if f.Exceeds != "" && ok1 && ok2 && a <= b {
			probs = append(probs, Problem{Field: "facts." + f.Name, Message: fmt.Sprintf("%s minor units is not over facts.%s, %s minor units", money.Grouped(a), f.Exceeds, money.Grouped(b)), Value: a})
		}
	}
	for _, rq := range k.Requires {
		missing := slices.ContainsFunc(probs, func(p Problem) bool { return p.Field == "facts."+rq.Fact })
		if _, ok := out[rq.Fact]; !ok && !missing && all(rq.When, out) {
			probs = append(probs, Problem{Field: "facts." + rq.Fact, Message: "required fact missing: " + rq.Message})
		}
	}
	for _, c := range k.Contradictions {
		if all(c.When, out) {
			for _, n := range c.Facts {
				p := Problem{Field: "facts." + n, Message: c.Message, Value: out[n]}
				probs = append(probs, atElement(p, raw[n], c.elementAt(n, raw, out)))
			}
		}
	}
	return out, probs
}

// elementAt is the index, in the list fact n as sent (raw), of the one
// element at fault when the contradiction holds: the seat a Has condition
// on n finds there (withdrawnSeats holding facts.seat). Else whole: the
// fact as a whole is at fault (a Lacks condition, a list not allowed at
// all).
func (c Contradiction) elementAt(n string, raw map[string]any, out Facts) int {
	for _, cond := range c.When {
		if cond.Op != OpHas || cond.Fact != n {
			continue
		}
		if seat, ok := out[cond.Value].(int); ok {
			return seatIndex(raw[n], seat)
		}
	}
	return whole
}

func factNames(k *Kind) string {
	if len(k.Facts) == 0 {
		return "none"
	}
	n := make([]string, len(k.Facts))
	for i, f := range k.Facts {
		n[i] = f.Name
	}
	return strings.Join(n, ", ")
}

// whole is the index parse and seatIndex give when no one element of a
// list is at fault: the fact's value as a whole is.
const whole = -1

// parse returns v as the fact's type, or a message saying why it is not
// and, when one element of a list is at fault, its index (else whole).
func (f Fact) parse(v any) (val any, at int, msg string) {
	switch f.Type {
	case Bool:
		b, ok := v.(bool)
		if !ok {
			return nil, whole, "must be true or false"
		}
		return b, whole, ""
	case Int:
		n, ok := asInt64(v)
		if !ok {
			return nil, whole, "must be a whole number"
		}
		if n < int64(f.Min) || (f.Max != 0 && n > int64(f.Max)) {
			return nil, whole, fmt.Sprintf("must be %s", f.rangeText())
		}
		return int(n), whole, ""
	case Amount:
		n, ok := asInt64(v)
		if !ok {
			return nil, whole, "must be a whole number of minor units"
		}
		if n < 1 || n > int64(maxAmount) {
			return nil, whole, fmt.Sprintf("must be from 1 to %s minor units", money.Grouped(maxAmount))
		}
		return money.Amount(n), whole, ""
	case Enum:
		s, ok := v.(string)
		if !ok || !slices.Contains(f.Values, s) {
			return nil, whole, "must be one of " + strings.Join(f.Values, ", ")
		}
		return s, whole, ""
	case Seats:
		list, ok := listOf(v)
		if !ok {
			return nil, whole, "must be a list of seat numbers"
		}
		seats := make([]int, 0, len(list))
		for i, e := range list {
			n64, ok := asInt64(e)
			if !ok || n64 < 1 || n64 > 7 {
				return nil, i, "every seat must be a whole number from 1 to 7"
			}
			n := int(n64)
			if slices.Contains(seats, n) {
				return nil, i, fmt.Sprintf("seat %d is listed twice", n)
			}
			seats = append(seats, n)
		}
		if len(seats) < f.Min {
			return nil, whole, fmt.Sprintf("must list at least %d seats", f.Min)
		}
		sort.Ints(seats)
		return seats, whole, ""
	}
	return nil, whole, "unknown fact type " + string(f.Type)
}

// listOf returns v's elements when v is a list (as decoded from JSON, or
// a []int a caller in Go passes).
func listOf(v any) ([]any, bool) {
	switch l := v.(type) {
	case []any:
		return l, true
	case []int:
		list := make([]any, len(l))
		for i, n := range l {
			list[i] = n
		}
		return list, true
	}
	return nil, false
}

// seatIndex is the index of seat in v, a Seats fact as the client sent it
// (its elements in the client's order; the parsed fact is sorted), or
// whole when v is not a list holding it.
func seatIndex(v any, seat int) int {
	list, _ := listOf(v)
	for i, e := range list {
		if n, ok := asInt64(e); ok && n == int64(seat) {
			return i
		}
	}
	return whole
}

// atElement returns p, a problem with the fact whose value as sent is v,
// moved to the element at index at of the list v when one element is at
// fault (facts.withdrawnSeats[2], that element's value echoed); p as it is
// when at is whole.
func atElement(p Problem, v any, at int) Problem {
	if list, ok := listOf(v); ok && at >= 0 && at < len(list) {
		p.Field, p.Value = fmt.Sprintf("%s[%d]", p.Field, at), list[at]
	}
	return p
}

func (f Fact) rangeText() string {
	if f.Max == 0 {
		return fmt.Sprintf("at least %d", f.Min)
	}
	return fmt.Sprintf("from %d to %d", f.Min, f.Max)
}

// asInt64 returns v as a whole number, or false when it is not one (a
// fraction, a string, or beyond what int64 holds exactly). Ranges are each
// fact's own check, so that a too-large number is told its range, not that
// it is not a number.
func asInt64(v any) (int64, bool) {
	switch n := v.(type) {
	case int:
		return int64(n), true
	case int64:
		return n, true
	case float64:
		// 2^53: beyond it a float64 does not hold every whole number.
		if n != math.Trunc(n) || math.Abs(n) > 1<<53 {
			return 0, false
		}
		return int64(n), true
	case json.Number:
		i, err := n.Int64()
		if err != nil {
			return 0, false
		}
		return i, true
	}
	return 0, false
}

// Op is a condition's operator.
type Op string

// The operators.
const (
	OpIs       Op = "is"       // bool fact true
	OpNot      Op = "not"      // bool fact false or absent
	OpEq       Op = "eq"       // enum fact equals Value
	OpAtLeast  Op = "atLeast"  // int fact >= N
	OpAtMost   Op = "atMost"   // int fact <= N
	OpNonEmpty Op = "nonEmpty" // seats fact lists at least one seat
	OpHas      Op = "has"      // seats fact contains the int fact named by Value
	OpLacks    Op = "lacks"    // seats fact was sent and does not contain the int fact named by Value
	OpGiven    Op = "given"    // an optional fact was sent
)

// Cond is one condition of a case or a contradiction.
type Cond struct {
	Fact  string `json:"fact"`
	Op    Op     `json:"op"`
	Value string `json:"value,omitempty"`
	N     int    `json:"n,omitempty"`
}

// Is holds when the bool fact is true.
func Is(f string) Cond { return Cond{Fact: f, Op: OpIs} }

// Not holds when the bool fact is false (or was not sent).
func Not(f string) Cond { return Cond{Fact: f, Op: OpNot} }

// Eq holds when the enum fact equals v.
func Eq(f, v string) Cond { return Cond{Fact: f, Op: OpEq, Value: v} }

// AtLeast holds when the int fact is at least n.
func AtLeast(f string, n int) Cond { return Cond{Fact: f, Op: OpAtLeast, N: n} }

// AtMost holds when the int fact is at most n.
func AtMost(f string, n int) Cond { return Cond{Fact: f, Op: OpAtMost, N: n} }

// NonEmpty holds when the seats fact lists a seat.
func NonEmpty(f string) Cond { return Cond{Fact: f, Op: OpNonEmpty} }

// Has holds when the seats fact f lists the seat in the int fact seat.
func Has(f, seat string) Cond { return Cond{Fact: f, Op: OpHas, Value: seat} }

// Lacks holds when the seats fact f was sent and does not list the seat in
// the int fact seat.
func Lacks(f, seat string) Cond { return Cond{Fact: f, Op: OpLacks, Value: seat} }

// Given holds when the optional fact was sent.
func Given(f string) Cond { return Cond{Fact: f, Op: OpGiven} }

func (c Cond) String() string {
	switch c.Op {
	case OpIs:
		return c.Fact
	case OpNot:
		return "!" + c.Fact
	case OpEq:
		return c.Fact + "=" + c.Value
	case OpAtLeast:
		return fmt.Sprintf("%s>=%d", c.Fact, c.N)
	case OpAtMost:
		return fmt.Sprintf("%s<=%d", c.Fact, c.N)
	case OpNonEmpty:
		return c.Fact + " not empty"
	case OpHas:
		return c.Fact + " has " + c.Value
	case OpLacks:
		return c.Fact + " lacks " + c.Value
	case OpGiven:
		return c.Fact + " given"
	}
	return c.Fact + " ?" + string(c.Op)
}

func (c Cond) holds(f Facts) bool {
	v, ok := f[c.Fact]
	switch c.Op {
	case OpIs:
		b, _ := v.(bool)
		return b
	case OpNot:
		b, _ := v.(bool)
		return !b
	case OpEq:
		s, _ := v.(string)
		return ok && s == c.Value
	case OpAtLeast:
		n, isInt := v.(int)
		return isInt && n >= c.N
	case OpAtMost:
		n, isInt := v.(int)
		return isInt && n <= c.N
	case OpNonEmpty:
		s, _ := v.([]int)
		return len(s) > 0
	case OpHas:
		s, _ := v.([]int)
		n, isInt := f[c.Value].(int)
		return isInt && slices.Contains(s, n)
	case OpLacks:
		s, given := v.([]int)
		n, isInt := f[c.Value].(int)
		return given && isInt && !slices.Contains(s, n)
	case OpGiven:
		return ok
	}
	return false
}

func all(cs []Cond, f Facts) bool {
	for _, c := range cs {
		if !c.holds(f) {
			return false
		}
	}
	return true
}
