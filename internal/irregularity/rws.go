package irregularity

import (
	"slices"

	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// rws is the catalogue of RWS Multi-Link Progressive Casino Stud Poker v2.
// A voided round returns every bet (5.22) and leaves previous rounds
// standing (5.8, 5.9); dealing errors 5.8 does not describe give every
// affected player the options of 5.10; what the rules do not cover goes to
// the Table Game Shift Manager (5.24).
func rws(d *ruleset.Ruleset) *Ruleset {
	rs := newCatalogue(d)
	tgsm := rs.ReferTo
	// burnt is the burnt-card clause (RWS 5.9); a game that burns no card
	// has no such kind (it is referred, as at MBS).
	burnt := d.Irregularities.BurntCard
	void := func(text string, clauses ...string) Case {
		return Case{Action: RoundVoid, Clauses: append(clauses, "5.22"), PreviousRoundsStand: true,
			Text: text + " The round is voided and every bet returned; the outcome and settlement of previous rounds stand."}
	}
	refer := func(text string) Case {
		c := rs.refer(text)
		c.Text = text + " Referred for the decision of the " + tgsm + " or above."
		return c
	}
	// options510 are the options of 5.10. They go to "all affected
	// Players" (5.10: ScopeAffected, the seats facts.affectedSeats names);
	// only 5.9 and 5.14.1 give them to "all Players" at the table
	// (ScopeAll).
	options510 := func(lead string, recon bool, to Scope, extra ...string) Case {
		c := Case{Action: OfferOptions, OptionsTo: to,
			Seats: []SeatRule{withdrawnReturned("chose 5.10.3: bets returned, hand invalidated", "5.10.3")}}
		who := "Every affected player (facts.affectedSeats)"
		if to == ScopeAll {
			who = "Every player at the table"
		}
		if recon {
			c.Clauses = append(extra, "5.10", "5.10.2", "5.10.3")
			c.Options = []Option{ContinueReconstructed, Withdraw}
			c.Text = lead + " " + who + " may continue with the reconstructed hand (5.10.2) or have his bets returned and the hand invalidated (5.10.3); those who continue accept every later card of the round."
		} else {
			c.Clauses = append(extra, "5.10", "5.10.1", "5.10.3")
			c.Options = []Option{Continue, Withdraw}
			c.Text = lead + " " + who + " may continue his hand (5.10.1) or have his bets returned and the hand invalidated (5.10.3); those who continue accept every later card of the round."
		}
		return c
	}
	affected := Fact{Name: "affectedSeats", Type: Seats, Min: 1,
		Doc: "the seats of the players the dealing error affects: 5.10 gives its options to \"all affected Players\" only"}
	withdrawnAffected := factWithdrawn()
	withdrawnAffected.SubsetOf = "affectedSeats"
	withdrawnAffected.Doc = "the seats of the affected players who took the option to withdraw (5.10.3); each must be one of affectedSeats (optional: without it the outcome lists the options and leaves their wagers pending)"
	needAffected := func(cs ...Cond) Requirement {
		return Requirement{When: cs, Fact: "affectedSeats", Message: "the seats of the players the dealing error affects: 5.10 gives its options to them only"}
	}
	noAffected := func(why string, cs ...Cond) Contradiction {
		return Contradiction{When: append(cs, NonEmpty("affectedSeats")), Facts: []string{"affectedSeats"}, Message: why}
	}
	lateRefer := func(what, clause string) Case {
		c := refer("Noticed only after the next round began: " + clause + " applies only to " + what + " noticed before the commencement of the next Round of play, and the Game Rules do not say what becomes of the round in error (5.20 only keeps the error from affecting the later rounds).")
		c.When = []Cond{Not("noticedBeforeNextRound")}
		return c
	}
	seen := Fact{Name: "playerSawCards", Type: Bool, Required: true, Doc: "any player has seen the cards distributed to him"}
	recon := factReconstructable("the cards can be Reconstructed (returned to their original intended order)")

	rs.Kinds = []Kind{
		{
			Name: "foreign_card", Title: "A card that does not form part of the set of cards is found",
			Cases: []Case{void("A card not part of the set.", "5.8", "5.8.1")},
		},
		{
			Name: "duplicate_card", Title: "The same card appears twice in the round",
			DetectedBySettlement: true,
			Note:                 "POST /v1/rounds/settle detects a repeated card from the cards themselves and voids the round (ruling R12).",
			Cases:                []Case{when(void("One of the two cards does not form part of the set.", "5.8", "5.8.1"))},
		},
		{
			Name: "deck_count", Title: "The cards are counted (a shortage or excess of cards in the deck suspected)",
			Facts: []Fact{{Name: "countCorrect", Type: Bool, Required: true, Doc: "the count found the correct number of cards in the deck"}},
			Cases: []Case{
				when(void("A shortage or excess of cards in the deck.", "5.8", "5.8.3"), Not("countCorrect")),
				{Action: PlayContinues, Clauses: []string{"5.8.3"}, Text: "No shortage or excess: play continues."},
			},
		},
		{
			Name: "insufficient_cards", Title: "Too few cards in the Card Shoe / Electronic Card Shuffler to complete the round",
			Cases: []Case{void("Insufficient cards to complete the round.", "5.8", "5.8.4")},
		},
		{
			Name: "cards_not_shuffled", Title: "The playing cards are not shuffled",
			Cases: []Case{void("The cards were not shuffled.", "5.8", "5.8.5")},
		},
		{
			Name: "cards_dealt_incorrectly", Title: "Cards dealt incorrectly (to the wrong betting areas or in the wrong order)",
			Facts:    []Fact{seen, factReconstructable("the distribution can be Reconstructed by moving complete Hands from one betting area to another"), affected, withdrawnAffected},
			Requires: []Requirement{needAffected(Is("playerSawCards"))},
			Contradictions: []Contradiction{
				contradictsWithdrawn(Not("playerSawCards"), "before any player has seen his cards the round is voided or reconstructed (5.8.6): there is no option to withdraw"),
				noAffected("before any player has seen his cards 5.8.6 applies: 5.10 gives no options", Not("playerSawCards")),
			},
			Cases: []Case{
				{When: []Cond{Not("playerSawCards"), Is("reconstructable")}, Action: PlayContinues, Clauses: []string{"5.8.6"},
					Text: "No player has seen his cards: complete Hands are moved to the betting areas they belong to and play continues."},
				when(void("Cards dealt incorrectly, no player has seen his cards and they cannot be Reconstructed by moving complete Hands.", "5.8", "5.8.6"), Not("playerSawCards")),
				when(options510("A dealing error after players saw their cards (not described in 5.8).", true, ScopeAffected), Is("reconstructable")),
				options510("A dealing error after players saw their cards (not described in 5.8).", false, ScopeAffected),
			},
		},
		{
			Name: "dealer_card_count_wrong", Title: "An incorrect number of cards dealt to the Dealer's Hand",
			DetectedBySettlement: true,
			Note:                 "POST /v1/rounds/settle sees a wrong dealer card count and voids the round (ruling R12); report it here when it was noticed late or the cards can be Reconstructed.",
			Facts:                []Fact{factNoticed(), recon},
			Cases: []Case{
				lateRefer("a wrong Dealer card count", "5.8.7"),
				{When: []Cond{Is("reconstructable")}, Action: PlayContinues, Clauses: []string{"5.8.7"}, Text: "The cards are Reconstructed and play continues."},
				when(void("Noticed before the next round and the cards cannot be Reconstructed.", "5.8", "5.8.7")),
			},
		},
		{
			Name: "player_card_count_wrong", Title: "An incorrect number of cards dealt to a player's Hand",
			DetectedBySettlement: true,
			Note:                 "POST /v1/rounds/settle sees a wrong card count in a position and invalidates that Hand (ruling R12); report it here when it was noticed late, the cards can be Reconstructed, or affected players chose under 5.10.",
			Facts: []Fact{factSeat("the seat dealt the wrong number of cards"), factNoticed(), recon,
				{Name: "affectedSeats", Type: Seats, Min: 1, Doc: "the seats of the players the dealing error affects, the seat dealt the wrong count included: 5.10 gives its options to them"},
				withdrawnAffected},
			Requires: []Requirement{needAffected(Is("noticedBeforeNextRound"))},
			Contradictions: []Contradiction{
				{When: []Cond{Lacks("affectedSeats", "seat")}, Facts: []string{"affectedSeats"}, Message: "the Hand dealt the wrong number of cards is affected by the error: list its seat in affectedSeats"},
				contradictsWithdrawn(Not("noticedBeforeNextRound"), "noticed after the next round began, the event is referred (5.24): there is no option to withdraw"),
				{When: []Cond{Not("reconstructable"), Has("withdrawnSeats", "seat")}, Facts: []string{"withdrawnSeats"}, Message: "the Hand dealt the wrong count is invalidated and its bets returned under 5.15: it has no option to withdraw"},
			},
			Cases: []Case{
				lateRefer("a wrong card count to a player's Hand", "5.15"),
				func() Case {
					c := options510("The cards are Reconstructed, so 5.15 does not invalidate the Hand; a wrong card count is a dealing error not described in 5.8 (whose 5.8.7 names only the Dealer's Hand) or 5.16, so 5.10 applies \"regardless of whether Reconstruction is possible\".", true, ScopeAffected, "5.15")
					c.When = []Cond{Is("reconstructable")}
					return c
				}(),
				func() Case {
					c := options510("The cards cannot be Reconstructed: the Hand dealt the wrong count is invalidated and its bets returned (5.15). The wrong count is a dealing error not described in 5.8 or 5.16, so 5.10 gives the other affected players their options.", false, ScopeAffectedOthers, "5.15")
					c.Action, c.Rulings = HandRemoved, []string{"R12"}
					c.Seats = append([]SeatRule{{Scope: ScopeSeat, Action: HandRemoved, Line: LineReturned, Clauses: []string{"5.15"}, Rulings: []string{"R12"}, Text: "invalidated, bets returned"}}, c.Seats...)
					return c
				}(),
			},
		},
		{
			Name: "cards_exposed_in_deal", Title: "Cards incorrectly exposed by the Dealer during the deal",
			Facts: []Fact{
				{Name: "cardsExposed", Type: Int, Required: true, Min: 1, Max: 52, Doc: "how many cards were incorrectly exposed, not counting the Dealer's face-up card"},
				seen,
				{Name: "dealerCardOnly", Type: Bool, Doc: "the one exposed card is one of the Dealer's own cards, exposed as it was dealt (5.16)"},
				affected, withdrawnAffected,
			},
			Requires: []Requirement{
				needAffected(Not("dealerCardOnly"), Not("playerSawCards"), AtMost("cardsExposed", 1)),
			},
			Contradictions: []Contradiction{
				{When: []Cond{Is("dealerCardOnly"), AtLeast("cardsExposed", 2)}, Facts: []string{"dealerCardOnly", "cardsExposed"}, Message: "dealerCardOnly means exactly one card, one of the Dealer's, was exposed: cardsExposed must be 1"},
				contradictsWithdrawn(Is("dealerCardOnly"), "the Dealer's exposed card becomes his face-up card (5.16): there is no option to withdraw"),
				{When: []Cond{Not("playerSawCards"), AtLeast("cardsExposed", 2), NonEmpty("withdrawnSeats")}, Facts: []string{"withdrawnSeats"}, Message: "two or more cards exposed before any player saw his cards void the round (5.8.2): there is no option to withdraw"},
				noAffected("the Dealer's exposed card becomes his face-up card (5.16), which 5.10 excludes: no options", Is("dealerCardOnly")),
				noAffected("two or more cards exposed before any player saw his cards void the round (5.8.2), which 5.10 excludes: no options", Not("playerSawCards"), AtLeast("cardsExposed", 2)),
				noAffected("once a player has seen his cards 5.12 alone applies and the round continues with no 5.10 options (ruling R23)", Not("dealerCardOnly"), Is("playerSawCards")),
				contradictsWithdrawn(Is("playerSawCards"), "once a player has seen his cards 5.12 alone applies and the round continues: there is no option to withdraw (ruling R23)"),
			},
			Cases: []Case{
				{When: []Cond{Is("dealerCardOnly")}, Action: PlayContinues, Clauses: []string{"5.16"},
					Text: "One of the Dealer's cards exposed as it was dealt: it is used as the face-up card covering his other four, and play continues."},
				{When: []Cond{Is("playerSawCards")}, Action: PlayContinues, Clauses: []string{"5.12"}, Rulings: []string{"R23"},
					Text: "A card was exposed during the deal after a player had seen cards distributed to him: 5.12 alone applies and the round continues, with no 5.10 options (ruling R23)."},
				when(void("Two or more cards exposed during the deal and no player has seen his cards.", "5.8", "5.8.2"), AtLeast("cardsExposed", 2)),
				options510("One card exposed before any player saw his cards: a dealing error not described in 5.8 or 5.16.", false, ScopeAffected),
			},
		},
		{
			Name: "burnt_card_not_discarded", Title: "The Dealer fails to discard the Burnt Card",
			Facts: []Fact{seen, factReconstructable("the House determines the round can be Reconstructed (its absolute discretion)"), factWithdrawn()},
			Contradictions: []Contradiction{
				contradictsWithdrawn(Is("playerSawCards"), "a player has seen his cards, so the round is voided (5.9): there is nothing to withdraw from"),
				contradictsWithdrawn(Not("reconstructable"), "the cards cannot be Reconstructed, so the round is voided (5.9): there is nothing to withdraw from"),
			},
			Cases: []Case{
				when(void("The Burnt Card was not discarded and a player has seen his cards.", burnt), Is("playerSawCards")),
				when(void("The Burnt Card was not discarded and the cards cannot be Reconstructed.", burnt), Not("reconstructable")),
				func() Case {
					c := options510("The round is Reconstructed (the House decides it can be) and continues; "+burnt+" gives the options of 5.10 to all Players at the gaming table.", true, ScopeAll, burnt)
					c.DecidedBy = "the House"
					return c
				}(),
			},
		},
		{
			Name: "dealing_error", Title: "Any other dealing error (not described in 5.8 or 5.16)",
			Facts: []Fact{recon, func() Fact { f := affected; f.Required = true; return f }(), withdrawnAffected},
			Cases: []Case{
				when(options510("A dealing error.", true, ScopeAffected), Is("reconstructable")),
				options510("A dealing error.", false, ScopeAffected),
			},
		},
		{
			Name: "card_face_up_in_shoe", Title: "A card is found face up in the Card Shoe / Electronic Card Shuffler",
			Cases: []Case{{Action: PlayContinues, Clauses: []string{"5.13"}, Text: "The card is used as though it were the next card from the shoe; play continues."}},
		},
		{
			Name: "simultaneous_cards", Title: "Two or more cards drawn from the Card Shoe at once, their order unknown",
			Facts: []Fact{factReconstructable("the Pit Supervisor's decision on which card is received first restores the intended order"), factWithdrawn()},
			Cases: []Case{
				func() Case {
					c := options510("Cards drawn together: the Pit Supervisor or above decides which card is received first, and the draw is a dealing error whose options 5.14.1 gives to all Players on the gaming table.", true, ScopeAll, "5.14", "5.14.1")
					c.When, c.DecidedBy = []Cond{Is("reconstructable")}, "Pit Supervisor or above"
					return c
				}(),
				func() Case {
					c := options510("Cards drawn together: the Pit Supervisor or above decides which card is received first, and the draw is a dealing error whose options 5.14.1 gives to all Players on the gaming table.", false, ScopeAll, "5.14", "5.14.1")
					c.DecidedBy = "Pit Supervisor or above"
					return c
				}(),
			},
		},
		{
			Name: "player_absent", Title: "A player walks away after placing a bet",
			Note: "POST /v1/rounds/settle applies 5.5 and 5.6 itself to a position sent with absent: true.",
			Facts: []Fact{
				factSeat("the seat of the player who walked away"),
				{Name: "decisionsPending", Type: Bool, Required: true, Doc: "decisions remain for the player to make (the BET or fold)"},
			},
			RoundChecks: []RoundCheck{
				{Wagers: []string{"ante"}, Placed: true, Fact: "seat", Message: "5.5 and 5.6 concern a player who placed a Bet to play, and a Player must bet on the Ante to participate (3.6)"},
				{When: []Cond{Is("decisionsPending")}, Wagers: []string{"bet"}, Placed: false, Fact: "decisionsPending", Message: "the BET was placed, so no decision remains"},
			},
			Cases: []Case{
				{When: []Cond{Is("decisionsPending")}, Action: DeemedFolded, Clauses: []string{"5.5"},
					Text: "The player is considered to have folded: the Ante is lost (3.12.1); his Progressive Jackpot bet stays eligible under 4.2.",
					Seats: []SeatRule{
						{Scope: ScopeSeat, Action: DeemedFolded, Wagers: []string{"ante"}, Line: LineLose, Clauses: []string{"5.5", "3.12.1"}, Text: "deemed folded: Ante lost"},
						{Scope: ScopeSeat, Action: PlayContinues, Wagers: []string{"progressive"}, Clauses: []string{"3.12.1"}, Text: "progressive bet still eligible"},
					}},
				{Action: PlayContinues, Clauses: []string{"5.6"}, Text: "No decisions remain: the House settles the player's bets as usual.",
					Seats: []SeatRule{{Scope: ScopeSeat, Action: PlayContinues, Clauses: []string{"5.6"}, Text: "settled as usual"}}},
			},
		},
		{
			Name: "power_failure", Title: "A technical interruption (such as a power failure) affecting the continuation of the round",
			Facts: []Fact{{Name: "outcomeEstablished", Type: Bool, Required: true, Doc: "any of the available bets has conclusively won or lost"}},
			Cases: []Case{
				{When: []Cond{Is("outcomeEstablished")}, Action: PlayContinues, Clauses: []string{"5.7", "5.7.1"}, Text: "An outcome is established: play continues and the round is concluded."},
				when(void("No outcome established.", "5.7", "5.7.2")),
			},
		},
		{
			Name: "jackpot_system_failure", Title: "A Progressive Jackpot betting device and/or the Progressive Jackpot system is not fully functional",
			Facts:   []Fact{seen},
			Clauses: []string{"5.18.2"},
			Note:    "5.18.2: for later rounds the House may close the table, bar bets on the affected box, or play on with no Progressive Jackpot bets accepted or paid (a notice at the table); that is the House's decision, not a settlement.",
			Cases: []Case{
				when(void("The jackpot system failed before any player saw the cards distributed to him.", "5.17"), Not("playerSawCards")),
				{Action: PlayContinues, Clauses: []string{"5.18", "5.18.1"},
					Text: "A player has seen his cards: the round continues and every bet, the Progressive Jackpot bet included, is paid under 4.1 and 4.2 on the ranking of the Hand, at the Progressive Jackpot amount the system registered before the malfunction."},
			},
		},
		{
			Name: "additional_hand_examined", Title: "A player playing several Hands (3.7) examines more than one",
			Facts: []Fact{
				{Name: "firstViewedSeat", Type: Int, Required: true, Min: 1, Max: 7, Doc: "the seat of the Hand the player viewed first"},
				{Name: "additionalSeats", Type: Seats, Required: true, Min: 1, Doc: "the seats of the additional Hands he examined"},
				{Name: "intentional", Type: Bool, Required: true, Doc: "the Pit Supervisor or above determines the additional Hands were examined intentionally"},
			},
			Contradictions: []Contradiction{{When: []Cond{Has("additionalSeats", "firstViewedSeat")}, Facts: []string{"additionalSeats"}, Message: "the first viewed Hand cannot also be an additional one"}},
			Cases: []Case{
				{When: []Cond{Is("intentional")}, Action: HandRemoved, Clauses: []string{"5.19"}, DecidedBy: "Pit Supervisor or above",
					Text: "Examined intentionally: the additional Hands are invalidated, their cards removed from the round and their bets returned; the Hand first viewed stays valid.",
					Seats: []SeatRule{
						{Scope: ScopeFirstSeen, Action: PlayContinues, Clauses: []string{"5.19"}, Text: "first viewed: still valid"},
						{Scope: ScopeAdditional, Action: HandRemoved, Line: LineReturned, Clauses: []string{"5.19"}, Text: "additional Hand examined intentionally: invalidated, bets returned"},
					}},
				{Action: PlayContinues, Clauses: []string{"5.19"}, DecidedBy: "Pit Supervisor or above",
					Text: "Not examined intentionally: 5.19 invalidates nothing and every Hand plays on."},
			},
		},
		{
			Name: "wager_over_maximum", Title: "The total bets on a betting box exceed its maximum",
			DetectedBySettlement: true,
			Note:                 "5.1 limits the total Bets on a betting box, not one wager: the excess is the box total less the box's maximum, returned from the Bet that carries it. POST /v1/rounds/settle applies the table limits it is sent (ruling R11).",
			Facts: []Fact{
				factSeat("the betting box"),
				{Name: "wager", Type: Enum, Required: true, Values: rs.Wagers, Doc: "the Bet that carries the excess: the excess is rejected (returned) from it"},
				{Name: "maximum", Type: Amount, Required: true, Doc: "the maximum permissible limit for the betting box, in minor units"},
				{Name: "boxTotal", Type: Amount, Required: true, Exceeds: "maximum", Doc: "the total Bets placed on the betting box that exceeded its maximum (5.1), in minor units"},
				{Name: "noticedBeforeClose", Type: Bool, Required: true, Doc: "the Dealer noticed before the bets were closed"},
			},
			Cases: []Case{
				{When: []Cond{Is("noticedBeforeClose")}, Action: WagerReturned, Clauses: []string{"5.1"},
					Text:  "Noticed before the bets closed: the House rejects the excess Bets, the box total less the box's maximum, and the box plays at its maximum.",
					Seats: []SeatRule{{Scope: ScopeSeat, Action: WagerReturned, Wagers: []string{"$wager"}, Line: LineExcessBoxMaximum, Clauses: []string{"5.1"}, Text: "excess over the box maximum rejected"}}},
				{Action: SettledToMaximum, Clauses: []string{"5.1.1"}, Rulings: []string{"R11"},
					Text:  "The excess was not rejected: the player wins or loses based on the box's maximum (5.1.1); as ruling R11 has it, the bets settle as if the box held the maximum and the excess (box total less maximum) is returned.",
					Seats: []SeatRule{{Scope: ScopeSeat, Action: SettledToMaximum, Wagers: []string{"$wager"}, Line: LineExcessBoxMaximum, Clauses: []string{"5.1.1"}, Rulings: []string{"R11"}, Text: "settles on the box maximum; the excess returned"}}},
			},
		},
		{
			Name: "wager_under_minimum", Title: "The bets on a betting box do not meet its minimum",
			Facts: []Fact{
				factSeat("the betting box"), factWager(rs.Wagers),
				{Name: "minimum", Type: Amount, Doc: "the minimum permissible limit, in minor units (optional: checked against the round when one is attached)"},
				{Name: "noticedBeforeClose", Type: Bool, Required: true, Doc: "the Dealer noticed before the bets were closed"},
			},
			Cases: []Case{
				{When: []Cond{Is("noticedBeforeClose")}, Action: OfferOptions, Clauses: []string{"5.2"}, Options: []Option{IncreaseWager, Withdraw}, OptionsTo: ScopeSeat,
					Text:  "Noticed before the bets closed: the Dealer advises the player of the minimum and gives him the opportunity to increase or withdraw his bet.",
					Seats: []SeatRule{{Scope: ScopeSeat, Action: OfferOptions, Options: []Option{IncreaseWager, Withdraw}, Clauses: []string{"5.2"}, Text: "increase to the minimum or withdraw"}}},
				{Action: PlayContinues, Clauses: []string{"5.2.1"}, Rulings: []string{"R11"}, Text: "Not noticed: the player wins or loses accordingly, on the bet as placed."},
			},
		},
		{
			Name: "bet_not_twice_ante", Title: `The "BET" is not twice the Ante`,
			DetectedBySettlement: true,
			Note:                 "POST /v1/rounds/settle compares every BET with its Ante and applies 5.3 itself (rulings R11, R20).",
			Facts: []Fact{
				factSeat("the betting box"),
				{Name: "betComparedToTwiceAnte", Type: Enum, Required: true, Values: []string{"above", "below"}, Doc: "the BET is above or below twice the Ante"},
			},
			RoundChecks: []RoundCheck{
				{Wagers: []string{"ante", "bet"}, Placed: true, Fact: "betComparedToTwiceAnte", Message: "5.3 compares a placed BET with its Ante: the betting box must have both"},
			},
			Cases: []Case{
				{When: []Cond{Eq("betComparedToTwiceAnte", "above")}, Action: WagerReturned, Clauses: []string{"5.3", "5.3.1"}, Rulings: []string{"R11", "R20"},
					Text:  "The excess over twice the Ante is returned; the BET is collected or paid on twice the Ante, up to the maximum payout of 4.1.1.",
					Seats: []SeatRule{{Scope: ScopeSeat, Action: WagerReturned, Wagers: []string{"bet"}, Line: LineExcessTwiceAn, Clauses: []string{"5.3.1"}, Rulings: []string{"R11"}, Text: "excess over twice the Ante returned"}}},
				{Action: PlayContinues, Clauses: []string{"5.3", "5.3.2"}, Rulings: []string{"R11", "R20"},
					Text: "The BET is collected or paid on its own amount, up to the maximum payout of 4.1.1."},
			},
		},
		{
			Name: "progressive_without_ante", Title: "A Progressive Jackpot bet without an Ante bet, noticed after the round began",
			DetectedBySettlement: true,
			Note:                 "POST /v1/rounds/settle returns a progressive bet that has no Ante beside it (5.4).",
			Facts:                []Fact{factSeat("the betting box")},
			RoundChecks: []RoundCheck{
				{Wagers: []string{"progressive"}, Placed: true, Fact: "seat", Message: "the betting box has no Progressive Jackpot bet"},
				{Wagers: []string{"ante"}, Placed: false, Fact: "seat", Message: "the betting box has an Ante bet beside its Progressive Jackpot bet"},
			},
			Cases: []Case{{Action: WagerReturned, Clauses: []string{"5.4"}, Text: "The Progressive Jackpot bet is returned to the player.",
				Seats: []SeatRule{{Scope: ScopeSeat, Action: WagerReturned, Wagers: []string{"progressive"}, Line: LineReturned, Clauses: []string{"5.4"}, Text: "progressive bet returned"}}}},
		},
		{
			Name: "wager_misplaced", Title: "A bet placed in error (by the player, or for him by a Pit Employee or anyone else)",
			Cases: []Case{{Action: PlayContinues, Clauses: []string{"5.21", "5.23"},
				Text: "Bets settle as the chips stood on the layout when the bets closed; the House is not liable for bets placed in error, and a player who asks a Pit Employee to place his bets is responsible for their placement."}},
		},
		{
			Name: KindOther, Title: "An irregularity or scenario these rules do not cover, or a question of interpretation",
			Cases: []Case{refer("The Game Rules do not provide for this.")},
		},
	}
	rs.InapplicableKinds = []Inapplicable{
		{Kind: "community_card_count_wrong", Reason: "Multi-Link Progressive Casino Stud Poker deals no community cards (3.10): each Player and the Dealer receive five cards"},
	}
	rs.General = []General{
		{Clause: "5.11", Reason: "No more bets: no bet may be placed, increased or withdrawn after the call; settlement takes the bets as they stood at the call."},
		{Clause: "5.20", Reason: "An error noticed only after a later round began has no effect on the later rounds: the service never reopens them. 5.20 says nothing of the round in error itself: the card-count kinds refer it (5.24) when noticed late.", SeeKind: "dealer_card_count_wrong"},
		{Clause: "5.22", Reason: "A voided round returns every bet: cited by every round_void outcome."},
	}
	if burnt == "" {
		rs.Kinds = slices.DeleteFunc(rs.Kinds, func(k Kind) bool { return k.Name == "burnt_card_not_discarded" })
	}
	if !d.Irregularities.BoxMaximum {
		// The maximum on each wager rather than on the box's total (RWS
		// 5.1): the excess over it is returned from the wager (ruling R11).
		for i := range rs.Kinds {
			if rs.Kinds[i].Name == "wager_over_maximum" {
				rs.Kinds[i] = overMaximum(rs.Wagers, []string{"5.1.1"})
			}
		}
	}
	return rs
}
