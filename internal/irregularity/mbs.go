package irregularity

import "github.com/tablesettle/tablesettle/internal/ruleset"

type game int

const (
	gameSSP game = iota // Megalink Singapore Stud Poker v6
	gameTCP             // Megalink Three Card Poker v6
	gameTHB             // Megalink Texas Hold'em Bonus Progressive v9
)

// megalink is the catalogue of the three MBS Megalink documents, whose
// section 5 is the same clause for clause except where noted (5.3, 5.11,
// 5.12).
func megalink(d *ruleset.Ruleset, g game) *Ruleset {
	rs := newCatalogue(d)
	gsm := rs.ReferTo
	voidCase := func(text string, clauses ...string) Case {
		return Case{Action: RoundVoid, Clauses: clauses, Text: text, PreviousRoundsStand: true}
	}
	refer := rs.refer

	rs.Kinds = []Kind{
		{
			Name: "foreign_card", Title: "A card that does not belong to the deck in use is found (another deck's back, a joker)",
			Cases: []Case{voidCase("The current round is void and every wager returned; the outcomes of previous rounds stand.", "5.1", "5.1.1", "5.1.2")},
		},
		{
			Name: "duplicate_card", Title: "The same card appears twice in the round",
			DetectedBySettlement: true,
			Note:                 "POST /v1/rounds/settle detects a repeated card from the cards themselves and voids the round (ruling R12).",
			Cases: []Case{{Action: RoundVoid, Clauses: []string{"5.1", "5.1.1", "5.1.2"}, Rulings: []string{"R12"}, PreviousRoundsStand: true,
				Text: "One of the two cards cannot belong to the deck: the current round is void and every wager returned; previous rounds stand."}},
		},
		{
			Name: "deck_count", Title: "The cards are counted (extra or missing cards suspected)",
			Facts: []Fact{{Name: "countCorrect", Type: Bool, Required: true, Doc: "the manual count found the correct number of cards"}},
			Cases: []Case{
				{When: []Cond{Not("countCorrect")}, Action: RoundVoid, Clauses: []string{"5.1", "5.1.1", "5.1.2", "5.8"}, PreviousRoundsStand: true,
					Text: "Too many or too few cards: the round is void and every wager returned; previous rounds stand."},
				{When: []Cond{Is("countCorrect")}, Action: PlayContinues, Clauses: []string{"5.8"},
					Text: "The count is correct: play continues."},
			},
		},
		{
			Name: "cards_not_shuffled", Title: "Unshuffled cards are used",
			Cases: []Case{voidCase("The current round is void and every wager returned; previous rounds stand.", "5.1", "5.1.1", "5.1.2")},
		},
		{
			Name: "cards_dealt_incorrectly", Title: "Cards dealt incorrectly (to the wrong positions or in the wrong order)",
			Facts: []Fact{
				{Name: "playerHandledCards", Type: Bool, Required: true, Doc: "any player has handled his cards"},
				factReconstructable("the distribution can be reconstructed by moving complete hands from one playing position to another"),
			},
			Cases: []Case{
				when(refer("Cards dealt incorrectly after a player handled his cards: rule 5.2 covers only cards no player has handled."), Is("playerHandledCards")),
				{When: []Cond{Is("reconstructable")}, Action: PlayContinues, Clauses: []string{"5.2"}, Rulings: []string{"R23"},
					Text: "Complete hands are moved to the positions they belong to and play continues; no wager is withdrawn (ruling R23)."},
				{Action: RoundVoid, Clauses: []string{"5.2"}, Text: "No player has handled his cards and they cannot be reconstructed: the round is void and every wager returned."},
			},
		},
		dealerCount(false, refer),
		playerCount(refer),
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
			Name: "hand_not_confidential", Title: "A player fails to keep his hand confidential, or views or tries to view another player's hand",
			Facts: []Fact{
				factSeat("the seat of the player concerned"),
				{Name: "prohibited", Type: Bool, Required: true, Doc: "the Gaming Shift Manager, at his discretion, prohibits the player from further play"},
			},
			Cases: []Case{
				{When: []Cond{Is("prohibited")}, Action: HandRemoved, Clauses: []string{"5.9"}, DecidedBy: gsm,
					Text:  "The player is prohibited from further play and his existing wagers are returned.",
					Seats: []SeatRule{{Scope: ScopeSeat, Action: HandRemoved, Line: LineReturned, Clauses: []string{"5.9"}, Text: "prohibited from further play; every existing wager returned"}}},
				{Action: PlayContinues, Clauses: []string{"5.9"}, DecidedBy: gsm, Text: "The Gaming Shift Manager lets the player play on: the round continues."},
			},
		},
		{
			Name: "multiple_hands_in_error", Title: "A player has wagered in error on several playing positions and controls more than one hand",
			Facts: []Fact{
				{Name: "seats", Type: Seats, Required: true, Min: 2, Doc: "the seats the player controls"},
				{Name: "viewedSeats", Type: Seats, SubsetOf: "seats", Doc: "the seats whose hands the player viewed (absent or empty: none)"},
			},
			Clauses: []string{"5.10.3"},
			Note:    "5.10.3: the Gaming Shift Manager may, at his discretion, stop the player's action should he attempt to control several hands; that decision settles nothing in this round.",
			Cases: []Case{
				{When: []Cond{NonEmpty("viewedSeats")}, Action: HandRemoved, Clauses: []string{"5.10", "5.10.1"}, Rulings: []string{"R24"},
					Text: "Play continues on the viewed hands; the unviewed hands are invalidated (5.10.1) and every wager on them is returned (ruling R24).",
					Seats: []SeatRule{
						{Scope: ScopeViewed, Action: PlayContinues, Clauses: []string{"5.10.1"}, Text: "viewed: played to conclusion"},
						{Scope: ScopeUnviewed, Action: HandRemoved, Line: LineReturned, Clauses: []string{"5.10.1"}, Rulings: []string{"R24"}, Text: "not viewed: invalidated, every wager returned (ruling R24)"},
					}},
				{Action: HandRemoved, Clauses: []string{"5.10", "5.10.2"}, Rulings: []string{"R24"},
					Text: "No hand viewed: the hand first dealt is played to conclusion; the others are invalidated (5.10.2) and every wager on them is returned (ruling R24).",
					Seats: []SeatRule{
						{Scope: ScopeFirstDealt, Action: PlayContinues, Clauses: []string{"5.10.2"}, Text: "first dealt: played to conclusion"},
						{Scope: ScopeLaterDealt, Action: HandRemoved, Line: LineReturned, Clauses: []string{"5.10.2"}, Rulings: []string{"R24"}, Text: "invalidated, every wager returned (ruling R24)"},
					}},
			},
		},
		absent(g),
		progressiveWithoutAnte(g),
		overMaximum(rs.Wagers, []string{"5.14"}),
		{
			Name: "wager_under_minimum", Title: "A wager under the table minimum",
			DetectedBySettlement: true,
			Note:                 "POST /v1/rounds/settle settles an under-minimum wager once and flags it (5.13, ruling R11); whether the player had one settled before is a fact only the table knows.",
			Facts: []Fact{
				factSeat("the seat of the wager"), factWager(rs.Wagers),
				{Name: "minimum", Type: Amount, Doc: "the table minimum for the wager, in minor units (optional: checked against the round when one is attached)"},
				{Name: "previouslyUnderMinimum", Type: Bool, Required: true, Doc: "the same player has already had an under-minimum wager settled (5.13: paid or collected one time only)"},
			},
			Cases: []Case{
				{When: []Cond{Is("previouslyUnderMinimum")}, Action: WagerReturned, Clauses: []string{"5.13"}, Rulings: []string{"R11"},
					Text:  "The player's under-minimum wager has already been settled once: every later under-minimum wager of his is returned, whatever the outcome.",
					Seats: []SeatRule{{Scope: ScopeSeat, Action: WagerReturned, Wagers: []string{"$wager"}, Line: LineReturned, Clauses: []string{"5.13"}, Rulings: []string{"R11"}, Text: "under-minimum wager returned"}}},
				{Action: PlayContinues, Clauses: []string{"5.13"}, Rulings: []string{"R11"},
					Text: "The wager is paid or collected this one time only, and flagged: the player's later under-minimum wagers are returned."},
			},
		},
		{
			Name: "power_failure", Title: "A power failure during the round",
			Facts: []Fact{
				{Name: "outcomeEstablished", Type: Bool, Required: true, Doc: "any of the available wagers has conclusively won or lost"},
				factWithdrawn(),
			},
			Contradictions: []Contradiction{contradictsWithdrawn(Is("outcomeEstablished"), "with an outcome established play continues (5.16.2): no player may withdraw")},
			Cases: []Case{
				{When: []Cond{Not("outcomeEstablished")}, Action: OfferOptions, Clauses: []string{"5.16", "5.16.1"},
					Options: []Option{Withdraw, Continue}, OptionsTo: ScopeAll,
					Text:  "No outcome established: every player is given the option to withdraw his wagers; a player who withdraws must withdraw all of them. The round is then concluded.",
					Seats: []SeatRule{withdrawnReturned("withdrew: all his wagers returned", "5.16.1")}},
				{Action: PlayContinues, Clauses: []string{"5.16", "5.16.2"}, Text: "An outcome is established: play continues and the round is concluded."},
			},
		},
		{
			Name: KindOther, Title: "An irregularity these rules do not cover",
			Cases: []Case{refer("The rules do not cover this irregularity.")},
		},
	}
	if g != gameSSP {
		rs.Kinds = append(rs.Kinds, dealerCount(true, refer))
	}
	rs.InapplicableKinds = []Inapplicable{betFixedMultiple()}
	if g == gameSSP {
		rs.InapplicableKinds = append(rs.InapplicableKinds, Inapplicable{Kind: "community_card_count_wrong",
			Reason: "Singapore Stud Poker deals no community cards: each player and the Dealer receive their own five cards"})
	}
	rs.General = []General{
		{Clause: "5.5", Reason: "No more bets: a wager placed or increased after the call is refused; settlement takes the wagers as they stood at the call, so the refused part never reaches it."},
		{Clause: "5.6", Reason: "No more bets: a wager cannot be withdrawn after the call and settles on the round's outcome; settlement settles every wager it is sent."},
		{Clause: "5.15", Reason: "Wagers over the maximum or under the minimum settled in previous rounds stay settled: the service never reopens a settled round.", SeeKind: "wager_over_maximum"},
	}
	// Ruling R22: a progressive wager is never over or under a table limit.
	rs.progressiveFixed("wager_over_maximum", "wager_under_minimum")
	return rs
}

