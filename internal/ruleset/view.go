package ruleset

import "github.com/tablesettle/tablesettle/internal/money"

// The rulesets as the API publishes them (GET /v1/rulesets). These types
// are the API's contract, kept apart from Ruleset so that the domain data
// can change shape without changing what clients were generated against;
// the spec names them as they were named when the edge held them
// (apispec.SchemaName: View is Ruleset, PriceView is Price).

// PriceView is a paytable price: as the document writes it, and as data.
type PriceView struct {
	AsWritten   string          `json:"asWritten" example:"250 to 1" doc:"The price as the document writes it: \"250 to 1\", \"400 for 1\", \"$2,000\", \"10% of the Progressive Jackpot\"."`
	Kind        string          `json:"kind" enum:"to_one,for_one,fixed,pool_percent" doc:"to_one: the stake back plus odds times the stake; for_one: odds times the stake in all, stake included (ruling R2); fixed: a fixed amount per accepted progressive wager, paid by the house; pool_percent: a percentage of the progressive pool when the hit is applied (ruling R3)."`
	Odds        *money.Ratio    `json:"odds,omitempty" doc:"to_one and for_one: the odds as an integer ratio num/den."`
	Amount      *money.Amount   `json:"amount,omitempty" doc:"fixed: the prize in minor units of currency (SGD cents)."`
	Currency    *money.Currency `json:"currency,omitempty" doc:"fixed: the ISO 4217 currency of amount."`
	BasisPoints *int64          `json:"basisPoints,omitempty" doc:"pool_percent: the share of the pool in basis points (10000 = 100%)."`
}

// LineView is one line of a paytable.
type LineView struct {
	Hand       string    `json:"hand" example:"royal_flush" doc:"A hand category (snake_case, as POST /v1/hands/evaluate names them), \"win\" for any winning hand, or a THB hole-card Bonus hand (aa_player_and_dealer, aa, ak_suited, aq_or_aj_suited, ak_unsuited, kk_qq_jj, aq_or_aj_unsuited, tt_to_22)."`
	Label      string    `json:"label" example:"Royal Flush" doc:"The line as the document names it."`
	OrLower    bool      `json:"orLower,omitempty" doc:"The line also pays every lower hand (\"One Pair or Lower\")."`
	OrHigher   bool      `json:"orHigher,omitempty" doc:"The line also pays every higher hand."`
	Multiplied bool      `json:"multiplied,omitempty" doc:"THB v9 3.5.3.1 (ruling R17): the progressive multiplier applies to this line."`
	Pays       PriceView `json:"pays"`
	Rule       string    `json:"rule" example:"mbs-megalink-ssp-v6 4.1.2" doc:"The rule that sets this line."`
}

// MultipleView is a continuation wager's required size (ruling R20).
type MultipleView struct {
	Of    string `json:"of" example:"ante" doc:"The wager it is a multiple of."`
	Times int64  `json:"times" example:"2"`
	Fixed bool   `json:"fixed" doc:"true: any other amount is refused (MBS, ruling R20); false: another amount settles under rule (RWS 5.3)."`
	Rule  string `json:"rule"`
}

// WagerView is one wager a ruleset offers, with its paytable.
type WagerView struct {
	Name         string        `json:"name" example:"bet" doc:"The wager's name in settlement requests."`
	Label        string        `json:"label" example:"Bet" doc:"The wager as the document names it."`
	Rule         string        `json:"rule" doc:"The rule that defines the wager."`
	Progressive  bool          `json:"progressive" doc:"A progressive jackpot wager."`
	PaidOn       string        `json:"paidOn,omitempty" doc:"Set for a payment made to another wager rather than a wager placed (TCP v6 Ante Bonus, paid on the Ante)."`
	Optional     bool          `json:"optional,omitempty" doc:"A continuation wager the player may skip (THB Turn and River: Check)."`
	Multiple     *MultipleView `json:"multiple,omitempty"`
	Hand         string        `json:"hand" doc:"Which cards decide the wager (see hands)."`
	PaytableRule string        `json:"paytableRule" doc:"The rule of the paytable."`
	Paytable     []LineView    `json:"paytable" nullable:"false" doc:"Highest line first."`
}

// HandsView says what each hand is made of.
type HandsView struct {
	DealerCards       int    `json:"dealerCards" doc:"Cards to the dealer."`
	PlayerCards       int    `json:"playerCards" doc:"Cards to each player."`
	CommunityCards    int    `json:"communityCards" doc:"Community cards."`
	Main              string `json:"main" doc:"The hand compared with the dealer's: five_dealt, three_dealt or best_five_of_hole_and_community."`
	Progressive       string `json:"progressive" doc:"The player's progressive hand: five_dealt, three_dealt_and_two_community (TCP) or hole_and_flop (THB)."`
	DealerProgressive string `json:"dealerProgressive,omitempty" doc:"SSP v4 only: the dealer's five cards for the dealer-hand jackpot wager."`
	Rule              string `json:"rule"`
}

// QualifierView is the dealer's qualifying hand.
type QualifierView struct {
	Kind  string `json:"kind" enum:"ace_king,queen,none" doc:"ace_king: a hand ranked at least Ace-King high; queen: at least Queen high; none: no qualification (THB). Ruling R15."`
	Label string `json:"label" doc:"The qualifier as the document words it."`
	Rule  string `json:"rule"`
}

// CapView is a limit a rule puts on a wager's payment.
type CapView struct {
	Wager    string         `json:"wager"`
	Kind     string         `json:"kind" doc:"winnings_per_box: the winnings (not the stake) on one betting box are at most amount (ruling R11)."`
	Amount   money.Amount   `json:"amount" doc:"Minor units of currency."`
	Currency money.Currency `json:"currency"`
	Rule     string         `json:"rule"`
}

