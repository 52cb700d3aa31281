package jackpot

import (
	"time"

	"github.com/tablesettle/tablesettle/internal/money"
)

// PrizeKind is how a progressive paytable line pays (ruling R2).
type PrizeKind string

// The prize kinds.
const (
	// PrizePercent is BP of the pool as it stands when the hit is applied,
	// rounded down, debited from the pool (R3). 10000 bp (a Royal Flush)
	// resets the pool.
	PrizePercent PrizeKind = "percent"
	// PrizeFixed is Amount per accepted progressive wager of the pool's
	// unit, paid by the house, no stake returned (R2).
	PrizeFixed PrizeKind = "fixed"
	// PrizeOddsTo is "Odds to 1": Odds x stake and the stake returned (R2).
	PrizeOddsTo PrizeKind = "odds_to"
	// PrizeOddsFor is "Odds for 1": Odds x stake in all, stake included
	// (R2; THB 3.5.3.1 through R17 when the stake is m units).
	PrizeOddsFor PrizeKind = "odds_for"
)

// Prize is one progressive paytable line.
type Prize struct {
	Kind   PrizeKind         `json:"kind"`
	BP     money.BasisPoints `json:"bp,omitempty"`
	Amount money.Amount      `json:"amount,omitempty"`
	Odds   money.Ratio       `json:"odds,omitzero"`
}

// Wager names a progressive wager: the player's hand, or (SSP v4 only)
// the dealer's hand.
const (
	WagerPlayer = "player"
	WagerDealer = "dealer"
)

// ProgressiveWager is one accepted progressive wager of a round.
type ProgressiveWager struct {
	Seat   int          `json:"seat"`
	Wager  string       `json:"wager,omitempty"` // "player" (default) or "dealer"
	Amount money.Amount `json:"amount"`
}

// Hit is one winning progressive wager, as settlement found it from the
// cards (ruling R14): never a category a client declares.
type Hit struct {
	Seat int `json:"seat"`
	// Dealt is the position's place in the dealing order at the table,
	// 1 for the first hand dealt (clockwise from the dealer's left).
	Dealt    int          `json:"dealt"`
	Wager    string       `json:"wager,omitempty"`
	Category string       `json:"category"` // hand.Category String(), e.g. "royal_flush"
	Prize    Prize        `json:"prize"`
	Stake    money.Amount `json:"stake"`
	Rules    []string     `json:"rules,omitempty"` // the paytable line, e.g. "mbs-megalink-ssp-v6 4.2"
	// Cards are the cards the hand was evaluated from (shown with a
	// pending hit).
	Cards string `json:"cards,omitempty"`
}

// Round is what a pool needs of a settled round: its accepted progressive
// wagers and its hits.
type Round struct {
	Ruleset  string             `json:"ruleset"`
	Table    string             `json:"table"`
	Round    string             `json:"round"`
	DealtAt  time.Time          `json:"dealtAt"`
	Currency money.Currency     `json:"currency,omitempty"`
	Wagers   []ProgressiveWager `json:"wagers"`
	Hits     []Hit              `json:"hits"`
	// Void: settlement voided the round (ruling R12); it has no wagers and
	// no hits. Irregularities are what settlement found (void or not),
	// VoidHands the hands a void round held that would have hit.
	Void           bool           `json:"void,omitempty"`
	Irregularities []Irregularity `json:"irregularities,omitempty"`
	VoidHands      []VoidHand     `json:"voidHands,omitempty"`
	// ProgressiveUnit is the pool's unit as the table sent it
	// (progressiveUnit; zero when it sent none): the pools service refuses
	// a round whose unit is not the pool's, whether or not it holds a
	// progressive wager (ruling R22; issue 33 item 4). Not part of the
	// round's JSON: fingerprints and stored records are as before.
	ProgressiveUnit money.Amount `json:"-"`
}

