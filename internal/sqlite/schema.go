package sqlite

import (
	"context"
	"database/sql"
	"fmt"
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
		if v == len(migrations) {
			return tx.Rollback()
		}
		if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrate to schema version %d: %w", v+1, err)
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