// betFixedMultiple is the RWS bet_not_twice_ante kind, refused at MBS:
// there the continuation wagers are fixed multiples of the Ante and any
// other amount is a malformed request (ruling R20), not an irregularity.
func betFixedMultiple() Inapplicable {
	return Inapplicable{Kind: "bet_not_twice_ante", Rules: []string{"ruling R20"},
		Reason: "at MBS the continuation wagers are fixed multiples of the Ante (Bet twice, Play equal, Flop twice): a round with any other amount is refused as a malformed request, so there is no such irregularity to decide; correct the round's wagers"}
}

// lateReferral is the outcome of a card-count error noticed only after the
// next round began: 5.3 and 5.7 apply only to errors noticed before it, no
// MBS clause says what becomes of the round in error (MBS has nothing like
// RWS 5.20, which in any case protects only the later rounds), so the shift
// manager decides (6.1; SSP v4 has no 6.1).
func lateReferral(refer func(string) Case, clause string) Case {
	c := refer("Noticed only after the next round began: rule " + clause + " applies only to an error noticed before it, and the rules do not say what becomes of the round in error.")
	c.When = []Cond{Not("noticedBeforeNextRound")}
	return c
}

// dealerCount is the dealer-card-count kind of MBS 5.3; community is its
// community-card twin in TCP and THB, whose 5.3 names both counts.
func dealerCount(community bool, refer func(string) Case) Kind {
	k := Kind{
		Name: "dealer_card_count_wrong", Title: "An incorrect number of cards dealt to the Dealer's hand",
		DetectedBySettlement: true,
		Note:                 "POST /v1/rounds/settle sees a wrong dealer card count and voids the round (ruling R12); report it here when it was noticed late or the cards can be reconstructed.",
		Facts:                []Fact{factNoticed(), factReconstructable("the cards can be reconstructed")},
	}
	if community {
		k.Name, k.Title = "community_card_count_wrong", `An incorrect number of "Community cards" dealt`
		k.Note = "POST /v1/rounds/settle sees a wrong community card count and voids the round (ruling R12); report it here when it was noticed late or the cards can be reconstructed."
	}
	k.Cases = []Case{
		lateReferral(refer, "5.3"),
		{When: []Cond{Is("reconstructable")}, Action: PlayContinues, Clauses: []string{"5.3"}, Rulings: []string{"R23"},
			Text: "The cards are reconstructed and play continues; no wager is withdrawn (ruling R23)."},
		{Action: RoundVoid, Clauses: []string{"5.3"}, Rulings: []string{"R12"},
			Text: "Noticed before the next round and the cards cannot be reconstructed: the round is void and every wager returned."},
	}
	return k
}

