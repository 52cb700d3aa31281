package jackpot

import (
	"errors"

	"github.com/tablesettle/tablesettle/internal/fault"
)

// The package returns *fault.Error: Invalid naming the field of its input
// ("wagers[2].amount", or FieldPool for a refusal about the pool itself),
// Conflict, NotFound and Unavailable from the use cases (internal/pools).

func invalid(field, format string, args ...any) error {
	return fault.InvalidField(field, nil, format, args...)
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
