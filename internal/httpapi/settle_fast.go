package httpapi

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"sync"

	"github.com/danielgtaylor/huma/v2"

	"github.com/tablesettle/tablesettle/internal/money"
	"github.com/tablesettle/tablesettle/internal/settle"
)

// The settle operation's fast path. huma handles a request body by decoding
// it twice, once into a generic value to validate it against the schema
// (which is what names the failing field in an error and refuses unknown
// fields) and once into SettleRequest; for a seven-seat round that was the
// largest cost of the whole request. The fast path is an operation
// middleware that decodes the body once, with a strict decoder that accepts
// only a plain document it fully understands and that meets every
// constraint of the SettleRequest schema, and settles it. Anything else (an
// unknown, duplicate, null or escaped field, a number with a fraction,
// exponent or sign, a constraint broken, another Content-Type or Accept, a
// round settle refuses) goes down huma's ordinary path unchanged, body and
// all, so every error is exactly the problem+json huma writes. Tests check
// that whatever the fast path accepts, huma accepts too and decodes to the
// same value, and that both paths answer byte for byte the same.

// settleFastPath returns the settle operation's middleware.
func settleFastPath() func(huma.Context, func(huma.Context)) {
	// Response buffers, reused once written (net/http has copied them).
	bufs := &sync.Pool{New: func() any { b := make([]byte, 0, 8<<10); return &b }}
	return func(ctx huma.Context, next func(huma.Context)) {
		if ctx.Header("Content-Type") != "application/json" {
			next(ctx)
			return
		}
		if a := ctx.Header("Accept"); a != "" && a != "application/json" {
			next(ctx)
			return
		}
		r := ctx.BodyReader()
		if r == nil {
			next(ctx)
			return
		}
		var body []byte
		var err error
		replay := func() { next(ctx) }
		if rb, ok := r.(requestBody); ok && rb.Len() == len(rb.b) {
			// The middleware's copy, not yet read: huma can still read it all.
			body = rb.Bytes()
		} else {
			body, err = io.ReadAll(io.LimitReader(r, MaxBodyBytes+1))
			replay = func() {
				var rest io.Reader = bytes.NewReader(body)
				if err != nil {
					rest = io.MultiReader(rest, errReader{err})
				}
				next(replayContext{humaContext: ctx, body: rest})
			}
		}
		if err != nil || len(body) == 0 || len(body) > MaxBodyBytes {
			replay()
			return
		}
		var req SettleRequest
		if !decodeSettleFast(body, &req) {
			replay()
			return
		}
		s, serr := settle.Settle(req.round())
		if serr != nil {
			replay() // huma's path settles again and maps the error
			return
		}
		// What huma does with a handler's output (Transform, which changes
		// no SettleResponse, negotiation to application/json, status,
		// Marshal), with the response encoded by hand and sent with its
		// length; TestFastPathAnswersAsHuma holds the two to the same bytes.
		buf := bufs.Get().(*[]byte)
		b := appendSettleResponse((*buf)[:0], &s)
		ctx.SetHeader("Content-Type", "application/json")
		ctx.SetHeader("Content-Length", strconv.Itoa(len(b)))
		ctx.SetStatus(http.StatusOK)
		_, _ = ctx.BodyWriter().Write(b)
		if cap(b) <= 64<<10 {
			*buf = b
			bufs.Put(buf)
		}
	}
}

// replayContext is a huma.Context whose body is read again from the start.
type replayContext struct {
	humaContext // embedded under another name: huma.Context has a method Context
	body        io.Reader
}

type humaContext = huma.Context

func (c replayContext) BodyReader() io.Reader { return c.body }

// errReader replays a read error after the bytes that were read.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// decodeSettleFast decodes body into r and reports true only when body is a
// JSON object huma would validate against the SettleRequest schema without
// a single error and decode into the same value: exactly the schema's
// fields, each once, with the right type and within its constraints,
// strings of printable ASCII without escapes, integers without sign,
// fraction or exponent and at most 18 digits, no null. On false, r is
// undefined and the caller must use huma's path.
func decodeSettleFast(body []byte, r *SettleRequest) bool {
	// One conversion: every string of the request is a substring of it.
	s := scanner{b: string(body)}
	const (
		fRuleset = 1 << iota
		fRoundID
		fCurrency
		fDealer
		fCommunity
		fLimits
		fProgUnit
		fPositions
		fMagicCard
		fLuckySeat
		fLuckyDeal
		required = fRuleset | fRoundID | fDealer | fPositions
	)
	var seen int
	ok := s.object(func(key string) bool {
		var bit int
		var ok bool
		switch key {
		case "ruleset":
			bit = fRuleset
			r.Ruleset, ok = s.str(-1)
			ok = ok && validRuleset(r.Ruleset)
		case "roundId":
			bit = fRoundID
			r.RoundID, ok = s.str(128)
		case "currency":
			bit = fCurrency
			r.Currency, ok = s.str(3)
		case "dealer":
			bit = fDealer
			r.Dealer, ok = s.str(200)
		case "community":
			bit = fCommunity
			r.Community, ok = s.str(200)
		case "limits":
			bit = fLimits
			r.Limits, ok = s.limits()
		case "progressiveUnit":
			bit = fProgUnit
			var n int64
			n, ok = s.uint(-1)
			r.ProgUnit = money.Amount(n)
		case "positions":
			bit = fPositions
			r.Positions, ok = s.positions()
		case "magicCard":
			bit = fMagicCard
			r.MagicCard, ok = s.str(8)
		case "luckyPlayerSeat":
			bit = fLuckySeat
			var n int64
			n, ok = s.uint(7)
			r.LuckySeat = int(n)
		case "luckyDealer":
			bit = fLuckyDeal
			var b bool
			b, ok = s.boolean()
			r.LuckyDeal = &b
		default:
			return false
		}
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
		return true
	})
	return ok && s.end() && seen&required == required
}

