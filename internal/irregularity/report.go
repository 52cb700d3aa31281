package irregularity

import (
	"fmt"
	"slices"
	"sort"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/money"
)

// Event is one irregularity of a report: its kind and its facts.
type Event struct {
	Kind  string
	Facts map[string]any
}

// rulingR28 decides a report that names several irregularities of a round.
const rulingR28 = "ruling R28"

// DecideReport decides a report naming several irregularities of one round
// (ruling R28): the first event and the additional ones. Each event is
// decided on its own, as Decide decides it, and listed in Events; where their outcomes conflict the outcome that voids
// or returns most wins. The answer's action, text and rules are those of
// the prevailing outcome (a void round first, then the one that returns
// most, then the first reported), citing ruling R28; with a round attached
// its settlement takes, for each wager, the line that returns most of all
// the events' lines, and leaves pending only what no event decides. An
// event that Decide refuses refuses the report: the first event's fields
// as Decide names them, an additional one's under "additional[i]".
func DecideReport(rs *Ruleset, first Event, additional []Event, round *Round) (Outcome, error) {
	outs := make([]Outcome, 0, 1+len(additional))
	o, err := Decide(rs, first.Kind, first.Facts, round)
	if err != nil {
		return Outcome{}, err
	}
	outs = append(outs, o)
	for i, e := range additional {
		o, err := Decide(rs, e.Kind, e.Facts, round)
		if err != nil {
			return Outcome{}, fault.Under(err, fmt.Sprintf("additional[%d]", i))
		}
		outs = append(outs, o)
	}
	if len(outs) == 1 {
		return outs[0], nil
	}
	win := prevailing(outs)
	out := outs[win]
	out.Events = outs
	out.Rules = append(slices.Clone(out.Rules), rulingR28)
	out.Text = fmt.Sprintf("%d irregularities reported: each is decided (events); where they conflict the outcome that voids or returns most wins (ruling R28), here %s: %s",
		len(outs), out.Kind, out.Text)
	out.Seats = nil
	for _, o := range outs {
		out.Seats = append(out.Seats, o.Seats...)
		out.PreviousRoundsStand = out.PreviousRoundsStand || o.PreviousRoundsStand
	}
	sort.SliceStable(out.Seats, func(i, j int) bool { return out.Seats[i].Seat < out.Seats[j].Seat })
	if round != nil {
		out.Settlement = mergeSettlements(rs, outs, round)
	}
	return out, nil
}

// prevailing is the index of the outcome that voids or returns most
// (ruling R28): a void round, else the most returned on the attached
// round, else the strongest action; the first reported breaks ties.
func prevailing(outs []Outcome) int {
	best := 0
	for i := 1; i < len(outs); i++ {
		if weight(outs[i]).beats(weight(outs[best])) {
			best = i
		}
	}
	return best
}

type outcomeWeight struct {
	void     bool
	returned money.Amount
	action   int
}

func (a outcomeWeight) beats(b outcomeWeight) bool {
	if a.void != b.void {
		return a.void
	}
	if a.returned != b.returned {
		return a.returned > b.returned
	}
	return a.action > b.action
}

// actionRank orders the actions by how much they return or void.
var actionRank = map[Action]int{
	RoundVoid: 9, HandRemoved: 8, Withdrawn: 7, WagerReturned: 6, SettledToMaximum: 5,
	OfferOptions: 4, Referred: 3, DeemedFolded: 2, DeemedChecked: 1, PlayContinues: 0,
}

func weight(o Outcome) outcomeWeight {
	w := outcomeWeight{void: o.Action == RoundVoid, action: actionRank[o.Action]}
	if o.Settlement != nil {
		w.returned = o.Settlement.TotalReturned
	}
	return w
}

// mergeSettlements is the settlement of a report: for each wager the line
// that returns most among the events' lines (a void or a whole return
// before an excess returned, an excess before a loss), the rest of a wager
// only partly returned left pending, and what no event decides pending as
// the first event that says how.
func mergeSettlements(rs *Ruleset, outs []Outcome, r *Round) *Settlement {
	type key struct {
		seat  int
		wager string
	}
	st := &Settlement{RoundID: r.RoundID, Currency: r.Currency, Lines: []Line{}, Pending: []Pending{}}
	chosen := map[key]Line{}
	how := map[key]string{}
	for _, o := range outs {
		if o.Settlement == nil {
			continue
		}
		for _, l := range o.Settlement.Lines {
			k := key{l.Seat, l.Wager}
			if c, ok := chosen[k]; !ok || l.Returned > c.Returned {
				chosen[k] = l
			}
		}
		for _, p := range o.Settlement.Pending {
			k := key{p.Seat, p.Wager}
			if h, ok := how[k]; !ok || (h == "as usual" && p.Settles != "as usual") {
				how[k] = p.Settles
			}
		}
	}
	for _, p := range r.Positions {
		for _, w := range rs.Wagers {
			a := p.Wagers[w]
			if a <= 0 {
				continue
			}
			k := key{p.Seat, w}
			l, decided := chosen[k]
			if decided {
				st.Lines = append(st.Lines, l)
				st.TotalReturned += l.Returned
			}
			rest := a
			if decided {
				if l.Result == "returned" && l.Stake < a {
					rest = a - l.Stake // an excess returned: the rest settles
				} else {
					rest = 0
				}
			}
			if rest > 0 {
				h := how[k]
				if h == "" {
					h = "as usual"
				}
				st.Pending = append(st.Pending, Pending{Seat: p.Seat, Wager: w, Stake: rest, Settles: h})
			}
		}
	}
	return st
}
