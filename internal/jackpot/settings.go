package jackpot

import (
	"fmt"
	"time"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// ChangeSettings records a change of p's settings (who, when, old, new).
// It takes effect after the pool's next reset, never mid-cycle; a second
// change before that reset replaces the first, and is recorded too.
func ChangeSettings(p Pool, s Settings, by Actor, reason string, now time.Time) (Pool, []Entry, error) {
	return Standard().ChangeSettings(p, s, by, reason, now)
}

// ChangeSettings is ChangeSettings for a pool under k's rulesets.
func (k Rules) ChangeSettings(p Pool, s Settings, by Actor, reason string, now time.Time) (Pool, []Entry, error) {
	if err := requireActor(by); err != nil {
		return Pool{}, nil, err
	}
	s = k.withDefaultWindow(s)
	if s.Currency == p.Settings.Currency {
		// A change names the ruleset the pool's currency cannot serve
		// (the currency itself does not change).
		for i, r := range s.Rulesets {
			rs, ok := k.Rulesets.Lookup(ruleset.ID(r))
			if !ok {
				continue // Validate names it
			}
			if err := settlesIn(rs, s.Currency); err != nil {
				fe, _ := fault.As(err)
				return Pool{}, nil, fault.InvalidField(fmt.Sprintf("rulesets[%d]", i), r, "%s", fe.Detail)
			}
		}
	}
	if err := k.Validate(s); err != nil {
		return Pool{}, nil, err
	}
	if s.Currency != p.Settings.Currency {
		return Pool{}, nil, invalid("currency", "a pool's currency cannot change")
	}
	if k.Casino(s) != k.Casino(p.Settings) || k.majorsOf(s) != k.majorsOf(p.Settings) {
		return Pool{}, nil, invalid("rulesets", "a pool stays with one casino's rulesets, which pay major hits alike (ruling R7)")
	}
	q := p.clone()
	c := &change{pool: &q, now: now}
	old := p.Settings
	nw := s
	nw.Rulesets = append([]string(nil), s.Rulesets...)
	c.post(Entry{Kind: KindSettingsChange, Actor: &by, Reason: reason, Old: &old, New: &nw,
		Note: "takes effect after the next reset, never mid-cycle"})
	q.Pending = &SettingsChange{By: by.ID, Actor: &by, At: now, Reason: reason, Settings: nw}
	linkNow(&q, nw)
	if c.err != nil {
		return Pool{}, nil, overflowError(c.pool.Settings.Currency, c.err)
	}
	c.finish()
	return q, c.entries, nil
}

// Adjustment is a recorded, signed correction of one meter: the only way a
// meter moves other than a contribution or a hit.
type Adjustment struct {
	Meter  string       `json:"meter"` // displayed, reserve or overflow
	Amount money.Amount `json:"amount"`
	Reason string       `json:"reason"`
}

// Adjust applies a recorded adjustment signed by by. A meter never goes
// below zero.
func Adjust(p Pool, a Adjustment, by Actor, now time.Time) (Pool, []Entry, error) {
	if err := requireActor(by); err != nil {
		return Pool{}, nil, err
	}
	if a.Reason == "" {
		return Pool{}, nil, invalid("reason", "an adjustment states its reason")
	}
	if a.Amount == 0 || a.Amount > MaxAmount || a.Amount < -MaxAmount {
		return Pool{}, nil, invalid("amount", "an adjustment moves a meter by %s to %s, up or down (not zero; 1-%s minor units)", p.Settings.Currency.Format(1), p.Settings.Currency.Format(MaxAmount), money.Grouped(MaxAmount))
	}
	e := Entry{Kind: KindAdjustment, Actor: &by, Reason: a.Reason}
	var have money.Amount
	switch a.Meter {
	case "displayed":
		e.Displayed, have = a.Amount, p.Meters.Displayed
	case "reserve":
		e.Reserve, have = a.Amount, p.Meters.Reserve
	case "overflow":
		e.Overflow, have = a.Amount, p.Meters.Overflow
	default:
		return Pool{}, nil, invalid("meter", "meter is displayed, reserve or overflow")
	}
	if after, err := money.Add(have, a.Amount); err != nil {
		return Pool{}, nil, overflowError(p.Settings.Currency, fmt.Errorf("the %s meter would overflow", a.Meter))
	} else if after < 0 {
		return Pool{}, nil, invalid("amount", "the %s meter holds %s: %s would take it below zero", a.Meter, p.Settings.Currency.Format(have), p.Settings.Currency.Format(a.Amount))
	}
	q := p.clone()
	c := &change{pool: &q, now: now}
	c.post(e)
	if c.err != nil {
		return Pool{}, nil, overflowError(c.pool.Settings.Currency, c.err)
	}
	c.finish()
	return q, c.entries, nil
}

// SettingsPatch is a change to some of a pool's settings: the fields
// given replace the pending settings (or the current ones); the others
// keep their values.
type SettingsPatch struct {
	Rulesets       []string           `json:"rulesets,omitempty"`
	Unit           *money.Amount      `json:"unit,omitempty"`
	ContributionBP *money.BasisPoints `json:"contributionBp,omitempty"`
	ReserveBP      *money.BasisPoints `json:"reserveBp,omitempty"`
	Reset          *money.Amount      `json:"reset,omitempty"`
	Ceiling        *money.Amount      `json:"ceiling,omitempty"`
	SettleWindowMS *int64             `json:"settleWindowMs,omitempty"`
	Verify         *Verify            `json:"verify,omitempty"`
	// ProposalTTLSeconds: 0 leaves it as it is.
	ProposalTTLSeconds *int64 `json:"proposalTtlSeconds,omitempty"`
	// Tables and DisplayName take effect when the change is approved.
	Tables      []string `json:"tables,omitempty"`
	DisplayName *string  `json:"displayName,omitempty"`
}

// PatchAll is the patch that sets every field to s's.
func PatchAll(s Settings) SettingsPatch {
	return SettingsPatch{Rulesets: append([]string(nil), s.Rulesets...), Unit: &s.Unit, ContributionBP: &s.ContributionBP, ReserveBP: &s.ReserveBP,
		Reset: &s.Reset, Ceiling: &s.Ceiling, SettleWindowMS: &s.SettleWindowMS, Verify: s.Verify, ProposalTTLSeconds: &s.ProposalTTLSeconds,
		Tables: append([]string(nil), s.Tables...), DisplayName: &s.DisplayName}
}

// On returns the settings p's patch makes of the pool's pending settings
// (or its current ones).
func (pt SettingsPatch) On(p Pool) Settings {
	s := p.Settings
	if p.Pending != nil {
		s = p.Pending.Settings
	}
	s.Rulesets = append([]string(nil), s.Rulesets...)
	if pt.Rulesets != nil {
		s.Rulesets = append([]string(nil), pt.Rulesets...)
	}
	if pt.Unit != nil {
		s.Unit = *pt.Unit
	}
	if pt.ContributionBP != nil {
		s.ContributionBP = *pt.ContributionBP
	}
	if pt.ReserveBP != nil {
		s.ReserveBP = *pt.ReserveBP
	}
	if pt.Reset != nil {
		s.Reset = *pt.Reset
	}
	if pt.Ceiling != nil {
		s.Ceiling = *pt.Ceiling
	}
	if pt.SettleWindowMS != nil {
		s.SettleWindowMS = *pt.SettleWindowMS
	}
	if pt.Verify != nil {
		v := *pt.Verify
		s.Verify = &v
	}
	if pt.ProposalTTLSeconds != nil {
		s.ProposalTTLSeconds = *pt.ProposalTTLSeconds
	}
	s.Tables = append([]string(nil), s.Tables...)
	if pt.Tables != nil {
		s.Tables = append([]string(nil), pt.Tables...)
	}
	if pt.DisplayName != nil {
		s.DisplayName = *pt.DisplayName
	}
	return s
}
