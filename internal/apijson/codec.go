// Package apijson is the API's one JSON codec: huma's only format for
// every operation (Format), on github.com/go-json-experiment/json, the
// package that is encoding/json/v2 from Go 1.27. It is strict by
// construction (the library's rules are the API's), turns the library's
// errors into the API's words at the field's location, and writes answers
// with the bytes encoding/json wrote (EncodeOptions). docs/edge.md says
// what it accepts and refuses.
package apijson

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/danielgtaylor/huma/v2"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

// Format is the one JSON codec of every operation, request and
// response (huma.Config.Formats): github.com/go-json-experiment/json, the
// package that is encoding/json/v2 from Go 1.27 (the import path moves
// there when the machine's Go is 1.27).
//
// It is strict by construction. Its defaults refuse a name given twice in
// one object (after its escapes are decoded: "\u0063ards" is "cards"),
// invalid UTF-8 and a lone UTF-16 surrogate escape, and match names
// case-sensitively, so that "Cards" beside (or instead of) "cards" is an
// unknown member, never the same field; DecodeOptions adds
// RejectUnknownMembers. huma validates the body against the operation's
// schema once (with huma.ValidateStrictCasing: Config), so a case-variant
// name is "unexpected property" at its own location there.
//
// Answers are written with EncodeOptions: the same bytes encoding/json
// wrote (the golden test in internal/lambdaapp), without HTML escaping.
var Format = huma.Format{
	Marshal: func(w io.Writer, v any) error {
		if err := json.MarshalWrite(w, v, EncodeOptions); err != nil {
			return err
		}
		_, err := w.Write(newline)
		return err
	},
	Unmarshal: func(data []byte, v any) error {
		if g, generic := v.(*any); generic { // huma's pass before it validates
			if doc, locatable, ok := decodeGeneric(data); ok {
				if !locatable {
					return locatableNames(data)
				}
				*g = doc
				return nil
			}
		}
		if err := json.Unmarshal(data, v, DecodeOptions); err != nil {
			return decodeError(data, err)
		}
		if g, generic := v.(*any); generic && !namesLocatable(*g) { // huma's pass before it validates
			return locatableNames(data)
		}
		return nil
	},
}

// namesLocatable reports whether no object name in the decoded document v
// holds '.', '[' or ']' (locatableNames then finds the first in document
// order: a map keeps none).
func namesLocatable(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if strings.ContainsAny(k, ".[]") || !namesLocatable(e) {
				return false
			}
		}
	case []any:
		for _, e := range v {
			if !namesLocatable(e) {
				return false
			}
		}
	}
	return true
}

// locatableNames refuses, in the valid JSON document data, the first
// member name (in document order) that the API's locations
// (body.positions[2].wagers.ante) cannot write: one holding '.', '[' or
// ']'. No operation takes such a name; and huma's validator, which writes
// its locations in that syntax and steps back out of a name to its last
// '.' or '[', would lose its place after one, locating every later error
// of the body under it ("body.a.x" for "x" after "a.b"). The refusal is
// located at the name itself, quoted in brackets where a dot cannot
// write it: body["a.b"], body.positions[0]["x[1]"].
func locatableNames(data []byte) error {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil // the end: the document was decoded already
		}
		if tok.Kind() != '"' {
			continue
		}
		if kind, n := dec.StackIndex(dec.StackDepth()); kind != '{' || n%2 == 0 {
			continue // a value, not a name
		}
		if name := tok.String(); strings.ContainsAny(name, ".[]") {
			p := dec.StackPointer()
			if p.LastToken() == name {
				p = p.Parent()
			}
			return &locatedError{422, location(data, p) + "[" + strconv.Quote(Bound(name)) + "]", "unexpected property: no name this API takes holds '.', '[' or ']'"}
		}
	}
}

var newline = []byte{'\n'}

// DecodeOptions are the strict defaults plus unknown members refused.
var DecodeOptions = json.RejectUnknownMembers(true)

// EncodeOptions write what encoding/json wrote (the golden answers):
// omitempty as v1 read it (0 and false left out), nil slices and maps as
// null, map keys sorted, no HTML escaping, a newline after the value.
var EncodeOptions = json.JoinOptions(
	jsonv1.OmitEmptyWithLegacySemantics(true),
	json.FormatNilSliceAsNull(true),
	json.FormatNilMapAsNull(true),
	json.Deterministic(true),
	jsontext.EscapeForHTML(false),
	jsontext.EscapeForJS(false),
)

// locatedError is a decoding error with the status it is answered with
// and the location of the value at fault. huma reports a decoder's error
// as an ErrorDetail at "body" with the error's text as its message;
// the API's error maker (httpapi.newError) reads the status and location
// back from that text (LocatedDetail).
type locatedError struct {
	status            int
	location, message string
}

// locSep separates the parts of a locatedError's text (a NUL, which no
// location or message of ours holds).
const locSep = "\x00"

func (e *locatedError) Error() string {
	return locSep + strconv.Itoa(e.status) + locSep + e.location + locSep + e.message
}

// LocatedDetail reads a locatedError's text back (ok false for any other
// message).
func LocatedDetail(msg string) (status int, location, message string, ok bool) {
	rest, ok := strings.CutPrefix(msg, locSep)
	if !ok {
		return 0, "", "", false
	}
	parts := strings.SplitN(rest, locSep, 3)
	if len(parts) != 3 {
		return 0, "", "", false
	}
	status, err := strconv.Atoi(parts[0])
	if err != nil {
		return 0, "", "", false
	}
	return status, parts[1], parts[2], true
}

