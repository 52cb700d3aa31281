package settle

import (
	"encoding/json"
	"testing"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// FuzzSettle: whatever JSON a client sends, Settle never panics, refuses
// only with a *fault.Error, and what it settles keeps its money consistent.
func FuzzSettle(f *testing.F) {
	for _, id := range ruleset.IDs() {
		d := newDeal(1)
		for i := 0; i < 3; i++ {
			b, _ := json.Marshal(d.round(id, 1+i*3, true))
			f.Add(b)
		}
	}
	f.Add([]byte(`{"ruleset":"mbs-megalink-ssp-v6","dealer":"As Kd 7h 4c 2s","positions":[{"seat":1,"cards":"","wagers":{"ante":1}}]}`))
	f.Add([]byte(`{"ruleset":"mbs-megalink-thb-v9","dealer":"As","community":"2c 2c","positions":[{"seat":7,"cards":"Ah Ad Ac","wagers":{"progressive":5},"progressiveMultiplier":5}]}`))
	f.Add([]byte(`{"ruleset":"mbs-megalink-thb-v9","dealer":"Kh Qd","community":"5c 6d 9h Js 2s","progressiveUnit":100,"positions":[{"seat":1,"cards":"Ah Ad","wagers":{"ante":1000,"flop":2000,"progressive":300}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var r Round
		if json.Unmarshal(data, &r) != nil {
			return
		}
		s, err := Settle(r)
		if err != nil {
			if _, ok := fault.As(err); !ok {
				t.Fatalf("error %v is not a *fault.Error", err)
			}
			return
		}
		checkMoney(t, s)
		if _, err := json.Marshal(s); err != nil {
			t.Fatal(err)
		}
	})
}
