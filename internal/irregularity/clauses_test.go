package irregularity

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// clauseCase is one test of one clause: an event, its facts, and the exact
// outcome the clause prescribes.
type clauseCase struct {
	ruleset string
	clause  string // the clause the case is named after
	name    string
	kind    string
	facts   map[string]any
	action  Action
	rules   []string // exact, in order, without the ruleset prefix ("ruling R12" kept whole)
	options []Option
	seats   string // the seat outcomes, "seat:action,..." ("" when none)
}

func (c clauseCase) testName() string {
	return c.ruleset + "/" + c.clause + "_" + c.name
}

// megalinkCases are the clauses the three Megalink documents share, word
// for word in their outcome, for one ruleset id.
func megalinkCases(id string) []clauseCase {
	return []clauseCase{
		{id, "5.1", "ForeignCardVoidsRound", "foreign_card", nil, RoundVoid, []string{"5.1", "5.1.1", "5.1.2"}, nil, ""},
		{id, "5.1.1", "DuplicateCardVoidsRound", "duplicate_card", nil, RoundVoid, []string{"5.1", "5.1.1", "5.1.2", "ruling R12"}, nil, ""},
		{id, "5.1.2", "UnshuffledCardsVoidPreviousStand", "cards_not_shuffled", nil, RoundVoid, []string{"5.1", "5.1.1", "5.1.2"}, nil, ""},
		{id, "5.2", "DealtIncorrectlyNotHandledNotReconstructableVoid", "cards_dealt_incorrectly", map[string]any{"playerHandledCards": false, "reconstructable": false}, RoundVoid, []string{"5.2"}, nil, ""},
		{id, "5.2", "DealtIncorrectlyReconstructedByMovingHands_R23", "cards_dealt_incorrectly", map[string]any{"playerHandledCards": false, "reconstructable": true}, PlayContinues, []string{"5.2", "ruling R23"}, nil, ""},
		{id, "6.1", "DealtIncorrectlyAfterHandlingReferred", "cards_dealt_incorrectly", map[string]any{"playerHandledCards": true, "reconstructable": true}, Referred, []string{"6.1"}, nil, ""},
		{id, "5.4", "TwoCardsExposedVoid", "cards_exposed_in_deal", map[string]any{"cardsExposed": 2}, RoundVoid, []string{"5.4"}, nil, ""},
		{id, "5.4", "OneCardExposedPlayContinues_R23", "cards_exposed_in_deal", map[string]any{"cardsExposed": 1}, PlayContinues, []string{"5.4", "ruling R23"}, nil, ""},
		{id, "5.7", "PlayerWrongCountHandRemoved", "player_card_count_wrong", map[string]any{"seat": 3, "noticedBeforeNextRound": true, "reconstructable": false}, HandRemoved, []string{"5.7", "5.7.1", "ruling R12"}, []Option{Withdraw, Continue}, "3:hand_removed"},
		{id, "5.7", "PlayerWrongCountReconstructedPlayContinuesNoWithdrawal_R23", "player_card_count_wrong", map[string]any{"seat": 3, "noticedBeforeNextRound": true, "reconstructable": true}, PlayContinues, []string{"ruling R23"}, nil, ""},
		{id, "5.7", "PlayerWrongCountNoticedLateReferred61", "player_card_count_wrong", map[string]any{"seat": 3, "noticedBeforeNextRound": false, "reconstructable": false}, Referred, []string{"6.1"}, nil, ""},
		{id, "5.7.1", "CorrectlyDealtPlayersMayWithdraw", "player_card_count_wrong", map[string]any{"seat": 3, "noticedBeforeNextRound": true, "reconstructable": false, "withdrawnSeats": []any{1, 5}}, HandRemoved, []string{"5.7", "5.7.1", "ruling R12"}, []Option{Withdraw, Continue}, "1:withdrawn,3:hand_removed,5:withdrawn"},
		{id, "5.8", "CountWrongVoid", "deck_count", map[string]any{"countCorrect": false}, RoundVoid, []string{"5.1", "5.1.1", "5.1.2", "5.8"}, nil, ""},
		{id, "5.8", "CountRightPlayContinues", "deck_count", map[string]any{"countCorrect": true}, PlayContinues, []string{"5.8"}, nil, ""},
		{id, "5.9", "NotConfidentialProhibitedWagersReturned", "hand_not_confidential", map[string]any{"seat": 4, "prohibited": true}, HandRemoved, []string{"5.9"}, nil, "4:hand_removed"},
		{id, "5.9", "NotConfidentialAllowedToPlayOn", "hand_not_confidential", map[string]any{"seat": 4, "prohibited": false}, PlayContinues, []string{"5.9"}, nil, ""},
		{id, "5.10.1", "MultipleHandsViewedContinueUnviewedInvalidReturned_R24", "multiple_hands_in_error", map[string]any{"seats": []any{2, 5, 6}, "viewedSeats": []any{5}}, HandRemoved, []string{"5.10", "5.10.1", "ruling R24"}, nil, "2:hand_removed,5:play_continues,6:hand_removed"},
		{id, "5.10.2", "MultipleHandsNoneViewedFirstDealtPlaysOthersReturned_R24", "multiple_hands_in_error", map[string]any{"seats": []any{6, 2, 5}}, HandRemoved, []string{"5.10", "5.10.2", "ruling R24"}, nil, "2:play_continues,5:hand_removed,6:hand_removed"},
		{id, "5.10", "MultipleHandsEmptyViewedIsNoneViewed_R24", "multiple_hands_in_error", map[string]any{"seats": []any{2, 5}, "viewedSeats": []any{}}, HandRemoved, []string{"5.10", "5.10.2", "ruling R24"}, nil, "2:play_continues,5:hand_removed"},
		{id, "5.12.2", "ProgressiveWithoutAnteAfterNoMoreBetsReturned", "progressive_without_ante", map[string]any{"seat": 2, "afterNoMoreBets": true}, WagerReturned, []string{"5.12", "5.12.2"}, nil, "2:wager_returned"},
		{id, "5.12.1", "ProgressiveWithoutAnteBeforeNoMoreBetsOptions", "progressive_without_ante", map[string]any{"seat": 2, "afterNoMoreBets": false}, OfferOptions, []string{"5.12", "5.12.1"}, []Option{PlaceAnte, CancelProgressive}, "2:offer_options"},
		{id, "5.13", "UnderMinimumSettledOnce", "wager_under_minimum", map[string]any{"seat": 1, "wager": "ante", "previouslyUnderMinimum": false}, PlayContinues, []string{"5.13", "ruling R11"}, nil, ""},
		{id, "5.13", "UnderMinimumAgainReturned", "wager_under_minimum", map[string]any{"seat": 1, "wager": "ante", "previouslyUnderMinimum": true}, WagerReturned, []string{"5.13", "ruling R11"}, nil, "1:wager_returned"},
		{id, "5.14", "OverMaximumSettledToMaximum", "wager_over_maximum", map[string]any{"seat": 1, "wager": "ante", "maximum": 100000}, SettledToMaximum, []string{"5.14", "ruling R11"}, nil, "1:settled_to_maximum"},
		{id, "5.16.1", "PowerFailureNoOutcomeWithdrawOption", "power_failure", map[string]any{"outcomeEstablished": false}, OfferOptions, []string{"5.16", "5.16.1"}, []Option{Withdraw, Continue}, ""},
		{id, "5.16.2", "PowerFailureOutcomeEstablishedContinues", "power_failure", map[string]any{"outcomeEstablished": true}, PlayContinues, []string{"5.16", "5.16.2"}, nil, ""},
		{id, "5.10.3", "MultipleHandsShiftManagerMayStopActionSettlesNothingMore", "multiple_hands_in_error", map[string]any{"seats": []any{3, 4}, "viewedSeats": []any{3, 4}}, HandRemoved, []string{"5.10", "5.10.1", "ruling R24"}, nil, "3:play_continues,4:play_continues"},
		{id, "5.12", "ProgressiveWithoutAnte", "progressive_without_ante", map[string]any{"seat": 7, "afterNoMoreBets": true}, WagerReturned, []string{"5.12", "5.12.2"}, nil, "7:wager_returned"},
		{id, "5.16", "PowerFailure", "power_failure", map[string]any{"outcomeEstablished": false, "withdrawnSeats": []any{4}}, OfferOptions, []string{"5.16", "5.16.1"}, []Option{Withdraw, Continue}, "4:withdrawn"},
		{id, "6.1", "OtherReferredToGamingShiftManager", KindOther, nil, Referred, []string{"6.1"}, nil, ""},
		{id, "6.1", "JackpotSystemFailureNotCoveredReferred", "jackpot_system_failure", map[string]any{"playerSawCards": true}, Referred, []string{"6.1"}, nil, ""},
	}
}

