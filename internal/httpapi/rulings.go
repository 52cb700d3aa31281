package httpapi

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/tablesettle/tablesettle/internal/ruleset"
	"github.com/tablesettle/tablesettle/rules"
)

// What the service cites, published: the product's rulings and the clauses
// of the rule documents, so that every citation an answer carries
// ("ruling R12", "mbs-megalink-tcp-v6 3.11.2") resolves for a client.

// Ruling is one of the product's rulings on the rule documents.
type Ruling struct {
	ID    string `json:"id" example:"R12" pattern:"^R[0-9]+$" doc:"The ruling's number."`
	Cite  string `json:"cite" example:"ruling R12" doc:"The ruling as answers cite it."`
	Title string `json:"title" example:"Irregularities the cards show"`
	Text  string `json:"text" doc:"The ruling, in full."`
}

// RulingList is the answer of GET /v1/rulings.
type RulingList struct {
	Rulings []Ruling `json:"rulings" doc:"Every ruling, R1 first."`
}

// Clause is one numbered clause of a rule document, as the document writes
// it.
type Clause struct {
	RulesetID string `json:"rulesetId" example:"mbs-megalink-tcp-v6"`
	Number    string `json:"number" example:"3.11.2"`
	Cite      string `json:"cite" example:"mbs-megalink-tcp-v6 3.11.2" doc:"The clause as answers cite it."`
	Text      string `json:"text" doc:"The clause as the document writes it."`
}

// ClauseDetail is one clause and the clauses numbered under it.
type ClauseDetail struct {
	Clause
	Subclauses []Clause `json:"subclauses" doc:"The clauses numbered under this one (3.11.1, 3.11.2 ... under 3.11), in document order; empty when none."`
}

// RuleDocumentText is a ruleset's rule document: every numbered clause.
type RuleDocumentText struct {
	RulesetID string   `json:"rulesetId" example:"mbs-megalink-tcp-v6"`
	File      string   `json:"file" example:"mbs-megalink-three-card-poker-v6.txt" doc:"The document's file in the repository's rules/."`
	Title     string   `json:"title" example:"Megalink Three Card Poker (MBS), version 6"`
	Clauses   []Clause `json:"clauses" doc:"Every numbered clause, in document order."`
}

type rulingsOutput struct{ Body RulingList }

type rulingInput struct {
	ID string `path:"id" maxLength:"8" example:"R12" doc:"A ruling number: R1 to R29 (r12 and 12 also work)."`
}

type rulingOutput struct{ Body Ruling }

type documentOutput struct{ Body RuleDocumentText }

type clauseInput struct {
	ID     string `path:"id" maxLength:"64" example:"mbs-megalink-tcp-v6" doc:"A ruleset id."`
	Clause string `path:"clause" maxLength:"32" example:"3.11.2" doc:"A clause number as the document writes it."`
}

type clauseOutput struct{ Body ClauseDetail }

func rulingView(r rules.Ruling) Ruling {
	return Ruling{ID: r.ID, Cite: "ruling " + r.ID, Title: r.Title, Text: r.Text}
}

func clauseView(id string, c rules.Clause) Clause {
	return Clause{RulesetID: id, Number: c.Number, Cite: id + " " + c.Number, Text: c.Text}
}

// documentOf finds a ruleset's document or answers 404 naming path.id.
func documentOf(cat ruleset.Catalogue, id string) (rules.Document, error) {
	rs, ok := cat.Lookup(ruleset.ID(id))
	if !ok {
		ids := make([]string, 0, len(cat.Listed()))
		for _, id := range cat.Listed() {
			ids = append(ids, string(id))
		}
		return rules.Document{}, huma.Error404NotFound("no such ruleset", &huma.ErrorDetail{
			Location: "path.id", Value: id, Message: "unknown ruleset id; known: " + strings.Join(ids, ", "),
		})
	}
	return rs.Rules, nil
}

