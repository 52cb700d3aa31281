package httpapi

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/ruleset"
	"github.com/tablesettle/tablesettle/internal/settle"
)

// huma's bytes for a settlement: DefaultJSONFormat's encoder (no HTML
// escaping, a newline) over the response type.
func humaSettleJSON(t *testing.T, s *settle.Settlement) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(settleResponse(*s)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// randomRound deals a round of ruleset id with random wagers, decisions,
// limits and, now and then, a wrong card count or a duplicate card, so that
// settlement produces every kind of line, prize and irregularity.
func randomRound(rng *rand.Rand, id ruleset.ID) SettleRequest {
	rs, _ := ruleset.Get(id)
	deck := make([]string, 0, 52)
	for _, r := range "23456789TJQKA" {
		for _, s := range "cdhs" {
			deck = append(deck, string(r)+string(s))
		}
	}
	rng.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
	deal := func(n int) string {
		if rng.IntN(40) == 0 {
			n += rng.IntN(3) - 1 // a wrong count
		}
		if n > len(deck) {
			n = len(deck)
		}
		cs := deck[:n]
		deck = deck[n:]
		if rng.IntN(60) == 0 && n > 0 {
			cs = append(cs[:n-1:n-1], "As") // maybe a duplicate
		}
		return strings.Join(cs, " ")
	}
	r := SettleRequest{Ruleset: string(id), RoundID: "R-" + string(rune('A'+rng.IntN(26))), ProgUnit: 100}
	if rs.Currency != money.SGD {
		r.Currency = string(rs.Currency)
	}
	r.Dealer = deal(rs.Hands.DealerCards)
	if rs.Hands.CommunityCards > 0 {
		r.Community = deal(rs.Hands.CommunityCards)
	}
	if rng.IntN(4) == 0 {
		r.Limits = map[string]SettleLimit{"ante": {Min: 1000, Max: 1500}}
	}
	if id == ruleset.SSPv4 {
		r.ProgUnit = 0
		r.MagicCard = deck[rng.IntN(len(deck))]
		r.LuckySeat = rng.IntN(8)
		lucky := rng.IntN(2) == 0
		r.LuckyDeal = &lucky
	}
	seats := rng.Perm(7)[:1+rng.IntN(7)]
	for _, seat := range seats {
		cards := deal(rs.Hands.PlayerCards)
		if rng.IntN(6) == 0 {
			cards = suited(&deck, rs.Hands.PlayerCards, rng) // a jackpot hand, now and then
		}
		p := SettlePosition{Seat: seat + 1, Cards: cards, Wagers: map[string]money.Amount{}}
		p.Folded = rng.IntN(8) == 0
		p.Absent = !p.Folded && rng.IntN(10) == 0
		for _, w := range rs.Wagers {
			continuation := w.Multiple.Of != "" || w.Name == ruleset.Bet || w.Name == ruleset.Play ||
				w.Name == ruleset.Flop || w.Name == "turn" || w.Name == "river"
			if w.PaidOn != "" || (w.Name != ruleset.Ante && rng.IntN(3) == 0) || (p.Folded && continuation) {
				continue
			}
			amt := money.Amount(500 * (1 + rng.IntN(4)))
			switch {
			case w.Progressive && id != ruleset.SSPv4:
				amt = 100 * money.Amount(1+rng.IntN(max(1, rs.MaxProgressiveMultiplier)))
			case w.Multiple.Of != "" && rng.IntN(4) != 0:
				amt = p.Wagers[string(w.Multiple.Of)] * money.Amount(w.Multiple.Times)
			}
			p.Wagers[string(w.Name)] = amt
		}
		if rng.IntN(10) == 0 {
			no := false
			p.Exposed = &no
		}
		r.Positions = append(r.Positions, p)
	}
	return r
}

// suited deals n cards of one suit from the top ranks down, when the deck
// still has them (a royal or straight flush, a mini royal), else n cards.
func suited(deck *[]string, n int, rng *rand.Rand) string {
	suit := string("cdhs"[rng.IntN(4)])
	var want []string
	for _, r := range "AKQJT98765432"[:n] {
		want = append(want, string(r)+suit)
	}
	rest := slices.DeleteFunc(slices.Clone(*deck), func(c string) bool { return slices.Contains(want, c) })
	if len(rest) != len(*deck)-n {
		n = min(n, len(*deck))
		cs := (*deck)[:n]
		*deck = (*deck)[n:]
		return strings.Join(cs, " ")
	}
	*deck = rest
	return strings.Join(want, " ")
}

// The hand-written encoder writes exactly what huma writes, over thousands
// of random settlements of every ruleset (void rounds, removed hands,
// limits, caps, notes, pool prizes, odds, fixed prizes) and the bodies of
// the examples and events.
func TestSettleJSONMatchesEncodingJSON(t *testing.T) {
	var rounds []SettleRequest
	for _, b := range settleBodies(t) {
		var r SettleRequest
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		rounds = append(rounds, r)
	}
	rng := rand.New(rand.NewPCG(2026, 11))
	for range 3000 {
		ids := ruleset.IDs()
		rounds = append(rounds, randomRound(rng, ids[rng.IntN(len(ids))]))
	}
	settled := 0
	seen := map[string]int{}
	for i := range rounds {
		s, err := settle.Settle(rounds[i].round())
		if err != nil {
			continue
		}
		settled++
		want := humaSettleJSON(t, &s)
		got := appendSettleResponse(nil, &s)
		if !bytes.Equal(got, want) {
			t.Fatalf("round %+v:\nhand-written %s\nhuma         %s", rounds[i], got, want)
		}
		for _, feature := range []string{`"void":true`, `"flags":`, `"note":`, `"basisPoints":`, `"odds":{"num"`,
			`"amount":`, `"irregularities":[{`, `,"seat":`, `"progressive":{`, `"outcome":"removed"`, `"rules":null`,
			`"category":`, `"magic_card"`, `"paidBy":"pool"`, `"capped"`, `"under_minimum"`, `"jackpot":[]`} {
			if bytes.Contains(got, []byte(feature)) {
				seen[feature]++
			}
		}
	}
	t.Logf("%d of %d rounds settled; features %v", settled, len(rounds), seen)
	if settled < 1000 {
		t.Errorf("only %d of %d rounds settled", settled, len(rounds))
	}
	for _, f := range []string{`"void":true`, `"flags":`, `"note":`, `"basisPoints":`, `"odds":{"num"`, `"amount":`,
		`"irregularities":[{`, `"progressive":{`, `"outcome":"removed"`, `"paidBy":"pool"`, `"under_minimum"`, `"jackpot":[]`} {
		if seen[f] == 0 {
			t.Errorf("no settlement has %s: the rounds no longer cover it (seen %v)", f, seen)
		}
	}
}

// Strings that need escaping are escaped as encoding/json does (huma's
// encoder does not escape HTML), and nil and empty lists keep their
// difference (null and []).
func TestSettleJSONEscapesAsEncodingJSON(t *testing.T) {
	odd := "a\"b\\c<>&\u2028\u2029\x01\x1f\x7f é \xff\n\t"
	s := settle.Settlement{Ruleset: odd, RoundID: odd, Currency: money.Currency(odd), Community: odd,
		Dealer: &settle.DealerHand{Hand: settle.Hand{Cards: odd, Category: odd, Best: odd}, Progressive: &settle.Hand{}},
		Positions: []settle.PositionResult{{Seat: -3, Outcome: settle.Outcome(odd), Jackpot: []settle.Eligibility{{
			Wager: ruleset.Wager(odd), Kind: odd, Category: odd, Rules: []string{}, PaidBy: settle.PaidBy(odd),
			Prize: ruleset.Pay{Kind: ruleset.PayKind(odd), Odds: money.Ratio{Num: 0, Den: -1}, Currency: money.Currency(odd),
				Amount: -5, BasisPoints: 7}}},
			Lines: []settle.Line{{Wager: ruleset.Wager(odd), Result: settle.Result(odd), Odds: odd, Note: odd,
				Rules: []string{odd, ""}, Flags: []string{}}}}, {}},
		Irregularities: []settle.Irregularity{{Code: odd, Wager: ruleset.Wager(odd), Message: odd, Seat: 2}, {}},
		Totals:         settle.Totals{Staked: -1 << 63, HouseNet: 1<<63 - 1}}
	if got, want := appendSettleResponse(nil, &s), humaSettleJSON(t, &s); !bytes.Equal(got, want) {
		t.Errorf("hand-written %s\nhuma         %s", got, want)
	}
}

// jsonFields lists the JSON names of t's fields, flattening embedded
// structs as encoding/json does.
func jsonFields(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			out = append(out, jsonFields(f.Type)...)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		out = append(out, name)
	}
	return out
}

