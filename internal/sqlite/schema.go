package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/tablesettle/tablesettle/internal/jackpot"
)

// migrations are the schema's versions: migrations[i] takes a database at
// PRAGMA user_version i to i+1. They only ever go forward, and a released
// one is never edited: a change to the schema is a new one at the end.
var migrations = []string{
	// 1: pools, the ledger and the round records. Documents are the
	// domain types' JSON (as DynamoDB keeps them); the columns beside them
	// are what the indexes and the commit's condition need.
	`CREATE TABLE pools (
		id      TEXT PRIMARY KEY,
		version INTEGER NOT NULL,
		seq     INTEGER NOT NULL,
		doc     BLOB NOT NULL
	) WITHOUT ROWID;
	CREATE TABLE ledger (
		pool  TEXT NOT NULL,
		seq   INTEGER NOT NULL,
		at    INTEGER NOT NULL, -- Unix nanoseconds
		tbl   TEXT NOT NULL,
		round TEXT NOT NULL,
		doc   BLOB NOT NULL,
		PRIMARY KEY (pool, seq)
	) WITHOUT ROWID;
	CREATE INDEX ledger_by_time ON ledger (pool, at, seq);
	CREATE INDEX ledger_by_round ON ledger (tbl, round) WHERE tbl <> '';
	CREATE TABLE records (
		pool  TEXT NOT NULL,
		key   TEXT NOT NULL,
		tbl   TEXT NOT NULL,
		round TEXT NOT NULL,
		doc   BLOB NOT NULL,
		PRIMARY KEY (pool, key)
	) WITHOUT ROWID;
	CREATE INDEX records_by_round ON records (tbl, round) WHERE tbl <> '';
	CREATE TABLE imports (
		source TEXT NOT NULL,
		sha256 TEXT PRIMARY KEY,
		pools  INTEGER NOT NULL,
		at     TEXT NOT NULL
	);`,
	// 2: the held index: when the first held hit of a pool becomes due
	// (Unix milliseconds; NULL while it holds none), so that a sweep
	// finds the pools to pay without reading every pool (HeldDue). Its
	// values for the pools already there are filled in Go (backfills).
	`ALTER TABLE pools ADD COLUMN held_due INTEGER;
	CREATE INDEX pools_held_due ON pools (held_due) WHERE held_due IS NOT NULL;`,
	// 3: the hit index: an entry's kind when it is about a hit
	// (jackpot.Kind.AboutHit: hit, held, hit_confirmed, hit_paid,
	// hit_void, held_void, house_recovery), '' otherwise, and a partial
	// index of those entries, so that the floor's hit history and a slip
	// read the pool's hits, not its whole ledger (HitEntries). The entries
	// already there are marked in Go (backfills).
	`ALTER TABLE ledger ADD COLUMN hit_kind TEXT NOT NULL DEFAULT '';
	CREATE INDEX ledger_hits ON ledger (pool, seq) WHERE hit_kind <> '';`,
	// 4: the Merkle log (issue 34 item 1, docs/ledger.md): the tlog
	// stored hashes each entry adds (ledgerlog.Append), 32 bytes each,
	// concatenated, written by the insert of the entry, and the pools'
	// signed checkpoints. The entries already there get their hashes in
	// Go (backfills), once.
	`ALTER TABLE ledger ADD COLUMN hashes BLOB;
	CREATE TABLE checkpoints (
		pool TEXT NOT NULL,
		size INTEGER NOT NULL,
		note BLOB NOT NULL,
		PRIMARY KEY (pool, size)
	) WITHOUT ROWID;`,
}

// backfills run after the migration to the version they are keyed by, in
// its transaction: what SQL alone cannot compute from the documents.
var backfills = map[int]func(ctx context.Context, tx *sql.Tx) error{
	2: backfillHeldDue,
	3: backfillHitKind,
	4: backfillHashes,
}

