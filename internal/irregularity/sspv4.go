package irregularity

import "github.com/tablesettle/tablesettle/internal/ruleset"

// sspV4 is the catalogue of MBS Singapore Stud Poker v4 (2013): a shorter
// section 5 (5.1-5.7), no player-card-count clause (ruling R12: the round
// is void under its 5.2), no power-failure, absent-player or limits clause,
// and no general provision for what it does not cover. What it does not
// cover is referred to the Gaming Shift Manager, the officer MBS's other
// documents name (6.1), citing no clause of this one.
func sspV4(d *ruleset.Ruleset) *Ruleset {
	rs := newCatalogue(d)
	refer := rs.refer // ruling R25: SSP v4 has no section 6
	voidCase := func(text string, clauses ...string) Case {
		return Case{Action: RoundVoid, Clauses: clauses, Text: text, PreviousRoundsStand: true}
	}
	dealer := dealerCount(false, refer)
	rs.Kinds = []Kind{
		{
			Name: "foreign_card", Title: "A foreign card is found in the course of a game",
			Cases: []Case{voidCase("The current round is void and every wager returned; all results of previous games stand.", "5.1", "5.1.1", "5.1.2")},
		},
		{
			Name: "duplicate_card", Title: "The same card appears twice in the round",
			DetectedBySettlement: true,
			Note:                 "POST /v1/rounds/settle detects a repeated card from the cards themselves and voids the round (ruling R12).",
			Cases: []Case{{Action: RoundVoid, Clauses: []string{"5.1", "5.1.1", "5.1.2"}, Rulings: []string{"R12"}, PreviousRoundsStand: true,
				Text: "One of the two cards is foreign to the deck: the current round is void and every wager returned; previous games stand."}},
		},
		{
			Name: "deck_count", Title: "The cards are counted (a shortage or excess of cards suspected)",
			Facts: []Fact{{Name: "countCorrect", Type: Bool, Required: true, Doc: "the count found the correct number of cards in the deck"}},
			Cases: []Case{
				{When: []Cond{Not("countCorrect")}, Action: RoundVoid, Clauses: []string{"5.5"}, Text: "A shortage or excess of cards in the deck: the round is void and every wager returned."},
				{Action: PlayContinues, Clauses: []string{"5.5"}, Text: "No shortage or excess: play continues."},
			},
		},
		{
			Name: "cards_dealt_incorrectly", Title: "Cards dealt incorrectly",
			Facts: []Fact{
				{Name: "playerHandledCards", Type: Bool, Required: true, Doc: "any player has handled his cards"},
				factReconstructable("the distribution can be reconstructed by moving complete hands from one betting area to another"),
			},
			Cases: []Case{
				when(refer("Cards dealt incorrectly after a player handled his cards: rule 5.2 covers only cards no player has handled."), Is("playerHandledCards")),
				{When: []Cond{Is("reconstructable")}, Action: PlayContinues, Clauses: []string{"5.2"}, Rulings: []string{"R23"}, Text: "Complete hands are moved to the betting areas they belong to and play continues; no wager is withdrawn (ruling R23)."},
				{Action: RoundVoid, Clauses: []string{"5.2"}, Text: "No player has handled his cards and they cannot be reconstructed: the round is void and every wager returned."},
			},
		},
		dealer,
		{
			Name: "player_card_count_wrong", Title: "An incorrect number of cards dealt to a player's hand",
			DetectedBySettlement: true,
			Note:                 "SSP v4 has no clause for one player's card count: the cards were dealt incorrectly and the round is void under 5.2 (ruling R12); POST /v1/rounds/settle applies it.",
			Facts: []Fact{
				factSeat("the seat dealt the wrong number of cards"),
				factReconstructable("the distribution can be reconstructed by moving complete hands from one betting area to another"),
			},
			Cases: []Case{
				{When: []Cond{Is("reconstructable")}, Action: PlayContinues, Clauses: []string{"5.2"}, Rulings: []string{"R12", "R23"}, Text: "The cards are reconstructed by moving complete hands and play continues; no wager is withdrawn (ruling R23)."},
				{Action: RoundVoid, Clauses: []string{"5.2"}, Rulings: []string{"R12"}, Text: "The cards were dealt incorrectly and cannot be reconstructed: the round is void and every wager returned."},
			},
		},
		{
			Name: "cards_exposed_in_deal", Title: "Cards incorrectly exposed during the deal",
			Facts: []Fact{{Name: "cardsExposed", Type: Int, Required: true, Min: 1, Max: 52, Doc: "how many cards were incorrectly exposed"}},
			Cases: []Case{
				{When: []Cond{AtLeast("cardsExposed", 2)}, Action: RoundVoid, Clauses: []string{"5.4"}, Text: "Two or more cards exposed during the deal: the round is void and every wager returned."},
				{Action: PlayContinues, Clauses: []string{"5.4"}, Rulings: []string{"R23"},
					Text: "One card exposed during the deal does not void the round (5.4 voids it at two or more): play continues (ruling R23)."},
			},
		},
		{
			Name: "progressive_without_ante", Title: "A Jackpot Wager without an Ante wager",
			DetectedBySettlement: true,
			Note:                 "SSP v4 has no clause for it: a Jackpot Wager is placed only after an Ante (3.5), so one without is returned, as MBS 5.12.2 and RWS 5.4 do; POST /v1/rounds/settle does so itself (ruling R25).",
			Facts:                []Fact{factSeat("the seat of the Jackpot Wager")},
			RoundChecks: []RoundCheck{
				{Wagers: []string{"progressivePlayer", "progressiveDealer"}, Placed: true, Any: true, Fact: "seat", Message: "the position has no Jackpot Wager"},
				{Wagers: []string{"ante"}, Placed: false, Fact: "seat", Message: "the position has an Ante beside its Jackpot Wager"},
			},
			Cases: []Case{{Action: WagerReturned, Clauses: []string{"3.5"}, Rulings: []string{"R25"},
				Text: "The document is silent on a Jackpot Wager without an Ante (its section 5 has no such clause). 3.5 lets a Jackpot Wager be placed only after an Ante, so one without is returned, as MBS 5.12.2 and RWS 5.4 do and POST /v1/rounds/settle does (ruling R25).",
				Seats: []SeatRule{{Scope: ScopeSeat, Action: WagerReturned, Wagers: []string{"progressivePlayer", "progressiveDealer"}, Line: LineReturned,
					Clauses: []string{"3.5"}, Rulings: []string{"R25"}, Text: "Jackpot Wagers returned"}}}},
		},
		overMaximum(rs.Wagers, nil),
		{
			Name: "wager_under_minimum", Title: "A wager under the table minimum",
			Facts: []Fact{
				factSeat("the seat of the wager"), factWager(rs.Wagers),
				{Name: "minimum", Type: Amount, Doc: "the table minimum for the wager, in minor units (optional: checked against the round when one is attached)"},
			},
			Cases: []Case{{Action: PlayContinues, Rulings: []string{"R11"},
				Text: "The wager settles once and is flagged so the table can refuse the player's next under-minimum wager (ruling R11)."}},
		},
		{
			Name: KindOther, Title: "An irregularity these rules do not cover",
			Cases: []Case{refer("The rules do not cover this irregularity.")},
		},
	}
	rs.InapplicableKinds = []Inapplicable{
		betFixedMultiple(),
		{Kind: "community_card_count_wrong", Reason: "Singapore Stud Poker deals no community cards: each player and the Dealer receive their own five cards"},
	}
	rs.General = []General{
		{Clause: "5.6", Reason: "No more bets: a wager placed or increased after the call is refused or not honoured; settlement takes the wagers as they stood at the call."},
		{Clause: "5.7", Reason: "No more bets: a wager cannot be withdrawn after the call and is won or lost on the game's result; settlement settles every wager it is sent."},
	}
	// Ruling R22: a progressive wager is never over or under a table limit.
	rs.progressiveFixed("wager_over_maximum", "wager_under_minimum")
	return rs
}