// SelectionView is an SSP v4 system selection (Magic Card, Lucky Player,
// Lucky Dealer; ruling R13).
type SelectionView struct {
	Name    string    `json:"name" enum:"magic_card,lucky_player,lucky_dealer"`
	Label   string    `json:"label"`
	Wager   string    `json:"wager" doc:"The jackpot wager it pays on."`
	Rule    string    `json:"rule"`
	PayRule string    `json:"payRule"`
	Pays    PriceView `json:"pays"`
}

// DocumentView identifies the rule document a ruleset is.
type DocumentView struct {
	File    string `json:"file" example:"mbs-megalink-singapore-stud-poker-v6.txt" doc:"The document's file name in the repository's rules/ (its clauses: GET /v1/rulesets/{id}/document)."`
	Casino  string `json:"casino" enum:"MBS,RWS"`
	Version int    `json:"version" example:"6"`
	InForce string `json:"inForce" format:"date-time" example:"2019-08-02T00:00:00+08:00" doc:"When the document took effect, Singapore time (RFC 3339)."`
}

// View is one version of one casino's rule document as the API publishes
// it (GET /v1/rulesets/{id}; the spec calls it Ruleset).
type View struct {
	ID                       string          `json:"id" example:"mbs-megalink-ssp-v6"`
	Game                     string          `json:"game" enum:"stud,three_card,holdem"`
	Name                     string          `json:"name" example:"Megalink Singapore Stud Poker"`
	Document                 DocumentView    `json:"document"`
	Currency                 string          `json:"currency" example:"SGD" doc:"The currency of the document's fixed amounts and caps."`
	Hands                    HandsView       `json:"hands"`
	Qualifier                QualifierView   `json:"qualifier"`
	Wagers                   []WagerView     `json:"wagers" nullable:"false" doc:"In the order settlement lists them."`
	MaxProgressiveMultiplier int             `json:"maxProgressiveMultiplier,omitempty" doc:"THB v9 3.5.3: the largest multiple of the minimum progressive wager."`
	MultiplierRule           string          `json:"multiplierRule,omitempty"`
	Caps                     []CapView       `json:"caps,omitempty" nullable:"false"`
	Selections               []SelectionView `json:"selections,omitempty" nullable:"false"`
}

// View is the ruleset in its published form; every rule number becomes a
// citation ("mbs-megalink-ssp-v6 4.1.2").
func (rs Ruleset) View() View {
	cite := rs.Cite
	out := View{
		ID: string(rs.ID), Game: string(rs.Game), Name: rs.Name,
		Document: DocumentView{File: rs.Document, Casino: rs.Casino, Version: rs.Version, InForce: rs.InForce.Format("2006-01-02T15:04:05Z07:00")},
		Currency: string(rs.Currency),
		Hands: HandsView{DealerCards: rs.Hands.DealerCards, PlayerCards: rs.Hands.PlayerCards, CommunityCards: rs.Hands.CommunityCards,
			Main: string(rs.Hands.Main), Progressive: string(rs.Hands.Progressive), DealerProgressive: string(rs.Hands.DealerProgressive),
			Rule: cite(rs.Hands.Rule)},
		Qualifier:                QualifierView{Kind: rs.Qualifier.Kind, Label: rs.Qualifier.Label, Rule: cite(rs.Qualifier.Rule)},
		MaxProgressiveMultiplier: rs.MaxProgressiveMultiplier,
		MultiplierRule:           cite(rs.MultiplierRule),
		Wagers:                   []WagerView{},
	}
	for _, w := range rs.Wagers {
		v := WagerView{Name: string(w.Name), Label: w.Label, Rule: cite(w.Rule), Progressive: w.Progressive,
			PaidOn: string(w.PaidOn), Optional: w.Optional, Hand: string(w.Hand), PaytableRule: cite(w.PaytableRule),
			Paytable: []LineView{}}
		if w.Multiple.Times != 0 {
			v.Multiple = &MultipleView{Of: string(w.Multiple.Of), Times: w.Multiple.Times, Fixed: w.Multiple.Fixed, Rule: cite(w.Multiple.Rule)}
		}
		for _, e := range w.Paytable {
			v.Paytable = append(v.Paytable, LineView{Hand: e.Hand, Label: e.Label, OrLower: e.OrLower, OrHigher: e.OrHigher,
				Multiplied: e.Multiplied, Pays: payView(e.Pay), Rule: cite(e.Rule)})
		}
		out.Wagers = append(out.Wagers, v)
	}
	for _, c := range rs.Caps {
		out.Caps = append(out.Caps, CapView{Wager: string(c.Wager), Kind: c.Kind, Amount: c.Amount, Currency: c.Currency, Rule: cite(c.Rule)})
	}
	for _, s := range rs.Selections {
		out.Selections = append(out.Selections, SelectionView{Name: s.Name, Label: s.Label, Wager: string(s.Wager),
			Rule: cite(s.Rule), PayRule: cite(s.PayRule), Pays: payView(s.Pay)})
	}
	return out
}

// payView is a price as published: as written, and as data.
func payView(p Pay) PriceView {
	v := PriceView{AsWritten: p.AsWritten(), Kind: string(p.Kind)}
	switch p.Kind {
	case ToOne, ForOne:
		odds := p.Odds
		v.Odds = &odds
	case Fixed:
		amount, currency := p.Amount, p.Currency
		v.Amount, v.Currency = &amount, &currency
	case PoolPercent:
		bp := int64(p.BasisPoints)
		v.BasisPoints = &bp
	}
	return v
}
