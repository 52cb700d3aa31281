// Package fault is the one error type that every domain package returns
// (in the spirit of upspin's errors package). An Error says what kind of
// refusal it is, which request field is at fault, what is wrong in the
// API's words, and which rules it applied. internal/httpapi maps it to an
// RFC 9457 problem in one place; nothing else builds problem bodies.
//
// The cause (Err) is for logs only: it never reaches a client.
package fault

import (
	"errors"
	"fmt"
	"strings"
)

// Kind classifies an Error; the HTTP layer maps each kind to one status.
type Kind uint8

// The kinds. The zero Kind is not a valid kind: an Error without one is
// treated as Internal.
const (
	Internal        Kind = iota // 500: a defect; never carries client-facing detail
	Invalid                     // 422: the request breaks a rule; Field names it
	NotFound                    // 404
	Conflict                    // 409: exists with other settings, replayed with another body, a state that forbids it
	Unavailable                 // 503: a dependency could not confirm; retry
	Forbidden                   // 403: the principal may not do this
	Unauthenticated             // 401: no principal, or credentials that are not valid
)

var kindNames = [...]string{"internal", "invalid", "not_found", "conflict", "unavailable", "forbidden", "unauthenticated"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// Problem is one field at fault: its path ("positions[2].wagers.bet",
// "facts.boxTotal"), what is wrong, and the value received (the HTTP layer
// bounds what it repeats).
type Problem struct {
	Field   string
	Message string
	Value   any
}

// Error is the domain error.
type Error struct {
	Kind   Kind
	Detail string    // what is wrong, in the API's words
	Fields []Problem // the fields at fault (Invalid), first the main one
	Rules  []string  // cited rules, e.g. "mbs-megalink-tcp-v6 3.11.2", "ruling R5"
	Err    error     // the cause, for logs only
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Kind.String())
	if len(e.Fields) > 0 && e.Fields[0].Field != "" {
		b.WriteString(": ")
		b.WriteString(e.Fields[0].Field)
	}
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	for _, p := range e.Fields[min(1, len(e.Fields)):] {
		b.WriteString("; ")
		b.WriteString(p.Field)
		b.WriteString(": ")
		b.WriteString(p.Message)
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Field returns the path of the main field at fault, or "".
func (e *Error) Field() string {
	if len(e.Fields) == 0 {
		return ""
	}
	return e.Fields[0].Field
}

// As returns err's *Error, if it has one.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// KindOf returns err's kind: Internal when err carries no *Error.
func KindOf(err error) Kind {
	if e, ok := As(err); ok {
		return e.Kind
	}
	return Internal
}

// Is reports whether err carries an *Error of kind k.
func Is(err error, k Kind) bool { return err != nil && KindOf(err) == k }

// InvalidField is an Invalid error naming one field and the value received.
func InvalidField(field string, value any, format string, args ...any) *Error {
	msg := fmt.Sprintf(format, args...)
	return &Error{Kind: Invalid, Detail: msg, Fields: []Problem{{Field: field, Message: msg, Value: value}}}
}

// InvalidFields is an Invalid error naming several fields.
func InvalidFields(detail string, fields ...Problem) *Error {
	return &Error{Kind: Invalid, Detail: detail, Fields: fields}
}

// New is an error of kind k with a detail.
func New(k Kind, format string, args ...any) *Error {
	return &Error{Kind: k, Detail: fmt.Sprintf(format, args...)}
}

// Wrap is an error of kind k with a detail and a cause kept for logs.
func Wrap(k Kind, cause error, format string, args ...any) *Error {
	return &Error{Kind: k, Detail: fmt.Sprintf(format, args...), Err: cause}
}

// Cite returns e with rules appended to its citations.
func (e *Error) Cite(rules ...string) *Error {
	e.Rules = append(e.Rules, rules...)
	return e
}

// Under returns err with every field path placed under prefix ("body",
// "body.round"): the domain names fields of its own input, the caller
// knows where that input sits in the request. err without an *Error is
// returned as it is.
func Under(err error, prefix string) error {
	e, ok := As(err)
	if !ok || prefix == "" {
		return err
	}
	out := *e
	out.Fields = make([]Problem, len(e.Fields))
	for i, p := range e.Fields {
		switch {
		case p.Field == "":
			p.Field = prefix
		case strings.HasPrefix(p.Field, "["):
			p.Field = prefix + p.Field
		default:
			p.Field = prefix + "." + p.Field
		}
		out.Fields[i] = p
	}
	return &out
}
