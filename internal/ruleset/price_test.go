package ruleset

import (
	"testing"

	"github.com/tablesettle/tablesettle/internal/money"
)

// The prices as the documents print them (the rule cited in each case).
func TestAsWritten(t *testing.T) {
	cases := []struct {
		name string
		pay  Pay
		want string
	}{
		{"SSP v6 4.1.2 Royal Flush", Pay{Kind: ToOne, Odds: money.Ratio{Num: 250, Den: 1}}, "250 to 1"},
		{"THB v9 4.2 Four of a Kind", Pay{Kind: ForOne, Odds: money.Ratio{Num: 400, Den: 1}}, "400 for 1"},
		{"SSP v6 4.2 Four of a Kind", Pay{Kind: Fixed, Amount: 200000, Currency: money.SGD}, "$2,000"},
		{"SSP v6 4.2 Flush", Pay{Kind: Fixed, Amount: 10000, Currency: money.SGD}, "$100"},
		{"cents shown when present", Pay{Kind: Fixed, Amount: 123456789, Currency: money.SGD}, "$1,234,567.89"},
		{"another currency", Pay{Kind: Fixed, Amount: 5000, Currency: "JPY"}, "JPY 5,000"},
		{"SSP v6 4.2 Royal Flush", Pay{Kind: PoolPercent, BasisPoints: 10000}, "100% of the Progressive Jackpot"},
		{"SSP v6 4.2 Straight Flush", Pay{Kind: PoolPercent, BasisPoints: 1000}, "10% of the Progressive Jackpot"},
		{"fractional percent", Pay{Kind: PoolPercent, BasisPoints: 1250}, "12.5% of the Progressive Jackpot"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.pay.AsWritten(); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}