// backfillHitKind marks every entry about a hit, as an insert does
// (hitKind). Only the documents that name such a kind somewhere are
// decoded (an entry's own kind decides: a prize's kind may match too).
func backfillHitKind(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT pool, seq, doc FROM ledger
		WHERE instr(doc, '"kind":"hit') > 0 OR instr(doc, '"kind":"held') > 0 OR instr(doc, '"kind":"house_recovery"') > 0`)
	if err != nil {
		return err
	}
	type mark struct {
		pool string
		seq  int64
		kind string
	}
	var marks []mark
	for rows.Next() {
		var m mark
		var doc []byte
		if err := rows.Scan(&m.pool, &m.seq, &doc); err != nil {
			rows.Close()
			return err
		}
		var e struct {
			Kind jackpot.Kind `json:"kind"`
		}
		if err := json.Unmarshal(doc, &e); err != nil {
			rows.Close()
			return fmt.Errorf("ledger entry %d of %s: %w", m.seq, m.pool, err)
		}
		if m.kind = hitKind(e.Kind); m.kind != "" {
			marks = append(marks, m)
		}
	}
	if err := rows.Close(); err != nil {
		return err
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for _, m := range marks {
		if _, err := tx.ExecContext(ctx, `UPDATE ledger SET hit_kind = ? WHERE pool = ? AND seq = ?`, m.kind, m.pool, m.seq); err != nil {
			return err
		}
	}
	return nil
}

// hitKind is the ledger's hit_kind of an entry of kind k: k when it is
// about a hit, else "".
func hitKind(k jackpot.Kind) string {
	if k.AboutHit() {
		return string(k)
	}
	return ""
}

// backfillHeldDue sets held_due of every pool from its document, as a
// commit would (heldDue).
func backfillHeldDue(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT id, doc FROM pools`)
	if err != nil {
		return err
	}
	due := map[string]any{}
	for rows.Next() {
		var id string
		var doc []byte
		if err := rows.Scan(&id, &doc); err != nil {
			rows.Close()
			return err
		}
		var p jackpot.Pool
		if err := json.Unmarshal(doc, &p); err != nil {
			rows.Close()
			return fmt.Errorf("pool %s: %w", id, err)
		}
		if at := heldDue(p); at != nil {
			due[id] = at
		}
	}
	if err := rows.Close(); err != nil {
		return err
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for id, at := range due {
		if _, err := tx.ExecContext(ctx, `UPDATE pools SET held_due = ? WHERE id = ?`, at, id); err != nil {
			return err
		}
	}
	return nil
}

// SchemaVersion is the schema this build writes (PRAGMA user_version).
func SchemaVersion() int { return len(migrations) }

// migrate brings the database forward to SchemaVersion, each migration in
// its own transaction with the version it sets. A database from a newer
// build is refused: this one does not know its schema.
func migrate(ctx context.Context, db *sql.DB) error {
	for {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		var v int
		if err := tx.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&v); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrate: %w", err)
		}
		if v > len(migrations) {
			tx.Rollback()
			return fmt.Errorf("schema version %d is newer than this build's %d: use a newer tablesettle", v, len(migrations))
		}
		// The mark of a database this service created (vet), in the
		// transaction of its first schema; a database of a build before
		// the mark gets it with its next migration, or alone.
		var app int64
		if err := tx.QueryRowContext(ctx, `PRAGMA application_id`).Scan(&app); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrate: %w", err)
		}
		if app != ApplicationID {
			if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA application_id = %d`, ApplicationID)); err != nil {
				tx.Rollback()
				return fmt.Errorf("migrate: mark the database: %w", err)
			}
		}
		if v == len(migrations) {
			if app != ApplicationID {
				if err := tx.Commit(); err != nil {
					return fmt.Errorf("migrate: mark the database: %w", err)
				}
			} else if err := tx.Rollback(); err != nil {
				return err
			}
			return nil
		}
		if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrate to schema version %d: %w", v+1, err)
		}
		if fill := backfills[v+1]; fill != nil {
			if err := fill(ctx, tx); err != nil {
				tx.Rollback()
				return fmt.Errorf("migrate to schema version %d: %w", v+1, err)
			}
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, v+1)); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrate to schema version %d: %w", v+1, err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("migrate to schema version %d: %w", v+1, err)
		}
	}
}