func allClauseCases() []clauseCase {
	var cs []clauseCase
	// Megalink SSP v6.
	cs = append(cs, megalinkCases(MBSMegalinkSSPv6)...)
	cs = append(cs,
		clauseCase{MBSMegalinkSSPv6, "5.3", "DealerWrongCountVoid", "dealer_card_count_wrong", map[string]any{"noticedBeforeNextRound": true, "reconstructable": false}, RoundVoid, []string{"5.3", "ruling R12"}, nil, ""},
		clauseCase{MBSMegalinkSSPv6, "5.3", "DealerWrongCountReconstructed_R23", "dealer_card_count_wrong", map[string]any{"noticedBeforeNextRound": true, "reconstructable": true}, PlayContinues, []string{"5.3", "ruling R23"}, nil, ""},
		clauseCase{MBSMegalinkSSPv6, "5.3", "DealerWrongCountNoticedLateReferred61", "dealer_card_count_wrong", map[string]any{"noticedBeforeNextRound": false, "reconstructable": false}, Referred, []string{"6.1"}, nil, ""},
		clauseCase{MBSMegalinkSSPv6, "5.11", "AbsentForBetAnteAndProgressiveReturned", "player_absent", map[string]any{"seat": 5}, HandRemoved, []string{"5.11"}, nil, "5:hand_removed"},
	)
	// Megalink TCP v6.
	cs = append(cs, megalinkCases(MBSMegalinkTCPv6)...)
	cs = append(cs,
		clauseCase{MBSMegalinkTCPv6, "5.3", "DealerWrongCountVoid", "dealer_card_count_wrong", map[string]any{"noticedBeforeNextRound": true, "reconstructable": false}, RoundVoid, []string{"5.3", "ruling R12"}, nil, ""},
		clauseCase{MBSMegalinkTCPv6, "5.3", "DealerWrongCountReconstructed_R23", "dealer_card_count_wrong", map[string]any{"noticedBeforeNextRound": true, "reconstructable": true}, PlayContinues, []string{"5.3", "ruling R23"}, nil, ""},
		clauseCase{MBSMegalinkTCPv6, "5.3", "DealerWrongCountNoticedLateReferred61", "dealer_card_count_wrong", map[string]any{"noticedBeforeNextRound": false, "reconstructable": true}, Referred, []string{"6.1"}, nil, ""},
		clauseCase{MBSMegalinkTCPv6, "5.3", "CommunityWrongCountVoid", "community_card_count_wrong", map[string]any{"noticedBeforeNextRound": true, "reconstructable": false}, RoundVoid, []string{"5.3", "ruling R12"}, nil, ""},
		clauseCase{MBSMegalinkTCPv6, "5.3", "CommunityWrongCountReconstructed_R23", "community_card_count_wrong", map[string]any{"noticedBeforeNextRound": true, "reconstructable": true}, PlayContinues, []string{"5.3", "ruling R23"}, nil, ""},
		clauseCase{MBSMegalinkTCPv6, "5.3", "CommunityWrongCountNoticedLateReferred61", "community_card_count_wrong", map[string]any{"noticedBeforeNextRound": false, "reconstructable": true}, Referred, []string{"6.1"}, nil, ""},
		clauseCase{MBSMegalinkTCPv6, "5.11", "AbsentForPlayAntePairPlusProgressiveReturned", "player_absent", map[string]any{"seat": 5}, HandRemoved, []string{"5.11"}, nil, "5:hand_removed"},
	)
	// Megalink THB v9.
	cs = append(cs, megalinkCases(MBSMegalinkTHBv9)...)
	cs = append(cs,
		clauseCase{MBSMegalinkTHBv9, "5.3", "DealerWrongCountVoid", "dealer_card_count_wrong", map[string]any{"noticedBeforeNextRound": true, "reconstructable": false}, RoundVoid, []string{"5.3", "ruling R12"}, nil, ""},
		clauseCase{MBSMegalinkTHBv9, "5.3", "DealerWrongCountReconstructed_R23", "dealer_card_count_wrong", map[string]any{"noticedBeforeNextRound": true, "reconstructable": true}, PlayContinues, []string{"5.3", "ruling R23"}, nil, ""},
		clauseCase{MBSMegalinkTHBv9, "5.3", "DealerWrongCountNoticedLateReferred61", "dealer_card_count_wrong", map[string]any{"noticedBeforeNextRound": false, "reconstructable": true}, Referred, []string{"6.1"}, nil, ""},
		clauseCase{MBSMegalinkTHBv9, "5.3", "CommunityWrongCountVoid", "community_card_count_wrong", map[string]any{"noticedBeforeNextRound": true, "reconstructable": false}, RoundVoid, []string{"5.3", "ruling R12"}, nil, ""},
		clauseCase{MBSMegalinkTHBv9, "5.3", "CommunityWrongCountReconstructed_R23", "community_card_count_wrong", map[string]any{"noticedBeforeNextRound": true, "reconstructable": true}, PlayContinues, []string{"5.3", "ruling R23"}, nil, ""},
		clauseCase{MBSMegalinkTHBv9, "5.3", "CommunityWrongCountNoticedLateReferred61", "community_card_count_wrong", map[string]any{"noticedBeforeNextRound": false, "reconstructable": false}, Referred, []string{"6.1"}, nil, ""},
		clauseCase{MBSMegalinkTHBv9, "5.11", "AbsentForFlopInvalidBonusSettlesR16_R26", "player_absent", map[string]any{"seat": 5, "decision": "flop"}, HandRemoved, []string{"5.11", "ruling R16", "ruling R26"}, nil, "5:hand_removed,5:play_continues"},
		clauseCase{MBSMegalinkTHBv9, "5.11", "AbsentForTurnDeemedChecked", "player_absent", map[string]any{"seat": 5, "decision": "turn"}, DeemedChecked, []string{"5.11"}, nil, "5:deemed_checked"},
		clauseCase{MBSMegalinkTHBv9, "5.11", "AbsentForRiverDeemedChecked", "player_absent", map[string]any{"seat": 5, "decision": "river"}, DeemedChecked, []string{"5.11"}, nil, "5:deemed_checked"},
	)
	// SSP v4.
	v4 := MBSSSPv4
	cs = append(cs,
		clauseCase{v4, "5.1", "ForeignCardVoidsRound", "foreign_card", nil, RoundVoid, []string{"5.1", "5.1.1", "5.1.2"}, nil, ""},
		clauseCase{v4, "5.1.1", "DuplicateCardVoidsRound", "duplicate_card", nil, RoundVoid, []string{"5.1", "5.1.1", "5.1.2", "ruling R12"}, nil, ""},
		clauseCase{v4, "5.1.2", "ForeignCardPreviousGamesStand", "foreign_card", map[string]any{}, RoundVoid, []string{"5.1", "5.1.1", "5.1.2"}, nil, ""},
		clauseCase{v4, "5.2", "DealtIncorrectlyNotHandledVoid", "cards_dealt_incorrectly", map[string]any{"playerHandledCards": false, "reconstructable": false}, RoundVoid, []string{"5.2"}, nil, ""},
		clauseCase{v4, "5.2", "DealtIncorrectlyReconstructed_R23", "cards_dealt_incorrectly", map[string]any{"playerHandledCards": false, "reconstructable": true}, PlayContinues, []string{"5.2", "ruling R23"}, nil, ""},
		clauseCase{v4, "none", "DealtIncorrectlyAfterHandlingReferredNoClause_R25", "cards_dealt_incorrectly", map[string]any{"playerHandledCards": true, "reconstructable": false}, Referred, []string{"ruling R25"}, nil, ""},
		clauseCase{v4, "5.2", "PlayerWrongCountVoidUnderR12", "player_card_count_wrong", map[string]any{"seat": 2, "reconstructable": false}, RoundVoid, []string{"5.2", "ruling R12"}, nil, ""},
		clauseCase{v4, "5.2", "PlayerWrongCountReconstructed_R23", "player_card_count_wrong", map[string]any{"seat": 2, "reconstructable": true}, PlayContinues, []string{"5.2", "ruling R12", "ruling R23"}, nil, ""},
		clauseCase{v4, "5.3", "DealerWrongCountVoid", "dealer_card_count_wrong", map[string]any{"noticedBeforeNextRound": true, "reconstructable": false}, RoundVoid, []string{"5.3", "ruling R12"}, nil, ""},
		clauseCase{v4, "5.3", "DealerWrongCountReconstructed_R23", "dealer_card_count_wrong", map[string]any{"noticedBeforeNextRound": true, "reconstructable": true}, PlayContinues, []string{"5.3", "ruling R23"}, nil, ""},
		clauseCase{v4, "5.3", "DealerWrongCountNoticedLateReferredNoClause_R25", "dealer_card_count_wrong", map[string]any{"noticedBeforeNextRound": false, "reconstructable": false}, Referred, []string{"ruling R25"}, nil, ""},
		clauseCase{v4, "5.4", "TwoCardsExposedVoid", "cards_exposed_in_deal", map[string]any{"cardsExposed": 3}, RoundVoid, []string{"5.4"}, nil, ""},
		clauseCase{v4, "5.4", "OneCardExposedPlayContinues_R23", "cards_exposed_in_deal", map[string]any{"cardsExposed": 1}, PlayContinues, []string{"5.4", "ruling R23"}, nil, ""},
		clauseCase{v4, "5.5", "ShortageOrExcessVoid", "deck_count", map[string]any{"countCorrect": false}, RoundVoid, []string{"5.5"}, nil, ""},
		clauseCase{v4, "5.5", "CountRightContinues", "deck_count", map[string]any{"countCorrect": true}, PlayContinues, []string{"5.5"}, nil, ""},
		clauseCase{v4, "3.5", "JackpotWagerWithoutAnteReturned_R25", "progressive_without_ante", map[string]any{"seat": 3}, WagerReturned, []string{"3.5", "ruling R25"}, nil, "3:wager_returned"},
		clauseCase{v4, "R11", "OverMaximumSettledToMaximum", "wager_over_maximum", map[string]any{"seat": 1, "wager": "bet", "maximum": 50000}, SettledToMaximum, []string{"ruling R11"}, nil, "1:settled_to_maximum"},
		clauseCase{v4, "R11", "UnderMinimumSettlesOnce", "wager_under_minimum", map[string]any{"seat": 1, "wager": "ante"}, PlayContinues, []string{"ruling R11"}, nil, ""},
		clauseCase{v4, "none", "OtherReferredNoClause_R25", KindOther, nil, Referred, []string{"ruling R25"}, nil, ""},
		clauseCase{v4, "none", "PowerFailureNotCoveredReferred_R25", "power_failure", map[string]any{"outcomeEstablished": false}, Referred, []string{"ruling R25"}, nil, ""},
	)
	// RWS CSP v2.
	r := RWSMLPCSPv2
	cs = append(cs,
		clauseCase{r, "5.1", "BoxTotalOverMaximumNoticedExcessRejected", "wager_over_maximum", map[string]any{"seat": 1, "wager": "ante", "maximum": 50000, "boxTotal": 60000, "noticedBeforeClose": true}, WagerReturned, []string{"5.1"}, nil, "1:wager_returned"},
		clauseCase{r, "5.1.1", "BoxTotalOverMaximumNotRejectedSettlesAtMaximum", "wager_over_maximum", map[string]any{"seat": 1, "wager": "ante", "maximum": 50000, "boxTotal": 60000, "noticedBeforeClose": false}, SettledToMaximum, []string{"5.1.1", "ruling R11"}, nil, "1:settled_to_maximum"},
		clauseCase{r, "5.2", "UnderMinimumNoticedIncreaseOrWithdraw", "wager_under_minimum", map[string]any{"seat": 1, "wager": "ante", "noticedBeforeClose": true}, OfferOptions, []string{"5.2"}, []Option{IncreaseWager, Withdraw}, "1:offer_options"},
		clauseCase{r, "5.2.1", "UnderMinimumNotNoticedWinsOrLoses", "wager_under_minimum", map[string]any{"seat": 1, "wager": "ante", "noticedBeforeClose": false}, PlayContinues, []string{"5.2.1", "ruling R11"}, nil, ""},
		clauseCase{r, "5.3.1", "BetAboveTwiceAnteExcessReturned", "bet_not_twice_ante", map[string]any{"seat": 2, "betComparedToTwiceAnte": "above"}, WagerReturned, []string{"5.3", "5.3.1", "ruling R11", "ruling R20"}, nil, "2:wager_returned"},
		clauseCase{r, "5.3.2", "BetBelowTwiceAnteSettlesOnItself", "bet_not_twice_ante", map[string]any{"seat": 2, "betComparedToTwiceAnte": "below"}, PlayContinues, []string{"5.3", "5.3.2", "ruling R11", "ruling R20"}, nil, ""},
		clauseCase{r, "5.3", "BetNotTwiceAnte", "bet_not_twice_ante", map[string]any{"seat": 7, "betComparedToTwiceAnte": "above"}, WagerReturned, []string{"5.3", "5.3.1", "ruling R11", "ruling R20"}, nil, "7:wager_returned"},
		clauseCase{r, "5.4", "ProgressiveWithoutAnteReturned", "progressive_without_ante", map[string]any{"seat": 3}, WagerReturned, []string{"5.4"}, nil, "3:wager_returned"},
		clauseCase{r, "5.5", "WalkedAwayDecisionsPendingDeemedFold", "player_absent", map[string]any{"seat": 4, "decisionsPending": true}, DeemedFolded, []string{"5.5"}, nil, "4:deemed_folded,4:play_continues"},
		clauseCase{r, "5.6", "WalkedAwayNoDecisionsSettledAsUsual", "player_absent", map[string]any{"seat": 4, "decisionsPending": false}, PlayContinues, []string{"5.6"}, nil, "4:play_continues"},
		clauseCase{r, "5.7.1", "InterruptionOutcomeEstablishedContinues", "power_failure", map[string]any{"outcomeEstablished": true}, PlayContinues, []string{"5.7", "5.7.1"}, nil, ""},
		clauseCase{r, "5.7.2", "InterruptionNoOutcomeVoid", "power_failure", map[string]any{"outcomeEstablished": false}, RoundVoid, []string{"5.7", "5.7.2", "5.22"}, nil, ""},
		clauseCase{r, "5.7", "PowerFailure", "power_failure", map[string]any{"outcomeEstablished": false}, RoundVoid, []string{"5.7", "5.7.2", "5.22"}, nil, ""},
		clauseCase{r, "5.8.1", "ForeignCardVoid", "foreign_card", nil, RoundVoid, []string{"5.8", "5.8.1", "5.22"}, nil, ""},
		clauseCase{r, "5.8", "DuplicateCardVoid", "duplicate_card", nil, RoundVoid, []string{"5.8", "5.8.1", "5.22"}, nil, ""},
		clauseCase{r, "5.8.2", "TwoCardsExposedNobodySawVoid", "cards_exposed_in_deal", map[string]any{"cardsExposed": 2, "playerSawCards": false}, RoundVoid, []string{"5.8", "5.8.2", "5.22"}, nil, ""},
		clauseCase{r, "5.8.3", "ShortageOrExcessVoid", "deck_count", map[string]any{"countCorrect": false}, RoundVoid, []string{"5.8", "5.8.3", "5.22"}, nil, ""},
		clauseCase{r, "5.8.3", "CountRightContinues", "deck_count", map[string]any{"countCorrect": true}, PlayContinues, []string{"5.8.3"}, nil, ""},
		clauseCase{r, "5.8.4", "InsufficientCardsVoid", "insufficient_cards", nil, RoundVoid, []string{"5.8", "5.8.4", "5.22"}, nil, ""},
		clauseCase{r, "5.8.5", "NotShuffledVoid", "cards_not_shuffled", nil, RoundVoid, []string{"5.8", "5.8.5", "5.22"}, nil, ""},
		clauseCase{r, "5.8.6", "DealtIncorrectlyNobodySawVoid", "cards_dealt_incorrectly", map[string]any{"playerSawCards": false, "reconstructable": false}, RoundVoid, []string{"5.8", "5.8.6", "5.22"}, nil, ""},
		clauseCase{r, "5.8.6", "DealtIncorrectlyReconstructedByMovingHands", "cards_dealt_incorrectly", map[string]any{"playerSawCards": false, "reconstructable": true}, PlayContinues, []string{"5.8.6"}, nil, ""},
		clauseCase{r, "5.8.7", "DealerWrongCountVoid", "dealer_card_count_wrong", map[string]any{"noticedBeforeNextRound": true, "reconstructable": false}, RoundVoid, []string{"5.8", "5.8.7", "5.22"}, nil, ""},
		clauseCase{r, "5.8.7", "DealerWrongCountReconstructed", "dealer_card_count_wrong", map[string]any{"noticedBeforeNextRound": true, "reconstructable": true}, PlayContinues, []string{"5.8.7"}, nil, ""},
		clauseCase{r, "5.9", "BurntCardSeenVoid", "burnt_card_not_discarded", map[string]any{"playerSawCards": true, "reconstructable": true}, RoundVoid, []string{"5.9", "5.22"}, nil, ""},
		clauseCase{r, "5.9", "BurntCardNotReconstructableVoid", "burnt_card_not_discarded", map[string]any{"playerSawCards": false, "reconstructable": false}, RoundVoid, []string{"5.9", "5.22"}, nil, ""},
		clauseCase{r, "5.9", "BurntCardReconstructedOptions", "burnt_card_not_discarded", map[string]any{"playerSawCards": false, "reconstructable": true}, OfferOptions, []string{"5.9", "5.10", "5.10.2", "5.10.3"}, []Option{ContinueReconstructed, Withdraw}, ""},
		clauseCase{r, "5.10", "OtherDealingErrorOptionsToAffectedOnly", "dealing_error", map[string]any{"reconstructable": false, "affectedSeats": []any{3, 2}}, OfferOptions, []string{"5.10", "5.10.1", "5.10.3"}, []Option{Continue, Withdraw}, "2:offer_options,3:offer_options"},
		clauseCase{r, "5.10.1", "DealtIncorrectlySeenNotReconstructableContinueOrWithdraw", "cards_dealt_incorrectly", map[string]any{"playerSawCards": true, "reconstructable": false, "affectedSeats": []any{1, 2}}, OfferOptions, []string{"5.10", "5.10.1", "5.10.3"}, []Option{Continue, Withdraw}, "1:offer_options,2:offer_options"},
		clauseCase{r, "5.10.2", "DealtIncorrectlySeenReconstructableOptions", "cards_dealt_incorrectly", map[string]any{"playerSawCards": true, "reconstructable": true, "affectedSeats": []any{4}}, OfferOptions, []string{"5.10", "5.10.2", "5.10.3"}, []Option{ContinueReconstructed, Withdraw}, "4:offer_options"},
		clauseCase{r, "5.10.3", "DealingErrorWithdrawnBetsReturned", "dealing_error", map[string]any{"reconstructable": true, "affectedSeats": []any{2, 4}, "withdrawnSeats": []any{2}}, OfferOptions, []string{"5.10", "5.10.2", "5.10.3"}, []Option{ContinueReconstructed, Withdraw}, "2:withdrawn,4:offer_options"},
		clauseCase{r, "5.12", "CardExposedAfterPlayersSawContinuesNo510Options_R23", "cards_exposed_in_deal", map[string]any{"cardsExposed": 3, "playerSawCards": true}, PlayContinues, []string{"5.12", "ruling R23"}, nil, ""},
		clauseCase{r, "5.10", "OneCardExposedNobodySawOptionsToAffected", "cards_exposed_in_deal", map[string]any{"cardsExposed": 1, "playerSawCards": false, "affectedSeats": []any{1, 2}}, OfferOptions, []string{"5.10", "5.10.1", "5.10.3"}, []Option{Continue, Withdraw}, "1:offer_options,2:offer_options"},
		clauseCase{r, "5.13", "CardFaceUpInShoeUsedAsNext", "card_face_up_in_shoe", nil, PlayContinues, []string{"5.13"}, nil, ""},
		clauseCase{r, "5.14", "SimultaneousCardsReconstructedOptions", "simultaneous_cards", map[string]any{"reconstructable": true}, OfferOptions, []string{"5.14", "5.14.1", "5.10", "5.10.2", "5.10.3"}, []Option{ContinueReconstructed, Withdraw}, ""},
		clauseCase{r, "5.14.1", "SimultaneousCardsDealingErrorOptions", "simultaneous_cards", map[string]any{"reconstructable": false}, OfferOptions, []string{"5.14", "5.14.1", "5.10", "5.10.1", "5.10.3"}, []Option{Continue, Withdraw}, ""},
		clauseCase{r, "5.15", "PlayerWrongCountHandInvalidatedOthersAffected510", "player_card_count_wrong", map[string]any{"seat": 6, "noticedBeforeNextRound": true, "reconstructable": false, "affectedSeats": []any{6, 7}}, HandRemoved, []string{"5.15", "5.10", "5.10.1", "5.10.3", "ruling R12"}, []Option{Continue, Withdraw}, "6:hand_removed,7:offer_options"},
		clauseCase{r, "5.15", "PlayerWrongCountReconstructed510Options", "player_card_count_wrong", map[string]any{"seat": 6, "noticedBeforeNextRound": true, "reconstructable": true, "affectedSeats": []any{6}}, OfferOptions, []string{"5.15", "5.10", "5.10.2", "5.10.3"}, []Option{ContinueReconstructed, Withdraw}, "6:offer_options"},
		clauseCase{r, "5.16", "DealerCardExposedBecomesFaceUp", "cards_exposed_in_deal", map[string]any{"cardsExposed": 1, "playerSawCards": false, "dealerCardOnly": true}, PlayContinues, []string{"5.16"}, nil, ""},
		clauseCase{r, "5.17", "JackpotSystemDownBeforeCardsSeenVoid", "jackpot_system_failure", map[string]any{"playerSawCards": false}, RoundVoid, []string{"5.17", "5.22"}, nil, ""},
		clauseCase{r, "5.18.1", "JackpotSystemDownAfterCardsSeenContinues", "jackpot_system_failure", map[string]any{"playerSawCards": true}, PlayContinues, []string{"5.18", "5.18.1"}, nil, ""},
		clauseCase{r, "5.18", "JackpotSystemDown", "jackpot_system_failure", map[string]any{"playerSawCards": true}, PlayContinues, []string{"5.18", "5.18.1"}, nil, ""},
		clauseCase{r, "5.19", "AdditionalHandExaminedIntentionallyInvalidated", "additional_hand_examined", map[string]any{"firstViewedSeat": 1, "additionalSeats": []any{3, 2}, "intentional": true}, HandRemoved, []string{"5.19"}, nil, "1:play_continues,2:hand_removed,3:hand_removed"},
		clauseCase{r, "5.19", "AdditionalHandExaminedByAccidentPlaysOn", "additional_hand_examined", map[string]any{"firstViewedSeat": 1, "additionalSeats": []any{2}, "intentional": false}, PlayContinues, []string{"5.19"}, nil, ""},
		clauseCase{r, "5.24", "DealerWrongCountNoticedLateReferred", "dealer_card_count_wrong", map[string]any{"noticedBeforeNextRound": false, "reconstructable": false}, Referred, []string{"5.24"}, nil, ""},
		clauseCase{r, "5.24", "PlayerWrongCountNoticedLateReferred", "player_card_count_wrong", map[string]any{"seat": 6, "noticedBeforeNextRound": false, "reconstructable": false}, Referred, []string{"5.24"}, nil, ""},
		clauseCase{r, "5.18.2", "JackpotSystemDownLaterRoundsHouseDecidesNoSettlement", "jackpot_system_failure", map[string]any{"playerSawCards": true}, PlayContinues, []string{"5.18", "5.18.1"}, nil, ""},
		clauseCase{r, "5.23", "BetPlacedByPitEmployeeSettlesAsPlaced", "wager_misplaced", map[string]any{}, PlayContinues, []string{"5.21", "5.23"}, nil, ""},
		clauseCase{r, "5.21", "MisplacedBetSettlesAsPlaced", "wager_misplaced", nil, PlayContinues, []string{"5.21", "5.23"}, nil, ""},
		clauseCase{r, "5.24", "OtherReferredToTableGameShiftManager", KindOther, nil, Referred, []string{"5.24"}, nil, ""},
		clauseCase{r, "5.24", "HandNotConfidentialNotCoveredReferred", "hand_not_confidential", map[string]any{"seat": 1, "prohibited": true}, Referred, []string{"5.24"}, nil, ""},
	)
	return cs
}

