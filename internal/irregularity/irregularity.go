// Package irregularity answers what a ruleset prescribes when a round goes
// wrong (section 5 of each rule document, 6.1 of the MBS documents, RWS
// 5.24): table software reports an event and its facts; Decide answers the
// outcome, citing the clauses it applies, and, with the round attached, the
// wagers the outcome returns.
//
// The catalogue is data: per ruleset, the event kinds it covers, each with
// its typed facts and a decision table of cases (conditions on the facts,
// first match wins). The same data serves GET
// /v1/rulesets/{id}/irregularities, Decide, and the tests, and every
// numbered clause of a section 5 is accounted for either by a case or by a
// General entry saying why it names no event.
//
// Irregularities the cards themselves show (ruling R12: a repeated card, a
// wrong card count) are detected by settlement (internal/settle); the
// catalogue lists them too, marked DetectedBySettlement, so that a table
// that sees them can still report them with the facts settlement cannot
// know (was it noticed before the next round; can the cards be
// reconstructed).
package irregularity

import (
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// Action is what happens to the round, a hand or a wager.
type Action string

// The outcomes the rules prescribe.
const (
	// RoundVoid: the round is void and every wager of it is returned.
	RoundVoid Action = "round_void"
	// PlayContinues: the round (or the hand) is played to its conclusion
	// and settled as usual.
	PlayContinues Action = "play_continues"
	// HandRemoved: the hand is removed from play (invalidated) and its
	// wagers are returned.
	HandRemoved Action = "hand_removed"
	// WagerReturned: the named wagers (or the named part of one) are
	// returned; the rest of the hand plays on.
	WagerReturned Action = "wager_returned"
	// Withdrawn: the player took an offered option to withdraw: all his
	// wagers are returned and the hand invalidated.
	Withdrawn Action = "withdrawn"
	// OfferOptions: each affected player must be offered the options listed.
	OfferOptions Action = "offer_options"
	// SettledToMaximum: the wager wins or loses as if it were the table
	// maximum; the excess is returned (ruling R11).
	SettledToMaximum Action = "settled_to_maximum"
	// DeemedFolded: the hand is deemed folded.
	DeemedFolded Action = "deemed_folded"
	// DeemedChecked: the player is deemed to have checked the decisions
	// he was absent for.
	DeemedChecked Action = "deemed_checked"
	// Referred: the rules do not cover the event; the decision is the
	// shift manager's (MBS 6.1, RWS 5.24).
	Referred Action = "referred"
)

// Option is a choice a player must be offered.
type Option string

// The options the rules name.
const (
	Withdraw              Option = "withdraw"               // all his wagers returned, the hand invalidated
	Continue              Option = "continue"               // continue with the hand as dealt
	ContinueReconstructed Option = "continue_reconstructed" // continue with the reconstructed hand
	PlaceAnte             Option = "place_ante"             // place the missing Ante (TCP: or Pair Plus)
	CancelProgressive     Option = "cancel_progressive"     // cancel the Progressive Jackpot wager
	IncreaseWager         Option = "increase_wager"         // increase the wager to the table minimum
)

// Scope names the seats a rule applies to, resolved from the facts (and the
// attached round for "all" and "others").
type Scope string

// The scopes.
const (
	ScopeAll        Scope = "all"             // every position of the round
	ScopeSeat       Scope = "seat"            // the seat named by facts.seat
	ScopeOthers     Scope = "others"          // every position of the round except facts.seat
	ScopeWithdrawn  Scope = "withdrawnSeats"  // the seats whose players chose to withdraw
	ScopeViewed     Scope = "viewedSeats"     // facts.viewedSeats
	ScopeUnviewed   Scope = "unviewedSeats"   // facts.seats without facts.viewedSeats
	ScopeFirstDealt Scope = "firstDealtSeat"  // the lowest of facts.seats (dealing order from the dealer's left)
	ScopeLaterDealt Scope = "laterDealtSeats" // facts.seats without the first dealt
	ScopeFirstSeen  Scope = "firstViewedSeat" // facts.firstViewedSeat
	ScopeAdditional Scope = "additionalSeats" // facts.additionalSeats
	ScopeAffected   Scope = "affectedSeats"   // facts.affectedSeats: the players a dealing error affects (RWS 5.10)
	// ScopeAffectedOthers is facts.affectedSeats without facts.seat.
	ScopeAffectedOthers Scope = "affectedSeatsButSeat"
)

// LineRule says what settlement line a seat rule writes for each wager it
// concerns when a round is attached.
type LineRule string

// The line rules.
const (
	NoLine            LineRule = ""                    // the wager settles as usual (see Settlement.Pending)
	LineReturned      LineRule = "returned"            // the whole stake returned
	LineLose          LineRule = "lose"                // the stake lost
	LineExcessMaximum LineRule = "excess_over_maximum" // stake - facts.maximum returned
	// LineExcessBoxMaximum: facts.boxTotal - facts.maximum returned from
	// the wager (RWS 5.1: the limit is on the total Bets of the box).
	LineExcessBoxMaximum LineRule = "excess_over_box_maximum"
	LineExcessTwiceAn    LineRule = "excess_over_twice_ante" // bet - 2 x ante returned
)

// SeatRule is what a case does to some seats.
type SeatRule struct {
	Scope   Scope    `json:"scope"`
	Action  Action   `json:"action"`
	Wagers  []string `json:"wagers,omitempty" doc:"The wagers concerned; empty means every wager of the position; \"$wager\" means the wager named by facts.wager."`
	Line    LineRule `json:"line,omitempty"`
	Options []Option `json:"options,omitempty"`
	Clauses []string `json:"clauses" nullable:"true"`
	Rulings []string `json:"rulings,omitempty"`
	Text    string   `json:"text"`
}

// Case is one row of a kind's decision table: when every condition holds
// (and no earlier case matched), the outcome is this.
type Case struct {
	When                []Cond     `json:"when" nullable:"true"`
	Action              Action     `json:"action"`
	Clauses             []string   `json:"clauses"`
	Rulings             []string   `json:"rulings,omitempty"`
	Text                string     `json:"text"`
	Options             []Option   `json:"options,omitempty"`
	OptionsTo           Scope      `json:"optionsTo,omitempty"`
	Seats               []SeatRule `json:"seats,omitempty"`
	ReferTo             string     `json:"referTo,omitempty"`
	DecidedBy           string     `json:"decidedBy,omitempty"`
	PreviousRoundsStand bool       `json:"previousRoundsStand,omitempty"`
}

// Contradiction is a combination of facts that cannot all be true: it is
// refused, naming the facts, rather than guessed at.
type Contradiction struct {
	When    []Cond   `json:"when" nullable:"true"`
	Facts   []string `json:"facts"`
	Message string   `json:"message"`
	// Rules are the rules that make the combination impossible, cited by
	// the refusal (ruling R22 for a progressive wager over a limit).
	Rules []string `json:"rules,omitempty"`
}

// RoundCheck is a fact the attached round must agree with: when the
// conditions hold, the wagers of the position at facts.seat must all be
// placed (Placed) or none of them placed (!Placed), or with Any at least
// one of them placed; otherwise the facts contradict the round and the
// event is refused, naming Fact.
type RoundCheck struct {
	When    []Cond   `json:"when" nullable:"true"`
	Wagers  []string `json:"wagers"`
	Placed  bool     `json:"placed"`
	Any     bool     `json:"any,omitempty"`
	Fact    string   `json:"fact"`
	Message string   `json:"message"`
}

// Requirement is an optional fact that becomes required when the
// conditions hold (for example the affected players, once the outcome is
// to offer them options).
type Requirement struct {
	When    []Cond `json:"when" nullable:"true"`
	Fact    string `json:"fact"`
	Message string `json:"message"`
}

// Kind is one event kind a ruleset covers.
type Kind struct {
	Name  string `json:"kind"`
	Title string `json:"title"`
	Facts []Fact `json:"facts"`
	Cases []Case `json:"cases"`
	// Contradictions beyond the ones the fact types imply.
	Contradictions []Contradiction `json:"contradictions,omitempty"`
	// Requires are facts required only when conditions hold.
	Requires []Requirement `json:"requires,omitempty"`
	// RoundChecks are checked against an attached round.
	RoundChecks []RoundCheck `json:"roundChecks,omitempty"`
	// Clauses this kind accounts for beyond those its cases cite (for
	// example a shift manager's discretion that settles nothing).
	Clauses []string `json:"clauses,omitempty"`
	// DetectedBySettlement: the cards or wagers of the round show this
	// irregularity and POST /v1/rounds/settle finds it itself (ruling R12).
	DetectedBySettlement bool   `json:"detectedBySettlement"`
	Note                 string `json:"note,omitempty"`
}

// General is a numbered clause that names no event of its own: a general
// rule of play, a definition the event outcomes rely on, or a clause that
// settlement applies.
type General struct {
	Clause string `json:"clause"`
	Reason string `json:"reason"`
	// SeeKind names the kind or service that applies the clause, if any.
	SeeKind string `json:"seeKind,omitempty"`
}

// Inapplicable is a kind a ruleset refuses, with the reason.
type Inapplicable struct {
	Kind   string   `json:"kind"`
	Reason string   `json:"reason"`
	Rules  []string `json:"rules,omitempty"`
}

// Ruleset is the irregularity catalogue of one ruleset.
type Ruleset struct {
	ID string `json:"ruleset"`
	// Description is the ruleset the catalogue is of: its wagers, its
	// section 5 and referral, its fixed multiples (ruling R20) and its
	// progressive unit (ruling R22). Read only.
	Description *ruleset.Ruleset `json:"-"`
	// ReferTo is who decides what the rules do not cover.
	ReferTo string `json:"referTo"`
	// ReferClause is the clause that says so ("6.1", RWS "5.24"); empty when
	// the document has none (SSP v4).
	ReferClause string `json:"referClause,omitempty"`
	// Wagers are the ruleset's wager names, in display order.
	Wagers  []string  `json:"wagers"`
	Kinds   []Kind    `json:"kinds"`
	General []General `json:"general"`
	// ReferredKinds are kinds other rulesets cover and this one does not:
	// reported here, they are referred to ReferTo.
	ReferredKinds []string `json:"referredKinds"`
	// InapplicableKinds are kinds that cannot occur in this game (or that
	// a ruling refuses as malformed), with why: reported here, they are
	// refused, neither decided nor referred.
	InapplicableKinds []Inapplicable `json:"inapplicableKinds"`
	// Index maps every clause the catalogue accounts for to the kinds that
	// apply it ("general" for a General entry).
	Index map[string][]string `json:"clauses"`
	// known are the facts of every kind the catalogue's rulesets cover, by
	// kind: a referred kind's facts are read against them.
	known map[string][]Fact
}

// Kind returns the kind named name, if the ruleset covers it.
func (r *Ruleset) Kind(name string) (*Kind, bool) {
	for i := range r.Kinds {
		if r.Kinds[i].Name == name {
			return &r.Kinds[i], true
		}
	}
	return nil, false
}

// Cite returns the citation of a clause of this ruleset, e.g.
// "mbs-megalink-ssp-v6 5.16.1".
func (r *Ruleset) Cite(clause string) string { return r.ID + " " + clause }

// Outcome is the answer to one reported event.
type Outcome struct {
	Ruleset string `json:"ruleset"`
	Kind    string `json:"kind"`
	// Covered is false when the ruleset has no rule for the event and it is
	// referred to the shift manager.
	Covered              bool          `json:"covered"`
	Action               Action        `json:"action"`
	Text                 string        `json:"text"`
	Rules                []string      `json:"rules"`
	Options              []Option      `json:"options,omitempty"`
	OptionsTo            Scope         `json:"optionsTo,omitempty"`
	Seats                []SeatOutcome `json:"seats,omitempty"`
	ReferTo              string        `json:"referTo,omitempty"`
	DecidedBy            string        `json:"decidedBy,omitempty"`
	PreviousRoundsStand  bool          `json:"previousRoundsStand"`
	DetectedBySettlement bool          `json:"detectedBySettlement"`
	Settlement           *Settlement   `json:"settlement,omitempty"`
	// Events are the outcomes of each irregularity of a report that names
	// several (ruling R28), in the order reported; the fields above are
	// the prevailing outcome's.
	Events []Outcome `json:"events,omitempty"`
}

// SeatOutcome is what the event does to one seat.
type SeatOutcome struct {
	Seat    int      `json:"seat"`
	Action  Action   `json:"action"`
	Wagers  []string `json:"wagers,omitempty"`
	Options []Option `json:"options,omitempty"`
	Rules   []string `json:"rules"`
	Text    string   `json:"text"`
}

// Round is the part of a round (as sent to settle) an outcome needs: the
// positions and their wagers.
type Round struct {
	RoundID  string
	Currency money.Currency
	// ProgressiveUnit is the progressive pool's unit, as sent to settle
	// (ruling R22): optional; with it every progressive stake is checked
	// against it (THB: 1 to 5 times it, ruling R17).
	ProgressiveUnit money.Amount
	Positions       []Position
}

// Position is one seat of the round and its wagers (name to amount in
// minor units).
type Position struct {
	Seat   int
	Wagers map[string]money.Amount
}

// Settlement is the money an outcome decides on an attached round.
type Settlement struct {
	RoundID  string         `json:"roundId,omitempty"`
	Currency money.Currency `json:"currency"`
	// Lines are the wagers the outcome decides: returned (void or
	// removed), lost (deemed fold), or the excess returned.
	Lines []Line `json:"lines"`
	// TotalReturned is the sum of Returned over Lines.
	TotalReturned money.Amount `json:"totalReturned"`
	// Pending are the wagers the outcome does not decide: they settle as
	// usual (POST /v1/rounds/settle), under the outcome's adjustments.
	Pending []Pending `json:"pending"`
}

// Line is one wager the outcome settles.
type Line struct {
	Seat     int          `json:"seat"`
	Wager    string       `json:"wager"`
	Stake    money.Amount `json:"stake"`
	Result   string       `json:"result" enum:"void,returned,lose"`
	Returned money.Amount `json:"returned"`
	Net      money.Amount `json:"net"`
	Rules    []string     `json:"rules"`
}

// Pending is a wager left to settle as usual.
type Pending struct {
	Seat  int          `json:"seat"`
	Wager string       `json:"wager"`
	Stake money.Amount `json:"stake"`
	// Settles is how it settles: "as usual", "at the table maximum", "as
	// folded", "after the player's choice"...
	Settles string `json:"settles"`
}
