package ruleset

import (
	"time"

	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/rules"
)

// mbsManager is who decides at MBS what the rules do not cover (6.1).
const mbsManager = "Gaming Shift Manager"

// sgt is Singapore time, in which every document states its in-force date.
var sgt = time.FixedZone("SGT", 8*60*60)

// The Bet paytable of the stud games: SSP v6 4.1.2, SSP v4 4.1.2 and RWS
// 4.1 print the same prices (SSP v4 lowest first).
func studBet(rule string, onePairLabel string) Paytable {
	return Paytable{
		{Hand: "royal_flush", Label: "Royal Flush", Pay: to1(250), Rule: rule},
		{Hand: "straight_flush", Label: "Straight Flush", Pay: to1(50), Rule: rule},
		{Hand: "four_of_a_kind", Label: "Four of a Kind", Pay: to1(20), Rule: rule},
		{Hand: "full_house", Label: "Full House", Pay: to1(7), Rule: rule},
		{Hand: "flush", Label: "Flush", Pay: to1(5), Rule: rule},
		{Hand: "straight", Label: "Straight", Pay: to1(4), Rule: rule},
		{Hand: "three_of_a_kind", Label: "Three of a Kind", Pay: to1(3), Rule: rule},
		{Hand: "two_pair", Label: "Two Pairs", Pay: to1(2), Rule: rule},
		{Hand: "one_pair", Label: onePairLabel, OrLower: true, Pay: to1(1), Rule: rule},
	}
}

// The MBS/RWS progressive paytable with fixed minor prizes: SSP v6 4.2,
// TCP v6 4.4, RWS 4.2.
func fixedJackpot(rule string) Paytable {
	return Paytable{
		{Hand: "royal_flush", Label: "Royal Flush", Pay: pct(100), Rule: rule},
		{Hand: "straight_flush", Label: "Straight Flush", Pay: pct(10), Rule: rule},
		{Hand: "four_of_a_kind", Label: "Four of a Kind", Pay: sgd(2000), Rule: rule},
		{Hand: "full_house", Label: "Full House", Pay: sgd(200), Rule: rule},
		{Hand: "flush", Label: "Flush", Pay: sgd(100), Rule: rule},
	}
}

func win(label, rule string) Entry {
	return Entry{Hand: "win", Label: label, Pay: to1(1), Rule: rule}
}

// THB v9 4.1.1 Bonus hands: the player's two hole cards (and, for the top
// line, the dealer's).
const (
	HoleAAandDealerAA = "aa_player_and_dealer" // A-A in both the player's and the dealer's hand
	HoleAA            = "aa"                   // A-A in the player's hand only
	HoleAKSuited      = "ak_suited"
	HoleAQAJSuited    = "aq_or_aj_suited"
	HoleAKOffsuit     = "ak_unsuited"
	HoleHighPair      = "kk_qq_jj" // K-K, Q-Q or J-J
	HoleAQAJOffsuit   = "aq_or_aj_unsuited"
	HoleLowPair       = "tt_to_22" // 10-10 through 2-2
)

