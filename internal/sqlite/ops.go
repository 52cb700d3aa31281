package sqlite

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/tablesettle/tablesettle/internal/jackpot"
)

// LegacyFileName is the JSON file the store of earlier builds kept in the
// data directory (rewritten whole on every commit).
const LegacyFileName = "pools.json"

// legacy is that file's format (format 1).
type legacy struct {
	Format int `json:"format"`
	Pools  map[string]*struct {
		Pool    jackpot.Pool                   `json:"pool"`
		Ledger  []jackpot.Entry                `json:"ledger"`
		Records map[string]jackpot.RoundRecord `json:"records"`
	} `json:"pools"`
}

// Imported is what an import brought in.
type Imported struct {
	Source  string
	Pools   int
	Entries int
	Records int
}

// inTx runs fn in one IMMEDIATE transaction that commits only when fn
// succeeds.
func (s *Store) inTx(ctx context.Context, fn func(ctx context.Context, tx *sql.Tx) error) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(context.WithValue(ctx, txKey{s}, tx), tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// Empty reports whether the store holds no pool and has imported nothing.
func (s *Store) Empty(ctx context.Context) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM pools) + (SELECT COUNT(*) FROM imports)`).Scan(&n)
	return n == 0, err
}

// Import reads a pools file of the earlier JSON store and writes every
// pool in it, its ledger and its round records, in one transaction: all
// of it or, on any error, nothing. It refuses a file already imported,
// a pool that exists in the store, and a pool whose meters do not
// reconcile with its ledger, as read back from the database before the
// transaction commits. The file is only read.
func (s *Store) Import(ctx context.Context, path string) (Imported, error) {
	out := Imported{Source: path}
	if err := s.importFile(ctx, path, &out); err != nil {
		return Imported{Source: path}, fmt.Errorf("import %s (nothing was imported): %w", path, err)
	}
	return out, nil
}

func (s *Store) importFile(ctx context.Context, path string, out *Imported) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var in legacy
	if err := json.Unmarshal(b, &in); err != nil {
		return fmt.Errorf("it is not a pools file: %w", err)
	}
	if in.Format != 1 {
		return fmt.Errorf("it has format %d; this build reads format 1", in.Format)
	}
	sum := sha256.Sum256(b)
	digest := hex.EncodeToString(sum[:])
	ids := make([]string, 0, len(in.Pools))
	for id := range in.Pools {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	abs, _ := filepath.Abs(path)
	err = s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var at string
		switch err := tx.QueryRowContext(ctx, `SELECT at FROM imports WHERE sha256 = ?`, digest).Scan(&at); {
		case err == nil:
			return fmt.Errorf("this file was imported already, at %s", at)
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		for _, id := range ids {
			d := in.Pools[id]
			if d == nil || d.Pool.ID != id {
				return fmt.Errorf("pool %q: the entry does not hold that pool", id)
			}
			if err := insertPool(ctx, tx, d.Pool); constraint(err) {
				return fmt.Errorf("pool %s exists in the store already", id)
			} else if err != nil {
				return fmt.Errorf("pool %s: %w", id, err)
			}
			for i, e := range d.Ledger {
				if e.Pool != id {
					return fmt.Errorf("pool %s: ledger entry %d belongs to pool %q", id, i+1, e.Pool)
				}
			}
			if err := insertEntries(ctx, tx, id, d.Ledger); err != nil {
				return fmt.Errorf("pool %s: %w", id, err)
			}
			recs := make([]jackpot.RoundRecord, 0, len(d.Records))
			for k, r := range d.Records {
				if r.Key != k {
					return fmt.Errorf("pool %s: record %q is filed under %q", id, r.Key, k)
				}
				recs = append(recs, r)
			}
			if err := insertRecords(ctx, tx, id, recs); err != nil {
				return fmt.Errorf("pool %s: %w", id, err)
			}
			out.Entries += len(d.Ledger)
			out.Records += len(recs)
			// Read back from the database, as every later request will.
			rec, err := s.reconcile(ctx, id)
			if err != nil {
				return err
			}
			if !rec.ok() {
				return fmt.Errorf("pool %s does not reconcile after import: %s", id, rec)
			}
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO imports (source, sha256, pools, at) VALUES (?, ?, ?, ?)`,
			abs, digest, len(ids), time.Now().UTC().Format(time.RFC3339))
		return err
	})
	if err != nil {
		return err
	}
	out.Pools = len(ids)
	return nil
}

