package httpapi

import (
	"errors"
	"io"
	"reflect"

	"github.com/danielgtaylor/huma/v2"
	gojson "github.com/goccy/go-json"
)

// jsonFormat is the one JSON codec of every operation, request and
// response (huma.Config.Formats): github.com/goccy/go-json, chosen by
// measurement (BenchmarkLoopbackVsEcho; docs/decisions/json-codec.md), which writes
// the same bytes as encoding/json for every answer (the golden test in
// internal/lambdaapp). Every body it reads has passed checkJSON (the
// middleware), so it reads a document that any decoder reads the same way;
// huma then validates the body once against the operation's schema.
var jsonFormat = huma.Format{
	Marshal: func(w io.Writer, v any) error {
		enc := gojson.NewEncoder(w)
		enc.SetEscapeHTML(false)
		return enc.Encode(v)
	},
	Unmarshal: func(data []byte, v any) error {
		if err := gojson.Unmarshal(data, v); err != nil {
			return decodeError(data, err)
		}
		return nil
	},
}

// locatedError is a decoding error with the location of the value at
// fault. huma reports a decoder's error as an ErrorDetail at "body" with
// the error's text as its message; newError (errors.go) moves the
// location written before locSep into the detail's location.
type locatedError struct {
	location, message string
}

// locSep separates the location from the message in a locatedError's
// text (a NUL, which no location or message of ours holds).
const locSep = "\x00"

func (e *locatedError) Error() string { return e.location + locSep + e.message }

// decodeError turns a decoder's error into the API's words, at the
// location of the value at fault where the decoder says where it was: no
// Go type names or "json: cannot unmarshal" reach a client. (The schema
// check before it catches almost every wrong type with its path; what is
// left is e.g. an integer beyond int64.)
func decodeError(data []byte, err error) error {
	var te *gojson.UnmarshalTypeError
	if errors.As(err, &te) {
		return &locatedError{location: pathAt(data, te.Offset),
			message: "expected " + jsonKind(te.Type) + ", got " + bound(te.Value)}
	}
	return &locatedError{location: "body", message: "the body could not be read as the operation's request"}
}

// jsonKind names what a Go type is written as in JSON.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "another type"
	}
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
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
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