// Payout is one jackpot payout of a round, paid or held.
type Payout struct {
	Seat     int    `json:"seat"`
	Dealt    int    `json:"dealt"`
	Wager    string `json:"wager"`
	Table    string `json:"table"`
	Round    string `json:"round"`
	Category string `json:"category"`
	// Status is "paid", or "held" for an RWS major hit inside its settle
	// window (R7): it is paid by a later commit, from the pool as it stands
	// then, and appears in the ledger and the pool's last hits; or
	// "pending": committed under the jackpot lock, waiting for a
	// supervisor to confirm or void it.
	Status string `json:"status" enum:"paid,held,pending"`
	// Amount is the prize; StakeReturned the stake given back ("to 1" only).
	Amount        money.Amount `json:"amount"`
	StakeReturned money.Amount `json:"stakeReturned"`
	// Funding names every source of Amount: pool, overflow, reserve, house.
	Funding     []Funding    `json:"funding"`
	HouseFunded money.Amount `json:"houseFunded"`
	// Shared is the number of winners the prize was divided among (R5).
	Shared   int        `json:"shared,omitempty"`
	PayAfter *time.Time `json:"payAfter,omitempty"`
	// DisplayedAfter is the displayed meter right after this payout (and
	// the reset it caused, if any).
	DisplayedAfter money.Amount `json:"displayedAfter"`
	Seq            int64        `json:"seq"`
	Rules          []string     `json:"rules"`
}

// MeterView is the three money meters.
type MeterView struct {
	Displayed money.Amount `json:"displayed"`
	Reserve   money.Amount `json:"reserve"`
	Overflow  money.Amount `json:"overflow"`
}

// Contribution is what a round's wagers credited (R4).
type Contribution struct {
	Wagers      int64        `json:"wagers"`
	WagerAmount money.Amount `json:"wagerAmount"`
	Displayed   money.Amount `json:"displayed"`
	Overflow    money.Amount `json:"overflow"`
	Reserve     money.Amount `json:"reserve"`
	Rules       []string     `json:"rules"`
}

// RoundResult is the answer to a round: the same answer, unchanged, every
// time the round is sent again.
type RoundResult struct {
	Pool         string       `json:"pool"`
	Table        string       `json:"table"`
	Round        string       `json:"round"`
	Ruleset      string       `json:"ruleset"`
	DealtAt      time.Time    `json:"dealtAt"`
	AppliedAt    time.Time    `json:"appliedAt"`
	Contribution Contribution `json:"contribution"`
	Payouts      []Payout     `json:"payouts"`
	// Released are earlier held hits (of any table) this commit paid (R7).
	Released []Payout  `json:"released"`
	Meters   MeterView `json:"meters"`
	Version  int64     `json:"version"`
	// Seq is the round's own ledger entry (its contribution), whose
	// inclusion proof GET /v1/pools/{id}/ledger/{seq}/proof answers
	// (issue 34 item 3); absent when the round was committed beside the
	// pool and is not folded into its ledger yet.
	Seq int64 `json:"seq,omitempty" doc:"The round's ledger entry (its contribution): its inclusion proof is GET /v1/pools/{id}/ledger/{seq}/proof. Absent for a round committed beside the pool (contribution shards) and not yet folded into its ledger."`
	// Void and Irregularities are the settlement's, as POST
	// /v1/rounds/settle answers them (issue 33 item 1): a void round
	// returns every wager and contributes nothing.
	Void           bool           `json:"void" doc:"The round is void (ruling R12): every wager is returned, nothing reaches the pool, and no hand wins a jackpot prize; irregularities say why, citing the rules, as settle answers."`
	Irregularities []Irregularity `json:"irregularities" doc:"What settlement found irregular in the round's cards and wagers, each citing its rules, as settle answers them."`
}

func (p *Pool) view() MeterView {
	return MeterView{Displayed: p.Meters.Displayed, Reserve: p.Meters.Reserve, Overflow: p.Meters.Overflow}
}
