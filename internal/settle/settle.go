package settle

import (
	"github.com/tablesettle/tablesettle/internal/card"
	"github.com/tablesettle/tablesettle/internal/hand"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// Rulings cited by settlement.
const (
	rulingR2  = "ruling R2"
	rulingR3  = "ruling R3"
	rulingR8  = "ruling R8"
	rulingR9  = "ruling R9"
	rulingR10 = "ruling R10"
	rulingR11 = "ruling R11"
	rulingR12 = "ruling R12"
	rulingR14 = "ruling R14"
	rulingR15 = "ruling R15"
	rulingR16 = "ruling R16"
	rulingR17 = "ruling R17"
	rulingR18 = "ruling R18"
	rulingR19 = "ruling R19"
	rulingR20 = "ruling R20"
	rulingR22 = "ruling R22"
	rulingR25 = "ruling R25"
	rulingR26 = "ruling R26"
)

// Settle settles one round under the standard rulesets: it validates the
// request (a *fault.Error of kind Invalid names the field of a request it
// refuses), checks what the cards show (ruling R12), evaluates every hand
// from the cards (ruling R14) and settles every wager under the round's
// ruleset. Positions come back in seat order.
func Settle(r Round) (Settlement, error) { return Settler{Rulesets: ruleset.Standard()}.Settle(r) }

// Settler settles rounds under the rulesets of one catalogue: the five
// documents (Settle uses ruleset.Standard()), or a catalogue with more. The
// zero Settler knows no ruleset and refuses every round on "ruleset".
type Settler struct {
	Rulesets ruleset.Catalogue
}

// Settle settles one round under s.Rulesets (see the package function).
func (s Settler) Settle(r Round) (Settlement, error) {
	v, err := validate(s.Rulesets, &r)
	if err != nil {
		return Settlement{}, err
	}
	return v.settle(), nil
}

// Hit is one jackpot prize of a round, for the pools service.
type Hit struct {
	Seat int `json:"seat"`
	Eligibility
}

// JackpotHits settles the round and returns every jackpot prize it wins,
// in seat order (dealing order, RWS 4.5.1). Prizes with PaidBy "pool" are
// percentages of the pool for the pools service to pay (rulings R3, R5,
// R6); the others are already paid on the settlement's lines by the house.
// A void round has no hits.
func JackpotHits(r Round) ([]Hit, error) {
	return Settler{Rulesets: ruleset.Standard()}.JackpotHits(r)
}

// JackpotHits settles the round under s.Rulesets and returns its jackpot
// prizes (see the package function).
func (s Settler) JackpotHits(r Round) ([]Hit, error) {
	st, err := s.Settle(r)
	if err != nil {
		return nil, err
	}
	return st.Hits(), nil
}

// Hits returns the settlement's jackpot prizes in seat order.
func (s *Settlement) Hits() []Hit {
	var hits []Hit
	for _, p := range s.Positions {
		for _, e := range p.Jackpot {
			hits = append(hits, Hit{Seat: p.Seat, Eligibility: e})
		}
	}
	return hits
}

// dealerEval is the dealer's evaluated hand.
type dealerEval struct {
	v5        hand.Value
	v3        hand.Value3
	best      []card.Card
	qualifies bool
}

// cite is rs.Cite (which answers from a precomputed table: no memory of
// the round's citations is needed).
func (v *round) cite(rule string) string { return v.citer.Cite(rule) }

func (v *round) settle() Settlement {
	rs := v.rs
	s := Settlement{
		Ruleset:        string(rs.ID),
		RoundID:        v.in.RoundID,
		Currency:       v.currency,
		Positions:      make([]PositionResult, 0, len(v.pos)),
		Irregularities: []Irregularity{},
	}
	if len(v.community) > 0 {
		s.Community = formatCards(v.community)
	}

	// Ruling R12: what the cards themselves show.
	var listsRoom [9][]card.Card // the dealer, the community, at most 7 positions
	lists := append(listsRoom[:0], v.dealer, v.community)
	for i := range v.pos {
		lists = append(lists, v.pos[i].cards)
	}
	if c, dup := card.Duplicate(lists...); dup {
		return v.void(s, Irregularity{Code: "duplicate_card",
			Message: c.String() + " appears twice in the round: one of them does not belong to the deck",
			Rules:   v.cites(rs.Clauses.VoidCards, rs.Clauses.VoidCardsRound, rs.Clauses.VoidReturned, rulingR12)})
	}
	if len(v.dealer) != rs.Hands.DealerCards {
		return v.void(s, Irregularity{Code: "dealer_card_count",
			Message: "the dealer has " + itoa(len(v.dealer)) + " cards, not " + itoa(rs.Hands.DealerCards),
			Rules:   v.cites(rs.Clauses.DealerCount, rs.Clauses.VoidReturned, rulingR12)})
	}
	if len(v.community) != rs.Hands.CommunityCards {
		return v.void(s, Irregularity{Code: "community_card_count",
			Message: "the community has " + itoa(len(v.community)) + " cards, not " + itoa(rs.Hands.CommunityCards),
			Rules:   v.cites(rs.Clauses.DealerCount, rs.Clauses.VoidReturned, rulingR12)})
	}
	var removed [7]bool // at most 7 positions (validate)
	for i := range v.pos {
		p := &v.pos[i]
		n := len(p.cards)
		if n == rs.Hands.PlayerCards || (n == 0 && p.cardless(rs)) {
			// A hand not exposed, folded, or made invalid by an MBS
			// absence (5.11) may come without its cards (validation
			// refuses it when a wager still needs them).
			continue
		}
		msg := "seat " + itoa(p.Seat) + " has " + itoa(n) + " cards, not " + itoa(rs.Hands.PlayerCards)
		if rs.Irregularities.PlayerCountVoids {
			// SSP v4 has no wrong-count-to-a-player clause: the deal was
			// incorrect and the round is void under its 5.2 (ruling R12).
			return v.void(s, Irregularity{Code: "player_card_count", Seat: p.Seat, Message: msg,
				Rules: v.cites(rs.Clauses.PlayerCount, rs.Clauses.VoidReturned, rulingR12)})
		}
		removed[i] = true
		s.Irregularities = append(s.Irregularities, Irregularity{Code: "player_card_count", Seat: p.Seat,
			Message: msg + ": the hand is removed and its wagers returned",
			Rules:   v.cites(rs.Clauses.PlayerCount, rulingR12)})
	}

	d := v.evalDealer()
	s.Dealer = v.dealerHand(d)
	for i := range v.pos {
		pr := v.settlePosition(&v.pos[i], d, removed[i], &s.Irregularities)
		s.Totals.Staked += pr.Staked
		s.Totals.PlayerNet += pr.Net
		s.Positions = append(s.Positions, pr)
	}
	s.Totals.Returned = s.Totals.Staked + s.Totals.PlayerNet
	s.Totals.HouseNet = -s.Totals.PlayerNet
	return s
}

// void settles a void round: every wager returned whole (ruling R12).
func (v *round) void(s Settlement, irr Irregularity) Settlement {
	s.Void = true
	s.Irregularities = append(s.Irregularities, irr)
	for i := range v.pos {
		p := &v.pos[i]
		pr := PositionResult{Seat: p.Seat, Outcome: OutcomeVoid, Jackpot: []Eligibility{}}
		for _, w := range v.rs.Wagers {
			if st := p.stake(w.Name); st > 0 {
				pr.Lines = append(pr.Lines, Line{Wager: w.Name, Stake: st, Result: Void, Returned: st, Rules: irr.Rules})
				pr.Staked += st
			}
		}
		s.Totals.Staked += pr.Staked
		s.Positions = append(s.Positions, pr)
	}
	s.Totals.Returned = s.Totals.Staked
	return s
}

func (v *round) evalDealer() *dealerEval {
	rs := v.rs
	d := &dealerEval{}
	switch rs.Game {
	case ruleset.GameThreeCard:
		d.v3 = hand.Eval3(v.dealer[0], v.dealer[1], v.dealer[2])
		d.best = v.sorted(v.dealer)
		d.qualifies = hand.QualifiesTCP(d.v3)
	case ruleset.GameHoldem:
		all := make([]card.Card, 0, 7)
		all = append(append(all, v.dealer...), v.community...)
		var best [5]card.Card
		d.v5, best = hand.Best(all)
		d.best = v.sorted(best[:])
		d.qualifies = true // THB has no qualifier (3.10)
	default:
		d.v5 = hand.EvalHand(v.dealer)
		d.best = v.sorted(v.dealer)
		d.qualifies = hand.QualifiesStud(d.v5)
	}
	return d
}

func (v *round) dealerHand(d *dealerEval) *DealerHand {
	rs := v.rs
	cat := d.v5.Category()
	if rs.Game == ruleset.GameThreeCard {
		cat = d.v3.Category()
	}
	dh := &DealerHand{Hand: Hand{Cards: formatCards(v.dealer), Category: cat.String(), Best: formatCards(d.best)},
		Qualifies: d.qualifies}
	switch rs.Qualifier.Kind {
	case "none":
		dh.Rules = v.cites(rs.Qualifier.Rule)
	default:
		dh.Rules = v.cites(rs.Qualifier.Rule, rulingR15)
	}
	if rs.Hands.DealerProgressive != "" {
		dh.Progressive = &Hand{Cards: dh.Cards, Category: dh.Category, Best: dh.Best}
	}
	return dh
}

// formatCards writes cards in canonical form separated by spaces, as
// card.Format does, with one allocation.
func formatCards(cards []card.Card) string {
	b := make([]byte, 0, 3*len(cards))
	for i, c := range cards {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, c.Rank().String()...)
		b = append(b, c.Suit().String()...)
	}
	return string(b)
}

// sortInPlace sorts cards highest rank first (suit breaks ties so the
// order is canonical).
func sortInPlace(out []card.Card) {
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] > out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// amountsFit is a compile-time reminder that MaxAmount keeps payments in
// int64: 7 positions x 11 wagers x (1 + 1000) x MaxAmount < 2^63.
var _ = [1]struct{}{}[(7*11*1001*int64(MaxAmount))>>62]