func seatsString(ss []SeatOutcome) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = fmt.Sprintf("%d:%s", s.Seat, s.Action)
	}
	return strings.Join(parts, ",")
}

// TestClauses decides one event per clause, named after the clause, and
// checks the exact outcome: action, rules cited in order, options and the
// seat outcomes.
func TestClauses(t *testing.T) {
	for _, c := range allClauseCases() {
		t.Run(c.testName(), func(t *testing.T) {
			rs, _ := Catalogue(c.ruleset)
			got, err := Decide(rs, c.kind, c.facts, nil)
			if err != nil {
				t.Fatalf("Decide: %v", err)
			}
			want := make([]string, len(c.rules))
			for i, r := range c.rules {
				if strings.HasPrefix(r, "ruling ") {
					want[i] = r
				} else {
					want[i] = c.ruleset + " " + r
				}
			}
			if got.Action != c.action {
				t.Errorf("action = %s, want %s (%s)", got.Action, c.action, got.Text)
			}
			if !slices.Equal(got.Rules, want) {
				t.Errorf("rules = %q, want %q", got.Rules, want)
			}
			if !slices.Equal(got.Options, c.options) {
				t.Errorf("options = %v, want %v", got.Options, c.options)
			}
			if s := seatsString(got.Seats); s != c.seats {
				t.Errorf("seats = %q, want %q", s, c.seats)
			}
			if got.Covered != (c.action != Referred) {
				t.Errorf("covered = %v", got.Covered)
			}
			if got.Text == "" {
				t.Error("no text")
			}
			if got.Action == RoundVoid && !got.PreviousRoundsStand {
				t.Error("a void round leaves previous rounds standing (MBS 5.1.2, RWS 5.8/5.9)")
			}
		})
	}
}