// decodeError turns a decoder's error into the API's words at the
// location of the value at fault: 400 for a document that is not JSON,
// 422 for JSON this API refuses (a name twice, invalid UTF-8, an unknown
// or case-variant name, a value of the wrong type or out of range). No Go
// type names or "json: cannot unmarshal" reach a client.
func decodeError(data []byte, err error) error {
	var se *json.SemanticError
	if errors.As(err, &se) {
		// The decoder stops at the first value it cannot take; a document
		// that is not JSON further on is answered 400 like any other.
		var v jsontext.Value
		var sy *jsontext.SyntacticError
		if lerr := json.Unmarshal(data, &v, lenient); errors.As(lerr, &sy) {
			return decodeError(data, lerr)
		}
		loc := location(data, se.JSONPointer)
		switch {
		case errors.Is(se.Err, json.ErrUnknownName):
			return &locatedError{422, loc, "unexpected property"}
		case se.GoType != nil:
			return &locatedError{422, loc, "expected " + jsonKind(se.GoType) + ", got " + Bound(string(se.JSONValue))}
		}
		return &locatedError{422, loc, "the value is not what this field takes"}
	}
	var sy *jsontext.SyntacticError
	if errors.As(err, &sy) {
		if errors.Is(sy.Err, jsontext.ErrDuplicateName) || strings.Contains(sy.Err.Error(), "UTF-8") || strings.Contains(sy.Err.Error(), "surrogate") {
			// JSON this API refuses, if it is JSON at all: read leniently,
			// a syntax error further on is the answer (400).
			var v jsontext.Value
			if lerr := json.Unmarshal(data, &v, lenient); lerr != nil {
				return decodeError(data, lerr)
			}
			if errors.Is(sy.Err, jsontext.ErrDuplicateName) {
				return &locatedError{422, location(data, sy.JSONPointer), "the name is given twice in one object"}
			}
			return &locatedError{422, location(data, pointerAt(data, sy.ByteOffset, sy.JSONPointer)), "not valid UTF-8 (or a lone UTF-16 surrogate escape)"}
		}
		return &locatedError{400, "body", "not JSON (RFC 8259) at byte " + strconv.FormatInt(sy.ByteOffset, 10) + ": " + Bound(sy.Err.Error())}
	}
	return &locatedError{400, "body", "the body could not be read as the operation's request"}
}

// lenient reads what the codec refuses but is JSON (RFC 8259 allows a name
// twice and, read as bytes, invalid UTF-8): to tell it from what is not
// JSON, and to find where it is.
var lenient = json.JoinOptions(jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))

// pointerAt is the JSON Pointer of the value or name that holds byte
// offset of the document data (the decoder points at the object that
// holds a bad name; this names the name). It is p when it finds nothing
// longer.
func pointerAt(data []byte, offset int64, p jsontext.Pointer) jsontext.Pointer {
	dec := jsontext.NewDecoder(bytes.NewReader(data), lenient)
	for {
		if _, err := dec.ReadToken(); err != nil {
			return p
		}
		if dec.InputOffset() > offset {
			if sp := dec.StackPointer(); len(sp) > len(p) {
				return sp
			}
			return p
		}
	}
}

// location writes a JSON Pointer (RFC 6901) into the document data in the
// API's path syntax: /positions/2/wagers/ante is
// body.positions[2].wagers.ante. A token is an array index when the value
// it steps into is an array, which the document says (read leniently: the
// error may be a duplicate name or invalid UTF-8).
func location(data []byte, p jsontext.Pointer) string {
	var doc any
	_ = json.Unmarshal(data, &doc, lenient)
	var b strings.Builder
	b.WriteString("body")
	for tok := range p.Tokens() {
		switch v := doc.(type) {
		case []any:
			i, err := strconv.Atoi(tok)
			b.WriteString("[" + tok + "]")
			if err != nil || i < 0 || i >= len(v) {
				doc = nil
			} else {
				doc = v[i]
			}
			continue
		case map[string]any:
			doc = v[tok]
		default:
			doc = nil
		}
		b.WriteString("." + tok)
	}
	return b.String()
}

// jsonKind names what a Go type is written as in JSON.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer in range"
	case reflect.Float32, reflect.Float64:
		return "a number in range"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		if t.Name() == "Time" {
			return "an RFC 3339 date-time string"
		}
		return "an object"
	}
	return "another type"
}

// MaxEcho bounds what an error repeats of the request: a location, a key
// or a value longer than MaxEcho bytes is cut to MaxEcho bytes (at a
// character boundary) and ends in "...".
const MaxEcho = 96

// Bound cuts s to MaxEcho bytes (see MaxEcho) and makes it valid UTF-8.
func Bound(s string) string { return BoundTo(s, MaxEcho) }

// BoundTo cuts s to n bytes at a character boundary, marked with "...".
// Every byte of s that is not part of valid UTF-8 becomes U+FFFD first:
// what an error repeats of a request (a path segment "%C0%AE", a header)
// must encode as JSON, which holds only UTF-8 (issue 33 item 2: such a
// value in errors[].value made the answer fail to marshal, and the client
// got an empty reply or a body cut mid-JSON).
func BoundTo(s string, n int) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}
