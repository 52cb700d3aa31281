package jackpot

import "strings"

// A void round (issue 33 item 1): settlement voided it (ruling R12: a
// card repeated, the dealer's or the community's cards miscounted), so
// every wager is returned and nothing reaches the pool; the pool still
// records it (a round_void entry: why, and the hands that would have
// hit) and answers it as settle does, so that the table knows and the
// floor sees a void round that held a jackpot hand.

// KindRoundVoid is the ledger entry of a round settlement voided: it
// moves no meter, cites the rules that voided the round and names the
// hands that would have hit.
const KindRoundVoid Kind = "round_void"

// StateRoundVoid is the floor's state of a hand a void round held that
// would have hit: nothing was paid or reserved for it.
const StateRoundVoid = "round_void"

// Irregularity is one irregularity settlement found in a round's cards or
// wagers, as POST /v1/rounds/settle answers it (its code, seat, wager,
// message and cited rules).
type Irregularity struct {
	Code    string   `json:"code" doc:"As settle answers it: duplicate_card, dealer_card_count, community_card_count, player_card_count, progressive_without_ante, bonus_without_ante, absent_player, over_maximum, under_minimum, bet_not_twice_ante."`
	Seat    int      `json:"seat,omitempty"`
	Wager   string   `json:"wager,omitempty"`
	Message string   `json:"message"`
	Rules   []string `json:"rules"`
}

// VoidHand is a hand a void round held that would have won a jackpot
// prize had the round not been void: its position's cards settled with
// the dealer's and the community's alone.
type VoidHand struct {
	Seat     int      `json:"seat"`
	Dealt    int      `json:"dealt,omitempty"`
	Wager    string   `json:"wager,omitempty"`
	Category string   `json:"category"`
	Cards    string   `json:"cards,omitempty"`
	Rules    []string `json:"rules,omitempty"`
}

// voidReason is why a void round is void: its voiding irregularity's code
// and message (the last one listed: settlement stops at it).
func voidReason(irs []Irregularity) (string, []string) {
	if len(irs) == 0 {
		return "void", nil
	}
	v := irs[len(irs)-1]
	return v.Code + ": " + v.Message, append([]string(nil), v.Rules...)
}

// postVoid records round r, which settlement voided: no contribution, no
// hit; a round_void entry saying why and naming the hands that would
// have hit.
func (c *change) postVoid(r Round) {
	reason, rules := voidReason(r.Irregularities)
	dealt := r.DealtAt
	e := Entry{Kind: KindRoundVoid, Table: r.Table, Round: r.Round, DealtAt: &dealt, Reason: reason, Rules: rules,
		Irregularities: append([]Irregularity(nil), r.Irregularities...), VoidHands: append([]VoidHand(nil), r.VoidHands...),
		Note: "the round is void: every wager is returned and nothing reaches the pool"}
	if len(r.VoidHands) > 0 {
		var hands []string
		for _, h := range r.VoidHands {
			hands = append(hands, h.Category)
		}
		e.Note += "; it held " + strings.Join(hands, ", ") + ", which would have hit"
	}
	e = c.post(e)
	if len(e.VoidHands) > 0 {
		c.pool.LastVoidHand = e.Seq
	}
}

// voidHits are the floor's rows of a round_void entry: one per hand that
// would have hit.
func voidHits(p Pool, e Entry) []FloorHit {
	out := make([]FloorHit, 0, len(e.VoidHands))
	for _, h := range e.VoidHands {
		out = append(out, FloorHit{Seq: e.Seq, State: StateRoundVoid, Table: e.Table, Round: e.Round, Seat: h.Seat, Dealt: h.Dealt,
			Wager: h.Wager, Hand: h.Category, Category: h.Category, Cards: h.Cards, Currency: p.Settings.Currency, CommittedAt: e.At,
			VoidedAt: timeOf(e.At), VoidedBy: e.Actor, VoidReason: e.Reason, Rules: append([]string{}, e.Rules...)})
	}
	return out
}
