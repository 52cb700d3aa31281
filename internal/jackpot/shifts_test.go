package jackpot

import (
	"testing"
	"time"
)

// Shift boundaries (issue 35 item 5): the shift an instant falls in, and
// the one before, in the floor's zone, across midnight and a daylight
// saving change.
func TestShifts(t *testing.T) {
	sgt, err := ParseShifts("Asia/Singapore 22:00 06:00 14:00")
	if err != nil {
		t.Fatal(err)
	}
	if sgt.String() != "Asia/Singapore 06:00 14:00 22:00" {
		t.Fatalf("String: %q", sgt.String())
	}
	ny, err := ParseShifts("America/New_York 02:30 12:00")
	if err != nil {
		t.Fatal(err)
	}
	z := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range []struct {
		name     string
		s        Shifts
		at       string
		previous bool
		from, to string
	}{
		// 2026-03-02 03:00 SGT: the night shift from 22:00 SGT the day before.
		{"SGT night shift across midnight", sgt, "2026-03-01T19:00:00Z", false, "2026-03-01T14:00:00Z", "2026-03-01T22:00:00Z"},
		{"SGT the shift before it", sgt, "2026-03-01T19:00:00Z", true, "2026-03-01T06:00:00Z", "2026-03-01T14:00:00Z"},
		{"SGT a shift's first instant is the shift ending then", sgt, "2026-03-01T22:00:00Z", false, "2026-03-01T14:00:00Z", "2026-03-01T22:00:00Z"},
		{"SGT a nanosecond after", sgt, "2026-03-01T22:00:00.000000001Z", false, "2026-03-01T22:00:00Z", "2026-03-02T06:00:00Z"},
		{"default UTC", Shifts{}, "2026-03-01T05:59:00Z", false, "2026-02-28T22:00:00Z", "2026-03-01T06:00:00Z"},
		// 2026-03-08: 02:30 does not exist in New York (the clocks go
		// from 02:00 EST to 03:00 EDT); the shift starts at 03:30 EDT.
		{"New York, the morning clocks spring forward", ny, "2026-03-08T09:00:00Z", false, "2026-03-08T07:30:00Z", "2026-03-08T16:00:00Z"},
		{"New York, the shift before", ny, "2026-03-08T09:00:00Z", true, "2026-03-07T17:00:00Z", "2026-03-08T07:30:00Z"},
	} {
		t.Run(c.name, func(t *testing.T) {
			from, to := c.s.Shift(z(c.at), c.previous)
			if !from.Equal(z(c.from)) || !to.Equal(z(c.to)) {
				t.Fatalf("(%s, %s], want (%s, %s]", from.Format(time.RFC3339), to.Format(time.RFC3339), c.from, c.to)
			}
		})
	}
	for _, bad := range []string{"06:00", "Mars/Base 06:00", "UTC 6am", "UTC 06:00 06:00", "UTC 24:00"} {
		if _, err := ParseShifts(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
