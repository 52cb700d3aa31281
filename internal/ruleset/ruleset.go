// Package ruleset is the five approved rule documents as data: for each
// ruleset its identity (id, game, casino, document, version, in-force date),
// its wagers with their paytables exactly as the document writes them, the
// dealer qualifier, what each hand is made of, the fixed multiples of the
// continuation wagers (ruling R20), the caps (ruling R11), the SSP v4 system
// selections (ruling R13), and the rule number of every clause settlement
// cites.
//
// The data is read-only: Get and All return deep copies, so a caller may
// change what it is given without changing what the next caller sees.
// Adding a version of a document is adding one Ruleset value here (see the
// README of ../shared/rules: a new document version is a new ruleset id).
//
// Rule references are written as the document numbers them ("4.1.2"); Cite
// prefixes the ruleset id ("mbs-megalink-ssp-v6 4.1.2"), the form every
// settlement line uses.
package ruleset

import (
	"time"

	"github.com/tablesettle/tablesettle/internal/hand"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/rules"
)

// ID names one ruleset: one version of one casino's rule document.
type ID string

// The five rulesets (../shared/rules/README.md).
const (
	SSPv6    ID = "mbs-megalink-ssp-v6" // Megalink Singapore Stud Poker, MBS, v6
	SSPv4    ID = "mbs-ssp-v4"          // Singapore Stud Poker (player/dealer jackpot, Magic Card, Lucky Player/Dealer), MBS, v4
	TCPv6    ID = "mbs-megalink-tcp-v6" // Megalink Three Card Poker, MBS, v6
	THBv9    ID = "mbs-megalink-thb-v9" // Megalink Texas Hold'em Bonus Progressive, MBS, v9
	RWSCSPv2 ID = "rws-mlp-csp-v2"      // Multi-Link Progressive Casino Stud Poker, RWS, v2
)

// Game is the family of game a ruleset plays; the order of play is code in
// package settle, chosen by Game.
type Game string

// The games.
const (
	GameStud      Game = "stud"       // five-card stud against the dealer: SSP v6, SSP v4, RWS CSP
	GameThreeCard Game = "three_card" // Three Card Poker with two community cards for the jackpot: TCP v6
	GameHoldem    Game = "holdem"     // Texas Hold'em Bonus: THB v9
)

// Wager is a wager's name as the API spells it (camelCase).
type Wager string

// The wagers of all rulesets. Each ruleset has a subset (Ruleset.Wagers).
const (
	Ante              Wager = "ante"
	Bet               Wager = "bet"
	Play              Wager = "play"
	PairPlus          Wager = "pairPlus"
	Bonus             Wager = "bonus"
	Flop              Wager = "flop"
	Turn              Wager = "turn"
	River             Wager = "river"
	Progressive       Wager = "progressive"
	ProgressivePlayer Wager = "progressivePlayer" // SSP v4: jackpot on the player's hand
	ProgressiveDealer Wager = "progressiveDealer" // SSP v4: jackpot on the dealer's hand
	// AnteBonus is not a wager a player places: it is TCP v6's payment made
	// to the Ante wager (1.1.2). It has its own paytable and its own
	// settlement line.
	AnteBonus Wager = "anteBonus"
)

// PayKind is how a paytable line pays; the kinds are kept apart (rulings R2
// and R3).
type PayKind string

// The kinds of payment.
const (
	// ToOne: "X to 1": a winning wager returns its stake plus X times the
	// stake (ruling R2).
	ToOne PayKind = "to_one"
	// ForOne: "X for 1": a winning wager returns X times the stake in all,
	// stake included (ruling R2).
	ForOne PayKind = "for_one"
	// Fixed: a fixed amount ("$2,000") per accepted progressive wager, not
	// scaled by the wager (ruling R2); paid by the house, the pool does
	// not move (ruling R3).
	Fixed PayKind = "fixed"
	// PoolPercent: a percentage of the progressive pool as it stands when
	// the hit is applied, in basis points (ruling R3); paid from the pool.
	PoolPercent PayKind = "pool_percent"
)

