package irregularity

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The round of the RWS 5.10 cases: seat 1 (Ante 10.00, BET
// 20.00), seat 2 (Ante 10.00), seat 3 (Ante 10.00, BET 20.00, progressive
// 1.00).
func rws510Round() *Round {
	return round(pos(1, "ante=1000", "bet=2000"), pos(2, "ante=1000"), pos(3, "ante=1000", "bet=2000", "progressive=100"))
}

// settles returns "seat wager settles" for each pending wager.
func settles(ps []Pending) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Settles
	}
	return out
}

// RWS 5.10: "all affected Players" have the options, not every seat. Seat
// 3, the only one affected, withdraws: 31.00 returned; seats 1 and 2 are
// not offered anything and settle as usual.
func TestRWSCSPv2_5_10_OptionsToAffectedPlayersOnly(t *testing.T) {
	for _, c := range []struct {
		name, kind string
		facts      map[string]any
		rules      []string
	}{
		{"dealing_error", "dealing_error", map[string]any{"reconstructable": false}, []string{"5.10", "5.10.1", "5.10.3"}},
		{"5.10_cards_dealt_incorrectly_after_cards_seen", "cards_dealt_incorrectly", map[string]any{"playerSawCards": true, "reconstructable": false}, []string{"5.10", "5.10.1", "5.10.3"}},
		{"5.10_one_card_exposed_before_cards_seen", "cards_exposed_in_deal", map[string]any{"cardsExposed": 1, "playerSawCards": false}, []string{"5.10", "5.10.1", "5.10.3"}},
		// 5.12 after cards were seen offers no 5.10 options (ruling R23):
		// see TestRWSCSPv2_5_12_CardExposedAfterCardsSeenContinues_R23.
	} {
		t.Run(c.name, func(t *testing.T) {
			facts := map[string]any{"affectedSeats": []any{3}, "withdrawnSeats": []any{3}}
			for k, v := range c.facts {
				facts[k] = v
			}
			got := runSettle(t, settleCase{
				ruleset: RWSMLPCSPv2, kind: c.kind, facts: facts, round: rws510Round(),
				action: OfferOptions,
				lines:  []string{"3 ante 1000 returned 1000 0", "3 bet 2000 returned 2000 0", "3 progressive 100 returned 100 0"},
				total:  3100, pending: []string{"1 ante 1000", "1 bet 2000", "2 ante 1000"},
				lineRules: []string{"rws-mlp-csp-v2 5.10.3"},
			})
			if s := seatsString(got.Seats); s != "3:withdrawn" {
				t.Errorf("seats = %q, want only seat 3 (withdrawn)", s)
			}
			if got.OptionsTo != ScopeAffected {
				t.Errorf("optionsTo = %q", got.OptionsTo)
			}
			want := []string{}
			for _, r := range c.rules {
				want = append(want, "rws-mlp-csp-v2 "+r)
			}
			if !slices.Equal(got.Rules, want) {
				t.Errorf("rules = %q, want %q", got.Rules, want)
			}
			if s := settles(got.Settlement.Pending); !slices.Equal(s, []string{"as usual", "as usual", "as usual"}) {
				t.Errorf("unaffected seats settle %q, want as usual", s)
			}

			// Seat 2 affected too and not yet chosen: it alone is listed
			// with the options; seat 1 still settles as usual.
			facts["affectedSeats"] = []any{2, 3}
			got = runSettle(t, settleCase{
				ruleset: RWSMLPCSPv2, kind: c.kind, facts: facts, round: rws510Round(),
				action: OfferOptions,
				lines:  []string{"3 ante 1000 returned 1000 0", "3 bet 2000 returned 2000 0", "3 progressive 100 returned 100 0"},
				total:  3100, pending: []string{"1 ante 1000", "1 bet 2000", "2 ante 1000"},
			})
			if s := seatsString(got.Seats); s != "2:offer_options,3:withdrawn" {
				t.Errorf("seats = %q", s)
			}
			if s := settles(got.Settlement.Pending); !slices.Equal(s, []string{"as usual", "as usual", settlesText(OfferOptions)}) {
				t.Errorf("pending settle %q", s)
			}

			// A withdrawal by an unaffected seat contradicts the facts: the
			// refusal names that seat's element.
			rs, _ := Catalogue(RWSMLPCSPv2)
			facts["affectedSeats"], facts["withdrawnSeats"] = []any{3}, []any{1}
			_, err := Decide(rs, c.kind, facts, rws510Round())
			if f := problems(t, err); !slices.Equal(f, []string{"facts.withdrawnSeats[0]"}) {
				t.Errorf("unaffected withdrawal: fields %q (%v)", f, err)
			}
			// The affected seats are required.
			delete(facts, "affectedSeats")
			delete(facts, "withdrawnSeats")
			_, err = Decide(rs, c.kind, facts, nil)
			if f := problems(t, err); !slices.Equal(f, []string{"facts.affectedSeats"}) {
				t.Errorf("no affected seats: fields %q (%v)", f, err)
			}
		})
	}
}

