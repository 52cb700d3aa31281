package main

import (
	"encoding/json"
	"fmt"

	"github.com/tablesettle/tablesettle/internal/card"
	"github.com/tablesettle/tablesettle/internal/hand"
)

// evaluateScenario posts random hands of the three games to
// POST /v1/hands/evaluate and checks each answer against internal/hand.
type evaluateScenario struct{}

func (evaluateScenario) Name() string { return "evaluate" }

var evaluateGames = []struct {
	game string
	n    func(int) int // number of cards from a random int
}{
	{"five_card", func(int) int { return 5 }},
	{"three_card", func(int) int { return 3 }},
	{"holdem", func(x int) int { return 5 + x%3 }},
}

func (evaluateScenario) Request(seed, i uint64) Request {
	r := rng(seed, i)
	g := evaluateGames[r.IntN(len(evaluateGames))]
	cards := deal(r)[:g.n(r.IntN(3))]
	body, _ := json.Marshal(map[string]string{"cards": card.Format(cards), "game": g.game})
	var want hand.Category
	var rank int64
	switch g.game {
	case "three_card":
		v := hand.Eval3(cards[0], cards[1], cards[2])
		want, rank = v.Category(), int64(v)
	case "five_card":
		v := hand.EvalHand(cards)
		want, rank = v.Category(), int64(v)
	default:
		v, _ := hand.Best(cards)
		want, rank = v.Category(), int64(v)
	}
	return Request{
		Label: g.game, Method: "POST", Path: "/v1/hands/evaluate", Body: body,
		Check: func(_ int, got []byte) string {
			var ans struct {
				Category string `json:"category"`
				Rank     int64  `json:"rank"`
			}
			if err := json.Unmarshal(got, &ans); err != nil {
				return "mismatch: undecodable answer"
			}
			if ans.Category != want.String() {
				return fmt.Sprintf("mismatch: category")
			}
			if ans.Rank != rank {
				return "mismatch: rank"
			}
			return ""
		},
	}
}