// Pay is one paytable price. Odds is set for ToOne and ForOne, Amount and
// Currency for Fixed, BasisPoints for PoolPercent.
type Pay struct {
	Kind        PayKind           `json:"kind" enum:"to_one,for_one,fixed,pool_percent" doc:"to_one: stake back plus odds times the stake; for_one: odds times the stake in all; fixed: a fixed amount in minor units; pool_percent: basis points of the progressive pool."`
	Odds        money.Ratio       `json:"odds,omitzero" doc:"The odds X/1 of a to_one or for_one price."`
	Amount      money.Amount      `json:"amount,omitempty" doc:"A fixed prize, in minor units of currency."`
	Currency    money.Currency    `json:"currency,omitempty" doc:"The currency of a fixed prize."`
	BasisPoints money.BasisPoints `json:"basisPoints,omitempty" doc:"A pool percentage in basis points (10000 = 100%)."`
}

// String writes the price as the documents do: "250 to 1", "40 for 1",
// "SGD 2000.00", "100% of the pool".
func (p Pay) String() string {
	if s, ok := payTexts[p]; ok {
		return s
	}
	return p.format()
}

// format is the settlement line's spelling (see spell).
func (p Pay) format() string { return p.spell(false) }

// Returned is what a winning wager of the given stake gets back in all
// under a ToOne or ForOne price (ruling R2), rounded down to the minor unit
// (money.MulFloor, the one rounding of odds). Fixed and PoolPercent prices
// do not depend on the stake; Returned refuses them.
func (p Pay) Returned(stake money.Amount) (money.Amount, error) {
	switch p.Kind {
	case ToOne:
		win, err := money.MulFloor(stake, p.Odds)
		if err != nil {
			return 0, overflow(err)
		}
		sum, err := money.Add(stake, win)
		return sum, overflow(err)
	case ForOne:
		got, err := money.MulFloor(stake, p.Odds)
		return got, overflow(err)
	}
	return 0, notOdds(p)
}

// Winnings is what a ToOne price pays on top of the stake (ruling R2).
func (p Pay) Winnings(stake money.Amount) (money.Amount, error) {
	if p.Kind != ToOne {
		return 0, notOdds(p)
	}
	win, err := money.MulFloor(stake, p.Odds)
	return win, overflow(err)
}

func odds(kind PayKind, x int64) Pay { return Pay{Kind: kind, Odds: money.Ratio{Num: x, Den: 1}} }
func to1(x int64) Pay                { return odds(ToOne, x) }
func for1(x int64) Pay               { return odds(ForOne, x) }
func sgd(dollars int64) Pay {
	return Pay{Kind: Fixed, Amount: money.Amount(dollars * 100), Currency: money.SGD}
}
func pct(percent int64) Pay {
	return Pay{Kind: PoolPercent, BasisPoints: money.BasisPoints(percent * 100)}
}

// Entry is one line of a paytable as the document writes it.
//
// Hand is a hand category's snake_case name (hand.Category.String(), e.g.
// "full_house"), or one of the special names: "win" (any winning hand: the
// 1 to 1 lines of Ante, Play, Flop, Turn, River) or a THB hole-card Bonus
// hand (HoleAA and the other Hole* constants). OrLower / OrHigher widen a
// category line to every category below / above it ("One Pair or Lower",
// "Ante wins (Straight and higher)").
type Entry struct {
	Hand     string `json:"hand"`               // A hand category (snake_case), "win" for any winning hand, or a THB hole-card bonus hand.
	Label    string `json:"label"`              // The line as the document writes it.
	OrLower  bool   `json:"orLower,omitempty"`  // The line covers this category and every lower one.
	OrHigher bool   `json:"orHigher,omitempty"` // The line covers this category and every higher one.
	Pay      Pay    `json:"pay"`
	// Multiplied marks the lines the THB progressive multiplier applies to
	// (3.5.3.1, ruling R17): Straight to Four of a Kind.
	Multiplied bool   `json:"multiplied,omitempty"`
	Rule       string `json:"rule"` // The rule number of the paytable.
}

// Category returns the entry's hand category, if its Hand is one.
func (e Entry) Category() (hand.Category, bool) { return hand.ParseCategory(e.Hand) }

// Covers reports whether a hand of category c (ranked in five-card order,
// or in three-card order for a three-card paytable: see Lookup) is paid by
// this entry.
func (e Entry) covers(c hand.Category, order func(hand.Category) int) bool {
	ec, ok := e.Category()
	if !ok {
		return false
	}
	switch {
	case e.OrLower:
		return order(c) <= order(ec)
	case e.OrHigher:
		return order(c) >= order(ec)
	}
	return c == ec
}