// RWS 5.9 and 5.14.1 give the 5.10 options to "all Players" at the table:
// there every seat of the round is offered them.
func TestRWSCSPv2_5_14_1_SimultaneousCardsOptionsToAllPlayers(t *testing.T) {
	got := runSettle(t, settleCase{
		ruleset: RWSMLPCSPv2, kind: "simultaneous_cards",
		facts: map[string]any{"reconstructable": false, "withdrawnSeats": []any{3}}, round: rws510Round(),
		action: OfferOptions,
		lines:  []string{"3 ante 1000 returned 1000 0", "3 bet 2000 returned 2000 0", "3 progressive 100 returned 100 0"},
		total:  3100, pending: []string{"1 ante 1000", "1 bet 2000", "2 ante 1000"},
	})
	if s := seatsString(got.Seats); s != "1:offer_options,2:offer_options,3:withdrawn" {
		t.Errorf("seats = %q", s)
	}
}

// RWS 5.15 with 5.10: a wrong card count to a player is a dealing error
// not described in 5.8 (5.8.7 names the Dealer's Hand only) or 5.16, so
// 5.10 applies "regardless of whether Reconstruction is possible".
func TestRWSCSPv2_5_15_WrongPlayerCountIsA510DealingError(t *testing.T) {
	// Reconstructable: 5.15 invalidates nothing; seat 3, affected, withdraws
	// (31.00 back), seat 2 (the wrong count, affected) is offered the
	// options; seat 1 is not affected.
	got := runSettle(t, settleCase{
		ruleset: RWSMLPCSPv2, kind: "player_card_count_wrong",
		facts: map[string]any{"seat": 2, "noticedBeforeNextRound": true, "reconstructable": true, "affectedSeats": []any{2, 3}, "withdrawnSeats": []any{3}},
		round: rws510Round(), action: OfferOptions,
		lines: []string{"3 ante 1000 returned 1000 0", "3 bet 2000 returned 2000 0", "3 progressive 100 returned 100 0"},
		total: 3100, pending: []string{"1 ante 1000", "1 bet 2000", "2 ante 1000"},
		lineRules: []string{"rws-mlp-csp-v2 5.10.3"},
	})
	if s := seatsString(got.Seats); s != "2:offer_options,3:withdrawn" {
		t.Errorf("seats = %q", s)
	}
	if want := []string{"rws-mlp-csp-v2 5.15", "rws-mlp-csp-v2 5.10", "rws-mlp-csp-v2 5.10.2", "rws-mlp-csp-v2 5.10.3"}; !slices.Equal(got.Rules, want) {
		t.Errorf("rules = %q", got.Rules)
	}
	if !slices.Equal(got.Options, []Option{ContinueReconstructed, Withdraw}) {
		t.Errorf("options = %v", got.Options)
	}

	// Not reconstructable: seat 2's Hand is invalidated (5.15: 10.00
	// back); seat 3, the other affected player, withdraws (31.00 back).
	got = runSettle(t, settleCase{
		ruleset: RWSMLPCSPv2, kind: "player_card_count_wrong",
		facts: map[string]any{"seat": 2, "noticedBeforeNextRound": true, "reconstructable": false, "affectedSeats": []any{2, 3}, "withdrawnSeats": []any{3}},
		round: rws510Round(), action: HandRemoved,
		lines: []string{"2 ante 1000 returned 1000 0", "3 ante 1000 returned 1000 0", "3 bet 2000 returned 2000 0", "3 progressive 100 returned 100 0"},
		total: 4100, pending: []string{"1 ante 1000", "1 bet 2000"},
		lineRules: []string{"rws-mlp-csp-v2 5.15", "ruling R12"},
	})
	if s := seatsString(got.Seats); s != "2:hand_removed,3:withdrawn" {
		t.Errorf("seats = %q", s)
	}

	rs, _ := Catalogue(RWSMLPCSPv2)
	for _, c := range []struct {
		name  string
		facts map[string]any
		field string
	}{
		{"WrongCountSeatNotAffected", map[string]any{"seat": 2, "noticedBeforeNextRound": true, "reconstructable": true, "affectedSeats": []any{3}}, "facts.affectedSeats"},
		{"InvalidatedHandCannotWithdraw", map[string]any{"seat": 2, "noticedBeforeNextRound": true, "reconstructable": false, "affectedSeats": []any{2}, "withdrawnSeats": []any{2}}, "facts.withdrawnSeats[0]"},
		{"AffectedSeatsRequired", map[string]any{"seat": 2, "noticedBeforeNextRound": true, "reconstructable": true}, "facts.affectedSeats"},
	} {
		_, err := Decide(rs, "player_card_count_wrong", c.facts, nil)
		if f := problems(t, err); !slices.Equal(f, []string{c.field}) {
			t.Errorf("%s: fields %q (%v)", c.name, f, err)
		}
	}
}

