package pools

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/tablesettle/tablesettle/internal/jackpot"
)

// Tag is the weak ETag of an answer about p, which the floor polls with
// (issue 24): its version and last ledger entry, and what changes an
// answer without a write to the pool item (held hits whose window has
// closed, open proposals that have expired, contributions committed beside
// the pool: a sharded store's p.Shards names its shards' versions, issue
// 25), and the answer's variant (the route and its query).
func (s *Service) Tag(p jackpot.Pool, variant string) string {
	now := s.Now()
	expired := 0
	for _, pr := range p.Proposals {
		if pr.Expired(now) {
			expired++
		}
	}
	digest := variant
	if p.Shards != "" {
		// Contributions beside the pool (issue 25): the shards' state.
		digest += "\x00" + p.Shards
	}
	sum := sha256.Sum256([]byte(digest))
	return fmt.Sprintf(`W/"v%d.s%d.h%d.x%d.%s"`, p.Version, p.Seq, jackpot.DueHeld(p, now), expired, hex.EncodeToString(sum[:4]))
}

// Display is what the sign shows of p now (jackpot.Rules.Display) and the
// answer's weak ETag: the tag of the answer without its time (asOf set to
// p's last update), so that it changes only when what the sign shows does.
func (s *Service) Display(p jackpot.Pool) (jackpot.Display, string) {
	d := s.Rules().Display(p, s.Now())
	untimed := d
	untimed.AsOf = p.UpdatedAt
	b, _ := json.Marshal(untimed)
	sum := sha256.Sum256(b)
	return d, `W/"b` + hex.EncodeToString(sum[:8]) + `"`
}