// Paytable is a wager's paytable, highest line first as the documents
// mostly write them.
type Paytable []Entry

// order5 is five-card order: the Category constants' own order.
func order5(c hand.Category) int { return int(c) }

// Order3 is three-card order (TCP v6 3.14): straight flush > three of a
// kind > straight > flush > pair > high card.
func Order3(c hand.Category) int {
	switch c {
	case hand.StraightFlush:
		return 6
	case hand.ThreeOfAKind:
		return 5
	case hand.Straight:
		return 4
	case hand.Flush:
		return 3
	case hand.OnePair:
		return 2
	case hand.HighCard:
		return 1
	}
	return 0
}

// Lookup returns the entry that pays a five-card hand of category c.
func (p Paytable) Lookup(c hand.Category) (Entry, bool) { return p.lookup(c, order5) }

// Lookup3 returns the entry that pays a three-card hand of category c
// (three-card order, TCP v6 3.14).
func (p Paytable) Lookup3(c hand.Category) (Entry, bool) { return p.lookup(c, Order3) }

func (p Paytable) lookup(c hand.Category, order func(hand.Category) int) (Entry, bool) {
	for _, e := range p {
		if e.covers(c, order) {
			return e, true
		}
	}
	return Entry{}, false
}

// Named returns the entry whose Hand is name.
func (p Paytable) Named(name string) (Entry, bool) {
	for _, e := range p {
		if e.Hand == name {
			return e, true
		}
	}
	return Entry{}, false
}

// Multiple is a continuation wager's required size as a multiple of another
// wager (ruling R20).
type Multiple struct {
	Of    Wager `json:"of"`    // The wager it is a multiple of.
	Times int64 `json:"times"` // How many times that wager.
	// Fixed: any other amount is refused as a malformed request (MBS). When
	// false (RWS 5.3) another amount settles under Rule.
	Fixed bool   `json:"fixed"`
	Rule  string `json:"rule"` // The rule that sets the multiple, or that settles another amount.
}

// HandSource is which cards a hand is made of (the table "What each hand
// is made of" of ../shared/rules/README.md).
type HandSource string

// The hand sources.
const (
	FiveDealt          HandSource = "five_dealt"                      // the 5 dealt cards
	ThreeDealt         HandSource = "three_dealt"                     // the 3 dealt cards, three-card ranking
	ThreeAndCommunity  HandSource = "three_dealt_and_two_community"   // the 3 dealt + the 2 community cards as one 5-card hand
	BestOfHoleAndBoard HandSource = "best_five_of_hole_and_community" // best 5 of the 2 hole + 5 community cards
	HoleAndFlop        HandSource = "hole_and_flop"                   // exactly the 2 hole + the first 3 community cards
	DealerFiveDealt    HandSource = "dealer_five_dealt"               // SSP v4: the dealer's 5 cards, for the dealer-hand jackpot
	HoleCards          HandSource = "hole_cards"                      // THB Bonus: the player's 2 hole cards (and the dealer's, for A-A against A-A)
)

// WagerSpec is one wager a ruleset offers.
type WagerSpec struct {
	Name  Wager  `json:"name"`
	Label string `json:"label"` // The wager as the document names it.
	Rule  string `json:"rule"`  // The rule that defines the wager.
	// Progressive marks a progressive jackpot wager.
	Progressive bool `json:"progressive,omitempty"`
	// PaidOn is set for a payment that is not a wager of its own (TCP's
	// Ante Bonus, paid on the Ante): the wager whose stake it pays on.
	PaidOn Wager `json:"paidOn,omitempty"`
	// Optional continuation wagers may be skipped (THB Turn and River:
	// "Check", 1.1.11, 1.1.15).
	Optional bool `json:"optional,omitempty"`
	// Multiple is the continuation wager's required size (ruling R20).
	Multiple Multiple `json:"multiple,omitzero"`
	// Hand is which cards decide the wager.
	Hand HandSource `json:"hand"`
	// PaytableRule is the rule of the paytable.
	PaytableRule string   `json:"paytableRule"`
	Paytable     Paytable `json:"paytable"`
}

