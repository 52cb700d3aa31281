package ruleset

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/tablesettle/tablesettle/internal/card"
	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/hand"
	"github.com/tablesettle/tablesettle/internal/money"
)

func mustGet(t *testing.T, id ID) Ruleset {
	t.Helper()
	r, ok := Get(id)
	if !ok {
		t.Fatalf("Get(%s): missing", id)
	}
	return r
}

func TestAllFiveRulesets(t *testing.T) {
	want := []ID{SSPv4, SSPv6, TCPv6, THBv9, RWSCSPv2}
	got := IDs()
	if len(got) != 5 {
		t.Fatalf("IDs() = %v", got)
	}
	for _, id := range want {
		r := mustGet(t, id)
		if r.ID != id || r.Document == "" || r.Version == 0 || r.InForce.IsZero() {
			t.Errorf("%s: incomplete identity %+v", id, r)
		}
		for _, w := range r.Wagers {
			if len(w.Paytable) == 0 || w.PaytableRule == "" || w.Rule == "" {
				t.Errorf("%s %s: no paytable or rule", id, w.Name)
			}
			for _, e := range w.Paytable {
				if e.Rule != w.PaytableRule {
					t.Errorf("%s %s %s: entry rule %s, paytable rule %s", id, w.Name, e.Hand, e.Rule, w.PaytableRule)
				}
			}
		}
	}
	if _, ok := Get("nope"); ok {
		t.Error("Get(nope) found something")
	}
}

// The in-force dates of the rulesets table of ../shared/rules/README.md,
// Singapore time.
func TestInForce(t *testing.T) {
	cases := map[ID]string{
		SSPv6:    "2019-08-02T00:00:00+08:00",
		SSPv4:    "2013-05-09T00:00:00+08:00",
		TCPv6:    "2019-08-02T00:00:00+08:00",
		THBv9:    "2023-07-04T07:00:00+08:00",
		RWSCSPv2: "2020-06-28T08:00:00+08:00",
	}
	for id, want := range cases {
		if got := mustGet(t, id).InForce.Format("2006-01-02T15:04:05-07:00"); got != want {
			t.Errorf("%s in force %s, want %s", id, got, want)
		}
	}
}

// Get hands out copies: a caller's change does not reach the next caller.
func TestGetReturnsCopies(t *testing.T) {
	a := mustGet(t, SSPv6)
	a.Wagers[1].Paytable[0].Pay.Odds.Num = 1
	a.Wagers[0].Name = "x"
	b := mustGet(t, SSPv6)
	if b.Wagers[1].Paytable[0].Pay.Odds.Num != 250 || b.Wagers[0].Name != Ante {
		t.Fatal("a change to Get's result changed the data")
	}
}

// Lookup gives the ruleset Get copies, without copying it, and nothing for
// an unknown id.
func TestLookupIsGetWithoutTheCopy(t *testing.T) {
	for _, id := range IDs() {
		p, ok := Lookup(id)
		if !ok || !reflect.DeepEqual(*p, mustGet(t, id)) {
			t.Errorf("Lookup(%s) = %v, %v; want Get's ruleset", id, p, ok)
		}
		if q, _ := Lookup(id); q != p {
			t.Errorf("Lookup(%s) copied the ruleset", id)
		}
	}
	if p, ok := Lookup("mbs-megalink-ssp-v7"); ok || p != nil {
		t.Errorf("Lookup of an unknown id = %v, %v", p, ok)
	}
}

func payOf(t *testing.T, id ID, w Wager, c hand.Category, three bool) Pay {
	t.Helper()
	r := mustGet(t, id)
	s, ok := r.Wager(w)
	if !ok {
		t.Fatalf("%s has no %s", id, w)
	}
	var e Entry
	if three {
		e, ok = s.Paytable.Lookup3(c)
	} else {
		e, ok = s.Paytable.Lookup(c)
	}
	if !ok {
		t.Fatalf("%s %s: no line for %s", id, w, c)
	}
	return e.Pay
}

