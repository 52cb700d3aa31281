package poolsenv

import (
	"strings"
	"testing"
)

// The floor's shift boundaries come from TABLESETTLE_SHIFTS (issue 35
// item 5): unset, the default; a value that does not parse stops the
// function, naming the variable.
func TestServiceShifts(t *testing.T) {
	env := func(shifts string) func(string) string {
		return func(k string) string {
			switch k {
			case "TABLESETTLE_TABLE":
				return "pools"
			case ShiftsEnv:
				return shifts
			case "AWS_REGION":
				return "ap-southeast-1"
			}
			return ""
		}
	}
	for _, c := range []struct{ set, want string }{{"", "UTC 06:00 14:00 22:00"}, {"Asia/Singapore 22:00 07:00", "Asia/Singapore 07:00 22:00"}} {
		svc, err := Service(env(c.set))
		if err != nil || svc.Shifts.String() != c.want {
			t.Fatalf("%q: %v %v, want %s", c.set, svc, err, c.want)
		}
	}
	if _, err := Service(env("Nowhere/Land 06:00")); err == nil || !strings.Contains(err.Error(), ShiftsEnv) {
		t.Fatalf("a bad zone: %v", err)
	}
}