func playerCount(refer func(string) Case) Kind {
	return Kind{
		Name: "player_card_count_wrong", Title: "An incorrect number of cards dealt to a player's hand",
		DetectedBySettlement: true,
		Note:                 "POST /v1/rounds/settle sees a wrong card count in a position and removes that hand (ruling R12); report it here when it was noticed late, the cards can be reconstructed, or players withdrew under 5.7.1.",
		Facts: []Fact{
			factSeat("the seat dealt the wrong number of cards"), factNoticed(),
			factReconstructable("the cards can be reconstructed"), factWithdrawn(),
		},
		Contradictions: []Contradiction{
			{When: []Cond{Has("withdrawnSeats", "seat")}, Facts: []string{"withdrawnSeats"}, Message: "5.7.1 lets the players dealt the correct number of cards withdraw, not the one dealt the wrong count"},
			contradictsWithdrawn(Not("noticedBeforeNextRound"), "noticed after the next round began, the event is referred to the Gaming Shift Manager: there is no option to withdraw"),
			contradictsWithdrawn(Is("reconstructable"), "the cards are reconstructed and play continues: no wager is withdrawn (ruling R23)"),
		},
		Cases: []Case{
			lateReferral(refer, "5.7"),
			// Ruling R23: 5.7 and 5.7.1 apply only when the cards cannot
			// be reconstructed; reconstructed, play continues and no wager
			// is withdrawn.
			{When: []Cond{Is("reconstructable")}, Action: PlayContinues, Rulings: []string{"R23"},
				Text: "The cards are reconstructed and play continues; no wager is withdrawn: 5.7 and 5.7.1 apply only when the cards cannot be reconstructed (ruling R23)."},
			{Action: HandRemoved, Clauses: []string{"5.7", "5.7.1"}, Rulings: []string{"R12"}, Options: []Option{Withdraw, Continue}, OptionsTo: ScopeOthers,
				Text: "The hand is removed from play and its wagers returned; every other player, dealt the correct number of cards, may withdraw his wagers.",
				Seats: []SeatRule{
					{Scope: ScopeSeat, Action: HandRemoved, Line: LineReturned, Clauses: []string{"5.7"}, Rulings: []string{"R12"}, Text: "removed from play, wagers returned"},
					withdrawnReturned("dealt correctly and chose to withdraw: wagers returned", "5.7.1"),
				}},
		},
	}
}