// Qualifier is the dealer's qualifying hand.
type Qualifier struct {
	// Kind: "ace_king" (a hand ranked at least Ace-King high,
	// hand.QualifiesStud), "queen" (at least Queen high, hand.QualifiesTCP),
	// "none" (THB: no qualification).
	Kind  string `json:"kind"`
	Label string `json:"label"` // The qualifier as the document words it.
	Rule  string `json:"rule"`
}

// Cap is a limit a rule puts on a wager's payment.
type Cap struct {
	Wager Wager `json:"wager"`
	// Kind "winnings_per_box": the winnings (not the stake) of the wager on
	// one betting box are at most Amount (RWS 4.1.1, ruling R11).
	Kind     string         `json:"kind"`
	Amount   money.Amount   `json:"amount"` // The cap, in minor units of currency.
	Currency money.Currency `json:"currency"`
	Rule     string         `json:"rule"`
}

// Selection is an SSP v4 system selection and the wager it pays on
// (rules 4.3-4.5, ruling R13).
type Selection struct {
	// Name: "magic_card", "lucky_player" or "lucky_dealer".
	Name  string `json:"name"`
	Label string `json:"label"`
	Wager Wager  `json:"wager"` // The jackpot wager it pays on.
	// Rule is the qualifying rule (4.3, 4.3.1, 4.4, 4.4.1); PayRule the
	// paytable (4.5).
	Rule    string `json:"rule"`
	PayRule string `json:"payRule"`
	Pay     Pay    `json:"pay"`
}

// Hands says what each hand is made of.
type Hands struct {
	DealerCards    int        `json:"dealerCards"`    // Cards to the dealer: 5 (stud), 3 (TCP), 2 hole cards (THB).
	PlayerCards    int        `json:"playerCards"`    // Cards to each player: 5, 3, or 2 hole cards.
	CommunityCards int        `json:"communityCards"` // Community cards: 0, 2 (TCP) or 5 (THB).
	Main           HandSource `json:"main"`           // The hand compared with the dealer's.
	Progressive    HandSource `json:"progressive"`    // The player's progressive jackpot hand.
	// DealerProgressive is set in SSP v4 only: the dealer-hand jackpot.
	DealerProgressive HandSource `json:"dealerProgressive,omitempty"`
	Rule              string     `json:"rule"` // The rule that says how hands are made and ranked.
}

