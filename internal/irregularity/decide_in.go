package irregularity

import (
	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// DecideIn decides a report (DecideReport) under ruleset id of cat. An id
// cat does not hold is refused at field "ruleset"; an attached round that
// names another ruleset (roundRuleset, "" for none) at "round.ruleset". A
// round without a currency is in SGD.
func DecideIn(cat ruleset.Catalogue, id, roundRuleset string, first Event, additional []Event, round *Round) (Outcome, error) {
	rs, ok := For(cat, ruleset.ID(id))
	if !ok {
		return Outcome{}, fault.InvalidFields("unknown ruleset", fault.Problem{Field: "ruleset", Message: "not a ruleset id", Value: id})
	}
	if round != nil {
		if roundRuleset != "" && roundRuleset != id {
			return Outcome{}, fault.InvalidFields("the round is of another ruleset",
				fault.Problem{Field: "round.ruleset", Message: "must be the request's ruleset " + id, Value: roundRuleset})
		}
		if round.Currency == "" {
			round.Currency = money.SGD
		}
	}
	return DecideReport(rs, first, additional, round)
}

// Find is the irregularity catalogue of ruleset id of cat (For), or a
// fault.NotFound at field "id".
func Find(cat ruleset.Catalogue, id string) (*Ruleset, error) {
	rs, ok := For(cat, ruleset.ID(id))
	if !ok {
		return nil, &fault.Error{Kind: fault.NotFound, Detail: "no such ruleset",
			Fields: []fault.Problem{{Field: "id", Message: "not a ruleset id", Value: id}}}
	}
	return rs, nil
}