// TestEveryClauseHasATest fails when a section-5 clause a kind cites has no
// test named after it, or a case of the catalogue is exercised by no test:
// the tests are tied to the catalogue data.
func TestEveryClauseHasATest(t *testing.T) {
	cases := allClauseCases()
	for _, id := range IDs {
		rs, _ := Catalogue(id)
		doc := section5Clauses(t, id)
		general := map[string]bool{}
		for _, g := range rs.General {
			general[g.Clause] = true
		}
		for _, cl := range doc {
			if general[cl] {
				continue
			}
			if !slices.ContainsFunc(cases, func(c clauseCase) bool { return c.ruleset == id && c.clause == cl }) {
				t.Errorf("%s %s: no test named after the clause", id, cl)
			}
		}
		for _, k := range rs.Kinds {
			for i, kc := range k.Cases {
				hit := slices.ContainsFunc(cases, func(c clauseCase) bool {
					if c.ruleset != id || c.kind != k.Name {
						return false
					}
					kk, _ := rs.Kind(c.kind)
					f, probs := parseFacts(kk, c.facts)
					if len(probs) > 0 {
						return false
					}
					for j := range kk.Cases {
						if all(kk.Cases[j].When, f) {
							return j == i
						}
					}
					return false
				})
				if !hit {
					t.Errorf("%s %s: case %d (%v) has no test", id, k.Name, i, kc.When)
				}
			}
		}
	}
}