// Clauses are the rule numbers settlement cites for each clause of the
// order of play and of the irregularities. An empty string means the
// document has no such clause (settlement then cites the ruling it
// applies, or refuses the request).
type Clauses struct {
	Ranking  string `json:"ranking"`  // The order of hands.
	TieBreak string `json:"tieBreak"` // Hands of the same order: the tie-break clauses.
	// The tie-break sub-clauses, where the document numbers them (empty:
	// TieBreak covers it).
	TieSame         string `json:"tieSame,omitempty"` // Same order and same ranks: a stand-off.
	TieTwoPairs     string `json:"tieTwoPairs,omitempty"`
	TieOnePair      string `json:"tieOnePair,omitempty"`
	TieWheel        string `json:"tieWheel,omitempty"` // A straight with a six (TCP: a four) or higher beats the wheel.
	TieFullHouse    string `json:"tieFullHouse,omitempty"`
	TieSameStraight string `json:"tieSameStraight,omitempty"` // Straights of the same ranks: a stand-off.
	Fold            string `json:"fold"`
	Continue        string `json:"continue"`                // Placing the continuation wager.
	Declined        string `json:"declined,omitempty"`      // A player declining the comparison.
	NoQualify       string `json:"noQualify,omitempty"`     // The dealer does not qualify.
	NoQualifyBet    string `json:"noQualifyBet,omitempty"`  // ... the continuation wager returned (or not paid).
	NoQualifyAnte   string `json:"noQualifyAnte,omitempty"` // ... the Ante paid.
	Win             string `json:"win"`                     // The player's hand ranks higher.
	Lose            string `json:"lose"`                    // The player's hand ranks lower.
	StandOff        string `json:"standOff"`                // The hands rank the same.
	ProgressivePaid string `json:"progressivePaid"`         // The progressive wager paid by its paytable.
	// NoQualifyProgressive is the progressive clause when the dealer does
	// not qualify, where the document has one (SSP v6 3.10.2.3, v4 3.12.3).
	NoQualifyProgressive string `json:"noQualifyProgressive,omitempty"`
	ProgressiveExtra     string `json:"progressiveExtra,omitempty"` // A jackpot is paid in addition to the other wagers.
	VoidCards            string `json:"voidCards"`                  // A card that does not belong, extra or missing cards: the round is void.
	DealerCount          string `json:"dealerCount"`                // A wrong number of cards to the dealer (or the community): the round is void.
	PlayerCount          string `json:"playerCount"`                // A wrong number of cards to a player: the hand is removed and its wagers returned.
	Absent               string `json:"absent,omitempty"`           // A player not present for a decision.
	AbsentSettled        string `json:"absentSettled,omitempty"`    // A player absent with no decision left to make.
	NoAnte               string `json:"noAnte,omitempty"`           // A progressive wager without its Ante: returned.
	// ProgressiveUnit is the clause that fixes the progressive wager's
	// amount, where the document has one (RWS 3.4: "the prescribed
	// Progressive Jackpot betting amount"; THB 3.5.3: 1-5 times the
	// minimum). Empty where the document is silent (SSP v6, TCP v6):
	// settlement cites ruling R22 alone.
	ProgressiveUnit string `json:"progressiveUnit,omitempty"`
	// ProgressiveCredits is the clause that lets a progressive wager be
	// any whole number of credits, the pool's unit (SSP v4 3.5: "one or
	// more credits", ruling R22); "" where a wager is one unit (or, with
	// Ruleset.MaxProgressiveMultiplier, 1 to that many units: THB, R17).
	ProgressiveCredits string `json:"progressiveCredits,omitempty"`
	UnderMin           string `json:"underMin,omitempty"`    // A wager under the table minimum.
	OverMax            string `json:"overMax,omitempty"`     // A wager over the table maximum.
	BetMultiple        string `json:"betMultiple,omitempty"` // A BET that is not twice the Ante (RWS 5.3).
	// VoidReturned is the clause that returns every wager of a void round,
	// where the document has one (RWS 5.22). The MBS documents have none:
	// their void clauses (5.1.1, 5.3, SSP v4 5.2) say only that the round
	// is void, and ruling R12 returns the wagers.
	VoidReturned string `json:"voidReturned,omitempty"`
	// VoidCardsRound is the sub-clause of VoidCards that voids the round
	// (MBS 5.1.1 under 5.1), cited with it on a foreign or repeated card
	// only: a wrong card count is voided by its own clause (DealerCount).
	VoidCardsRound string `json:"voidCardsRound,omitempty"`
	// The progressive jackpot's clauses for several major winners at one
	// table (the sub-clauses of Majors.Rule): how several Royal Flush /
	// Straight Flush winners share the prize (SSP v6 3.15.1, 3.15.2; TCP
	// v6 and THB v9 number only the Straight Flush's: 3.18.1, 3.15.1), and
	// lower-ranking hands paid before a Royal Flush of the same round (SSP
	// v6 3.15.3, TCP v6 3.18.2, THB v9 3.15.2; ruling R5). "" where the
	// document has none.
	JackpotRoyalShare         string `json:"jackpotRoyalShare,omitempty"`
	JackpotStraightFlushShare string `json:"jackpotStraightFlushShare,omitempty"`
	JackpotLowerFirst         string `json:"jackpotLowerFirst,omitempty"`
	// JackpotReset is the document's own clause that resets the jackpot to
	// a predetermined value when it is won (RWS 1.13), cited with rulings
	// R3 and R21; "" where the document has none (the MBS documents).
	JackpotReset string `json:"jackpotReset,omitempty"`
	// Side wagers.
	SideWagers         string `json:"sideWagers,omitempty"`         // Side and jackpot wagers are placed after the Ante (THB 3.5).
	PairPlusFold       string `json:"pairPlusFold,omitempty"`       // TCP: fold the Ante and play the Pair Plus.
	PairPlusOnly       string `json:"pairPlusOnly,omitempty"`       // TCP: a Pair Plus only player.
	PairPlusNoQualify  string `json:"pairPlusNoQualify,omitempty"`  // TCP: Pair Plus paid when the dealer does not qualify.
	PairPlusQualify    string `json:"pairPlusQualify,omitempty"`    // TCP: Pair Plus paid when the dealer qualifies.
	AnteBonusNoQualify string `json:"anteBonusNoQualify,omitempty"` // TCP: Ante Bonus paid when the dealer does not qualify.
	AnteBonusQualify   string `json:"anteBonusQualify,omitempty"`   // TCP: Ante Bonus paid when the dealer qualifies.
}

