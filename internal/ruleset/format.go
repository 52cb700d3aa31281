package ruleset

import (
	"strconv"

	"github.com/tablesettle/tablesettle/internal/fault"
)

// notOdds is the refusal of Returned and Winnings for a price that does
// not depend on the stake (ruling R2, R3).
func notOdds(p Pay) error {
	return fault.InvalidField("pay.kind", string(p.Kind), "a %s price is not odds (to 1 / for 1): it does not depend on the stake", p.Kind).Cite("ruling R2")
}

// overflow is a payment beyond int64 minor units (ruling R1), its cause kept
// for logs.
func overflow(err error) error {
	if err == nil {
		return nil
	}
	return fault.Wrap(fault.Invalid, err, "the payment overflows int64 minor units (ruling R1)").Cite("ruling R1")
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
