// Package rulesettest holds rulesets that exist only for tests: proofs
// that a ruleset is data (issue 12), registered from one place.
package rulesettest

import (
	_ "embed"

	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/ruleset"
	"github.com/tablesettle/tablesettle/rules"
)

// SixthID is the sixth, test-only ruleset.
const SixthID ruleset.ID = "test-ssp-v6-sequential"

// document is the sixth ruleset's own rule document: the clauses in which
// it differs from SSP v6.
//
//go:embed testdata/test-ssp-v6-sequential.txt
var document string

// Sixth is SSP v6 with another Bet paytable (Full House 8 to 1 instead of
// 7 to 1) and RWS-style major prizes: paid one after the other and held for
// the settle window (RWS 4.5.1, 4.5.2; rulings R6, R7). Its casino is
// still MBS: only its description says how it pays.
func Sixth() ruleset.Ruleset {
	r, _ := ruleset.Get(ruleset.SSPv6)
	r.ID, r.Name, r.Version = SixthID, "Singapore Stud Poker, sequential majors (test)", 99
	r.Document = "test-ssp-v6-sequential.txt"
	r.Rules = rules.Document{RulesetID: string(SixthID), File: r.Document, Title: r.Name, Body: document}
	r.Majors = ruleset.Majors{Sequential: true, Rule: "3.15", SettleWindow: true, OrderRule: "3.14"}
	bet, _ := r.Wager(ruleset.Bet)
	for i := range bet.Paytable {
		if bet.Paytable[i].Hand == "full_house" {
			bet.Paytable[i].Pay = ruleset.Pay{Kind: ruleset.ToOne, Odds: money.Ratio{Num: 8, Den: 1}}
		}
	}
	return r
}

// SixthCatalogue is the standard catalogue with Sixth added: the one place
// the sixth ruleset is registered.
func SixthCatalogue() (ruleset.Catalogue, error) { return ruleset.Standard().With(Sixth()) }