func validRuleset(id string) bool {
	switch id {
	case "mbs-megalink-ssp-v6", "mbs-ssp-v4", "mbs-megalink-tcp-v6", "mbs-megalink-thb-v9", "rws-mlp-csp-v2":
		return true
	}
	return false
}

func (s *scanner) limits() (map[string]SettleLimit, bool) {
	m := map[string]SettleLimit{}
	ok := s.object(func(key string) bool {
		if _, dup := m[key]; dup {
			return false
		}
		var l SettleLimit
		var seenMin, seenMax bool
		ok := s.object(func(k string) bool {
			n, ok := s.uint(-1)
			switch {
			case !ok:
				return false
			case k == "min" && !seenMin:
				seenMin, l.Min = true, money.Amount(n)
			case k == "max" && !seenMax:
				seenMax, l.Max = true, money.Amount(n)
			default:
				return false
			}
			return true
		})
		m[key] = l
		return ok
	})
	return m, ok
}

func (s *scanner) positions() ([]SettlePosition, bool) {
	if !s.byte('[') || s.byte(']') { // minItems 1
		return nil, false
	}
	ps := make([]SettlePosition, 0, 7)
	for {
		if len(ps) == 7 { // maxItems 7
			return nil, false
		}
		ps = append(ps, SettlePosition{})
		if !s.position(&ps[len(ps)-1]) {
			return nil, false
		}
		if s.byte(',') {
			continue
		}
		return ps, s.byte(']')
	}
}

func (s *scanner) position(p *SettlePosition) bool {
	const (
		fSeat = 1 << iota
		fCards
		fWagers
		fFolded
		fExposed
		fAbsent
		fMult
		required = fSeat | fWagers
	)
	var seen int
	ok := s.object(func(key string) bool {
		var bit int
		var ok bool
		switch key {
		case "seat":
			bit = fSeat
			var n int64
			n, ok = s.uint(7)
			ok = ok && n >= 1
			p.Seat = int(n)
		case "cards":
			bit = fCards
			p.Cards, ok = s.str(200)
		case "wagers":
			bit = fWagers
			p.Wagers, ok = s.wagers()
		case "folded":
			bit = fFolded
			p.Folded, ok = s.boolean()
		case "exposed":
			bit = fExposed
			var b bool
			b, ok = s.boolean()
			p.Exposed = &b
		case "absent":
			bit = fAbsent
			p.Absent, ok = s.boolean()
		case "progressiveMultiplier":
			bit = fMult
			var n int64
			n, ok = s.uint(5)
			p.ProgressiveMultiplier = int(n)
		default:
			return false
		}
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
		return true
	})
	return ok && seen&required == required
}

func (s *scanner) wagers() (map[string]money.Amount, bool) {
	m := make(map[string]money.Amount, 4)
	ok := s.object(func(key string) bool {
		if _, dup := m[key]; dup {
			return false
		}
		n, ok := s.uint(-1)
		m[key] = money.Amount(n)
		return ok
	})
	return m, ok
}

// scanner reads the subset of JSON decodeSettleFast accepts.
type scanner struct {
	b string
	i int
}

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// byte consumes c after optional white space.
func (s *scanner) byte(c byte) bool {
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// end reports whether only white space is left.
func (s *scanner) end() bool {
	s.ws()
	return s.i == len(s.b)
}

// object reads an object, calling field with each key positioned at its
// value; field reads the value.
func (s *scanner) object(field func(key string) bool) bool {
	if !s.byte('{') {
		return false
	}
	if s.byte('}') {
		return true
	}
	for {
		key, ok := s.str(-1)
		if !ok || !s.byte(':') || !field(key) {
			return false
		}
		if s.byte(',') {
			continue
		}
		return s.byte('}')
	}
}

// str reads a string of printable ASCII without escapes, of at most max
// bytes (which are its characters) when max >= 0.
func (s *scanner) str(max int) (string, bool) {
	if !s.byte('"') {
		return "", false
	}
	start := s.i
	for s.i < len(s.b) {
		c := s.b[s.i]
		if c == '"' {
			v := s.b[start:s.i]
			s.i++
			return v, max < 0 || len(v) <= max
		}
		if c < 0x20 || c >= 0x7f || c == '\\' {
			return "", false
		}
		s.i++
	}
	return "", false
}

// uint reads a non-negative integer of at most 18 digits without leading
// zeros, fraction or exponent, of at most max when max >= 0.
func (s *scanner) uint(max int64) (int64, bool) {
	s.ws()
	start := s.i
	var n int64
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		n = n*10 + int64(s.b[s.i]-'0')
		s.i++
	}
	digits := s.i - start
	if digits == 0 || digits > 18 || (digits > 1 && s.b[start] == '0') {
		return 0, false
	}
	if s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r', ',', '}', ']':
		default:
			return 0, false
		}
	}
	return n, max < 0 || n <= max
}

func (s *scanner) boolean() (bool, bool) {
	s.ws()
	switch {
	case len(s.b)-s.i >= 4 && s.b[s.i:s.i+4] == "true":
		s.i += 4
		return true, s.delim()
	case len(s.b)-s.i >= 5 && s.b[s.i:s.i+5] == "false":
		s.i += 5
		return false, s.delim()
	}
	return false, false
}

// delim reports whether a literal just read ends where it should.
func (s *scanner) delim() bool {
	if s.i == len(s.b) {
		return true
	}
	switch s.b[s.i] {
	case ' ', '\t', '\n', '\r', ',', '}', ']':
		return true
	}
	return false
}