func absent(g game) Kind {
	k := Kind{
		Name: "player_absent", Title: "A player is not present to make a decision",
		Note:  "POST /v1/rounds/settle applies 5.11 itself to a position sent with absent: true.",
		Facts: []Fact{factSeat("the seat of the absent player")},
	}
	switch g {
	case gameSSP:
		k.Title = `A player who made an "Ante" wager is not present to decide on the "Bet"`
		k.RoundChecks = []RoundCheck{
			{Wagers: []string{"ante"}, Placed: true, Fact: "seat", Message: "5.11 concerns a player who made an Ante wager"},
			{Wagers: []string{"bet"}, Placed: false, Fact: "seat", Message: "a Bet was placed, so the player was present for the decision"},
		}
		k.Cases = []Case{{Action: HandRemoved, Clauses: []string{"5.11"},
			Text:  `The hand becomes invalid; the "Ante" and "Progressive Jackpot" wagers are returned.`,
			Seats: []SeatRule{{Scope: ScopeSeat, Action: HandRemoved, Wagers: []string{"ante", "progressive"}, Line: LineReturned, Clauses: []string{"5.11"}, Text: "invalid: Ante and Progressive Jackpot returned"}}}}
	case gameTCP:
		k.Title = `A player who made an "Ante" wager is not present to decide on the "Play"`
		k.RoundChecks = []RoundCheck{
			{Wagers: []string{"ante"}, Placed: true, Fact: "seat", Message: "5.11 concerns a player who made an Ante wager"},
			{Wagers: []string{"play"}, Placed: false, Fact: "seat", Message: "a Play was placed, so the player was present for the decision"},
		}
		k.Cases = []Case{{Action: HandRemoved, Clauses: []string{"5.11"},
			Text:  `The hand becomes invalid; the "Ante", "Pair Plus" and "Progressive Jackpot" wagers are returned.`,
			Seats: []SeatRule{{Scope: ScopeSeat, Action: HandRemoved, Wagers: []string{"ante", "pairPlus", "progressive"}, Line: LineReturned, Clauses: []string{"5.11"}, Text: "invalid: Ante, Pair Plus and Progressive Jackpot returned"}}}}
	case gameTHB:
		k.Facts = append(k.Facts, Fact{Name: "decision", Type: Enum, Required: true, Values: []string{"flop", "turn", "river"},
			Doc: "the first decision the player was not present for: flop (Flop or fold), turn or river (bet or check)"})
		k.RoundChecks = []RoundCheck{
			{Wagers: []string{"ante"}, Placed: true, Fact: "seat", Message: "5.11 concerns a player who made an Ante wager"},
			{When: []Cond{Eq("decision", "flop")}, Wagers: []string{"flop", "turn", "river"}, Placed: false, Fact: "decision", Message: "a Flop (or later) wager was placed, so the player was present for the Flop decision"},
			{When: []Cond{Eq("decision", "turn")}, Wagers: []string{"flop"}, Placed: true, Fact: "decision", Message: "deemed checks follow a Flop wager (5.11)"},
			{When: []Cond{Eq("decision", "turn")}, Wagers: []string{"turn", "river"}, Placed: false, Fact: "decision", Message: "a Turn or River wager was placed, so the player was present for the Turn"},
			{When: []Cond{Eq("decision", "river")}, Wagers: []string{"flop"}, Placed: true, Fact: "decision", Message: "deemed checks follow a Flop wager (5.11)"},
			{When: []Cond{Eq("decision", "river")}, Wagers: []string{"river"}, Placed: false, Fact: "decision", Message: "a River wager was placed, so the player was present for the River"},
		}
		k.Cases = []Case{
			{When: []Cond{Eq("decision", "flop")}, Action: HandRemoved, Clauses: []string{"5.11"}, Rulings: []string{"R16", "R26"},
				Text: `Absent for the "Flop" decision: the hand becomes invalid and the "Ante" and "Progressive Jackpot" wagers are returned (5.11). Rule 5.11 returns only those two and does not name the "Bonus"; ruling R16 has the Bonus settle on the hole cards whatever the hand's outcome, lost only on a fold, and an absent player has not folded, so the Bonus settles on his hole cards, as POST /v1/rounds/settle settles it.`,
				Seats: []SeatRule{
					{Scope: ScopeSeat, Action: HandRemoved, Wagers: []string{"ante", "progressive"}, Line: LineReturned, Clauses: []string{"5.11"}, Text: "invalid: Ante and Progressive Jackpot returned"},
					{Scope: ScopeSeat, Action: PlayContinues, Wagers: []string{"bonus"}, Clauses: []string{"5.11"}, Rulings: []string{"R16", "R26"}, Text: "Bonus: not returned by 5.11; settles on the hole cards whatever the hand's outcome (ruling R16), as settlement does"},
				}},
			{Action: DeemedChecked, Clauses: []string{"5.11"},
				Text:  `The player has "Ante" and "Flop" wagers: he is deemed to have checked for the "Turn" and/or "River" he is not present for, and the hand plays on.`,
				Seats: []SeatRule{{Scope: ScopeSeat, Action: DeemedChecked, Clauses: []string{"5.11"}, Text: "deemed to check the Turn and/or River"}}},
		}
	}
	return k
}