// appendSettleResponse writes these fields and only these: a field added to
// a response type fails here until the encoder writes it too.
func TestSettleJSONKnowsEveryField(t *testing.T) {
	for typ, want := range map[reflect.Type]string{
		reflect.TypeFor[SettleResponse]():       "ruleset roundId currency void dealer community positions irregularities totals",
		reflect.TypeFor[SettleDealer]():         "cards category best qualifies progressive rules",
		reflect.TypeFor[settle.DealerHand]():    "cards category best qualifies progressive rules",
		reflect.TypeFor[SettleHand]():           "cards category best",
		reflect.TypeFor[SettlePositionResult](): "seat hand progressive outcome lines jackpot staked net",
		reflect.TypeFor[SettleLine]():           "wager stake result returned net odds rules flags note",
		reflect.TypeFor[SettleEligibility]():    "wager kind category prize multiplier stake paidBy rules",
		reflect.TypeFor[SettleIrregularity]():   "code seat wager message rules",
		reflect.TypeFor[SettleTotals]():         "staked returned playerNet houseNet",
		reflect.TypeFor[ruleset.Pay]():          "kind odds amount currency basisPoints",
		reflect.TypeFor[money.Ratio]():          "num den",
	} {
		if got := jsonFields(typ); !slices.Equal(got, strings.Fields(want)) {
			t.Errorf("%v has fields %v; appendSettleResponse writes %s", typ, got, want)
		}
	}
}