// rulesets is the data of every ruleset. It is never written: Get and All
// hand out copies.
var rulesets = [...]Ruleset{
	{
		ID: SSPv6, Game: GameStud, Name: "Megalink Singapore Stud Poker", Short: "SSP v6", Casino: "MBS",
		Document: "mbs-megalink-singapore-stud-poker-v6.txt", Version: 6,
		Rules:   rules.Document{RulesetID: string(SSPv6), File: "mbs-megalink-singapore-stud-poker-v6.txt", Title: "Megalink Singapore Stud Poker (MBS), version 6"},
		InForce: time.Date(2019, 8, 2, 0, 0, 0, 0, sgt), Currency: money.SGD,
		Majors:         Majors{Rule: "3.15", OrderRule: "3.14"},
		Irregularities: Irregularities{Section5: Section5Megalink, ReferTo: mbsManager, ReferClause: "6.1"},
		Hands:          Hands{DealerCards: 5, PlayerCards: 5, Main: FiveDealt, Progressive: FiveDealt, Rule: "1.1.5"},
		Qualifier:      Qualifier{Kind: "ace_king", Label: "at least an Ace and a King or higher ranking cards", Rule: "3.10.2"},
		Wagers: []WagerSpec{
			{Name: Ante, Label: "Ante", Rule: "1.1.1", Hand: FiveDealt, PaytableRule: "4.1.1",
				Paytable: Paytable{win("Ante", "4.1.1")}},
			{Name: Bet, Label: "Bet", Rule: "1.1.2", Hand: FiveDealt, PaytableRule: "4.1.2",
				Multiple: Multiple{Of: Ante, Times: 2, Fixed: true, Rule: "1.1.2"},
				Paytable: studBet("4.1.2", "One Pair or Lower")},
			{Name: Progressive, Label: "Progressive Jackpot", Rule: "1.1.6", Progressive: true, Hand: FiveDealt,
				PaytableRule: "4.2", Paytable: fixedJackpot("4.2")},
		},
		Clauses: Clauses{
			Ranking: "3.11", TieBreak: "3.12",
			TieSame: "3.12.1", TieTwoPairs: "3.12.2", TieOnePair: "3.12.3", TieWheel: "3.12.4", TieFullHouse: "3.12.5", TieSameStraight: "3.12.6",
			Fold: "3.9.1", Continue: "3.9.2", Declined: "3.10.1",
			NoQualify: "3.10.2", NoQualifyBet: "3.10.2.1", NoQualifyAnte: "3.10.2.2",
			Win: "3.10.3.1", Lose: "3.10.3.2", StandOff: "3.10.4",
			ProgressivePaid: "3.10.3.3", NoQualifyProgressive: "3.10.2.3", ProgressiveExtra: "3.13",
			JackpotRoyalShare: "3.15.1", JackpotStraightFlushShare: "3.15.2", JackpotLowerFirst: "3.15.3",
			VoidCards: "5.1", DealerCount: "5.3", PlayerCount: "5.7", Absent: "5.11", NoAnte: "5.12.2",
			UnderMin: "5.13", OverMax: "5.14", VoidCardsRound: "5.1.1",
		},
	},
	{
		ID: SSPv4, Game: GameStud, Name: "Singapore Stud Poker", Short: "SSP v4", Casino: "MBS",
		Document: "mbs-singapore-stud-poker-v4.txt", Version: 4,
		Rules:   rules.Document{RulesetID: string(SSPv4), File: "mbs-singapore-stud-poker-v4.txt", Title: "Singapore Stud Poker (MBS), version 4"},
		InForce: time.Date(2013, 5, 9, 0, 0, 0, 0, sgt), Currency: money.SGD,
		// SSP v4 has no several-winners clauses (rulings R5, R7), no
		// section 6 (ruling R25), and voids the round for a wrong count to
		// one player under its 5.2 (ruling R12).
		Irregularities: Irregularities{Section5: Section5SSPv4, ReferTo: mbsManager, ReferRuling: "R25", PlayerCountVoids: true},
		Hands: Hands{DealerCards: 5, PlayerCards: 5, Main: FiveDealt, Progressive: FiveDealt,
			DealerProgressive: DealerFiveDealt, Rule: "1.1.4"},
		Qualifier: Qualifier{Kind: "ace_king", Label: "a poker hand value of an Ace and a King or higher", Rule: "3.12"},
		Wagers: []WagerSpec{
			{Name: Ante, Label: "Ante", Rule: "1.1.1", Hand: FiveDealt, PaytableRule: "4.1.1",
				Paytable: Paytable{win("Ante", "4.1.1")}},
			{Name: Bet, Label: "Bet", Rule: "1.1.2", Hand: FiveDealt, PaytableRule: "4.1.2",
				Multiple: Multiple{Of: Ante, Times: 2, Fixed: true, Rule: "1.1.2"},
				Paytable: studBet("4.1.2", "One Pair or Lower")},
			{Name: ProgressivePlayer, Label: "Player Progressive Jackpot wager", Rule: "3.5", Progressive: true,
				Hand: FiveDealt, PaytableRule: "4.2", Paytable: Paytable{
					{Hand: "royal_flush", Label: "Royal Flush", Pay: pct(100), Rule: "4.2"},
					{Hand: "straight_flush", Label: "Straight Flush", Pay: pct(10), Rule: "4.2"},
					{Hand: "four_of_a_kind", Label: "Four of a Kind", Pay: to1(500), Rule: "4.2"},
					{Hand: "full_house", Label: "Full House", Pay: to1(100), Rule: "4.2"},
					{Hand: "flush", Label: "Flush", Pay: to1(50), Rule: "4.2"},
				}},
			{Name: ProgressiveDealer, Label: "Dealer Progressive Jackpot wager", Rule: "3.5", Progressive: true,
				Hand: DealerFiveDealt, PaytableRule: "4.2", Paytable: Paytable{
					{Hand: "royal_flush", Label: "Royal Flush", Pay: pct(100), Rule: "4.2"},
					{Hand: "straight_flush", Label: "Straight Flush", Pay: pct(10), Rule: "4.2"},
					{Hand: "four_of_a_kind", Label: "Four of a Kind", Pay: to1(500), Rule: "4.2"},
					{Hand: "full_house", Label: "Full House", Pay: to1(100), Rule: "4.2"},
					{Hand: "flush", Label: "Flush", Pay: to1(50), Rule: "4.2"},
				}},
		},
		Selections: []Selection{
			{Name: "magic_card", Label: "Magic Card (in the player's hand)", Wager: ProgressivePlayer, Rule: "4.3", PayRule: "4.5", Pay: to1(5)},
			{Name: "magic_card", Label: "Magic Card (in the dealer's hand)", Wager: ProgressiveDealer, Rule: "4.3.1", PayRule: "4.5", Pay: to1(5)},
			{Name: "lucky_player", Label: "Lucky Player", Wager: ProgressivePlayer, Rule: "4.4", PayRule: "4.5", Pay: to1(5)},
			{Name: "lucky_dealer", Label: "Lucky Dealer", Wager: ProgressiveDealer, Rule: "4.4.1", PayRule: "4.5", Pay: to1(5)},
		},
		// SSP v4 has no declined-comparison, absent-player, progressive-
		// without-Ante, wrong-count-to-a-player or table-limit clauses:
		// settlement cites the rulings it applies instead (R8, R11, R12).
		Clauses: Clauses{
			Ranking: "3.14", TieBreak: "3.15", TieSame: "3.16", Fold: "3.9", Continue: "3.10",
			NoQualify: "3.12", NoQualifyBet: "3.12.1", NoQualifyAnte: "3.12.2",
			Win: "3.13.1", Lose: "3.13.2", StandOff: "3.16",
			ProgressivePaid: "3.13.3", NoQualifyProgressive: "3.12.3",
			VoidCards: "5.1", DealerCount: "5.3", PlayerCount: "5.2", VoidCardsRound: "5.1.1",
			// 3.5: a Jackpot Wager is placed after an Ante. It says nothing
			// of one placed without: NoAnte is empty and settlement returns
			// it citing 3.5 and ruling R12, noting the document is silent.
			SideWagers: "3.5",
			// 3.5: "one or more credits": any whole number of units (R22).
			ProgressiveCredits: "3.5",
		},
	},
	{
		ID: TCPv6, Game: GameThreeCard, Name: "Megalink Three Card Poker", Short: "TCP v6", Casino: "MBS",
		Document: "mbs-megalink-three-card-poker-v6.txt", Version: 6,
		Rules:   rules.Document{RulesetID: string(TCPv6), File: "mbs-megalink-three-card-poker-v6.txt", Title: "Megalink Three Card Poker (MBS), version 6"},
		InForce: time.Date(2019, 8, 2, 0, 0, 0, 0, sgt), Currency: money.SGD,
		Majors:         Majors{Rule: "3.18", OrderRule: "3.17"},
		Irregularities: Irregularities{Section5: Section5Megalink, ReferTo: mbsManager, ReferClause: "6.1"},
		Hands: Hands{DealerCards: 3, PlayerCards: 3, CommunityCards: 2, Main: ThreeDealt,
			Progressive: ThreeAndCommunity, Rule: "3.14"},
		Qualifier: Qualifier{Kind: "queen", Label: "at least one Queen or one card of higher ranking than a Queen", Rule: "3.11"},
		Wagers: []WagerSpec{
			{Name: Ante, Label: "Ante", Rule: "1.1.1", Hand: ThreeDealt, PaytableRule: "4.1",
				Paytable: Paytable{win("Ante", "4.1")}},
			{Name: AnteBonus, Label: "Ante Bonus", Rule: "1.1.2", PaidOn: Ante, Hand: ThreeDealt, PaytableRule: "4.2",
				Paytable: Paytable{
					{Hand: "straight_flush", Label: "Straight Flush", Pay: to1(5), Rule: "4.2"},
					{Hand: "three_of_a_kind", Label: "Three of a Kind", Pay: to1(4), Rule: "4.2"},
					{Hand: "straight", Label: "Straight", Pay: to1(1), Rule: "4.2"},
				}},
			{Name: Play, Label: "Play", Rule: "1.1.7", Hand: ThreeDealt, PaytableRule: "4.1",
				Multiple: Multiple{Of: Ante, Times: 1, Fixed: true, Rule: "1.1.7"},
				Paytable: Paytable{win("Play", "4.1")}},
			{Name: PairPlus, Label: "Pair Plus", Rule: "1.1.6", Hand: ThreeDealt, PaytableRule: "4.3",
				Paytable: Paytable{
					{Hand: "straight_flush", Label: "Straight Flush", Pay: to1(40), Rule: "4.3"},
					{Hand: "three_of_a_kind", Label: "Three of a Kind", Pay: to1(30), Rule: "4.3"},
					{Hand: "straight", Label: "Straight", Pay: to1(5), Rule: "4.3"},
					{Hand: "flush", Label: "Flush", Pay: to1(4), Rule: "4.3"},
					{Hand: "one_pair", Label: "Pair", Pay: to1(1), Rule: "4.3"},
				}},
			{Name: Progressive, Label: "Progressive Jackpot", Rule: "1.1.8", Progressive: true, Hand: ThreeAndCommunity,
				PaytableRule: "4.4", Paytable: fixedJackpot("4.4")},
		},
		Clauses: Clauses{
			Ranking: "3.14", TieBreak: "3.15",
			TieSame: "3.15.1", TieOnePair: "3.15.2", TieWheel: "3.15.3", TieSameStraight: "3.15.4",
			Fold: "3.9.1", Continue: "3.9.2", Declined: "3.10.2",
			NoQualify: "3.11", NoQualifyBet: "3.11.1", NoQualifyAnte: "3.11.2",
			Win: "3.12.1", Lose: "3.12.2", StandOff: "3.12.3",
			ProgressivePaid: "3.13", ProgressiveExtra: "3.16",
			JackpotStraightFlushShare: "3.18.1", JackpotLowerFirst: "3.18.2",
			PairPlusFold: "3.9.1.1", PairPlusOnly: "3.9.3", PairPlusNoQualify: "3.11.4", PairPlusQualify: "3.12.5",
			AnteBonusNoQualify: "3.11.3", AnteBonusQualify: "3.12.4",
			VoidCards: "5.1", DealerCount: "5.3", PlayerCount: "5.7", Absent: "5.11", NoAnte: "5.12.2",
			UnderMin: "5.13", OverMax: "5.14", VoidCardsRound: "5.1.1",
		},
	},
	{
		ID: THBv9, Game: GameHoldem, Name: "Megalink Texas Hold'em Bonus Progressive", Short: "THB", Casino: "MBS",
		Document: "mbs-megalink-texas-holdem-bonus-progressive-v9.txt", Version: 9,
		Rules:   rules.Document{RulesetID: string(THBv9), File: "mbs-megalink-texas-holdem-bonus-progressive-v9.txt", Title: "Megalink Texas Hold'em Bonus Progressive (MBS), version 9"},
		InForce: time.Date(2023, 7, 4, 7, 0, 0, 0, sgt), Currency: money.SGD,
		Majors:         Majors{Rule: "3.15", OrderRule: "3.14"},
		Irregularities: Irregularities{Section5: Section5Megalink, ReferTo: mbsManager, ReferClause: "6.1"},
		Hands: Hands{DealerCards: 2, PlayerCards: 2, CommunityCards: 5, Main: BestOfHoleAndBoard,
			Progressive: HoleAndFlop, Rule: "3.10"},
		Qualifier: Qualifier{Kind: "none", Label: "no qualification", Rule: "3.10"},
		Wagers: []WagerSpec{
			{Name: Ante, Label: "Ante", Rule: "1.1.1", Hand: BestOfHoleAndBoard, PaytableRule: "4.1.1",
				Paytable: Paytable{{Hand: "straight", Label: "Ante wins (Straight and higher)", OrHigher: true, Pay: to1(1), Rule: "4.1.1"}}},
			{Name: Bonus, Label: "Bonus", Rule: "1.1.3", Hand: HoleCards, PaytableRule: "4.1.1",
				Paytable: Paytable{
					{Hand: HoleAAandDealerAA, Label: "A-A in both the Player's hand and Dealer's hand", Pay: to1(1000), Rule: "4.1.1"},
					{Hand: HoleAA, Label: "A-A in the Player's hand only", Pay: to1(30), Rule: "4.1.1"},
					{Hand: HoleAKSuited, Label: "A-K (Suited)", Pay: to1(25), Rule: "4.1.1"},
					{Hand: HoleAQAJSuited, Label: "A-Q or A-J (Suited)", Pay: to1(20), Rule: "4.1.1"},
					{Hand: HoleAKOffsuit, Label: "A-K (Unsuited)", Pay: to1(15), Rule: "4.1.1"},
					{Hand: HoleHighPair, Label: "K-K, Q-Q or J-J (High Pairs)", Pay: to1(10), Rule: "4.1.1"},
					{Hand: HoleAQAJOffsuit, Label: "A-Q or A-J (Unsuited)", Pay: to1(5), Rule: "4.1.1"},
					{Hand: HoleLowPair, Label: "10-10 through to 2-2 (Low Pairs)", Pay: to1(3), Rule: "4.1.1"},
				}},
			{Name: Flop, Label: "Flop", Rule: "1.1.6", Hand: BestOfHoleAndBoard, PaytableRule: "4.1.1",
				Multiple: Multiple{Of: Ante, Times: 2, Fixed: true, Rule: "3.9.2"},
				Paytable: Paytable{win("Flop wins", "4.1.1")}},
			{Name: Turn, Label: "Turn", Rule: "1.1.15", Optional: true, Hand: BestOfHoleAndBoard, PaytableRule: "4.1.1",
				Multiple: Multiple{Of: Ante, Times: 1, Fixed: true, Rule: "3.9.2"},
				Paytable: Paytable{win("Turn wins", "4.1.1")}},
			{Name: River, Label: "River", Rule: "1.1.11", Optional: true, Hand: BestOfHoleAndBoard, PaytableRule: "4.1.1",
				Multiple: Multiple{Of: Ante, Times: 1, Fixed: true, Rule: "3.9.2"},
				Paytable: Paytable{win("River wins", "4.1.1")}},
			{Name: Progressive, Label: "Progressive Jackpot", Rule: "1.1.10", Progressive: true, Hand: HoleAndFlop,
				PaytableRule: "4.2", Paytable: Paytable{
					{Hand: "royal_flush", Label: "Royal Flush", Pay: pct(100), Rule: "4.2"},
					{Hand: "straight_flush", Label: "Straight Flush", Pay: pct(10), Rule: "4.2"},
					{Hand: "four_of_a_kind", Label: "Four of a Kind", Pay: for1(400), Multiplied: true, Rule: "4.2"},
					{Hand: "full_house", Label: "Full House", Pay: for1(80), Multiplied: true, Rule: "4.2"},
					{Hand: "flush", Label: "Flush", Pay: for1(40), Multiplied: true, Rule: "4.2"},
					{Hand: "straight", Label: "Straight", Pay: for1(20), Multiplied: true, Rule: "4.2"},
				}},
		},
		MaxProgressiveMultiplier: 5, MultiplierRule: "3.5.3.1",
		Clauses: Clauses{
			Ranking: "3.11", TieBreak: "3.12",
			TieSame: "3.12.1", TieTwoPairs: "3.12.2", TieOnePair: "3.12.3", TieWheel: "3.12.4", TieFullHouse: "3.12.5", TieSameStraight: "3.12.6",
			Fold: "3.9.1", Continue: "3.9.2", Declined: "3.10.1",
			Win: "3.10.2", Lose: "3.10.3", StandOff: "3.10.4",
			ProgressivePaid: "4.2", ProgressiveExtra: "3.13", SideWagers: "3.5", ProgressiveUnit: "3.5.3",
			JackpotStraightFlushShare: "3.15.1", JackpotLowerFirst: "3.15.2",
			VoidCards: "5.1", DealerCount: "5.3", PlayerCount: "5.7", Absent: "5.11", NoAnte: "5.12.2",
			UnderMin: "5.13", OverMax: "5.14", VoidCardsRound: "5.1.1",
		},
	},
	{
		ID: RWSCSPv2, Game: GameStud, Name: "Multi-Link Progressive Casino Stud Poker", Short: "RWS CSP", Casino: "RWS",
		Document: "rws-multi-link-progressive-casino-stud-poker-v2.txt", Version: 2,
		Rules:   rules.Document{RulesetID: string(RWSCSPv2), File: "rws-multi-link-progressive-casino-stud-poker-v2.txt", Title: "Multi-Link Progressive Casino Stud Poker (RWS), version 2"},
		InForce: time.Date(2020, 6, 28, 8, 0, 0, 0, sgt), Currency: money.SGD,
		Majors:    Majors{Sequential: true, Rule: "4.5.1", SettleWindow: true, OrderRule: "4.5.2"},
		Decisions: Decisions{DeclinedFolds: true, AbsentFolds: true},
		Irregularities: Irregularities{Section5: Section5RWS, ReferTo: "Table Game Shift Manager", ReferClause: "5.24",
			BurntCard: "5.9", BoxMaximum: true},
		Hands:     Hands{DealerCards: 5, PlayerCards: 5, Main: FiveDealt, Progressive: FiveDealt, Rule: "1.9"},
		Qualifier: Qualifier{Kind: "ace_king", Label: "an Ace and a King or any other cards making a Hand of a higher ranking", Rule: "1.14"},
		Wagers: []WagerSpec{
			{Name: Ante, Label: "Ante", Rule: "1.1", Hand: FiveDealt, PaytableRule: "4.1",
				Paytable: Paytable{win("Ante Bet wins", "4.1")}},
			{Name: Bet, Label: "BET", Rule: "1.3", Hand: FiveDealt, PaytableRule: "4.1",
				Multiple: Multiple{Of: Ante, Times: 2, Fixed: false, Rule: "5.3"},
				Paytable: studBet("4.1", "One Pair or Less")},
			{Name: Progressive, Label: "Progressive Jackpot", Rule: "3.8", Progressive: true, Hand: FiveDealt,
				PaytableRule: "4.2", Paytable: fixedJackpot("4.2")},
		},
		Caps: []Cap{{Wager: Bet, Kind: "winnings_per_box", Amount: 100_000_00, Currency: money.SGD, Rule: "4.1.1"}},
		Clauses: Clauses{
			Ranking: "3.1.2", TieBreak: "3.1.3", Fold: "3.12.1", Continue: "3.12.2", Declined: "4.3",
			NoQualify: "3.13", NoQualifyBet: "3.13", NoQualifyAnte: "3.13",
			Win: "3.14.1", Lose: "3.14.2", StandOff: "3.14.3",
			ProgressivePaid: "4.2.1",
			VoidCards:       "5.8.1", DealerCount: "5.8.7", PlayerCount: "5.15", Absent: "5.5", AbsentSettled: "5.6",
			NoAnte: "5.4", UnderMin: "5.2.1", OverMax: "5.1.1", BetMultiple: "5.3", VoidReturned: "5.22",
			ProgressiveUnit: "3.4",
			// 1.13: "the jackpot is reset to a predetermined value".
			JackpotReset: "1.13",
		},
	},
}
