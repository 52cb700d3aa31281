// Package sqlite is the embedded pools.Store of `make run`: every pool,
// its ledger and its round records in one SQLite database file
// (DATA/pools.db), through modernc.org/sqlite, a translation of SQLite's C
// source to Go (no cgo: CGO_ENABLED=0 builds stay static).
//
// It is named for its one dependency, as internal/dynamo is (the
// Standard Package Layout: one package per dependency), not for its role:
// the role, "the embedded store", is the pools.Store interface's.
//
// The database runs in WAL mode with synchronous=FULL: a commit is on
// disk when Commit returns, readers never wait for the writer, and a crash
// at any instant leaves every commit whole or absent. One Commit is one
// transaction, conditional on the pool's version exactly as DynamoDB's
// TransactWriteItems is (internal/dynamo): a stale version, a ledger
// entry or a round record that already exists is jackpot.ErrConflict and
// writes nothing.
//
// SQLite has one writer at a time. The store keeps one write connection
// (transactions begin IMMEDIATE, so a transaction holds the write lock
// from its first statement, and a busy timeout makes another process,
// such as `tablesettle store import`, wait instead of failing) and a pool
// of read connections. It implements pools.Serializer: a change to a pool
// reads the pool and commits it in one transaction, so writers of one pool
// queue in the database instead of losing the version race; and
// pools.LedgerPager: ledger pages by sequence or time range, oldest or
// newest first, from the indexes.
package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	sqlitedrv "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/ledgerlog"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// FileName is the database file the store keeps in its data directory.
const FileName = "pools.db"

// BusyTimeout is how long a statement waits for another process's write
// lock before it fails (SQLITE_BUSY).
const BusyTimeout = 10 * time.Second

// Store is the SQLite pools.Store.
type Store struct {
	path string
	w    *sql.DB // the one write connection
	r    *sql.DB // read connections
}

var (
	_ pools.Store       = (*Store)(nil)
	_ pools.Serializer  = (*Store)(nil)
	_ pools.LedgerPager = (*Store)(nil)
)

// Open opens (or creates) the store in dir: dir/pools.db.
func Open(dir string, opts ...Option) (*Store, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	return OpenFile(filepath.Join(dir, FileName), opts...)
}

// Option changes how a store is opened.
type Option func(*options)

type options struct{ skipQuickCheck bool }

// WithoutQuickCheck opens a database without SQLite's PRAGMA quick_check,
// which reads the whole file (about 9 s for 1,000,000 ledger entries,
// 1.2 GiB, measured by BenchmarkStoreOpen on a loaded machine): the start
// of a big database the operator has just checked (store check). The mark
// of a database the store created is still checked.
func WithoutQuickCheck() Option { return func(o *options) { o.skipQuickCheck = true } }

func dsn(path string, params ...string) string {
	q := []string{fmt.Sprintf("_busy_timeout=%d", BusyTimeout.Milliseconds()), "_txlock=immediate"}
	q = append(q, params...)
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + strings.Join(q, "&")
}

// OpenFile opens the store in the database file path, migrating its
// schema forward to this build's, or creates it when no file is there
// (create). A file that is there must be a database this service created
// (vet): one it did not create, empty or foreign, or one that fails
// SQLite's quick check, is refused (ErrRefused) and left as it was (issue
// 33 item 6).
func OpenFile(path string, opts ...Option) (*Store, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	switch _, err := os.Stat(path); {
	case errors.Is(err, fs.ErrNotExist):
		if err := create(path); err != nil {
			return nil, fmt.Errorf("sqlite: create %s: %w", path, err)
		}
	case err != nil:
		return nil, fmt.Errorf("sqlite: %w", err)
	default:
		if err := vet(path, !o.skipQuickCheck); err != nil {
			return nil, err
		}
	}
	w, err := sql.Open("sqlite", dsn(path, "_journal_mode=WAL", "_synchronous=FULL", "_pragma=foreign_keys(1)"))
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	if err := migrate(context.Background(), w); err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlite: %s: %w", path, err)
	}
	r, err := sql.Open("sqlite", dsn(path, "_query_only=1"))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	r.SetMaxOpenConns(8)
	r.SetMaxIdleConns(8)
	return &Store{path: path, w: w, r: r}, nil
}

// Path is the database file.
func (s *Store) Path() string { return s.path }