// Majors says how a ruleset's major progressive prizes (the pool
// percentages: Royal Flush and Straight Flush) are paid when several hit.
// It is what the pools read instead of the casino's name.
type Majors struct {
	// Sequential: several major winners at one table in one round are paid
	// one after the other in dealing order, each from the pool as the
	// previous payout and reset left it (RWS 4.5.1, ruling R6). false: they
	// share the prize, lower-ranking hits first (MBS SSP v6 3.15, TCP v6
	// 3.18, THB v9 3.15, ruling R5).
	Sequential bool `json:"sequential"`
	// Rule is the document's clause for several winners at one table (""
	// where it has none: SSP v4, where ruling R5 alone applies).
	Rule string `json:"rule,omitempty"`
	// SettleWindow: major hits across tables are paid in the order the
	// hands were dealt, so a major hit is held pending for the pool's settle
	// window (a pool setting) before it is paid (RWS 4.5.2, ruling R7).
	// false: hits are paid in the order the system commits them and the
	// dealt-at time is recorded for audit (MBS 3.14, TCP v6 3.17, ruling R7).
	SettleWindow bool `json:"settleWindow"`
	// OrderRule is the document's clause for winners across tables (""
	// where it has none: SSP v4, where ruling R7 alone applies).
	OrderRule string `json:"orderRule,omitempty"`
}

// Decisions says what a document makes of a player who does not decide.
type Decisions struct {
	// DeclinedFolds: a hand not exposed is deemed folded and its jackpot
	// is counted when its cards are supplied (RWS 4.3, ruling R8). false:
	// it is deemed to lose to the dealer and has no jackpot combination
	// (MBS 3.10.1, 3.10.2, rulings R8 and R19).
	DeclinedFolds bool `json:"declinedFolds"`
	// AbsentFolds: a player absent with the continuation decision pending
	// is deemed to have folded (RWS 5.5). false: where Clauses.Absent is
	// set the hand is invalid and its Ante and progressive returned (MBS
	// 5.11); where it is not (SSP v4) settlement refuses the hand until
	// the manager decides (ruling R25).
	AbsentFolds bool `json:"absentFolds"`
}

// Section5 names the section 5 (irregularities) a document has: the
// catalogue of event kinds package irregularity decides for it.
type Section5 string

// The section 5s of the documents.
const (
	// Section5Megalink: the MBS Megalink documents (SSP v6, TCP v6, THB
	// v9), whose section 5 is the same clause for clause except 5.3, 5.11
	// and 5.12, where the game decides.
	Section5Megalink Section5 = "mbs_megalink"
	// Section5SSPv4: MBS Singapore Stud Poker v4's shorter section 5
	// (5.1-5.7), with no section 6 (ruling R25).
	Section5SSPv4 Section5 = "mbs_ssp_v4"
	// Section5RWS: RWS Multi-Link Progressive Casino Stud Poker's section
	// 5 (5.1-5.24).
	Section5RWS Section5 = "rws_csp"
)

// Irregularities describes a document's rules for a round that goes wrong.
type Irregularities struct {
	// Section5 is the catalogue of event kinds the document's section 5
	// has.
	Section5 Section5 `json:"section5"`
	// ReferTo is who decides what the rules do not cover.
	ReferTo string `json:"referTo"`
	// ReferClause is the clause that refers it (MBS 6.1, RWS 5.24); empty
	// where the document has none (SSP v4).
	ReferClause string `json:"referClause,omitempty"`
	// ReferRuling is the ruling that refers it where the document has no
	// such clause (SSP v4: ruling R25).
	ReferRuling string `json:"referRuling,omitempty"`
	// BurntCard is the clause for a burnt card not discarded, where the
	// game burns one (RWS 1.4, 3.10, 5.9); empty otherwise.
	BurntCard string `json:"burntCard,omitempty"`
	// BoxMaximum: the table maximum is on the total bets of a betting box
	// (RWS 5.1); false: on each wager (MBS 5.14).
	BoxMaximum bool `json:"boxMaximum"`
	// PlayerCountVoids: a wrong number of cards to one player voids the
	// round (SSP v4 5.2, ruling R12); false: the hand is removed and its
	// wagers returned (MBS 5.7, RWS 5.15).
	PlayerCountVoids bool `json:"playerCountVoids"`
}

