// Package filestore is the embedded jackpot store of `make run`: every
// pool, its ledger and its round records in one JSON file under the data
// directory, rewritten atomically (temporary file, fsync, rename, fsync of
// the directory) on every commit, so pools survive restarts and a crash
// leaves the previous state or the new one, never half of a commit. One
// process owns the file; a mutex serialises its commits. It behaves as
// internal/dynamo does: the contract suite in internal/jackpot/jackpottest
// runs against both.
package filestore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/pools"
)

// FileName is the file the store keeps in its directory.
const FileName = "pools.json"

type poolData struct {
	Pool    jackpot.Pool                   `json:"pool"`
	Ledger  []jackpot.Entry                `json:"ledger"`
	Records map[string]jackpot.RoundRecord `json:"records"`
}

type state struct {
	Format int                  `json:"format"`
	Pools  map[string]*poolData `json:"pools"`
}

// Store is the file-backed pools.Store.
type Store struct {
	mu   sync.Mutex
	path string
	st   state
}

var _ pools.Store = (*Store)(nil)

// Open opens (or creates) the store in dir.
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("filestore: %w", err)
	}
	s := &Store{path: filepath.Join(dir, FileName), st: state{Format: 1, Pools: map[string]*poolData{}}}
	b, err := os.ReadFile(s.path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return s, nil
	case err != nil:
		return nil, fmt.Errorf("filestore: %w", err)
	}
	if err := json.Unmarshal(b, &s.st); err != nil {
		return nil, fmt.Errorf("filestore: %s is not a pools file: %w", s.path, err)
	}
	if s.st.Pools == nil {
		s.st.Pools = map[string]*poolData{}
	}
	return s, nil
}

// Path is the file the store writes.
func (s *Store) Path() string { return s.path }

// save writes the whole state atomically.
func (s *Store) save() error {
	b, err := json.Marshal(&s.st)
	if err != nil {
		return err
	}
	dir := filepath.Dir(s.path)
	f, err := os.CreateTemp(dir, ".pools-*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	if _, err := f.Write(b); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, s.path); err != nil {
		os.Remove(tmp)
		return err
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// copyOf round-trips v through JSON so that callers never share memory
// with the store (and see exactly what a restart would).
func copyOf[T any](v T) T {
	var out T
	b, _ := json.Marshal(v)
	_ = json.Unmarshal(b, &out)
	return out
}

// CreatePool implements pools.Store.
func (s *Store) CreatePool(ctx context.Context, p jackpot.Pool, entries []jackpot.Entry) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.st.Pools[p.ID]; ok {
		return jackpot.ErrExists
	}
	s.st.Pools[p.ID] = &poolData{Pool: copyOf(p), Ledger: copyOf(entries), Records: map[string]jackpot.RoundRecord{}}
	if err := s.save(); err != nil {
		delete(s.st.Pools, p.ID)
		return fmt.Errorf("filestore: create %s: %w", p.ID, err)
	}
	return nil
}

// Pool implements pools.Store.
func (s *Store) Pool(ctx context.Context, id string) (jackpot.Pool, error) {
	if err := ctx.Err(); err != nil {
		return jackpot.Pool{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.st.Pools[id]
	if !ok {
		return jackpot.Pool{}, jackpot.ErrNotFound
	}
	return copyOf(d.Pool), nil
}

// Ledger implements pools.Store.
func (s *Store) Ledger(ctx context.Context, id string, after int64, limit int) ([]jackpot.Entry, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.st.Pools[id]
	if !ok {
		return nil, jackpot.ErrNotFound
	}
	if after < 0 {
		after = 0
	}
	if after >= int64(len(d.Ledger)) || limit <= 0 {
		return []jackpot.Entry{}, nil
	}
	end := min(int64(len(d.Ledger)), after+int64(limit))
	return copyOf(d.Ledger[after:end]), nil
}

// Record implements pools.Store.
func (s *Store) Record(ctx context.Context, pool, key string) (jackpot.RoundRecord, error) {
	if err := ctx.Err(); err != nil {
		return jackpot.RoundRecord{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.st.Pools[pool]
	if !ok {
		return jackpot.RoundRecord{}, jackpot.ErrNotFound
	}
	r, ok := d.Records[key]
	if !ok {
		return jackpot.RoundRecord{}, jackpot.ErrNotFound
	}
	return copyOf(r), nil
}

// Commit implements pools.Store: all of the commit or none of it, only
// if the pool is still at PrevVersion and none of the records exists.
func (s *Store) Commit(ctx context.Context, c jackpot.Commit) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.st.Pools[c.Pool.ID]
	if !ok {
		return jackpot.ErrNotFound
	}
	if d.Pool.Version != c.PrevVersion || c.Pool.Version != c.PrevVersion+1 {
		return jackpot.ErrConflict
	}
	for _, r := range c.Records {
		if _, ok := d.Records[r.Key]; ok {
			return jackpot.ErrConflict
		}
	}
	for i, e := range c.Entries {
		if e.Seq != int64(len(d.Ledger)+1+i) {
			return fmt.Errorf("filestore: commit to %s: entry seq %d does not follow the ledger's %d", c.Pool.ID, e.Seq, len(d.Ledger)+i)
		}
	}
	prev := *d
	nd := &poolData{Pool: copyOf(c.Pool), Ledger: append(d.Ledger[:len(d.Ledger):len(d.Ledger)], copyOf(c.Entries)...), Records: make(map[string]jackpot.RoundRecord, len(d.Records)+len(c.Records))}
	for k, v := range d.Records {
		nd.Records[k] = v
	}
	for _, r := range c.Records {
		nd.Records[r.Key] = copyOf(r)
	}
	s.st.Pools[c.Pool.ID] = nd
	if err := s.save(); err != nil {
		s.st.Pools[c.Pool.ID] = &prev
		return fmt.Errorf("filestore: commit to %s: %w", c.Pool.ID, err)
	}
	return nil
}
