package irregularity

import (
	"slices"
	"strings"
	"testing"
)

// Ruling R28: one report names several irregularities of a round; each is
// decided, and where they conflict the outcome that voids or returns most
// wins.
func TestReportSeveralIrregularities_R28(t *testing.T) {
	rs, _ := Catalogue(MBSMegalinkSSPv6)
	r := round(pos(1, "ante=5000", "progressive=100"), pos(2, "ante=1000", "bet=2000"))
	over := Event{Kind: "wager_over_maximum", Facts: map[string]any{"seat": 1, "wager": "ante", "maximum": 3000}}
	absentEv := Event{Kind: "player_absent", Facts: map[string]any{"seat": 1}}

	t.Run("5.11_over_5.14_ReturnsMost", func(t *testing.T) {
		// 5.14 alone returns the excess 2000; 5.11 returns the Ante 5000 and
		// the progressive 100: the absence prevails, 5100 returned.
		out, err := DecideReport(rs, over, []Event{absentEv}, r)
		if err != nil {
			t.Fatal(err)
		}
		if out.Kind != "player_absent" || out.Action != HandRemoved || !slices.Contains(out.Rules, "ruling R28") || !slices.Contains(out.Rules, "mbs-megalink-ssp-v6 5.11") {
			t.Fatalf("%s %s %v", out.Kind, out.Action, out.Rules)
		}
		if len(out.Events) != 2 || out.Events[0].Kind != "wager_over_maximum" || out.Events[0].Settlement.TotalReturned != 2000 || out.Events[1].Settlement.TotalReturned != 5100 {
			t.Fatalf("events %+v", out.Events)
		}
		if got := lines(out.Settlement.Lines); !slices.Equal(got, []string{"1 ante 5000 returned 5000 0", "1 progressive 100 returned 100 0"}) {
			t.Errorf("lines %q", got)
		}
		if out.Settlement.TotalReturned != 5100 || !slices.Equal(pending(out.Settlement.Pending), []string{"2 ante 1000", "2 bet 2000"}) {
			t.Errorf("returned %d pending %q", out.Settlement.TotalReturned, pending(out.Settlement.Pending))
		}
		if !strings.Contains(out.Text, "ruling R28") {
			t.Errorf("text %q", out.Text)
		}
	})

	t.Run("5.1_VoidPrevails", func(t *testing.T) {
		out, err := DecideReport(rs, over, []Event{{Kind: "foreign_card"}}, r)
		if err != nil {
			t.Fatal(err)
		}
		if out.Action != RoundVoid || out.Settlement.TotalReturned != 8100 || len(out.Settlement.Pending) != 0 {
			t.Fatalf("%s returned %d pending %v", out.Action, out.Settlement.TotalReturned, out.Settlement.Pending)
		}
	})

	t.Run("5.14_ExcessAndUsualWagersKept", func(t *testing.T) {
		// Over the maximum and a count that is right: the excess 2000 is
		// returned and the rest of the Ante, 3000, settles at the maximum.
		out, err := DecideReport(rs, over, []Event{{Kind: "deck_count", Facts: map[string]any{"countCorrect": true}}}, r)
		if err != nil {
			t.Fatal(err)
		}
		if out.Action != SettledToMaximum || out.Settlement.TotalReturned != 2000 ||
			!slices.Equal(pending(out.Settlement.Pending), []string{"1 ante 3000", "1 progressive 100", "2 ante 1000", "2 bet 2000"}) {
			t.Fatalf("%s returned %d pending %q", out.Action, out.Settlement.TotalReturned, pending(out.Settlement.Pending))
		}
	})

	t.Run("RefusedEventNamed", func(t *testing.T) {
		_, err := DecideReport(rs, over, []Event{absentEv, {Kind: "power_failure"}}, r)
		if f := problems(t, err); !slices.Equal(f, []string{"additional[1].facts.outcomeEstablished"}) {
			t.Fatalf("fields %q", f)
		}
	})
}
