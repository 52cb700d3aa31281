package pools

import "github.com/tablesettle/tablesettle/internal/jackpot"

// applyLinked applies round r to p when r's table is linked to p (issue
// 24); a round of another table is refused (Forbidden, naming the table)
// and writes nothing. A round already recorded is answered by its record
// before this refusal (ApplyRound looks for it on every error).
func (s *Service) applyLinked(p jackpot.Pool, r jackpot.Round) (jackpot.Pool, []jackpot.Entry, jackpot.RoundResult, error) {
	if err := jackpot.CheckLinked(p, r.Table); err != nil {
		return jackpot.Pool{}, nil, jackpot.RoundResult{}, err
	}
	if err := checkUnit(p, r, "progressiveUnit"); err != nil {
		return jackpot.Pool{}, nil, jackpot.RoundResult{}, err
	}
	return s.Rules().Apply(p, r, s.Now())
}
