package httpapi

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/ruleset"
	"github.com/tablesettle/tablesettle/internal/settle"
)

// appendSettleResponse appends to b the JSON huma writes for
// settleResponse(*s) (encoding/json without HTML escaping, then a newline),
// byte for byte, without building the response value or reflecting over
// it: for a seven-seat round that was a fifth of the request's time. The
// field order, omitempty and null-versus-[] of each type are those of the
// Settle* types in settle.go; TestSettleJSONMatchesEncodingJSON compares
// the two over many settlements and TestSettleJSONKnowsEveryField fails
// when a field is added to one of those types.
func appendSettleResponse(b []byte, s *settle.Settlement) []byte {
	b = append(b, `{"ruleset":`...)
	b = appendJSONString(b, s.Ruleset)
	b = append(b, `,"roundId":`...)
	b = appendJSONString(b, s.RoundID)
	b = append(b, `,"currency":`...)
	b = appendJSONString(b, string(s.Currency))
	b = append(b, `,"void":`...)
	b = strconv.AppendBool(b, s.Void)
	if d := s.Dealer; d != nil {
		b = append(b, `,"dealer":{"cards":`...)
		b = appendJSONString(b, d.Cards)
		b = append(b, `,"category":`...)
		b = appendJSONString(b, d.Category)
		b = append(b, `,"best":`...)
		b = appendJSONString(b, d.Best)
		b = append(b, `,"qualifies":`...)
		b = strconv.AppendBool(b, d.Qualifies)
		if d.Progressive != nil {
			b = append(b, `,"progressive":`...)
			b = appendHand(b, d.Progressive)
		}
		b = append(b, `,"rules":`...)
		b = appendStrings(b, d.Rules)
		b = append(b, '}')
	}
	if s.Community != "" {
		b = append(b, `,"community":`...)
		b = appendJSONString(b, s.Community)
	}
	b = append(b, `,"positions":[`...)
	for i := range s.Positions {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendPosition(b, &s.Positions[i])
	}
	b = append(b, `],"irregularities":[`...)
	for i := range s.Irregularities {
		if i > 0 {
			b = append(b, ',')
		}
		irr := &s.Irregularities[i]
		b = append(b, `{"code":`...)
		b = appendJSONString(b, irr.Code)
		if irr.Seat != 0 {
			b = append(b, `,"seat":`...)
			b = strconv.AppendInt(b, int64(irr.Seat), 10)
		}
		if irr.Wager != "" {
			b = append(b, `,"wager":`...)
			b = appendJSONString(b, string(irr.Wager))
		}
		b = append(b, `,"message":`...)
		b = appendJSONString(b, irr.Message)
		b = append(b, `,"rules":`...)
		b = appendStrings(b, irr.Rules)
		b = append(b, '}')
	}
	t := &s.Totals
	b = append(b, `],"totals":{"staked":`...)
	b = appendAmount(b, t.Staked)
	b = append(b, `,"returned":`...)
	b = appendAmount(b, t.Returned)
	b = append(b, `,"playerNet":`...)
	b = appendAmount(b, t.PlayerNet)
	b = append(b, `,"houseNet":`...)
	b = appendAmount(b, t.HouseNet)
	return append(b, "}}\n"...)
}