func registerRulings(api huma.API, cat ruleset.Catalogue) {
	huma.Register(api, huma.Operation{
		OperationID: "list-rulings",
		Method:      http.MethodGet,
		Path:        "/v1/rulings",
		Summary:     "List the product's rulings",
		Description: "The rulings R1-R29: the product's decisions where a rule document is silent or ambiguous. " +
			"An answer that cites `ruling R12` is explained by R12 here.",
		Tags: []string{"Rules"},
	}, func(ctx context.Context, _ *struct{}) (*rulingsOutput, error) {
		out := &rulingsOutput{Body: RulingList{Rulings: []Ruling{}}}
		for _, r := range rules.Rulings() {
			out.Body.Rulings = append(out.Body.Rulings, rulingView(r))
		}
		return out, nil
	})
	huma.Register(api, huma.Operation{
		OperationID: "get-ruling",
		Method:      http.MethodGet,
		Path:        "/v1/rulings/{id}",
		Summary:     "Get one ruling",
		Description: "One ruling by its number (`R12`). An unknown number answers 404 naming path.id.",
		Tags:        []string{"Rules"},
		Errors:      []int{http.StatusNotFound},
	}, func(ctx context.Context, in *rulingInput) (*rulingOutput, error) {
		r, ok := rules.RulingByID(in.ID)
		if !ok {
			return nil, huma.Error404NotFound("no such ruling", &huma.ErrorDetail{
				Location: "path.id", Value: in.ID, Message: "unknown ruling; known: R1 to R" + strconv.Itoa(len(rules.Rulings())),
			})
		}
		return &rulingOutput{Body: rulingView(r)}, nil
	})
	huma.Register(api, huma.Operation{
		OperationID: "get-rule-document",
		Method:      http.MethodGet,
		Path:        "/v1/rulesets/{id}/document",
		Summary:     "Get a ruleset's rule document",
		Description: "Every numbered clause of the casino's rule document, as written. An unknown id answers 404 naming path.id.",
		Tags:        []string{"Rules"},
		Errors:      []int{http.StatusNotFound},
	}, func(ctx context.Context, in *rulesetInput) (*documentOutput, error) {
		d, err := documentOf(cat, in.ID)
		if err != nil {
			return nil, err
		}
		out := &documentOutput{Body: RuleDocumentText{RulesetID: d.RulesetID, File: d.File, Title: d.Title, Clauses: []Clause{}}}
		for _, c := range d.Clauses() {
			out.Body.Clauses = append(out.Body.Clauses, clauseView(d.RulesetID, c))
		}
		return out, nil
	})
	huma.Register(api, huma.Operation{
		OperationID: "get-rule-clause",
		Method:      http.MethodGet,
		Path:        "/v1/rulesets/{id}/clauses/{clause}",
		Summary:     "Get one clause of a ruleset's rule document",
		Description: "The clause an answer cites (`mbs-megalink-tcp-v6 3.11.2` is GET /v1/rulesets/mbs-megalink-tcp-v6/clauses/3.11.2), " +
			"with the clauses numbered under it. An unknown ruleset or clause answers 404 naming path.id or path.clause.",
		Tags:   []string{"Rules"},
		Errors: []int{http.StatusNotFound},
	}, func(ctx context.Context, in *clauseInput) (*clauseOutput, error) {
		d, err := documentOf(cat, in.ID)
		if err != nil {
			return nil, err
		}
		c, ok := d.Clause(in.Clause)
		if !ok {
			return nil, huma.Error404NotFound("no such clause", &huma.ErrorDetail{
				Location: "path.clause", Value: in.Clause, Message: "the document of " + d.RulesetID + " has no clause numbered so",
			})
		}
		out := &clauseOutput{Body: ClauseDetail{Clause: clauseView(d.RulesetID, c), Subclauses: []Clause{}}}
		for _, s := range d.Subclauses(c.Number) {
			out.Body.Subclauses = append(out.Body.Subclauses, clauseView(d.RulesetID, s))
		}
		return out, nil
	})
}
