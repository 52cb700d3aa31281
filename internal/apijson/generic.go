package apijson

import (
	"bytes"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
)

// huma checks a body by decoding it into a generic value (any: objects
// as map[string]any, arrays as []any, numbers as float64) and validating
// that against the operation's schema, before it decodes the body again
// into the operation's type. decodeGeneric builds that generic value from
// the library's own tokenizer (jsontext: its syntax, its UTF-8 and
// surrogate checks, its depth limit) and does no more than the library's
// Unmarshal into any does, with fewer allocations: a name repeated in the
// body (every position's "seat", "cards", "wagers") is allocated once per
// body, and so is a number repeated (every seat's ante and bet); an array
// is allocated once at its length. It also notes a name
// holding '.', '[' or ']' (namesLocatable) as it goes.
//
// It never refuses anything itself: whenever the body is not a plain
// valid document (any error of the tokenizer, a name given twice, a
// number out of float64's range, data after the value), ok is false and
// the caller decodes with the library's Unmarshal, whose error is the
// answer. So a refusal is the library's, byte for byte; FuzzDecode checks
// that a value decodeGeneric accepts is the one the library decodes.
func decodeGeneric(data []byte) (v any, locatable, ok bool) {
	g := generics.Get().(*genericDecoder)
	defer g.release()
	g.buf = *bytes.NewBuffer(data)
	g.dec.Reset(&g.buf, jsontext.AllowDuplicateNames(true))
	g.locatable = true
	v, ok = g.value()
	if !ok {
		return nil, false, false
	}
	if _, err := g.dec.ReadToken(); err != io.EOF {
		return nil, false, false // more than one value: the library's error
	}
	return v, g.locatable, true
}

// genericDecoder is decodeGeneric's state, kept in a pool between bodies.
type genericDecoder struct {
	buf       bytes.Buffer
	dec       jsontext.Decoder
	names     []string // the names met in this body, each allocated once
	numbers   []any    // the numbers met in this body, each boxed once
	stack     []any    // the elements of the arrays being read
	locatable bool
}

// maxKeptNames bounds the names, and the numbers, a body shares (a
// request has a few dozen distinct names at most; past it each is
// allocated as it comes).
const maxKeptNames = 64

// maxKeptElements bounds the room for array elements a pooled decoder
// keeps between bodies.
const maxKeptElements = 1024

var generics = sync.Pool{New: func() any { return new(genericDecoder) }}

func (g *genericDecoder) release() {
	g.buf = bytes.Buffer{}
	g.dec.Reset(&g.buf)
	clear(g.names)
	g.names = g.names[:0]
	clear(g.numbers)
	g.numbers = g.numbers[:0]
	clear(g.stack)
	g.stack = g.stack[:0]
	if cap(g.stack) > maxKeptElements {
		g.stack = nil // a body's huge array is not kept for the next
	}
	generics.Put(g)
}

func (g *genericDecoder) value() (any, bool) {
	switch g.dec.PeekKind() {
	case '{':
		if _, err := g.dec.ReadToken(); err != nil {
			return nil, false
		}
		obj := make(map[string]any)
		for g.dec.PeekKind() != '}' {
			raw, err := g.dec.ReadValue()
			if err != nil {
				return nil, false
			}
			name, ok := g.name(raw)
			if !ok {
				return nil, false
			}
			if _, dup := obj[name]; dup {
				return nil, false
			}
			v, ok := g.value()
			if !ok {
				return nil, false
			}
			obj[name] = v
		}
		if _, err := g.dec.ReadToken(); err != nil {
			return nil, false
		}
		return obj, true
	case '[':
		if _, err := g.dec.ReadToken(); err != nil {
			return nil, false
		}
		start := len(g.stack)
		for g.dec.PeekKind() != ']' {
			v, ok := g.value()
			if !ok {
				return nil, false
			}
			g.stack = append(g.stack, v)
		}
		if _, err := g.dec.ReadToken(); err != nil {
			return nil, false
		}
		arr := make([]any, len(g.stack)-start)
		copy(arr, g.stack[start:])
		clear(g.stack[start:])
		g.stack = g.stack[:start]
		return arr, true
	}
	raw, err := g.dec.ReadValue()
	if err != nil {
		return nil, false
	}
	switch raw.Kind() {
	case 'n':
		return nil, true
	case 'f':
		return false, true
	case 't':
		return true, true
	case '"':
		u, ok := unquoted(raw)
		if !ok {
			return nil, false
		}
		return string(u), true
	case '0':
		f, err := strconv.ParseFloat(string(raw), 64)
		if err != nil {
			return nil, false // out of range: the library's error
		}
		return g.number(f), true
	}
	return nil, false
}

// number is f as an any, boxed once per body for each value (bit for bit:
// -0 is not 0): a request repeats its amounts (every seat's ante and bet).
func (g *genericDecoder) number(f float64) any {
	bits := math.Float64bits(f)
	for _, n := range g.numbers {
		if math.Float64bits(n.(float64)) == bits {
			return n
		}
	}
	var n any = f
	if len(g.numbers) < maxKeptNames {
		g.numbers = append(g.numbers, n)
	}
	return n
}

// name is the object name raw (quoted, as read), allocated once per body.
func (g *genericDecoder) name(raw jsontext.Value) (string, bool) {
	u, ok := unquoted(raw)
	if !ok {
		return "", false
	}
	for _, n := range g.names {
		if n == string(u) {
			return n, true
		}
	}
	n := string(u)
	if len(g.names) < maxKeptNames {
		g.names = append(g.names, n)
	}
	if g.locatable && strings.ContainsAny(n, ".[]") {
		g.locatable = false
	}
	return n, true
}

// unquoted is the string raw (quoted, as read) holds: the bytes between
// its quotes when it has no escape, else unescaped by the library.
func unquoted(raw jsontext.Value) ([]byte, bool) {
	if len(raw) >= 2 && bytes.IndexByte(raw, '\\') < 0 {
		return raw[1 : len(raw)-1], true
	}
	u, err := jsontext.AppendUnquote(nil, raw)
	return u, err == nil
}