// Close closes the database (a checkpoint folds the WAL into the file).
func (s *Store) Close() error {
	return errors.Join(s.r.Close(), s.w.Close())
}

// txKey marks a context carrying this store's open transaction.
type txKey struct{ s *Store }

// queryer is what a read needs: a transaction or a database.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

func (s *Store) tx(ctx context.Context) *sql.Tx {
	tx, _ := ctx.Value(txKey{s}).(*sql.Tx)
	return tx
}

// reader is the open transaction of ctx, else the read connections.
func (s *Store) reader(ctx context.Context) queryer {
	if tx := s.tx(ctx); tx != nil {
		return tx
	}
	return s.r
}

// Serialize implements pools.Serializer: fn runs in one IMMEDIATE
// transaction on the write connection (or in the one ctx already has).
// The transaction commits whatever fn returns: each Commit in it is whole
// or absent on its own (a savepoint), so there is nothing half-done to
// undo; fn's error is returned unchanged once the transaction committed.
func (s *Store) Serialize(ctx context.Context, pool string, fn func(ctx context.Context) error) error {
	if s.tx(ctx) != nil {
		return fn(ctx)
	}
	// The transaction is not tied to ctx: a request cancelled after its
	// commit statement must not roll back what it answered as written.
	tx, err := s.w.BeginTx(context.WithoutCancel(ctx), nil)
	if err != nil {
		return fmt.Errorf("sqlite: begin (pool %s): %w", pool, err)
	}
	ferr := fn(context.WithValue(ctx, txKey{s}, tx))
	if err := tx.Commit(); err != nil {
		tx.Rollback()
		if ferr != nil {
			// SQLite rolls a transaction back whole on some errors (a
			// full disk): the commit then finds none; say what failed.
			return fmt.Errorf("sqlite: commit (pool %s): %w, after: %v", pool, err, ferr)
		}
		return fmt.Errorf("sqlite: commit (pool %s): %w", pool, err)
	}
	return ferr
}

