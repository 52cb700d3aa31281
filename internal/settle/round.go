// Package settle settles one dealt round under one ruleset: a Round in, a
// Settlement out, every line citing the rule or ruling it applied. It is
// pure: no clock, no randomness, no store.
//
// # What settlement pays and what it leaves to the pools
//
// Settlement pays, as lines, every amount the house pays: the main wagers,
// and progressive prizes priced "X to 1" or "X for 1" or as a fixed amount
// (rulings R2, R3: these are paid by the house and do not move the pool).
// A percentage-of-the-pool prize (Royal Flush 100%, Straight Flush 10%)
// cannot be money here, since a settlement does not know the pool: it is
// reported as jackpot eligibility (category, basis points, paidBy "pool")
// and the pools service turns it into money (ruling R3, R5, R6). Its line
// has result "win" and returns what the house pays on it (nothing, unless
// an SSP v4 Magic Card or Lucky prize coincides, ruling R18): the stake has
// contributed to the pool and the pool prize is the whole payment (R2).
// JackpotHits lists every hit of a round for the pools service.
//
// # Lines and their money
//
// Every line has stake, result, returned (what goes back to the player in
// all, stake included) and net = returned - stake:
//   - lose: returned 0;
//   - push, returned, void: returned = stake;
//   - win: returned > stake, except a progressive line whose only prize is
//     a pool percentage (returned 0, see above; flagged pool_prize).
//
// # Progressive stakes
//
// Outside SSP v4 (credits, odds prizes) a progressive wager is the pool's
// unit, Round.ProgressiveUnit (ruling R22; RWS 3.3-3.4), or in THB 1-5
// times it (3.5.3, ruling R17); any other amount is refused, and so is a
// progressive wager without the unit: a fixed prize is paid per accepted
// wager of the unit (ruling R2), so settlement must know it and guesses
// nothing. A unit at or above the paytable's smallest fixed prize is
// refused too (the prize would not pay more than the wager), so a fixed
// prize always returns more than its stake. Table limits do not apply to
// a unit-governed progressive wager: limits.progressive is refused.
//
// A wager over the table maximum is settled as the maximum and the excess
// gets a line of its own with result "returned" (ruling R11); so does the
// excess of an RWS BET over twice the Ante (RWS 5.3.1).
package settle

import (
	"github.com/tablesettle/tablesettle/internal/money"
)

// Round is one dealt round and its wagers: the request of
// POST /v1/rounds/settle. Cards are written as card.ParseList reads them
// ("As Kd 10h", any case, separated by spaces or commas). The API's
// schema and bounds are httpapi.SettleRequest's, which maps to a Round.
type Round struct {
	Ruleset  string `json:"ruleset"`            // The ruleset id. One of: mbs-megalink-ssp-v6, mbs-ssp-v4, mbs-megalink-tcp-v6, mbs-megalink-thb-v9, rws-mlp-csp-v2.
	RoundID  string `json:"roundId"`            // The table's id of the round, echoed back.
	Currency string `json:"currency,omitempty"` // ISO 4217 code of every amount; default SGD. Rulesets with fixed prizes or caps in SGD accept SGD only.
	// Dealer is the dealer's cards: 5 in the stud games, 3 in TCP, the 2
	// hole cards in THB.
	Dealer string `json:"dealer"`
	// Community is TCP's 2 community cards or THB's 5; empty elsewhere.
	Community string `json:"community,omitempty"`
	// Limits are the table's limits per wager name, in minor units.
	Limits map[string]Limit `json:"limits,omitempty"`
	// ProgressiveUnit is the progressive pool's unit in minor units: the
	// one amount a progressive wager may be (ruling R22; RWS 3.3-3.4 "the
	// prescribed Progressive Jackpot betting amount"), and in THB the
	// minimum the wager is 1-5 times of (3.5.3, ruling R17). Fixed prizes
	// are paid per accepted wager of this unit (ruling R2), so it is
	// required whenever a progressive wager is placed in SSP v6, TCP v6,
	// THB v9 or RWS CSP; mbs-ssp-v4's jackpot wagers are credits paid at
	// odds (3.5, 4.2) and take no unit.
	ProgressiveUnit money.Amount `json:"progressiveUnit,omitempty"`
	Positions       []Position   `json:"positions"` // The playing positions with a wager, at most 7.
	// MagicCard, LuckyPlayerSeat and LuckyDealer are SSP v4's system
	// selections (ruling R13); required there when a jackpot wager is
	// placed, refused elsewhere.
	MagicCard       string `json:"magicCard,omitempty"`
	LuckyPlayerSeat int    `json:"luckyPlayerSeat,omitempty"` // mbs-ssp-v4 only: the seat selected as Lucky Player (4.4).
	LuckyDealer     *bool  `json:"luckyDealer,omitempty"`     // mbs-ssp-v4 only: whether this table's dealer is the Lucky Dealer (4.4.1).
}

// Limit is a table's minimum and maximum for one wager, in minor units.
// A zero Max means no maximum.
type Limit struct {
	Min money.Amount `json:"min"`           // The table minimum, minor units.
	Max money.Amount `json:"max,omitempty"` // The table maximum, minor units (0 or absent: none).
}

// Position is one playing position (betting box) and its wagers.
type Position struct {
	// Seat is 1-7, in dealing order from the dealer's left.
	Seat int `json:"seat"`
	// Cards are the player's 5, 3 or 2 hole cards. They may be left out
	// only for a hand that was not exposed, one folded with no wager its
	// cards still decide (a jackpot, TCP Pair Plus), or an MBS hand made
	// invalid by its player's absence (5.11), unless a THB Bonus is placed.
	Cards string `json:"cards,omitempty"`
	// Wagers maps a wager name to its amount in minor units. A zero amount
	// is no wager. A THB check is a missing turn or river.
	Wagers map[string]money.Amount `json:"wagers"`
	// Folded makes a fold explicit (ruling R20: an Ante without a
	// continuation wager has folded anyway). It needs an Ante: a hand
	// without one has nothing to fold.
	Folded bool `json:"folded,omitempty"`
	// Exposed is false when the player declined the comparison (ruling
	// R8, R19); nil means true.
	Exposed *bool `json:"exposed,omitempty"`
	// Absent: the player was not present for a decision (MBS 5.11, RWS
	// 5.5).
	Absent bool `json:"absent,omitempty"`
	// ProgressiveMultiplier is THB's 1-5 times the minimum progressive
	// wager, the pool's unit (3.5.3, 3.5.3.1, ruling R17). 0: the stake
	// over the unit, which must then be a whole 1 to 5. Given, it must
	// agree with the stake, and a progressive wager must be placed.
	ProgressiveMultiplier int `json:"progressiveMultiplier,omitempty"`
}

// IsExposed reports whether the hand was exposed (the default).
func (p Position) IsExposed() bool { return p.Exposed == nil || *p.Exposed }
