package pools

import (
	"context"

	"golang.org/x/mod/sumdb/tlog"
)

// LogReader is a Store that keeps its pools' ledgers as Merkle logs
// (issue 34 item 1, docs/ledger.md): every Commit computes its new
// entries' tlog stored hashes with ledgerlog.Append over a HashReader
// bound to its own transaction and writes them with the entries, in the
// same row or item. LogHashes reads a pool's Merkle log: the tlog stored
// hashes at the storage indexes asked for (tlog.HashReader semantics, in
// order), from the entries that hold them (ledgerlog.Owner).
type LogReader interface {
	LogHashes(ctx context.Context, pool string, indexes []int64) ([]tlog.Hash, error)
}