func appendPosition(b []byte, p *settle.PositionResult) []byte {
	b = append(b, `{"seat":`...)
	b = strconv.AppendInt(b, int64(p.Seat), 10)
	if p.Hand != nil {
		b = append(b, `,"hand":`...)
		b = appendHand(b, p.Hand)
	}
	if p.Progressive != nil {
		b = append(b, `,"progressive":`...)
		b = appendHand(b, p.Progressive)
	}
	b = append(b, `,"outcome":`...)
	b = appendJSONString(b, string(p.Outcome))
	b = append(b, `,"lines":[`...)
	for i := range p.Lines {
		if i > 0 {
			b = append(b, ',')
		}
		l := &p.Lines[i]
		b = append(b, `{"wager":`...)
		b = appendJSONString(b, string(l.Wager))
		b = append(b, `,"stake":`...)
		b = appendAmount(b, l.Stake)
		b = append(b, `,"result":`...)
		b = appendJSONString(b, string(l.Result))
		b = append(b, `,"returned":`...)
		b = appendAmount(b, l.Returned)
		b = append(b, `,"net":`...)
		b = appendAmount(b, l.Net)
		if l.Odds != "" {
			b = append(b, `,"odds":`...)
			b = appendJSONString(b, l.Odds)
		}
		b = append(b, `,"rules":`...)
		b = appendStrings(b, l.Rules)
		if len(l.Flags) > 0 {
			b = append(b, `,"flags":`...)
			b = appendStrings(b, l.Flags)
		}
		if l.Note != "" {
			b = append(b, `,"note":`...)
			b = appendJSONString(b, l.Note)
		}
		b = append(b, '}')
	}
	b = append(b, `],"jackpot":[`...)
	for i := range p.Jackpot {
		if i > 0 {
			b = append(b, ',')
		}
		e := &p.Jackpot[i]
		b = append(b, `{"wager":`...)
		b = appendJSONString(b, string(e.Wager))
		b = append(b, `,"kind":`...)
		b = appendJSONString(b, e.Kind)
		if e.Category != "" {
			b = append(b, `,"category":`...)
			b = appendJSONString(b, e.Category)
		}
		b = append(b, `,"prize":`...)
		b = appendPay(b, &e.Prize)
		b = append(b, `,"multiplier":`...)
		b = strconv.AppendInt(b, int64(e.Multiplier), 10)
		b = append(b, `,"stake":`...)
		b = appendAmount(b, e.Stake)
		b = append(b, `,"paidBy":`...)
		b = appendJSONString(b, string(e.PaidBy))
		b = append(b, `,"rules":`...)
		b = appendStrings(b, e.Rules)
		b = append(b, '}')
	}
	b = append(b, `],"staked":`...)
	b = appendAmount(b, p.Staked)
	b = append(b, `,"net":`...)
	b = appendAmount(b, p.Net)
	return append(b, '}')
}

func appendHand(b []byte, h *settle.Hand) []byte {
	b = append(b, `{"cards":`...)
	b = appendJSONString(b, h.Cards)
	b = append(b, `,"category":`...)
	b = appendJSONString(b, h.Category)
	b = append(b, `,"best":`...)
	b = appendJSONString(b, h.Best)
	return append(b, '}')
}

// appendPay is ruleset.Pay's JSON (odds omitzero; amount, currency and
// basisPoints omitempty).
func appendPay(b []byte, p *ruleset.Pay) []byte {
	b = append(b, `{"kind":`...)
	b = appendJSONString(b, string(p.Kind))
	if p.Odds != (money.Ratio{}) {
		b = append(b, `,"odds":{"num":`...)
		b = strconv.AppendInt(b, p.Odds.Num, 10)
		b = append(b, `,"den":`...)
		b = strconv.AppendInt(b, p.Odds.Den, 10)
		b = append(b, '}')
	}
	if p.Amount != 0 {
		b = append(b, `,"amount":`...)
		b = appendAmount(b, p.Amount)
	}
	if p.Currency != "" {
		b = append(b, `,"currency":`...)
		b = appendJSONString(b, string(p.Currency))
	}
	if p.BasisPoints != 0 {
		b = append(b, `,"basisPoints":`...)
		b = strconv.AppendInt(b, int64(p.BasisPoints), 10)
	}
	return append(b, '}')
}

func appendAmount(b []byte, a money.Amount) []byte { return strconv.AppendInt(b, int64(a), 10) }

// appendStrings is a []string: null when nil, as encoding/json writes it.
func appendStrings(b []byte, ss []string) []byte {
	if ss == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, s)
	}
	return append(b, ']')
}

// appendJSONString appends s as a JSON string. Printable ASCII other than
// the quote and the backslash is written as is, which is what encoding/json
// does with it; any other string goes through encoding/json itself
// (without HTML escaping, as huma's encoder), so its escaping is exactly
// encoding/json's.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return appendJSONStringSlow(b, s)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

func appendJSONStringSlow(b []byte, s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
}
