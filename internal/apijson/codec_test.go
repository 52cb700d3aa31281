package apijson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// The codec alone: what it accepts, and what it refuses with
// which status at which location.
func TestDecode(t *testing.T) {
	cases := []struct {
		name, body string
		status     int // 0: accepted
		location   string
	}{
		{"object", `{"a":[1,-2.5e+3,true,false,null,"x\u00e9\n"],"b":{}}`, 0, ""},
		{"surrogate pair", `{"a":"\ud83d\ude00"}`, 0, ""},
		{"same key in two objects", `[{"a":1},{"a":2}]`, 0, ""},
		{"case variants are two names", `{"a":1,"A":2}`, 0, ""},
		{"many keys", `{` + manyKeys(40, "") + `}`, 0, ""},
		{"escaped astral key twice", `{"\ud83d\ude00":1,"😀":2}`, 422, "body.😀"},
		{"escapes of every kind in a key twice", `{"a\b\f\n\r\t\"\\\/é":1,"a\u0008\u000c\u000a\u000d\u0009\u0022\u005c/\u00e9":2}`, 422, "body.a\b\f\n\r\t\"\\/é"},
		{"many keys then one twice", `{` + manyKeys(40, "") + `,"k39":1}`, 422, "body.k39"},
		{"trailing comma", `{"a":1,}`, 400, "body"},
		{"two documents", `{} {}`, 400, "body"},
		{"leading zero", `{"a":01}`, 400, "body"},
		{"number beyond float64", `{"a":[1,1E700]}`, 422, "body.a[1]"},
		{"long number beyond float64", `{"a":` + strings.Repeat("9", 400) + `}`, 422, "body.a"},
		{"small exponent", `{"a":1e-700}`, 0, ""},
		{"bad literal", `{"a":nul}`, 400, "body"},
		{"control character", "{\"a\":\"\x01\"}", 400, "body"},
		{"bad escape", `{"a":"\x"}`, 400, "body"},
		{"overlong UTF-8", "{\"a\":\"\xc0\xaf\"}", 422, "body.a"},
		{"invalid UTF-8 in a name", "{\"a\":{\"b\x8f\":1}}", 422, "body.a.b\ufffd"},
		{"invalid UTF-8, then not JSON", "\"\x9c", 400, "body"},
		{"numeric key is a key", `{"2":{"b":"\ud800"}}`, 422, "body.2.b"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var v any
			err := Format.Unmarshal([]byte(c.body), &v)
			if c.status == 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			status, loc, msg, ok := LocatedDetail(fmt.Sprint(err))
			if !ok || status != c.status || loc != c.location {
				t.Fatalf("got %d at %q (%s), want %d at %q", status, loc, msg, c.status, c.location)
			}
		})
	}
}

// Issue 22 item 1: unknown and case-variant names are refused when
// decoding into a request type, at their location.
func TestDecodeRefusesUnknownAndCaseVariantNames(t *testing.T) {
	type wagers struct {
		Ante int64 `json:"ante"`
	}
	type position struct {
		Wagers wagers `json:"wagers"`
	}
	type round struct {
		Positions []position `json:"positions"`
	}
	for body, want := range map[string]string{
		`{"positions":[{},{},{"wagers":{"Ante":5}}]}`: "body.positions[2].wagers.Ante",
		`{"Positions":[]}`:                            "body.Positions",
		`{"positions":[{"wagers":{"bet":5}}]}`:        "body.positions[0].wagers.bet",
	} {
		var r round
		err := Format.Unmarshal([]byte(body), &r)
		status, loc, _, ok := LocatedDetail(fmt.Sprint(err))
		if !ok || status != 422 || loc != want {
			t.Errorf("%s: %v, want 422 at %s", body, err, want)
		}
	}
}

func manyKeys(n int, prefix string) string {
	var sb strings.Builder
	for i := range n {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`"k` + prefix + string(rune('0'+i/10)) + string(rune('0'+i%10)) + `":1`)
	}
	return sb.String()
}

// FuzzDecode checks the codec's promise against encoding/json (v1) as an
// oracle: a document it accepts is valid JSON and valid UTF-8, names no
// key twice in one object, and decodes to the value encoding/json
// decodes; a document it refuses is refused at a location in the body,
// 400 exactly when encoding/json calls it invalid JSON, and 422 (JSON this
// API refuses: a name twice, invalid UTF-8, a number out of range) naming
// a field whenever the document is an object or an array. make fuzz and
// make test run it for a bounded time.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"a":1,"A":2}`, `{"a":1,"a":2}`, `[{"x":"\u00e9"}]`, "{\"a\":\"\xff\"}", `{"a":"\ud800"}`,
		`{"a":{"b":[1,2,{"c":null}]}}`, `-0.5e-3`, `"\ud83d\ude00"`, `{"a":[1e999]}`, `{"\u0061":1,"a":2}`, `{"2":[{"x":1,"x":1}]}`, `{"a.b":1,"x":2}`, `[{"y":{"q[0]":1}}]`, `{"a":"b.c"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		sameAsLibrary(t, b)
		var got any
		err := Format.Unmarshal(b, &got)
		if err != nil {
			status, loc, msg, ok := LocatedDetail(err.Error())
			if !ok || !strings.HasPrefix(loc, "body") || msg == "" {
				t.Fatalf("refused without a location: %q", err)
			}
			switch {
			case status == 400 && json.Valid(b):
				t.Fatalf("400 for what encoding/json calls valid: %q (%s)", b, msg)
			case status == 422 && !json.Valid(b):
				t.Fatalf("422 for what encoding/json calls invalid: %q (%s)", b, msg)
			case status != 400 && status != 422:
				t.Fatalf("status %d: %q", status, b)
			}
			if t0 := bytes.TrimLeft(b, " \t\r\n"); status == 422 && len(t0) > 0 && (t0[0] == '{' || t0[0] == '[') && loc == "body" {
				t.Fatalf("422 naming no field: %q (%s)", b, msg)
			}
			return
		}
		if !json.Valid(b) || !utf8.Valid(b) {
			t.Fatalf("accepted invalid JSON or UTF-8: %q", b)
		}
		if dup, ok := duplicateName(b); ok {
			t.Fatalf("accepted the name %q twice in one object: %q", dup, b)
		}
		if !namesLocatable(got) { // the scan of the document found none where the value holds one
			t.Fatalf("accepted a name a location cannot write: %q", b)
		}
		var want any
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatalf("accepted, encoding/json fails: %v", err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("decoded %#v, encoding/json %#v", got, want)
		}
	})
}

// duplicateName reports a name given twice in one object of a valid
// document, read with encoding/json's tokenizer.
func duplicateName(b []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	type frame struct {
		object bool
		names  map[string]bool
		key    bool // the next token in this object is a name
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if name, ok := tok.(string); ok && top != nil && top.object && top.key {
			if top.names[name] {
				return name, true
			}
			top.names[name] = true
			top.key = false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, names: map[string]bool{}, key: true})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 && stack[len(stack)-1].object {
			stack[len(stack)-1].key = true
		}
	}
}
