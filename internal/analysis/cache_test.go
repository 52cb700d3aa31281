package analysis

import (
	"crypto/sha256"
	"testing"
)

// The cache is bounded in entries and in bytes, evicting the least
// recently used first.
func TestAnalysisCacheBounds(t *testing.T) {
	key := func(i byte) [sha256.Size]byte { return sha256.Sum256([]byte{i}) }
	figs := Figures{Ruleset: "mbs-megalink-tcp-v6"}
	c := NewCache(2, 1<<20)
	c.put(key(1), figs)
	c.put(key(2), figs)
	c.get(key(1)) // 1 is now the most recent
	c.put(key(3), figs)
	if _, ok := c.get(key(2)); ok {
		t.Error("the least recently used entry (2) was kept beyond 2 entries")
	}
	for _, k := range []byte{1, 3} {
		if _, ok := c.get(key(k)); !ok {
			t.Errorf("entry %d evicted", k)
		}
	}
	n, size, _, _ := c.Stats()
	per := size / n
	b := NewCache(100, 2*per) // room for two entries' bytes
	for i := byte(1); i <= 3; i++ {
		b.put(key(i), figs)
	}
	if n, size, _, _ := b.Stats(); n != 2 || size != 2*per {
		t.Errorf("entries %d bytes %d, want 2 and %d", n, size, 2*per)
	}
	tiny := NewCache(100, per-1) // an entry larger than the whole cache is not kept
	tiny.put(key(1), figs)
	if n, _, _, _ := tiny.Stats(); n != 0 {
		t.Errorf("an entry over maxBytes was kept")
	}
}
