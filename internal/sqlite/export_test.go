package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/tablesettle/tablesettle/internal/jackpot"
)

// BulkLoad writes a pool's state and a run of its ledger and round records
// in one transaction, by direct inserts, without the commit's checks: the
// benchmarks build a long history with it in seconds.
func BulkLoad(ctx context.Context, s *Store, p jackpot.Pool, entries []jackpot.Entry, recs []jackpot.RoundRecord) error {
	return s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM pools WHERE id = ?`, p.ID); err != nil {
			return err
		}
		if err := insertPool(ctx, tx, p); err != nil {
			return err
		}
		if err := insertEntries(ctx, tx, p.ID, entries); err != nil {
			return err
		}
		return insertRecords(ctx, tx, p.ID, recs)
	})
}

// LimitPages caps the database file at n pages on the write connection
// (PRAGMA max_page_count): past it every write fails with SQLITE_FULL,
// as on a full disk. n 0 lifts the cap. It returns the pages in use.
func LimitPages(ctx context.Context, s *Store, n int64) (int64, error) {
	var used int64
	if err := s.w.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&used); err != nil {
		return 0, err
	}
	if n == 0 {
		n = 0xfffffffe
	}
	_, err := s.w.ExecContext(ctx, fmt.Sprintf(`PRAGMA max_page_count = %d`, n))
	return used, err
}

// HitEntriesPlan is SQLite's plan for HitEntries' query (EXPLAIN QUERY
// PLAN), its rows' details joined by "; ".
func HitEntriesPlan(ctx context.Context, s *Store) (string, error) {
	rows, err := s.r.QueryContext(ctx, `EXPLAIN QUERY PLAN `+hitEntriesQuery, "p", int64(1)<<62, 100)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var plan string
	for rows.Next() {
		var id, parent, notused int
		var detail string
		if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
			return "", err
		}
		if plan != "" {
			plan += "; "
		}
		plan += detail
	}
	return plan, rows.Err()
}
