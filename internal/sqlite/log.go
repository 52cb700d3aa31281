package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"golang.org/x/mod/sumdb/tlog"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/ledgerlog"
	"github.com/tablesettle/tablesettle/internal/pools"
)

var (
	_ pools.LogReader       = (*Store)(nil)
	_ pools.CheckpointStore = (*Store)(nil)
	_ pools.PoolLister      = (*Store)(nil)
)

// PutCheckpoint implements pools.CheckpointStore: the first checkpoint
// of a size stands.
func (s *Store) PutCheckpoint(ctx context.Context, pool string, size int64, note []byte) error {
	err := s.write(ctx, func(q queryer) error {
		_, err := q.ExecContext(ctx, `INSERT INTO checkpoints (pool, size, note) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, pool, size, note)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: checkpoint of %s at %d: %w", pool, size, err)
	}
	return nil
}

// Checkpoints implements pools.CheckpointStore: one range read of the
// primary key, largest size first.
func (s *Store) Checkpoints(ctx context.Context, pool string, before int64, limit int) ([]pools.StoredCheckpoint, error) {
	if before <= 0 {
		before = math.MaxInt64
	}
	rows, err := s.reader(ctx).QueryContext(ctx, `SELECT size, note FROM checkpoints WHERE pool = ? AND size < ? ORDER BY size DESC LIMIT ?`, pool, before, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: checkpoints of %s: %w", pool, err)
	}
	defer rows.Close()
	var out []pools.StoredCheckpoint
	for rows.Next() {
		var c pools.StoredCheckpoint
		if err := rows.Scan(&c.Size, &c.Note); err != nil {
			return nil, fmt.Errorf("sqlite: checkpoints of %s: %w", pool, err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// LogHashes implements pools.LogReader: the stored hashes at indexes, in
// order, each from the hashes column of the entry that keeps it
// (ledgerlog.Owner), in one query.
func (s *Store) LogHashes(ctx context.Context, pool string, indexes []int64) ([]tlog.Hash, error) {
	hs, err := readHashes(ctx, s.reader(ctx), pool, indexes)
	if err != nil {
		return nil, fmt.Errorf("sqlite: log of %s: %w", pool, err)
	}
	return hs, nil
}

// logReader is the tlog.HashReader of one pool's log through q (a
// commit's transaction).
func logReader(ctx context.Context, q queryer, pool string) tlog.HashReader {
	return tlog.HashReaderFunc(func(indexes []int64) ([]tlog.Hash, error) {
		return readHashes(ctx, q, pool, indexes)
	})
}

// readHashes reads the stored hashes at indexes of pool's log through q.
func readHashes(ctx context.Context, q queryer, pool string, indexes []int64) ([]tlog.Hash, error) {
	if len(indexes) == 0 {
		return nil, nil
	}
	seqs := map[int64][]tlog.Hash{}
	args := []any{pool}
	for _, i := range indexes {
		if i < 0 {
			return nil, fmt.Errorf("stored hash index %d is negative", i)
		}
		seq, _ := ledgerlog.Owner(i)
		if _, ok := seqs[seq]; !ok {
			seqs[seq] = nil
			args = append(args, seq)
		}
	}
	rows, err := q.QueryContext(ctx, `SELECT seq, hashes FROM ledger WHERE pool = ? AND seq IN (?`+strings.Repeat(",?", len(args)-2)+`)`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var seq int64
		var b []byte
		if err := rows.Scan(&seq, &b); err != nil {
			return nil, err
		}
		if b == nil {
			return nil, fmt.Errorf("ledger entry %d has no stored hashes", seq)
		}
		if seqs[seq], err = ledgerlog.Unpack(b); err != nil {
			return nil, fmt.Errorf("ledger entry %d: %w", seq, err)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]tlog.Hash, len(indexes))
	for k, i := range indexes {
		seq, pos := ledgerlog.Owner(i)
		hs := seqs[seq]
		if hs == nil {
			return nil, fmt.Errorf("stored hash %d: no ledger entry %d", i, seq)
		}
		if pos >= len(hs) {
			return nil, fmt.Errorf("stored hash %d: ledger entry %d keeps %d hashes, not %d", i, seq, len(hs), pos+1)
		}
		out[k] = hs[pos]
	}
	return out, nil
}

// backfillHashes fills the hashes column of every entry already in the
// database (migration 4), pool by pool in seq order, as a commit would
// have written them: a chunk's hashes read the earlier ones from the
// transaction. A pool whose ledger has a gap is filled up to it: its
// later entries keep no hashes, and reconcile names the first.
func backfillHashes(ctx context.Context, tx *sql.Tx) error {
	ids, err := columnOf(ctx, tx, `SELECT id FROM pools ORDER BY id`)
	if err != nil {
		return err
	}
	const chunk = 2000
	for _, id := range ids {
		for size := int64(0); ; {
			rows, err := tx.QueryContext(ctx, `SELECT doc FROM ledger WHERE pool = ? AND seq > ? ORDER BY seq LIMIT ?`, id, size, chunk)
			if err != nil {
				return err
			}
			var es []jackpot.Entry
			for rows.Next() {
				var doc []byte
				var e jackpot.Entry
				if err := rows.Scan(&doc); err != nil {
					rows.Close()
					return err
				}
				if err := json.Unmarshal(doc, &e); err != nil {
					rows.Close()
					return fmt.Errorf("pool %s: ledger entry after %d: %w", id, size, err)
				}
				if e.Seq != size+int64(len(es))+1 {
					break // a gap: the rest keeps no hashes
				}
				es = append(es, e)
			}
			if err := rows.Close(); err != nil {
				return err
			}
			if len(es) == 0 {
				break
			}
			hs, err := ledgerlog.Append(logReader(ctx, tx, id), size, es)
			if err != nil {
				return fmt.Errorf("pool %s: %w", id, err)
			}
			for i, e := range es {
				if _, err := tx.ExecContext(ctx, `UPDATE ledger SET hashes = ? WHERE pool = ? AND seq = ?`, ledgerlog.Pack(hs[i]), id, e.Seq); err != nil {
					return err
				}
			}
			size += int64(len(es))
			if len(es) < chunk {
				break
			}
		}
	}
	return nil
}

// columnOf runs a query of one text column.
func columnOf(ctx context.Context, q queryer, query string, args ...any) ([]string, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