func progressiveWithoutAnte(g game) Kind {
	base, opt, bases := `an "Ante" wager`, "place an Ante", []string{"ante"}
	if g == gameTCP {
		base, opt, bases = `an "Ante" and/or "Pair Plus" wager`, "place an Ante and/or Pair Plus", []string{"ante", "pairPlus"}
	}
	return Kind{
		Name: "progressive_without_ante", Title: `A "Progressive Jackpot" wager without ` + base,
		DetectedBySettlement: true,
		Note:                 "POST /v1/rounds/settle returns a progressive wager that has no base wager beside it (5.12.2).",
		RoundChecks: []RoundCheck{
			{Wagers: []string{"progressive"}, Placed: true, Fact: "seat", Message: "the position has no progressive wager"},
			{Wagers: bases, Placed: false, Fact: "seat", Message: "the position has " + base[1:] + " beside its progressive wager"},
		},
		Facts: []Fact{
			factSeat("the seat of the progressive wager"),
			{Name: "afterNoMoreBets", Type: Bool, Required: true, Doc: `the Dealer has already announced "No More Bets"`},
		},
		Cases: []Case{
			{When: []Cond{Not("afterNoMoreBets")}, Action: OfferOptions, Clauses: []string{"5.12", "5.12.1"}, Options: []Option{PlaceAnte, CancelProgressive}, OptionsTo: ScopeSeat,
				Text:  "Before \"No More Bets\": the player must either " + opt + " or cancel the \"Progressive Jackpot\" wager.",
				Seats: []SeatRule{{Scope: ScopeSeat, Action: OfferOptions, Options: []Option{PlaceAnte, CancelProgressive}, Clauses: []string{"5.12.1"}, Text: opt + " or cancel the progressive wager"}}},
			{Action: WagerReturned, Clauses: []string{"5.12", "5.12.2"},
				Text:  `After "No More Bets": the "Progressive Jackpot" wager is invalid and returned at the conclusion of the hand.`,
				Seats: []SeatRule{{Scope: ScopeSeat, Action: WagerReturned, Wagers: []string{"progressive"}, Line: LineReturned, Clauses: []string{"5.12.2"}, Text: "progressive wager invalid, returned"}}},
		},
	}
}

// overMaximum is the MBS wager-over-the-maximum kind (5.14 and ruling R11).
func overMaximum(wagers, clauses []string) Kind {
	return Kind{
		Name: "wager_over_maximum", Title: "A wager over the table maximum",
		DetectedBySettlement: true,
		Note:                 "POST /v1/rounds/settle applies the table limits it is sent (ruling R11).",
		Facts: []Fact{
			factSeat("the seat of the wager"), factWager(wagers),
			{Name: "maximum", Type: Amount, Required: true, Doc: "the table maximum for the wager, in minor units"},
		},
		Cases: []Case{{Action: SettledToMaximum, Clauses: clauses, Rulings: []string{"R11"},
			Text:  "The wager is paid or collected to the maximum only: it settles as if it were the maximum and the excess is returned.",
			Seats: []SeatRule{{Scope: ScopeSeat, Action: SettledToMaximum, Wagers: []string{"$wager"}, Line: LineExcessMaximum, Clauses: clauses, Rulings: []string{"R11"}, Text: "settles at the maximum; the excess returned"}}}},
	}
}