// write runs fn in the open transaction of ctx under a savepoint (rolled
// back to on error), or in a transaction of its own.
func (s *Store) write(ctx context.Context, fn func(q queryer) error) error {
	if tx := s.tx(ctx); tx != nil {
		if _, err := tx.ExecContext(ctx, "SAVEPOINT w"); err != nil {
			return err
		}
		if err := fn(tx); err != nil {
			bg := context.WithoutCancel(ctx)
			_, rerr := tx.ExecContext(bg, "ROLLBACK TO w")
			if rerr == nil {
				_, rerr = tx.ExecContext(bg, "RELEASE w")
			}
			return errors.Join(err, rerr)
		}
		_, err := tx.ExecContext(ctx, "RELEASE w")
		return err
	}
	tx, err := s.w.BeginTx(context.WithoutCancel(ctx), nil)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		tx.Rollback()
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// constraint reports whether err is a uniqueness or key constraint.
func constraint(err error) bool {
	var se *sqlitedrv.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_CONSTRAINT
}

// Full reports whether err is the database or its disk being full
// (SQLITE_FULL): a write refused, nothing of it written.
func Full(err error) bool {
	var se *sqlitedrv.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_FULL
}

func nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// insertEntries writes entries, which follow the pool's last entry, with
// the Merkle log's stored hashes each adds (ledgerlog.Append, reading the
// O(log n) earlier hashes it needs through q: the same transaction).
func insertEntries(ctx context.Context, q queryer, pool string, entries []jackpot.Entry) error {
	if len(entries) == 0 {
		return nil
	}
	hs, err := ledgerlog.Append(logReader(ctx, q, pool), entries[0].Seq-1, entries)
	if err != nil {
		return err
	}
	for i, e := range entries {
		doc, err := json.Marshal(e)
		if err != nil {
			return err
		}
		if _, err := q.ExecContext(ctx, `INSERT INTO ledger (pool, seq, at, tbl, round, doc, hit_kind, hashes) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			pool, e.Seq, nanos(e.At), e.Table, e.Round, doc, hitKind(e.Kind), ledgerlog.Pack(hs[i])); err != nil {
			return err
		}
	}
	return nil
}

func insertRecords(ctx context.Context, q queryer, pool string, recs []jackpot.RoundRecord) error {
	for _, r := range recs {
		doc, err := json.Marshal(r)
		if err != nil {
			return err
		}
		if _, err := q.ExecContext(ctx, `INSERT INTO records (pool, key, tbl, round, doc) VALUES (?, ?, ?, ?, ?)`,
			pool, r.Key, r.Table, r.Round, doc); err != nil {
			return err
		}
	}
	return nil
}

func insertPool(ctx context.Context, q queryer, p jackpot.Pool) error {
	doc, err := json.Marshal(p)
	if err != nil {
		return err
	}
	_, err = q.ExecContext(ctx, `INSERT INTO pools (id, version, seq, doc, held_due) VALUES (?, ?, ?, ?, ?)`, p.ID, p.Version, p.Seq, doc, heldDue(p))
	return err
}

// heldDue is a pool's held_due: when its first held hit becomes due, in
// Unix milliseconds, or NULL (nil) while it holds none.
func heldDue(p jackpot.Pool) any {
	if at, ok := jackpot.HeldDueAt(p); ok {
		return at.UnixMilli()
	}
	return nil
}

// CreatePool implements pools.Store.
func (s *Store) CreatePool(ctx context.Context, p jackpot.Pool, entries []jackpot.Entry) error {
	err := s.write(ctx, func(q queryer) error {
		if err := insertPool(ctx, q, p); err != nil {
			return err
		}
		return insertEntries(ctx, q, p.ID, entries)
	})
	if constraint(err) {
		return jackpot.ErrExists
	}
	if err != nil {
		return fmt.Errorf("sqlite: create pool %s: %w", p.ID, err)
	}
	return nil
}

// Pool implements pools.Store.
func (s *Store) Pool(ctx context.Context, id string) (jackpot.Pool, error) {
	var doc []byte
	err := s.reader(ctx).QueryRowContext(ctx, `SELECT doc FROM pools WHERE id = ?`, id).Scan(&doc)
	if errors.Is(err, sql.ErrNoRows) {
		return jackpot.Pool{}, jackpot.ErrNotFound
	}
	if err != nil {
		return jackpot.Pool{}, fmt.Errorf("sqlite: get pool %s: %w", id, err)
	}
	var p jackpot.Pool
	if err := json.Unmarshal(doc, &p); err != nil {
		return jackpot.Pool{}, fmt.Errorf("sqlite: get pool %s: %w", id, err)
	}
	return p, nil
}

// Ledger implements pools.Store.
func (s *Store) Ledger(ctx context.Context, id string, after int64, limit int) ([]jackpot.Entry, error) {
	return s.LedgerPage(ctx, id, pools.LedgerQuery{After: after, Limit: limit})
}

// LedgerPage implements pools.LedgerPager: one indexed range read, by
// (pool, seq) or, with a time bound, (pool, at).
func (s *Store) LedgerPage(ctx context.Context, id string, lq pools.LedgerQuery) ([]jackpot.Entry, error) {
	out := []jackpot.Entry{}
	if lq.Limit <= 0 {
		return out, nil
	}
	after, before := max(lq.After, 0), lq.Before
	if before <= 0 {
		before = math.MaxInt64
	}
	if after >= before-1 {
		return out, nil
	}
	query := `SELECT doc FROM ledger WHERE pool = ? AND seq > ? AND seq < ?`
	args := []any{id, after, before}
	if !lq.From.IsZero() {
		query += ` AND at >= ?`
		args = append(args, lq.From.UnixNano())
	}
	if !lq.To.IsZero() {
		query += ` AND at < ?`
		args = append(args, lq.To.UnixNano())
	}
	if lq.Newest {
		query += ` ORDER BY seq DESC LIMIT ?`
	} else {
		query += ` ORDER BY seq LIMIT ?`
	}
	args = append(args, lq.Limit)
	out, err := s.entries(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: ledger of %s: %w", id, err)
	}
	return out, nil
}

// HitEntries implements pools.HitLedger: one range read of the partial
// index ledger_hits, newest first.
func (s *Store) HitEntries(ctx context.Context, id string, before int64, limit int) ([]jackpot.Entry, error) {
	if limit <= 0 {
		return []jackpot.Entry{}, nil
	}
	out, err := s.entries(ctx, hitEntriesQuery, id, before, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: hits of %s: %w", id, err)
	}
	return out, nil
}

// entries are the ledger entries query reads (it selects doc alone), in
// its order.
func (s *Store) entries(ctx context.Context, query string, args ...any) ([]jackpot.Entry, error) {
	rows, err := s.reader(ctx).QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []jackpot.Entry{}
	for rows.Next() {
		var doc []byte
		if err := rows.Scan(&doc); err != nil {
			return nil, err
		}
		var e jackpot.Entry
		if err := json.Unmarshal(doc, &e); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// hitEntriesQuery reads ledger_hits, by name: the primary key (pool, seq)
// serves the same order, and the planner, which cannot tell how few of a
// pool's entries are about hits, would take it and read them all. Its
// condition (hit_kind not empty) is the index's, so the index serves it
// (or the query fails: INDEXED BY never falls back to a scan).
const hitEntriesQuery = `SELECT doc FROM ledger INDEXED BY ledger_hits WHERE pool = ? AND hit_kind <> '' AND seq < ? ORDER BY seq DESC LIMIT ?`

// Record implements pools.Store.
func (s *Store) Record(ctx context.Context, pool, key string) (jackpot.RoundRecord, error) {
	var doc []byte
	err := s.reader(ctx).QueryRowContext(ctx, `SELECT doc FROM records WHERE pool = ? AND key = ?`, pool, key).Scan(&doc)
	if errors.Is(err, sql.ErrNoRows) {
		return jackpot.RoundRecord{}, jackpot.ErrNotFound
	}
	if err != nil {
		return jackpot.RoundRecord{}, fmt.Errorf("sqlite: round record %s of %s: %w", key, pool, err)
	}
	var r jackpot.RoundRecord
	if err := json.Unmarshal(doc, &r); err != nil {
		return jackpot.RoundRecord{}, fmt.Errorf("sqlite: round record %s of %s: %w", key, pool, err)
	}
	return r, nil
}

// errStale is the version condition failing inside a write.
var errStale = errors.New("stale version")

// Commit implements pools.Store: one transaction (or savepoint), only if
// the pool is still at PrevVersion and none of its entries and records
// exists; a failed condition is jackpot.ErrConflict and writes nothing.
func (s *Store) Commit(ctx context.Context, c jackpot.Commit) error {
	id := c.Pool.ID
	if c.Pool.Version != c.PrevVersion+1 {
		return jackpot.ErrConflict
	}
	doc, err := json.Marshal(c.Pool)
	if err != nil {
		return err
	}
	missing := false
	err = s.write(ctx, func(q queryer) error {
		res, err := q.ExecContext(ctx, `UPDATE pools SET version = ?, seq = ?, doc = ?, held_due = ? WHERE id = ? AND version = ?`,
			c.Pool.Version, c.Pool.Seq, doc, heldDue(c.Pool), id, c.PrevVersion)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n != 1 {
			var one int
			if err := q.QueryRowContext(ctx, `SELECT 1 FROM pools WHERE id = ?`, id).Scan(&one); errors.Is(err, sql.ErrNoRows) {
				missing = true
			}
			return errStale
		}
		if err := insertEntries(ctx, q, id, c.Entries); err != nil {
			return err
		}
		return insertRecords(ctx, q, id, c.Records)
	})
	switch {
	case err == nil:
		return nil
	case missing:
		return jackpot.ErrNotFound
	case errors.Is(err, errStale) || constraint(err):
		return jackpot.ErrConflict
	}
	return fmt.Errorf("sqlite: commit to %s: %w", id, err)
}

var (
	_ pools.HeldIndex = (*Store)(nil)
	_ pools.HitLedger = (*Store)(nil)
)

// HeldDue implements pools.HeldIndex: the pools whose first held hit is
// due at or before at, in id order, from the index on held_due (a sweep
// after a restart finds them without reading every pool).
func (s *Store) HeldDue(ctx context.Context, at time.Time) ([]string, error) {
	ids, err := s.ids(ctx, `SELECT id FROM pools WHERE held_due IS NOT NULL AND held_due <= ? ORDER BY id`, at.UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("sqlite: held hits due: %w", err)
	}
	return ids, nil
}

// Pools returns the ids of every pool, in order.
func (s *Store) Pools(ctx context.Context) ([]string, error) {
	ids, err := s.ids(ctx, `SELECT id FROM pools ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: pools: %w", err)
	}
	return ids, nil
}

// ids runs a query of one text column.
func (s *Store) ids(ctx context.Context, query string, args ...any) ([]string, error) {
	return column(ctx, s.reader(ctx), query, args...)
}

// column runs a query of one text column on q.
func column(ctx context.Context, q queryer, query string, args ...any) ([]string, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}
