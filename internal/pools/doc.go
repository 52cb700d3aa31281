// Package pools is the progressive pools' application layer: one function
// per use case (open a pool, apply a round, adjust a meter, change the
// settings, release held RWS hits, reconcile, and the jackpot lock's
// confirm, pay and void), each applied exactly once through a Store that
// internal/dynamo and internal/sqlite implement (one contract suite,
// internal/pools/poolstest, runs against both). The rules of the money
// are in internal/jackpot, which is pure; the HTTP layer only translates
// HTTP to these calls.
package pools
