package httpapi

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The request decoder's strict half (issue 15 section 3). Every JSON body
// is checked once, before an operation decodes it, by checkJSON: a single
// pass over the bytes that allocates nothing for a good body. It refuses
//
//   - a syntax error (400, location body; the message names the byte
//     offset and the path where it broke);
//   - a key given twice in one object, and two keys that differ only in
//     case ("Cards" after "cards"): Go's JSON decoders match struct fields
//     case-insensitively and keep the last, so either would let a second
//     key change the hand that is paid (422, location: the second key);
//   - invalid UTF-8 in a string or key, and an escape that is half of a
//     UTF-16 surrogate pair: both would be replaced by U+FFFD silently
//     (422, location: the string);
//   - a number beyond the range of a 64-bit float (422);
//   - nesting deeper than maxJSONDepth (422).
//
// Keys are compared after their escapes are decoded ("\u0063ards" is
// "cards"), case-insensitively with Unicode simple folding
// (strings.EqualFold). What passes is a document any JSON decoder reads
// the same way; the schema (huma's validation, once) then checks fields.

// maxJSONDepth is the deepest nesting of objects and arrays accepted; the
// deepest request document is 4 levels.
const maxJSONDepth = 32

// jsonError is what checkJSON refuses: the HTTP status, the location in
// the API's path syntax (body.positions[1].cards) and a message in the
// API's words.
type jsonError struct {
	Status   int
	Location string
	Message  string
}

func (e *jsonError) Error() string { return e.Location + ": " + e.Message }

// pathSeg is one step of a location: an object key or an array index.
type pathSeg struct {
	key   string
	index int // -1: key
}

type jsonChecker struct {
	b    []byte
	i    int
	path []pathSeg
	// at, when >= 0, asks for the location of the last value that starts
	// at or before byte at (pathAt); found is it.
	at    int64
	found string
}

// pathAt returns the location of the value of a checked document b at
// byte offset at: the last value starting at or before it.
func pathAt(b []byte, at int64) string {
	c := jsonChecker{b: b, at: at, found: "body"}
	c.space()
	_ = c.value(0)
	return c.found
}

// checkJSON checks b as described above; nil when it passes.
func checkJSON(b []byte) *jsonError {
	c := jsonChecker{b: b, at: -1}
	c.space()
	if err := c.value(0); err != nil {
		return err
	}
	c.space()
	if c.i < len(c.b) {
		return c.syntax("more data after the JSON document")
	}
	return nil
}

// location renders the current path, each key bounded (maxEcho).
func (c *jsonChecker) location() string {
	var sb strings.Builder
	sb.WriteString("body")
	for _, s := range c.path {
		if s.index >= 0 {
			sb.WriteByte('[')
			sb.WriteString(strconv.Itoa(s.index))
			sb.WriteByte(']')
			continue
		}
		sb.WriteByte('.')
		sb.WriteString(s.key)
	}
	return bound(sb.String())
}

func (c *jsonChecker) syntax(what string) *jsonError {
	return &jsonError{Status: 400, Location: "body", Message: fmt.Sprintf("not valid JSON at byte %d (in %s): %s", c.i, c.location(), what)}
}

func (c *jsonChecker) invalid(msg string) *jsonError {
	return &jsonError{Status: 422, Location: c.location(), Message: msg}
}

func (c *jsonChecker) space() {
	for c.i < len(c.b) {
		switch c.b[c.i] {
		case ' ', '\t', '\n', '\r':
			c.i++
		default:
			return
		}
	}
}

func (c *jsonChecker) value(depth int) *jsonError {
	if c.at >= 0 && int64(c.i) <= c.at {
		c.found = c.location()
	}
	if c.i >= len(c.b) {
		return c.syntax("the document ends where a value was expected")
	}
	switch ch := c.b[c.i]; {
	case ch == '{':
		if depth >= maxJSONDepth {
			return c.invalid(fmt.Sprintf("nested deeper than %d levels", maxJSONDepth))
		}
		return c.object(depth + 1)
	case ch == '[':
		if depth >= maxJSONDepth {
			return c.invalid(fmt.Sprintf("nested deeper than %d levels", maxJSONDepth))
		}
		return c.array(depth + 1)
	case ch == '"':
		_, _, err := c.str()
		return err
	case ch == '-' || ch >= '0' && ch <= '9':
		return c.number()
	case ch == 't':
		return c.literal("true")
	case ch == 'f':
		return c.literal("false")
	case ch == 'n':
		return c.literal("null")
	default:
		return c.syntax("expected a value (object, array, string, number, true, false or null)")
	}
}

func (c *jsonChecker) literal(lit string) *jsonError {
	if len(c.b)-c.i < len(lit) || string(c.b[c.i:c.i+len(lit)]) != lit {
		return c.syntax("expected " + lit)
	}
	c.i += len(lit)
	return nil
}

