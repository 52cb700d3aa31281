package ruleset

import (
	"testing"

	"github.com/tablesettle/tablesettle/internal/money"
)

// One price, two spellings, both in answers: AsWritten is the paytable's
// ("$2,000", GET /v1/rulesets), String the settlement line's ("SGD
// 2000.00", POST /v1/rounds/settle, the analysis, the floor sign). These
// pin both, byte for byte, as they were before one formatter wrote both
// (issue 22 item 5); the golden answers hold them too.
func TestPriceSpellingsPinned(t *testing.T) {
	cases := []struct {
		pay             Pay
		written, string string
	}{
		{Pay{Kind: ToOne, Odds: money.Ratio{Num: 250, Den: 1}}, "250 to 1", "250 to 1"},
		{Pay{Kind: ToOne, Odds: money.Ratio{Num: 3, Den: 2}}, "3 to 2", "3 to 2"},
		{Pay{Kind: ForOne, Odds: money.Ratio{Num: 400, Den: 1}}, "400 for 1", "400 for 1"},
		{Pay{Kind: Fixed, Amount: 200000, Currency: money.SGD}, "$2,000", "SGD 2000.00"},
		{Pay{Kind: Fixed, Amount: 7, Currency: money.SGD}, "$0.07", "SGD 0.07"},
		{Pay{Kind: Fixed, Amount: 0, Currency: money.SGD}, "$0", "SGD 0.00"},
		{Pay{Kind: Fixed, Amount: 123456789, Currency: money.SGD}, "$1,234,567.89", "SGD 1234567.89"},
		{Pay{Kind: Fixed, Amount: 5000, Currency: "JPY"}, "JPY 5,000", "JPY 5000"},
		{Pay{Kind: Fixed, Amount: 1000000, Currency: "THB"}, "THB 10,000", "THB 10000.00"},
		{Pay{Kind: Fixed, Amount: -250, Currency: money.SGD}, "$-2.-50", "-SGD 2.50"}, // no price is negative; the plain spelling is money.Currency.Format's
		{Pay{Kind: PoolPercent, BasisPoints: 10000}, "100% of the Progressive Jackpot", "100% of the pool"},
		{Pay{Kind: PoolPercent, BasisPoints: 1000}, "10% of the Progressive Jackpot", "10% of the pool"},
		{Pay{Kind: PoolPercent, BasisPoints: 1250}, "12.5% of the Progressive Jackpot", "12.50% of the pool"},
		{Pay{Kind: PoolPercent, BasisPoints: 1205}, "12.05% of the Progressive Jackpot", "12.05% of the pool"},
		{Pay{Kind: PoolPercent, BasisPoints: 1}, "0.01% of the Progressive Jackpot", "0.01% of the pool"},
		{Pay{Kind: "odd"}, "odd", "odd"},
	}
	for _, c := range cases {
		if got := c.pay.AsWritten(); got != c.written {
			t.Errorf("%+v AsWritten = %q, want %q", c.pay, got, c.written)
		}
		if got := c.pay.String(); got != c.string {
			t.Errorf("%+v String = %q, want %q", c.pay, got, c.string)
		}
	}
}