// Each paytable line as the document prints it.
func TestPaytablesAsWritten(t *testing.T) {
	cases := []struct {
		name  string
		id    ID
		w     Wager
		c     hand.Category
		three bool
		want  string
	}{
		{"ssp-v6 4.1.2 royal", SSPv6, Bet, hand.RoyalFlush, false, "250 to 1"},
		{"ssp-v6 4.1.2 one pair or lower: high card", SSPv6, Bet, hand.HighCard, false, "1 to 1"},
		{"ssp-v6 4.1.2 two pairs", SSPv6, Bet, hand.TwoPair, false, "2 to 1"},
		{"ssp-v6 4.2 four of a kind", SSPv6, Progressive, hand.FourOfAKind, false, "SGD 2000.00"},
		{"ssp-v6 4.2 royal", SSPv6, Progressive, hand.RoyalFlush, false, "100% of the pool"},
		{"ssp-v6 4.2 straight flush", SSPv6, Progressive, hand.StraightFlush, false, "10% of the pool"},
		{"ssp-v4 4.2 four of a kind to 1", SSPv4, ProgressivePlayer, hand.FourOfAKind, false, "500 to 1"},
		{"ssp-v4 4.2 dealer flush", SSPv4, ProgressiveDealer, hand.Flush, false, "50 to 1"},
		{"ssp-v4 4.1.2 full house", SSPv4, Bet, hand.FullHouse, false, "7 to 1"},
		{"tcp-v6 4.2 ante bonus straight flush", TCPv6, AnteBonus, hand.StraightFlush, true, "5 to 1"},
		{"tcp-v6 4.2 ante bonus straight", TCPv6, AnteBonus, hand.Straight, true, "1 to 1"},
		{"tcp-v6 4.3 pair plus three of a kind", TCPv6, PairPlus, hand.ThreeOfAKind, true, "30 to 1"},
		{"tcp-v6 4.3 pair plus flush", TCPv6, PairPlus, hand.Flush, true, "4 to 1"},
		{"tcp-v6 4.4 full house", TCPv6, Progressive, hand.FullHouse, false, "SGD 200.00"},
		{"thb-v9 4.1.1 ante straight", THBv9, Ante, hand.Straight, false, "1 to 1"},
		{"thb-v9 4.1.1 ante royal (and higher)", THBv9, Ante, hand.RoyalFlush, false, "1 to 1"},
		{"thb-v9 4.2 four of a kind for 1", THBv9, Progressive, hand.FourOfAKind, false, "400 for 1"},
		{"thb-v9 4.2 straight for 1", THBv9, Progressive, hand.Straight, false, "20 for 1"},
		{"rws 4.1 BET straight flush", RWSCSPv2, Bet, hand.StraightFlush, false, "50 to 1"},
		{"rws 4.2 flush", RWSCSPv2, Progressive, hand.Flush, false, "SGD 100.00"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := payOf(t, tc.id, tc.w, tc.c, tc.three).String(); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

// Hands no line pays.
func TestPaytableGaps(t *testing.T) {
	r := mustGet(t, THBv9)
	ante, _ := r.Wager(Ante)
	if _, ok := ante.Paytable.Lookup(hand.ThreeOfAKind); ok {
		t.Error("THB 4.1.1: Ante must not pay below a Straight")
	}
	r = mustGet(t, TCPv6)
	ab, _ := r.Wager(AnteBonus)
	if _, ok := ab.Paytable.Lookup3(hand.Flush); ok {
		t.Error("TCP 4.2: Ante Bonus must not pay a Flush (three-card order puts it below a Straight)")
	}
	pp, _ := r.Wager(PairPlus)
	if _, ok := pp.Paytable.Lookup3(hand.HighCard); ok {
		t.Error("TCP 4.3: Pair Plus must not pay a high card")
	}
	r = mustGet(t, RWSCSPv2)
	pj, _ := r.Wager(Progressive)
	if _, ok := pj.Paytable.Lookup(hand.Straight); ok {
		t.Error("RWS 4.2: a Straight wins no jackpot")
	}
}

// Ruling R2: "X to 1" returns the stake plus X times it; "X for 1" returns
// X times the stake in all.
func TestPayReturnedR2(t *testing.T) {
	if got, _ := to1(250).Returned(1000); got != 251000 {
		t.Errorf("250 to 1 on 1000 returned %d, want 251000", got)
	}
	if got, _ := for1(40).Returned(500); got != 20000 {
		t.Errorf("40 for 1 on 500 returned %d, want 20000", got)
	}
	if got, _ := to1(5).Winnings(300); got != 1500 {
		t.Errorf("5 to 1 winnings on 300 = %d, want 1500", got)
	}
	if _, err := sgd(100).Returned(100); err == nil {
		t.Error("a fixed prize has no odds to return")
	}
	if _, err := to1(2).Returned(money.Amount(1 << 62)); err == nil {
		t.Error("overflow not reported")
	}
}

func TestHoleBonusHandTHB411(t *testing.T) {
	cases := []struct{ player, dealer, want string }{
		{"As Ah", "Ad Ac", HoleAAandDealerAA},
		{"As Ah", "Kd Kc", HoleAA},
		{"As Ks", "2d 3c", HoleAKSuited},
		{"Ks As", "2d 3c", HoleAKSuited},
		{"Ah Qh", "2d 3c", HoleAQAJSuited},
		{"Jd Ad", "2d 3c", HoleAQAJSuited},
		{"As Kd", "2d 3c", HoleAKOffsuit},
		{"Kh Kd", "2d 3c", HoleHighPair},
		{"Jh Jd", "2d 3c", HoleHighPair},
		{"Ac Qd", "2d 3c", HoleAQAJOffsuit},
		{"Th Td", "2d 3c", HoleLowPair},
		{"2h 2d", "3d 3c", HoleLowPair},
		{"Ah Th", "2d 3c", ""},
		{"Kh Qh", "2d 3c", ""},
	}
	for _, tc := range cases {
		if got := HoleBonusHand(card.MustParseList(tc.player), card.MustParseList(tc.dealer)); got != tc.want {
			t.Errorf("%s vs %s: %q, want %q", tc.player, tc.dealer, got, tc.want)
		}
	}
	r := mustGet(t, THBv9)
	b, _ := r.Wager(Bonus)
	for _, h := range []string{HoleAAandDealerAA, HoleAA, HoleAKSuited, HoleAQAJSuited, HoleAKOffsuit, HoleHighPair, HoleAQAJOffsuit, HoleLowPair} {
		if _, ok := b.Paytable.Named(h); !ok {
			t.Errorf("THB bonus paytable has no line %s", h)
		}
	}
	if e, _ := b.Paytable.Named(HoleAAandDealerAA); e.Pay.String() != "1000 to 1" {
		t.Errorf("A-A vs A-A pays %s", e.Pay)
	}
}

// The JSON form is what GET /v1/rulesets serves: it must round-trip.
func TestJSONRoundTrip(t *testing.T) {
	for _, r := range All() {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var back Ruleset
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		b2, _ := json.Marshal(back)
		if string(b) != string(b2) {
			t.Errorf("%s does not round-trip", r.ID)
		}
	}
}

func TestCapsAndMultiples(t *testing.T) {
	r := mustGet(t, RWSCSPv2)
	c, ok := r.Cap(Bet)
	if !ok || c.Amount != 10_000_000 || c.Rule != "4.1.1" {
		t.Errorf("RWS 4.1.1 cap = %+v", c)
	}
	bet, _ := r.Wager(Bet)
	if bet.Multiple.Fixed || bet.Multiple.Times != 2 {
		t.Errorf("RWS BET multiple %+v: twice the Ante, not fixed (5.3)", bet.Multiple)
	}
	for _, tc := range []struct {
		id    ID
		w     Wager
		times int64
	}{{SSPv6, Bet, 2}, {SSPv4, Bet, 2}, {TCPv6, Play, 1}, {THBv9, Flop, 2}, {THBv9, Turn, 1}, {THBv9, River, 1}} {
		r := mustGet(t, tc.id)
		s, _ := r.Wager(tc.w)
		if !s.Multiple.Fixed || s.Multiple.Times != tc.times || s.Multiple.Of != Ante {
			t.Errorf("R20 %s %s: %+v", tc.id, tc.w, s.Multiple)
		}
	}
	if r := mustGet(t, THBv9); r.MaxProgressiveMultiplier != 5 {
		t.Error("THB 3.5.3: 1-5 times the minimum")
	}
	if r := mustGet(t, SSPv4); len(r.Selections) != 4 {
		t.Error("SSP v4 4.3-4.5: four selection lines")
	}
}

// Cite is the id, a space and the rule, whether the rule is one the data
// holds (from the precomputed table) or not.
func TestCiteIsIDSpaceRule(t *testing.T) {
	for _, id := range IDs() {
		r := mustGet(t, id)
		n := 0
		collectStrings(reflect.ValueOf(r), func(s string) {
			if s != "" {
				n++
				if got := r.Cite(s); got != string(id)+" "+s {
					t.Errorf("%s: Cite(%q) = %q", id, s, got)
				}
			}
		})
		if n < 20 || len(citations[id]) < 20 {
			t.Errorf("%s: %d strings, %d in the table", id, n, len(citations[id]))
		}
		if got := r.Cite("9.9.9.x"); got != string(id)+" 9.9.9.x" {
			t.Errorf("%s: Cite of a rule outside the data = %q", id, got)
		}
		if got := r.Cite(""); got != "" {
			t.Errorf("%s: Cite(\"\") = %q", id, got)
		}
	}
}

// Pay.String answers from its table exactly what formatting gives, for
// every price of the data, and formats a price outside it.
func TestPayStringTable(t *testing.T) {
	if len(payTexts) < 10 {
		t.Fatalf("only %d prices in the table", len(payTexts))
	}
	for p, s := range payTexts {
		if p.String() != s || s != p.format() {
			t.Errorf("%+v: String %q, table %q, format %q", p, p.String(), s, p.format())
		}
	}
	for p, want := range map[Pay]string{
		{Kind: ToOne, Odds: money.Ratio{Num: 123, Den: 1}}: "123 to 1",
		{Kind: ForOne, Odds: money.Ratio{Num: 77, Den: 1}}: "77 for 1",
		{Kind: Fixed, Amount: 123456, Currency: money.SGD}: "SGD 1234.56",
		{Kind: PoolPercent, BasisPoints: 1234}:             "12.34% of the pool",
	} {
		if got := p.String(); got != want {
			t.Errorf("%+v: %q, want %q", p, got, want)
		}
	}
}

// Ruling R2: only odds depend on the stake; asking a fixed or pool price
// for a stake's return is refused with a *fault.Error naming pay.kind.
func TestReturnedRefusesPricesThatAreNotOdds_R2(t *testing.T) {
	for _, p := range []Pay{sgd(2000), pct(10)} {
		t.Run(p.String(), func(t *testing.T) {
			_, err := p.Returned(100)
			fe, ok := fault.As(err)
			if !ok || fe.Kind != fault.Invalid || fe.Field() != "pay.kind" || len(fe.Rules) != 1 || fe.Rules[0] != "ruling R2" {
				t.Fatalf("Returned: %v, want an Invalid fault on pay.kind citing ruling R2", err)
			}
			if _, err := p.Winnings(100); !fault.Is(err, fault.Invalid) {
				t.Fatalf("Winnings: %v, want Invalid", err)
			}
		})
	}
	if _, err := to1(2).Returned(1 << 62); !fault.Is(err, fault.Invalid) || !errors.Is(err, money.ErrOverflow) {
		t.Fatalf("overflow: %v, want Invalid wrapping money.ErrOverflow (ruling R1)", err)
	}
}

// What differs between casinos is data (issue 12): RWS pays several majors
// in sequence and holds them for the settle window (RWS 4.5.1, 4.5.2,
// rulings R6, R7), MBS shares them (ruling R5) in commit order (3.14);
// every ruleset names its section 5 and who decides what it does not
// cover (MBS 6.1, RWS 5.24, SSP v4 ruling R25).
func TestCasinoDifferencesAreFields_R5_R6_R7_R25(t *testing.T) {
	cases := []struct {
		id                        ID
		sequential, window        bool
		rule, orderRule           string
		section5                  Section5
		referClause, referRuling  string
		declinedFolds, absentFold bool
	}{
		{SSPv6, false, false, "3.15", "3.14", Section5Megalink, "6.1", "", false, false},
		{SSPv4, false, false, "", "", Section5SSPv4, "", "R25", false, false},
		{TCPv6, false, false, "3.18", "3.17", Section5Megalink, "6.1", "", false, false},
		{THBv9, false, false, "3.15", "3.14", Section5Megalink, "6.1", "", false, false},
		{RWSCSPv2, true, true, "4.5.1", "4.5.2", Section5RWS, "5.24", "", true, true},
	}
	for _, c := range cases {
		t.Run(string(c.id), func(t *testing.T) {
			r := mustGet(t, c.id)
			if r.Majors != (Majors{Sequential: c.sequential, Rule: c.rule, SettleWindow: c.window, OrderRule: c.orderRule}) {
				t.Errorf("majors %+v", r.Majors)
			}
			ir := r.Irregularities
			if ir.Section5 != c.section5 || ir.ReferClause != c.referClause || ir.ReferRuling != c.referRuling || ir.ReferTo == "" {
				t.Errorf("irregularities %+v", ir)
			}
			if r.Decisions != (Decisions{DeclinedFolds: c.declinedFolds, AbsentFolds: c.absentFold}) {
				t.Errorf("decisions %+v", r.Decisions)
			}
		})
	}
}
