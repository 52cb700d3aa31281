package analysis

import (
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/json"
	"sync"

	"github.com/tablesettle/tablesettle/internal/ruleset"
)

// Cache keeps the figures of custom paytable analyses
// (POST /v1/paytables/analyze) by the SHA-256 of the proposal as parsed
// (its canonical JSON): an analysis is a pure function of its proposal, so
// the same proposal again is answered from memory instead of up to 29 s of
// a whole vCPU. It is a least-recently-used cache bounded both in entries
// and in bytes (each entry counted as its figures' JSON size). Only
// successful analyses are kept. Safe for concurrent use; one per process
// (the paytables function keeps it across the invocations of a warm
// instance).
type Cache struct {
	maxEntries int
	maxBytes   int
	mu         sync.Mutex
	bytes      int
	order      *list.List // front: most recently used
	byKey      map[[sha256.Size]byte]*list.Element
	hits, miss uint64
}

type cacheEntry struct {
	key  [sha256.Size]byte
	figs Figures
	size int
}

// NewCache returns a cache of at most maxEntries analyses and
// maxBytes bytes of figures.
func NewCache(maxEntries, maxBytes int) *Cache {
	return &Cache{maxEntries: maxEntries, maxBytes: maxBytes, order: list.New(), byKey: map[[sha256.Size]byte]*list.Element{}}
}

// proposalKey is the hash of a proposal.
func proposalKey(req Proposal) ([sha256.Size]byte, bool) {
	b, err := json.Marshal(req)
	if err != nil {
		return [sha256.Size]byte{}, false
	}
	return sha256.Sum256(b), true
}

func (c *Cache) get(key [sha256.Size]byte) (Figures, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[key]; ok {
		c.order.MoveToFront(e)
		c.hits++
		return e.Value.(*cacheEntry).figs, true
	}
	c.miss++
	return Figures{}, false
}

func (c *Cache) put(key [sha256.Size]byte, figs Figures) {
	b, err := json.Marshal(figs)
	if err != nil || len(b) > c.maxBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[key]; ok {
		return
	}
	c.byKey[key] = c.order.PushFront(&cacheEntry{key: key, figs: figs, size: len(b)})
	c.bytes += len(b)
	for c.order.Len() > c.maxEntries || c.bytes > c.maxBytes {
		old := c.order.Back()
		e := old.Value.(*cacheEntry)
		c.order.Remove(old)
		delete(c.byKey, e.key)
		c.bytes -= e.size
	}
}

// Stats returns the entries and bytes held and the hits and misses so far.
func (c *Cache) Stats() (entries, bytes int, hits, misses uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len(), c.bytes, c.hits, c.miss
}

// Analyze answers proposal req (see Analyze) from c when it can, else
// computes it and keeps the figures. A nil c computes every time.
func (c *Cache) Analyze(ctx context.Context, cat ruleset.Catalogue, req Proposal) (Figures, error) {
	if c == nil {
		return Analyze(ctx, cat, req)
	}
	key, ok := proposalKey(req)
	if !ok {
		return Analyze(ctx, cat, req)
	}
	if figs, ok := c.get(key); ok {
		return figs, nil
	}
	figs, err := Analyze(ctx, cat, req)
	if err == nil {
		c.put(key, figs)
	}
	return figs, err
}
