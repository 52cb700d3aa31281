package jackpot

import (
	"fmt"
	"slices"
	"strings"
	"time"
	// The shifts' zone is an IANA name (Asia/Singapore): the Lambda
	// runtime has no zoneinfo of its own, so the binary carries it.
	_ "time/tzdata"
)

// Shifts are a floor's shift boundaries (issue 35 item 5): the times of
// day, in one time zone, at which each shift starts. A shift runs from its
// start to the next start (the last of the day to the first of the next
// day). The deployment sets them (TABLESETTLE_SHIFTS: docs/floor.md); the
// zero value is DefaultShifts.
type Shifts struct {
	Zone   *time.Location
	Starts []time.Duration // after midnight, ascending, each under 24h
}

// DefaultShifts is three eight-hour shifts starting at 06:00, 14:00 and
// 22:00 UTC.
const DefaultShifts = "UTC 06:00 14:00 22:00"

// ParseShifts reads shift boundaries written "ZONE HH:MM HH:MM ...": an
// IANA time zone, then one to 24 distinct shift starts in that zone, e.g.
// "Asia/Singapore 06:00 14:00 22:00". Empty: DefaultShifts.
func ParseShifts(s string) (Shifts, error) {
	if strings.TrimSpace(s) == "" {
		s = DefaultShifts
	}
	f := strings.Fields(s)
	if len(f) < 2 || len(f) > 25 {
		return Shifts{}, fmt.Errorf("shifts %q: a time zone then 1 to 24 start times, e.g. %q", s, "Asia/Singapore 06:00 14:00 22:00")
	}
	loc, err := time.LoadLocation(f[0])
	if err != nil {
		return Shifts{}, fmt.Errorf("shifts %q: %q is not a time zone (an IANA name such as Asia/Singapore, or UTC)", s, f[0])
	}
	out := Shifts{Zone: loc}
	for _, hm := range f[1:] {
		t, err := time.Parse("15:04", hm)
		if err != nil {
			return Shifts{}, fmt.Errorf("shifts %q: %q is not a time of day HH:MM", s, hm)
		}
		d := time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute
		if slices.Contains(out.Starts, d) {
			return Shifts{}, fmt.Errorf("shifts %q: %s twice", s, hm)
		}
		out.Starts = append(out.Starts, d)
	}
	slices.Sort(out.Starts)
	return out, nil
}

// String writes s as ParseShifts reads it.
func (s Shifts) String() string {
	s = s.orDefault()
	out := []string{s.Zone.String()}
	for _, d := range s.Starts {
		out = append(out, fmt.Sprintf("%02d:%02d", int(d.Hours()), int(d.Minutes())%60))
	}
	return strings.Join(out, " ")
}

func (s Shifts) orDefault() Shifts {
	if s.Zone == nil || len(s.Starts) == 0 {
		d, _ := ParseShifts(DefaultShifts)
		return d
	}
	return s
}

// starts are the shift starts of the days around at, in order.
func (s Shifts) starts(at time.Time) []time.Time {
	s = s.orDefault()
	local := at.In(s.Zone)
	var out []time.Time
	for day := -2; day <= 1; day++ {
		y, m, d := local.AddDate(0, 0, day).Date()
		for _, st := range s.Starts {
			h, mi := int(st/time.Hour), int(st%time.Hour/time.Minute)
			t := time.Date(y, m, d, h, mi, 0, 0, s.Zone)
			// A wall time a daylight-saving change skips (02:30 when the
			// clocks go from 02:00 to 03:00) starts the shift as long
			// after the change as it was after its start: 03:30.
			if gh, gm, _ := t.Clock(); gh != h || gm != mi {
				t = t.Add(time.Duration((h-gh)*60+(mi-gm)) * time.Minute)
			}
			out = append(out, t)
		}
	}
	slices.SortFunc(out, time.Time.Compare)
	return slices.CompactFunc(out, time.Time.Equal)
}

// Shift is the shift at holds (previous false) or the one before it
// (true): its start and its end (the next start), in UTC. As a report's
// range, a shift is (start, end]: at a start instant the shift ending then
// is the one at holds.
func (s Shifts) Shift(at time.Time, previous bool) (start, end time.Time) {
	ts := s.starts(at)
	// The starts of the day before at's and of the day before that are
	// before at, so i >= 1.
	i := 0
	for j, t := range ts {
		if t.Before(at) {
			i = j
		}
	}
	if previous {
		i--
	}
	return ts[i].UTC(), ts[i+1].UTC()
}
