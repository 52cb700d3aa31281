package jackpot

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// RoundRecord is the first answer to a round, kept forever: it, not a
// transport's retry token, is what makes a replay harmless. A round has one
// record under its table and round id and, when the request carried an
// Idempotency-Key, one under the key.
type RoundRecord struct {
	Pool           string      `json:"pool"`
	Key            string      `json:"key"`
	Table          string      `json:"table"`
	Round          string      `json:"round"`
	IdempotencyKey string      `json:"idempotencyKey,omitempty"`
	Fingerprint    string      `json:"fingerprint"`
	Result         RoundResult `json:"result"`
	// Op is what the record answers: a round ("", the default), an
	// adjustment or a settings change (OpAdjustment, OpSettings); PoolAfter
	// is the answer to those: the pool as the change committed it.
	Op        string `json:"op,omitempty"`
	PoolAfter *Pool  `json:"poolAfter,omitempty"`
	// Hit is the answer's hit, for the jackpot lock's operations.
	Hit *LockedHit `json:"hit,omitempty"`
	// Correction is a correction's answer.
	Correction *CorrectionResult `json:"correction,omitempty"`
	// Proposal is a dual-control operation's answer (Op propose/...,
	// approve, withdraw), and the closed proposal itself in the record
	// ProposalKey(id) that approving, withdrawing or expiring it writes:
	// the store refuses a second such record, so a proposal is closed
	// (and applied) once.
	Proposal *Proposal `json:"proposal,omitempty"`
	// Commit is the id of the commit attempt that wrote the record (and
	// the ledger entries with it): a request whose answer was lost
	// recognises its own commit by it, and is not a replay.
	Commit string `json:"commit,omitempty"`
	// FirstSeq is the first ledger entry of a round's commit: a
	// correction reads the ledger from there (0 in records written before
	// it was kept: the whole ledger is read).
	FirstSeq int64 `json:"firstSeq,omitempty"`
	// Print is a slip print's answer, and the print itself in the record
	// SlipKey(hit, n) it writes.
	Print *SlipPrint `json:"print,omitempty"`
	// Sent is a round's request as the table sent it (Round.Sent); absent
	// in records written before it was kept.
	Sent json.RawMessage `json:"sent,omitempty"`
}

// The operations other than rounds that are applied exactly once under an
// Idempotency-Key.
const (
	OpAdjustment = "adjustment"
	OpSettings   = "settings"
	OpConfirm    = "confirm"
	OpVoid       = "void"
	OpPaid       = "paid"
	OpCorrect    = "correct"
	// Dual control: proposing (OpPropose + the change's kind), approving
	// and withdrawing; OpProposal is the record of a closed proposal.
	OpPropose  = "propose/"
	OpApprove  = "approve"
	OpWithdraw = "withdraw"
	OpProposal = "proposal"
	OpPrint    = "print"
)

// ProposalKey is the record key of a closed (approved, withdrawn or
// expired) proposal.
func ProposalKey(id int64) string { return fmt.Sprintf("proposal/%d", id) }

// RoundKey is the record key of a table's round.
func RoundKey(table, round string) string { return "round/" + table + "/" + round }

// IdempotencyRecordKey is the record key of an Idempotency-Key.
func IdempotencyRecordKey(k string) string {
	sum := sha256.Sum256([]byte(k))
	return "key/" + hex.EncodeToString(sum[:])
}

// Commit is one atomic write: the pool as it now is (its Version one more
// than PrevVersion), the ledger entries the change posted, and the round
// records. A Store writes all of it or none, and only if the stored pool is
// still at PrevVersion and none of the records exists; otherwise it
// returns ErrConflict.
type Commit struct {
	PrevVersion int64
	Pool        Pool
	Entries     []Entry
	Records     []RoundRecord
}

// Fingerprint identifies a round's content: a replay must match it.
func Fingerprint(r Round) string {
	b, _ := json.Marshal(r)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func FingerprintOf(v any) string {
	b, _ := json.Marshal(v)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