// Ruleset is one version of one casino's rule document, as data.
type Ruleset struct {
	ID   ID     `json:"id"`
	Game Game   `json:"game"`
	Name string `json:"name"` // The game's name as the document titles it.
	// Short is the game's name as messages write it ("SSP v4", "THB").
	Short    string `json:"short"`
	Casino   string `json:"casino"`   // One of: MBS, RWS.
	Document string `json:"document"` // The document's file name in shared/rules.
	// Rules is the rule document itself: what its clauses say, so that a
	// citation of this ruleset resolves (GET /v1/rulesets/{id}/document).
	Rules   rules.Document `json:"-"`
	Version int            `json:"version"`
	// InForce is when the document took effect, Singapore time.
	InForce time.Time `json:"inForce"`
	// Currency is the currency of the document's fixed amounts and caps
	// (every document is in SGD).
	Currency  money.Currency `json:"currency"`
	Hands     Hands          `json:"hands"`
	Qualifier Qualifier      `json:"qualifier"`
	// Wagers in the order settlement lists them.
	Wagers []WagerSpec `json:"wagers"`
	// MaxProgressiveMultiplier is the largest multiple of the minimum
	// progressive wager a player may place (THB 3.5.3: 5); 0 elsewhere.
	MaxProgressiveMultiplier int    `json:"maxProgressiveMultiplier,omitempty"`
	MultiplierRule           string `json:"multiplierRule,omitempty"`
	Caps                     []Cap  `json:"caps,omitempty"`
	// Selections are SSP v4's Magic Card, Lucky Player and Lucky Dealer.
	Selections []Selection `json:"selections,omitempty"`
	Clauses    Clauses     `json:"clauses"`
	// Majors: how several major prizes are paid (rulings R5, R6, R7).
	Majors Majors `json:"majors"`
	// Decisions: what a player who does not decide has done (R8, RWS 5.5).
	Decisions Decisions `json:"decisions"`
	// Irregularities: the document's section 5 and referral (R12, R25).
	Irregularities Irregularities `json:"irregularities"`
}

// Cite returns a rule reference in the form settlement cites it:
// "mbs-megalink-ssp-v6 4.1.2". An empty rule gives "".
func (r *Ruleset) Cite(rule string) string { return r.Citer().Cite(rule) }

// Citer is Cite for a caller that cites many rules of one ruleset (a
// settlement cites a few dozen): the ruleset's table looked up once.
func (r *Ruleset) Citer() Citer { return Citer{id: r.ID, table: citations[r.ID]} }

// Citer cites rules of one ruleset (Ruleset.Citer).
type Citer struct {
	id    ID
	table map[string]string // read only: the ruleset's citations
}

// Cite is Ruleset.Cite.
func (c Citer) Cite(rule string) string {
	if rule == "" {
		return ""
	}
	if s, ok := c.table[rule]; ok {
		return s
	}
	return string(c.id) + " " + rule
}

// Wager returns the spec of the named wager.
func (r *Ruleset) Wager(w Wager) (*WagerSpec, bool) {
	for i := range r.Wagers {
		if r.Wagers[i].Name == w {
			return &r.Wagers[i], true
		}
	}
	return nil, false
}

// Placeable reports whether players place w in this ruleset (AnteBonus,
// a payment, is not placed).
func (r *Ruleset) Placeable(w Wager) bool {
	s, ok := r.Wager(w)
	return ok && s.PaidOn == ""
}

// Cap returns the cap on wager w's payment, if there is one.
func (r *Ruleset) Cap(w Wager) (Cap, bool) {
	for _, c := range r.Caps {
		if c.Wager == w {
			return c, true
		}
	}
	return Cap{}, false
}

func (r Ruleset) clone() Ruleset {
	c := r
	c.Wagers = make([]WagerSpec, len(r.Wagers))
	for i, w := range r.Wagers {
		w.Paytable = append(Paytable(nil), w.Paytable...)
		c.Wagers[i] = w
	}
	c.Caps = append([]Cap(nil), r.Caps...)
	c.Selections = append([]Selection(nil), r.Selections...)
	return c
}