// Ruling R23: cards reconstructed, play continues and no wager is
// withdrawn: MBS 5.7 and 5.7.1 apply only when the cards cannot be
// reconstructed. A withdrawal reported anyway is refused.
func TestMBSSSPv6_5_7_1_NoWithdrawalAfterReconstruction_R23(t *testing.T) {
	got := runSettle(t, settleCase{
		ruleset: MBSMegalinkSSPv6, kind: "player_card_count_wrong",
		facts: map[string]any{"seat": 2, "noticedBeforeNextRound": true, "reconstructable": true},
		round: rws510Round(), action: PlayContinues,
		lines: []string{}, total: 0,
		pending: []string{"1 ante 1000", "1 bet 2000", "2 ante 1000", "3 ante 1000", "3 bet 2000", "3 progressive 100"},
	})
	if !slices.Equal(got.Rules, []string{"ruling R23"}) || len(got.Options) != 0 || len(got.Seats) != 0 {
		t.Errorf("rules %v options %v seats %v", got.Rules, got.Options, got.Seats)
	}
	for _, p := range got.Settlement.Pending {
		if p.Settles != "as usual" {
			t.Errorf("seat %d %s settles %q", p.Seat, p.Wager, p.Settles)
		}
	}
	rs, _ := Catalogue(MBSMegalinkSSPv6)
	_, err := Decide(rs, "player_card_count_wrong", map[string]any{"seat": 2, "noticedBeforeNextRound": true, "reconstructable": true, "withdrawnSeats": []any{3}}, rws510Round())
	if f := problems(t, err); !slices.Equal(f, []string{"facts.withdrawnSeats"}) {
		t.Errorf("withdrawal after reconstruction: fields %q (%v)", f, err)
	}
}

// Ruling R23 (RWS 5.12): once a player has seen his cards, a card exposed
// in the deal is decided by 5.12 alone: the round continues, nothing is
// returned, and no 5.10 option (affected players, withdrawals) is taken.
func TestRWSCSPv2_5_12_CardExposedAfterCardsSeenContinues_R23(t *testing.T) {
	got := runSettle(t, settleCase{
		ruleset: RWSMLPCSPv2, kind: "cards_exposed_in_deal",
		facts: map[string]any{"cardsExposed": 1, "playerSawCards": true},
		round: rws510Round(), action: PlayContinues,
		lines: []string{}, total: 0,
		pending: []string{"1 ante 1000", "1 bet 2000", "2 ante 1000", "3 ante 1000", "3 bet 2000", "3 progressive 100"},
	})
	if !slices.Equal(got.Rules, []string{"rws-mlp-csp-v2 5.12", "ruling R23"}) || len(got.Options) != 0 {
		t.Errorf("rules %v options %v", got.Rules, got.Options)
	}
	rs, _ := Catalogue(RWSMLPCSPv2)
	_, err := Decide(rs, "cards_exposed_in_deal", map[string]any{"cardsExposed": 1, "playerSawCards": true, "affectedSeats": []any{3}, "withdrawnSeats": []any{3}}, rws510Round())
	if f := problems(t, err); !slices.Equal(f, []string{"facts.affectedSeats", "facts.withdrawnSeats"}) {
		t.Errorf("5.10 options after cards seen: fields %q (%v)", f, err)
	}
}