// PoolCheck is one pool's reconciliation as the store check reads it.
type PoolCheck struct {
	jackpot.Reconciliation
	// Stored is the number of ledger entries in the database, and Seq the
	// pool's own count: every committed entry is counted by the pool.
	Stored, Seq int64
}

func (c PoolCheck) ok() bool { return c.OK && c.Stored == c.Seq }

// String says what differs.
func (c PoolCheck) String() string {
	if c.ok() {
		return fmt.Sprintf("%s: %d entries, ok", c.Pool, c.Entries)
	}
	var why []string
	if c.Stored != c.Seq {
		why = append(why, fmt.Sprintf("%d ledger entries stored, the pool counts %d", c.Stored, c.Seq))
	}
	for _, d := range c.Differences {
		why = append(why, fmt.Sprintf("meter %s is %d, the ledger sums to %d", d.Meter, d.Meters, d.Ledger))
	}
	why = append(why, c.Problems...)
	return c.Pool + ": " + strings.Join(why, "; ")
}

// reconcile rebuilds pool id's meters from its whole ledger.
func (s *Store) reconcile(ctx context.Context, id string) (PoolCheck, error) {
	p, err := s.Pool(ctx, id)
	if err != nil {
		return PoolCheck{}, err
	}
	var all []jackpot.Entry
	for after := int64(0); ; {
		es, err := s.Ledger(ctx, id, after, 5000)
		if err != nil {
			return PoolCheck{}, err
		}
		all = append(all, es...)
		if len(es) < 5000 {
			break
		}
		after = es[len(es)-1].Seq
	}
	c := PoolCheck{Stored: int64(len(all)), Seq: p.Seq}
	if int64(len(all)) > p.Seq {
		all = all[:p.Seq]
	}
	c.Reconciliation = jackpot.Reconcile(p, all)
	return c, nil
}

// Check is the store check's answer.
type Check struct {
	// Integrity is SQLite's PRAGMA integrity_check: ["ok"] when sound.
	Integrity []string
	Pools     []PoolCheck
}

// OK reports whether the database is sound and every pool reconciles.
func (c Check) OK() bool {
	if len(c.Integrity) != 1 || c.Integrity[0] != "ok" {
		return false
	}
	for _, p := range c.Pools {
		if !p.ok() {
			return false
		}
	}
	return true
}

// Check runs SQLite's integrity check over the whole file, then
// reconciles every pool, all in one read snapshot (serve may run).
func (s *Store) Check(ctx context.Context) (Check, error) {
	var out Check
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return out, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `PRAGMA integrity_check`)
	if err != nil {
		return out, fmt.Errorf("integrity check: %w", err)
	}
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			rows.Close()
			return out, err
		}
		out.Integrity = append(out.Integrity, line)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("integrity check: %w", err)
	}
	ctx = context.WithValue(ctx, txKey{s}, tx)
	ids, err := s.Pools(ctx)
	if err != nil {
		return out, err
	}
	for _, id := range ids {
		c, err := s.reconcile(ctx, id)
		if err != nil {
			return out, err
		}
		out.Pools = append(out.Pools, c)
	}
	return out, nil
}

// Backup writes a consistent copy of the database to path while the
// store may be in use, by this process or another (VACUUM INTO reads one
// snapshot; writers go on). The copy is written beside path, synced, and
// renamed into place: path is the whole copy or absent. It refuses to
// overwrite a file.
func (s *Store) Backup(ctx context.Context, path string) error {
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("backup: %s exists: choose a new file", path)
	}
	tmp := path + ".partial"
	os.Remove(tmp)
	if _, err := s.w.ExecContext(ctx, `VACUUM INTO ?`, tmp); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("backup: %w", err)
	}
	if err := syncFile(tmp); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("backup: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("backup: %w", err)
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