func (c *jsonChecker) number() *jsonError {
	digits := func() int {
		n := 0
		for c.i < len(c.b) && c.b[c.i] >= '0' && c.b[c.i] <= '9' {
			c.i++
			n++
		}
		return n
	}
	start := c.i
	if c.b[c.i] == '-' {
		c.i++
	}
	if c.i < len(c.b) && c.b[c.i] == '0' {
		c.i++
	} else if digits() == 0 {
		return c.syntax("expected a digit")
	}
	if c.i < len(c.b) && c.b[c.i] == '.' {
		c.i++
		if digits() == 0 {
			return c.syntax("expected a digit after the decimal point")
		}
	}
	if c.i < len(c.b) && (c.b[c.i] == 'e' || c.b[c.i] == 'E') {
		c.i++
		if c.i < len(c.b) && (c.b[c.i] == '+' || c.b[c.i] == '-') {
			c.i++
		}
		if digits() == 0 {
			return c.syntax("expected a digit in the exponent")
		}
		return c.finite(start)
	}
	if c.i-start > 300 {
		return c.finite(start)
	}
	return nil
}

// finite refuses a number beyond the range of a 64-bit float (1E700),
// which no decoder can read as a number.
func (c *jsonChecker) finite(start int) *jsonError {
	if _, err := strconv.ParseFloat(string(c.b[start:c.i]), 64); err != nil {
		return c.invalid("the number is beyond the range of a 64-bit floating-point number")
	}
	return nil
}

// str reads a string at c.i. It returns its raw contents (between the
// quotes) and whether they hold an escape.
func (c *jsonChecker) str() (raw []byte, escaped bool, err *jsonError) {
	c.i++ // the opening quote
	start := c.i
	for c.i < len(c.b) {
		ch := c.b[c.i]
		switch {
		case ch == '"':
			raw = c.b[start:c.i]
			c.i++
			return raw, escaped, nil
		case ch == '\\':
			escaped = true
			if err := c.escape(); err != nil {
				return nil, false, err
			}
		case ch < 0x20:
			return nil, false, c.syntax("a control character in a string (write it as an escape)")
		case ch < utf8.RuneSelf:
			c.i++
		default:
			r, n := utf8.DecodeRune(c.b[c.i:])
			if r == utf8.RuneError && n <= 1 {
				return nil, false, c.invalid("the string is not valid UTF-8")
			}
			c.i += n
		}
	}
	return nil, false, c.syntax("the document ends inside a string")
}

// escape checks one escape at c.i (the backslash) and moves past it.
func (c *jsonChecker) escape() *jsonError {
	if c.i+1 >= len(c.b) {
		return c.syntax("the document ends inside an escape")
	}
	switch c.b[c.i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		c.i += 2
		return nil
	case 'u':
		r, ok := hex4(c.b, c.i+2)
		if !ok {
			return c.syntax(`expected four hex digits after \u`)
		}
		c.i += 6
		if !utf16.IsSurrogate(r) {
			return nil
		}
		if r < 0xDC00 && c.i+1 < len(c.b) && c.b[c.i] == '\\' && c.b[c.i+1] == 'u' {
			if r2, ok := hex4(c.b, c.i+2); ok && r2 >= 0xDC00 && r2 <= 0xDFFF {
				c.i += 6
				return nil
			}
		}
		return c.invalid(`the string has a \u escape that is half of a UTF-16 surrogate pair (not a character)`)
	default:
		return c.syntax("an unknown escape in a string")
	}
}

func hex4(b []byte, at int) (rune, bool) {
	if at+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, ch := range b[at : at+4] {
		r <<= 4
		switch {
		case ch >= '0' && ch <= '9':
			r |= rune(ch - '0')
		case ch >= 'a' && ch <= 'f':
			r |= rune(ch-'a') + 10
		case ch >= 'A' && ch <= 'F':
			r |= rune(ch-'A') + 10
		default:
			return 0, false
		}
	}
	return r, true
}

// unescape decodes a checked string's escapes (surrogate pairs included).
func unescape(raw []byte) string {
	var sb strings.Builder
	sb.Grow(len(raw))
	for i := 0; i < len(raw); i++ {
		ch := raw[i]
		if ch != '\\' {
			sb.WriteByte(ch)
			continue
		}
		i++
		switch raw[i] {
		case 'u':
			r, _ := hex4(raw, i+1)
			i += 4
			if utf16.IsSurrogate(r) { // checked: a high half followed by a low half
				r2, _ := hex4(raw, i+3)
				r = utf16.DecodeRune(r, r2)
				i += 6
			}
			sb.WriteRune(r)
		case 'b':
			sb.WriteByte('\b')
		case 'f':
			sb.WriteByte('\f')
		case 'n':
			sb.WriteByte('\n')
		case 'r':
			sb.WriteByte('\r')
		case 't':
			sb.WriteByte('\t')
		default: // " \ /
			sb.WriteByte(raw[i])
		}
	}
	return sb.String()
}

