package httpapi

import (
	"testing"
	"time"

	"github.com/tablesettle/tablesettle/internal/money"
)

// The round fingerprint is stored in every applied round's record: a retry
// of a round applied by an earlier build must still be recognised as a
// replay, not refused as a different round (409). These digests pin the
// bytes as they were when the fingerprint lived in this package; they must
// never change.
func TestRoundFingerprintIsPinned(t *testing.T) {
	yes, no := true, false
	sgt := time.FixedZone("SGT", 8*3600)
	full := PoolRoundRequest{
		SettleRequest: SettleRequest{
			Ruleset: "mbs-megalink-ssp-v6", RoundID: "R-0001", Currency: "SGD",
			Dealer:          "as kd qh jc 9s",
			Limits:          map[string]SettleLimit{"ante": {Min: 1000, Max: 500000}, "bet": {}},
			ProgressiveUnit: 500,
			Positions: []SettlePosition{
				{Seat: 1, Cards: "AH,KH,QH,JH,TH", Wagers: map[string]money.Amount{"ante": 5000, "bet": 10000, "progressive": 500, "pairPlus": 0}, Exposed: &yes},
				{Seat: 3, Cards: "2c 3d 4h 5s 7c", Wagers: map[string]money.Amount{"ante": 2000}, Folded: true, Exposed: &no},
				{Seat: 5, Wagers: map[string]money.Amount{"ante": 1000}, Absent: true},
			},
		},
		Table:   "T12",
		DealtAt: time.Date(2026, 3, 14, 21, 30, 5, 123456789, sgt),
	}
	ssp4 := PoolRoundRequest{
		SettleRequest: SettleRequest{
			Ruleset: "mbs-ssp-v4", RoundID: "r2", Dealer: "As Kd Qh Jc 9s",
			Positions: []SettlePosition{{Seat: 2, Cards: "Ah Kh Qh Jh Th", Wagers: map[string]money.Amount{"ante": 100, "progressivePlayer": 100}}},
			MagicCard: "7h", LuckyPlayerSeat: 2, LuckyDealer: &no,
		},
		Table:   "T1",
		DealtAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
	}
	thb := PoolRoundRequest{
		SettleRequest: SettleRequest{
			Ruleset: "mbs-megalink-thb-v9", RoundID: "x", Dealer: "not cards", Community: "2c 3c 4c 5c 6c",
			ProgressiveUnit: 200,
			Positions:       []SettlePosition{{Seat: 7, Cards: "Ad Ac", Wagers: map[string]money.Amount{"ante": 100, "progressive": 600}, ProgressiveMultiplier: 3}},
		},
		Table:   "THB-2",
		DealtAt: time.Date(2026, 12, 31, 23, 59, 59, 0, time.UTC),
	}
	for _, tc := range []struct {
		name string
		in   PoolRoundRequest
		want string
	}{
		{"ssp-v6 with limits, zero wager, exposed true, lower-case cards, SGT time", full, "500c08985674c9d389f23ddfd30b3cd31937a2d7bae3e150e8f49c0f0d6474cc"},
		{"ssp-v4 system selections", ssp4, "9d8c8557a2a91184d5cbf81bb3da6ead342e00ecf6bd4b8578e68ff5a6d3393a"},
		{"thb community, unparsable dealer kept as sent", thb, "d9e1fe5d66995c399f63382fa955b962ccd27858fd8af297474df586427b1eb2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := roundFingerprint(tc.in); got != tc.want {
				t.Errorf("fingerprint = %s, want %s (a stored round would no longer be recognised as a replay)", got, tc.want)
			}
		})
	}
}
