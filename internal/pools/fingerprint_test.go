package pools_test

import (
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/settle"
)

// The digest stored in round records before the fingerprint moved here
// (the same round is pinned at the HTTP edge): a retry of a stored round
// is a replay.
func TestRoundFingerprintReplayIdentity(t *testing.T) {
	no := false
	r := settle.Round{
		Ruleset: "mbs-ssp-v4", RoundID: "r2", Dealer: "As Kd Qh Jc 9s",
		Positions: []settle.Position{{Seat: 2, Cards: "Ah Kh Qh Jh Th", Wagers: map[string]money.Amount{"ante": 100, "progressivePlayer": 100}}},
		MagicCard: "7h", LuckyPlayerSeat: 2, LuckyDealer: &no,
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	const want = "9d8c8557a2a91184d5cbf81bb3da6ead342e00ecf6bd4b8578e68ff5a6d3393a"
	if got := pools.RoundFingerprint(r, "T1", at); got != want {
		t.Fatalf("fingerprint = %s, want %s", got, want)
	}
	// The same round as a retry may spell it: other card case and
	// separators, a zero wager, exposed true, a 0/0 limit, another zone.
	yes := true
	retry := r
	retry.Dealer = "AS,KD,QH,JC,9S"
	retry.Limits = map[string]settle.Limit{"ante": {}}
	retry.Positions = []settle.Position{{Seat: 2, Cards: "ah kh qh jh th", Exposed: &yes,
		Wagers: map[string]money.Amount{"ante": 100, "progressivePlayer": 100, "progressiveDealer": 0}}}
	if got := pools.RoundFingerprint(retry, "T1", at.In(time.FixedZone("SGT", 8*3600))); got != want {
		t.Errorf("retry spelled differently: fingerprint = %s, want %s", got, want)
	}
	// What can change the settlement makes another round.
	other := r
	other.MagicCard = "8h"
	if got := pools.RoundFingerprint(other, "T1", at); got == want {
		t.Error("another magic card kept the fingerprint")
	}
	if got := pools.RoundFingerprint(r, "T2", at); got == want {
		t.Error("another table kept the fingerprint")
	}
}