func (c *jsonChecker) object(depth int) *jsonError {
	c.i++ // {
	c.space()
	if c.i < len(c.b) && c.b[c.i] == '}' {
		c.i++
		return nil
	}
	var keys []string
	var folded map[string]string // lower-cased key -> key, for large objects
	seg := len(c.path)
	for {
		c.path = c.path[:seg] // a key's own error is the object's
		if c.i >= len(c.b) || c.b[c.i] != '"' {
			return c.syntax("expected a key (a string)")
		}
		raw, escaped, err := c.str()
		if err != nil {
			return err
		}
		key := string(raw)
		if escaped {
			key = unescape(raw)
		}
		c.path = append(c.path, pathSeg{key: key, index: -1})
		if prev, dup := seenKey(keys, folded, key); dup {
			if prev == key {
				return c.invalid(fmt.Sprintf("the key %q is given twice; give it once", bound(key)))
			}
			return c.invalid(fmt.Sprintf("the key %q differs only in case from %q given before; keys are case-sensitive, give each once", bound(key), bound(prev)))
		}
		if folded == nil && len(keys) < 16 {
			keys = append(keys, key)
		} else {
			if folded == nil {
				folded = make(map[string]string, 32)
				for _, k := range keys {
					folded[foldKey(k)] = k
				}
			}
			folded[foldKey(key)] = key
		}
		c.space()
		if c.i >= len(c.b) || c.b[c.i] != ':' {
			return c.syntax("expected ':' after a key")
		}
		c.i++
		c.space()
		if err := c.value(depth); err != nil {
			return err
		}
		c.space()
		if c.i >= len(c.b) {
			return c.syntax("the document ends inside an object")
		}
		switch c.b[c.i] {
		case ',':
			c.i++
			c.space()
		case '}':
			c.i++
			c.path = c.path[:seg]
			return nil
		default:
			return c.syntax("expected ',' or '}' after a value in an object")
		}
	}
}

// seenKey reports whether key, or a key equal to it under case folding,
// was seen before in the object, and which.
func seenKey(keys []string, folded map[string]string, key string) (string, bool) {
	if folded != nil {
		prev, ok := folded[foldKey(key)]
		return prev, ok
	}
	for _, k := range keys {
		if k == key || strings.EqualFold(k, key) {
			return k, true
		}
	}
	return "", false
}

// foldKey maps every key strings.EqualFold equates to one string.
func foldKey(k string) string {
	return strings.ToLower(strings.ToUpper(k))
}

func (c *jsonChecker) array(depth int) *jsonError {
	c.i++ // [
	c.space()
	if c.i < len(c.b) && c.b[c.i] == ']' {
		c.i++
		return nil
	}
	c.path = append(c.path, pathSeg{index: 0})
	seg := len(c.path) - 1
	for n := 0; ; n++ {
		c.path[seg].index = n
		if err := c.value(depth); err != nil {
			return err
		}
		c.space()
		if c.i >= len(c.b) {
			return c.syntax("the document ends inside an array")
		}
		switch c.b[c.i] {
		case ',':
			c.i++
			c.space()
		case ']':
			c.i++
			c.path = c.path[:seg]
			return nil
		default:
			return c.syntax("expected ',' or ']' after a value in an array")
		}
	}
}

// maxEcho bounds what an error repeats of the request: a location, a key
// or a value longer than maxEcho bytes is cut to maxEcho bytes (at a
// character boundary) and ends in "...".
const maxEcho = 96

// bound cuts s to maxEcho bytes (see maxEcho).
func bound(s string) string { return boundTo(s, maxEcho) }

// boundTo cuts s to n bytes at a character boundary, marked with "...".
func boundTo(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// canonicalEscapes rewrites the \u escapes of a checked document that
// stand for a printable character (not '"' or '\\') as that character,
// and \/ as /, so that every decoder reads a string written with escapes
// as the same string ("2026-03-01T20:00:00\u002B08:00" is a date-time:
// Go's time.Time reads the raw bytes). It returns b itself when there is
// nothing to rewrite.
func canonicalEscapes(b []byte) []byte {
	if !bytes.Contains(b, []byte(`\u`)) && !bytes.Contains(b, []byte(`\/`)) {
		return b
	}
	out := make([]byte, 0, len(b))
	inString := false
	for i := 0; i < len(b); i++ {
		ch := b[i]
		if !inString {
			out = append(out, ch)
			inString = ch == '"'
			continue
		}
		switch {
		case ch == '"':
			inString = false
			out = append(out, ch)
		case ch != '\\':
			out = append(out, ch)
		case b[i+1] == '/':
			out = append(out, '/')
			i++
		case b[i+1] != 'u':
			out = append(out, b[i], b[i+1])
			i++
		default:
			r, _ := hex4(b, i+2)
			n := 6
			if utf16.IsSurrogate(r) {
				r2, _ := hex4(b, i+8) // a checked document pairs every surrogate
				r = utf16.DecodeRune(r, r2)
				n = 12
			}
			if r < 0x20 || r == '"' || r == '\\' || r == utf8.RuneError {
				out = append(out, b[i:i+n]...)
			} else {
				out = utf8.AppendRune(out, r)
			}
			i += n - 1
		}
	}
	return out
}
