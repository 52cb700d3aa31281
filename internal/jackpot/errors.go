package jackpot

import (
	"errors"
	"fmt"
)

// ErrorKind classifies the errors of this package; internal/httpapi maps
// each kind to one HTTP status.
type ErrorKind string

// The error kinds.
const (
	Invalid     ErrorKind = "invalid"     // 422: the request breaks a rule; Field names it
	NotFound    ErrorKind = "not_found"   // 404
	Exists      ErrorKind = "exists"      // 409: a pool with that id exists
	Mismatch    ErrorKind = "mismatch"    // 409: the same round or key was sent with a different body
	Unavailable ErrorKind = "unavailable" // 503: the store could not confirm the write
)

// Error is the one error type of the package.
type Error struct {
	Kind  ErrorKind
	Field string // the request field at fault, dotted (e.g. "wagers[2].amount")
	Msg   string
	Err   error // the cause, never shown to clients
}

func (e *Error) Error() string {
	s := string(e.Kind) + ": " + e.Msg
	if e.Field != "" {
		s = string(e.Kind) + ": " + e.Field + ": " + e.Msg
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// KindOf returns the kind of err, or "" when it is not an *Error.
func KindOf(err error) ErrorKind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return ""
}

func invalid(field, format string, args ...any) error {
	return &Error{Kind: Invalid, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// The store's errors. A Store returns ErrNotFound for a missing pool or
// round record, ErrExists when creating a pool that exists, and ErrConflict
// when a commit lost the race (the pool's version moved, or a round record
// it writes already exists). Any other error means the store could not
// confirm the write: it may or may not have been applied.
var (
	ErrNotFound = errors.New("jackpot store: not found")
	ErrExists   = errors.New("jackpot store: already exists")
	ErrConflict = errors.New("jackpot store: conflict")
)
