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
// measurement (BenchmarkLoopbackVsEcho; README, Performance), which writes
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
			return decodeError(err)
		}
		return nil
	},
}

// decodeError turns a decoder's error into the API's words: no Go type
// names or "json: cannot unmarshal" reach a client.
func decodeError(err error) error {
	var te *gojson.UnmarshalTypeError
	if errors.As(err, &te) {
		return errors.New("expected " + jsonKind(te.Type) + ", got " + te.Value)
	}
	return errors.New("the body could not be read as the operation's request")
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
