package settle

import (
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// Result is how one settlement line ends.
type Result string

// The results.
const (
	Win      Result = "win"      // paid: returned > stake (see the package doc for pool prizes)
	Lose     Result = "lose"     // collected: returned 0
	Push     Result = "push"     // a stand-off: returned = stake
	Returned Result = "returned" // given back without a decision (no-hand Bet, excess over a limit, invalid wager): returned = stake
	Void     Result = "void"     // the round or the hand is void: returned = stake
)

// Outcome is a position's hand against the dealer.
type Outcome string

// The outcomes.
const (
	OutcomeWin       Outcome = "win"            // ranked higher than the dealer's qualifying hand (or the dealer's hand in THB)
	OutcomeLose      Outcome = "lose"           // ranked lower
	OutcomeStandOff  Outcome = "stand_off"      // ranked the same
	OutcomeNoHand    Outcome = "dealer_no_hand" // the dealer did not qualify: no comparison
	OutcomeFolded    Outcome = "folded"         // folded, explicitly or by ruling R20 / RWS 5.5
	OutcomeDeclined  Outcome = "declined"       // did not expose the hand (ruling R8, R19)
	OutcomeAbsent    Outcome = "absent"         // hand invalid, player absent (MBS 5.11)
	OutcomeRemoved   Outcome = "removed"        // wrong number of cards: hand removed, wagers returned
	OutcomeVoid      Outcome = "void"           // the round is void
	OutcomeNoContest Outcome = "no_contest"     // no wager decided by comparison (TCP Pair Plus only, 3.9.3)
)

// Settlement is the answer of POST /v1/rounds/settle.
type Settlement struct {
	Ruleset  string         `json:"ruleset"`
	RoundID  string         `json:"roundId"`
	Currency money.Currency `json:"currency"`
	// Void: the round is void and every wager returned (ruling R12).
	Void bool `json:"void"`
	// Dealer is nil when the dealer's cards cannot make a hand (a void round).
	Dealer         *DealerHand      `json:"dealer,omitempty"`
	Community      string           `json:"community,omitempty"` // The community cards, canonical form.
	Positions      []PositionResult `json:"positions"`
	Irregularities []Irregularity   `json:"irregularities"` // What the cards and wagers showed that the rules treat as irregular.
	Totals         Totals           `json:"totals"`
}

// Hand is an evaluated hand.
//
// The settle operation answers with Hand itself, as it does with
// PositionResult, Line, Eligibility, Irregularity and Totals (their
// schemas are SettleHand, SettlePositionResult, ...: apispec.SchemaName):
// their doc and enum tags are the spec's words.
type Hand struct {
	Cards    string `json:"cards" doc:"The cards given, canonical form."`
	Category string `json:"category" doc:"royal_flush, straight_flush, four_of_a_kind, full_house, flush, straight, three_of_a_kind, two_pair, one_pair or high_card."`
	Best     string `json:"best" doc:"The cards that make the hand, highest rank first."` // The five (or three) cards.
}

// DealerHand is the dealer's hand and whether it qualifies.
type DealerHand struct {
	Hand
	Qualifies bool `json:"qualifies"` // Whether the dealer's hand qualifies (always true in THB, which has no qualifier).
	// Progressive is the dealer's jackpot hand (SSP v4 dealer-hand wager).
	Progressive *Hand    `json:"progressive,omitempty"`
	Rules       []string `json:"rules"`
}

// PositionResult is one position's settlement.
type PositionResult struct {
	Seat int `json:"seat"`
	// Hand is the main game hand; nil when the cards were not given or
	// cannot make one.
	Hand *Hand `json:"hand,omitempty" doc:"The main game hand; absent when the cards were not given or were the wrong number."`
	// Progressive is the player's jackpot hand (TCP: 3 + 2 community;
	// THB: hole + flop), when it differs from Hand.
	Progressive *Hand   `json:"progressive,omitempty" doc:"The jackpot hand where it differs from the main hand (TCP: 3 cards + 2 community; THB: hole cards + flop)."`
	Outcome     Outcome `json:"outcome" enum:"win,lose,stand_off,dealer_no_hand,folded,declined,absent,removed,void,no_contest" doc:"The hand against the dealer."`
	Lines       []Line  `json:"lines" doc:"One line per wager (a wager over a limit gets a second line returning the excess)."`
	// Jackpot is every jackpot prize the position qualifies for (ruling
	// R14: evaluated from the cards).
	Jackpot []Eligibility `json:"jackpot" doc:"Every jackpot prize the position qualifies for, evaluated from the cards (ruling R14)."`
	Staked  money.Amount  `json:"staked"`
	Net     money.Amount  `json:"net" doc:"The player's net over the position's lines."`
}

// Line is the settlement of one wager (or one part of it).
//
// The settle operation answers with Line itself (see Hand).
type Line struct {
	Wager    ruleset.Wager `json:"wager"`
	Stake    money.Amount  `json:"stake" doc:"The amount this line settles, minor units."`
	Result   Result        `json:"result" enum:"win,lose,push,returned,void"`
	Returned money.Amount  `json:"returned" doc:"What goes back to the player in all, stake included."`
	Net      money.Amount  `json:"net" doc:"returned - stake."`
	Odds     string        `json:"odds,omitempty" doc:"The price applied as the document writes it: \"4 to 1\", \"40 for 1\", \"SGD 2000.00\", \"100% of the pool\"."`
	Rules    []string      `json:"rules" doc:"The rules and rulings applied, e.g. \"mbs-megalink-ssp-v6 3.10.2.1\"."`
	Flags    []string      `json:"flags,omitempty" doc:"under_minimum; capped (RWS 4.1.1); pool_prize (a percentage of the pool the pools service pays, ruling R3)."`
	// Note says what the rules leave open on this line, e.g. that the
	// document is silent and which ruling decided it.
	Note string `json:"note,omitempty" doc:"What the rules leave open on this line (e.g. \"document silent\") and how it was decided."`
}

// PaidBy says who funds a prize (ruling R3).
type PaidBy string

// The payers.
const (
	PaidByHouse PaidBy = "house" // fixed and odds prizes: on the line
	PaidByPool  PaidBy = "pool"  // percentage prizes: the pools service pays
)

// Eligibility is one jackpot prize a position qualifies for.
//
// The settle operation answers with Eligibility itself (see Hand).
type Eligibility struct {
	Wager ruleset.Wager `json:"wager"`
	// Kind: "hand" (a paytable hand), "magic_card", "lucky_player",
	// "lucky_dealer" (SSP v4).
	Kind     string `json:"kind" enum:"hand,magic_card,lucky_player,lucky_dealer"`
	Category string `json:"category,omitempty"` // The hand category, for kind hand.
	// Prize is the price: basis points of the pool, a fixed amount, or odds.
	Prize ruleset.Pay `json:"prize" doc:"A percentage of the pool in basis points, a fixed amount, or odds."`
	// Multiplier is THB's progressive multiplier (1-5) as applied: 1 for
	// the percentage lines, which it does not touch (ruling R17).
	Multiplier int          `json:"multiplier" doc:"The THB multiplier applied (1 for the percentage lines, ruling R17)."`
	Stake      money.Amount `json:"stake"` // The jackpot wager's stake.
	PaidBy     PaidBy       `json:"paidBy" enum:"house,pool" doc:"house: paid on the line; pool: a percentage the pools service pays from the pool."`
	Rules      []string     `json:"rules"`
}

// Irregularity is something the round shows that the rules treat as
// irregular, with the outcome applied.
type Irregularity struct {
	// Code: duplicate_card, dealer_card_count, community_card_count,
	// player_card_count, progressive_without_ante, bonus_without_ante (ruling R26), absent_player,
	// over_maximum, under_minimum, bet_not_twice_ante.
	Code    string        `json:"code" doc:"duplicate_card, dealer_card_count, community_card_count, player_card_count, progressive_without_ante, bonus_without_ante (ruling R26), absent_player, over_maximum, under_minimum, bet_not_twice_ante."`
	Seat    int           `json:"seat,omitempty"`
	Wager   ruleset.Wager `json:"wager,omitempty"`
	Message string        `json:"message"`
	Rules   []string      `json:"rules"`
}

// Totals are the round's sums over every line.
type Totals struct {
	Staked    money.Amount `json:"staked"`
	Returned  money.Amount `json:"returned"`
	PlayerNet money.Amount `json:"playerNet"`
	// HouseNet is -PlayerNet: what the house keeps (positive) or pays.
	// Pool prizes are not in it (they are the pool's).
	HouseNet money.Amount `json:"houseNet" doc:"-playerNet. Pool prizes are not in it: the pool pays them."`
}