// MBS 5.3, 5.7 (and SSP v4 5.3) apply only to an error noticed before the
// next round began, and MBS has no clause like RWS 5.20: noticed later,
// the event is referred (6.1; SSP v4 has none), every wager left to the
// Gaming Shift Manager.
func TestMBS_5_3_5_7_NoticedLateReferred(t *testing.T) {
	for _, c := range []struct {
		ruleset, kind string
		facts         map[string]any
		rules         []string
	}{
		{MBSMegalinkTCPv6, "player_card_count_wrong", map[string]any{"seat": 1, "noticedBeforeNextRound": false, "reconstructable": false}, []string{"mbs-megalink-tcp-v6 6.1"}},
		{MBSMegalinkTHBv9, "community_card_count_wrong", map[string]any{"noticedBeforeNextRound": false, "reconstructable": false}, []string{"mbs-megalink-thb-v9 6.1"}},
		{MBSSSPv4, "dealer_card_count_wrong", map[string]any{"noticedBeforeNextRound": false, "reconstructable": false}, []string{"ruling R25"}}, // no 6.1 in SSP v4: ruling R25
		{RWSMLPCSPv2, "dealer_card_count_wrong", map[string]any{"noticedBeforeNextRound": false, "reconstructable": false}, []string{"rws-mlp-csp-v2 5.24"}},
	} {
		rs, _ := Catalogue(c.ruleset)
		got, err := Decide(rs, c.kind, c.facts, round(pos(1, "ante=1000")))
		if err != nil {
			t.Fatalf("%s %s: %v", c.ruleset, c.kind, err)
		}
		if got.Action != Referred || got.Covered || !slices.Equal(got.Rules, c.rules) || got.ReferTo == "" {
			t.Errorf("%s %s: %s %q referTo %q", c.ruleset, c.kind, got.Action, got.Rules, got.ReferTo)
		}
		if len(got.Settlement.Lines) != 0 || !slices.Equal(pending(got.Settlement.Pending), []string{"1 ante 1000"}) || !strings.Contains(got.Settlement.Pending[0].Settles, "decides") {
			t.Errorf("%s %s: settlement %+v", c.ruleset, c.kind, got.Settlement)
		}
	}
}

// RWS 5.5: only the absent player's hand is deemed folded; the other seats
// settle as usual.
func TestRWS_5_5_OnlyTheAbsentHandFolded(t *testing.T) {
	rs, _ := Catalogue(RWSMLPCSPv2)
	out, err := Decide(rs, "player_absent", map[string]any{"seat": 1, "decisionsPending": true},
		round(pos(1, "ante=1000", "progressive=100"), pos(2, "ante=1000", "bet=2000")))
	if err != nil {
		t.Fatal(err)
	}
	if got := lines(out.Settlement.Lines); !slices.Equal(got, []string{"1 ante 1000 lose 0 -1000"}) {
		t.Errorf("lines %q", got)
	}
	want := map[string]string{"1 progressive": "as usual", "2 ante": "as usual", "2 bet": "as usual"}
	for _, p := range out.Settlement.Pending {
		k := pendingKey(p)
		if want[k] != p.Settles {
			t.Errorf("%s settles %q, want %q", k, p.Settles, want[k])
		}
		delete(want, k)
	}
	if len(want) != 0 {
		t.Errorf("not pending: %v", want)
	}
	for _, s := range out.Seats {
		if s.Seat != 1 {
			t.Errorf("seat %d named in the outcome: %+v", s.Seat, s)
		}
	}
}

// MBS 5.12.1: before "No More Bets" the player places an Ante or cancels
// the progressive; nothing is withdrawn.
func TestMBS_5_12_1_PlaceAnteOrCancelNoWithdrawal(t *testing.T) {
	for _, id := range []string{MBSMegalinkSSPv6, MBSMegalinkTCPv6, MBSMegalinkTHBv9} {
		t.Run(id, func(t *testing.T) {
			rs, _ := Catalogue(id)
			out, err := Decide(rs, "progressive_without_ante", map[string]any{"seat": 3, "afterNoMoreBets": false},
				round(pos(3, "progressive=100"), pos(4, "ante=1000")))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(out.Options, []Option{PlaceAnte, CancelProgressive}) || slices.Contains(out.Options, Withdraw) {
				t.Fatalf("options %v", out.Options)
			}
			for _, s := range out.Seats {
				if slices.Contains(s.Options, Withdraw) {
					t.Errorf("seat %d offered a withdrawal: %+v", s.Seat, s)
				}
			}
			if len(out.Settlement.Lines) != 0 || out.Settlement.TotalReturned != 0 {
				t.Errorf("lines %v", out.Settlement.Lines)
			}
			for _, p := range out.Settlement.Pending {
				if strings.Contains(p.Settles, "withdraw") {
					t.Errorf("%s: %q speaks of a withdrawal", pendingKey(p), p.Settles)
				}
				if p.Seat == 3 && !strings.Contains(p.Settles, "cancels") {
					t.Errorf("seat 3 %q does not say the cancelled progressive is returned", p.Settles)
				}
				if p.Seat == 4 && p.Settles != "as usual" {
					t.Errorf("seat 4 %q", p.Settles)
				}
			}
		})
	}
}

func pendingKey(p Pending) string { return strconv.Itoa(p.Seat) + " " + p.Wager }
