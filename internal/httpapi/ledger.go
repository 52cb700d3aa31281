package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/principal"
)

// The verifiable ledger (issue 34, docs/ledger.md): the pool's signed
// checkpoint, the deployment's verifier keys, and RFC 9162 inclusion and
// consistency proofs. None of them writes.

type checkpointOutput struct {
	Body pools.Checkpoint
}

type keysOutput struct {
	Body struct {
		Keys []pools.Key `json:"keys" doc:"Every key the deployment has signed checkpoints with, rotated ones included."`
	}
}

type proofInput struct {
	ID   string `path:"id" maxLength:"64"`
	Seq  int64  `path:"seq" doc:"The entry: its sequence number, 1 to size."`
	Size int64  `query:"size" doc:"The tree size the proof is in: a checkpoint's size, at most the ledger's (0 or absent: the ledger's current size)."`
}

type consistencyInput struct {
	ID   string `path:"id" maxLength:"64"`
	From int64  `query:"from" required:"true" doc:"The older tree's size, 1 to to."`
	To   int64  `query:"to" doc:"The newer tree's size, at most the ledger's (0 or absent: the ledger's current size)."`
}

type proofOutput struct {
	Body pools.Proof
}

// registerLedgerLog adds the ledger's log operations (the "pools" function).
func registerLedgerLog(api huma.API, svc *pools.Service, tags []string) {
	huma.Register(api, huma.Operation{
		OperationID: "pool-checkpoint", Method: http.MethodGet, Path: "/v1/pools/{id}/checkpoint",
		Summary: "A pool's latest signed checkpoint", Tags: tags,
		Description: "The latest checkpoint of the pool's ledger: a C2SP tlog-checkpoint (origin, size, base64 RFC 6962 root, and the pool's meters and exact rate sums at that size) in a C2SP signed note, Ed25519, verifiable with a key of GET /v1/ledger/keys. " +
			"It covers every entry committed more than 5 s before the call; reading it writes nothing (docs/ledger.md).",
	}, func(ctx context.Context, in *poolIDInput) (*checkpointOutput, error) {
		if svc == nil {
			return nil, poolsUnavailable()
		}
		c, err := svc.LatestCheckpoint(ctx, in.ID)
		if err != nil {
			return nil, poolError(ctx, err, "path.")
		}
		return &checkpointOutput{Body: c}, nil
	})
	huma.Register(api, huma.Operation{
		OperationID: "ledger-keys", Method: http.MethodGet, Path: "/v1/ledger/keys",
		Summary: "The keys the deployment signs checkpoints with", Tags: tags,
		Description: "Every verifier key (signed-note format) the deployment has signed pool checkpoints with, rotated keys included, with the origin prefix each signs. No credentials needed.",
	}, func(ctx context.Context, _ *struct{}) (*keysOutput, error) {
		out := &keysOutput{}
		out.Body.Keys = []pools.Key{}
		if svc != nil {
			out.Body.Keys = svc.Keys()
		}
		return out, nil
	})
	huma.Register(api, huma.Operation{
		OperationID: "pool-entry-proof", Method: http.MethodGet, Path: "/v1/pools/{id}/ledger/{seq}/proof",
		Summary: "An entry's inclusion proof", Tags: tags,
		Description: "The RFC 9162 inclusion proof of ledger entry seq (leaf index seq-1) in the pool's tree of size (a checkpoint's). A table reads the proofs of its own rounds' entries only. " +
			"A seq or size out of range is 422; reading it writes nothing (docs/ledger.md).",
	}, func(ctx context.Context, in *proofInput) (*proofOutput, error) {
		if svc == nil {
			return nil, poolsUnavailable()
		}
		pr, err := svc.InclusionProof(ctx, in.ID, in.Seq, in.Size)
		if err != nil {
			return nil, poolError(ctx, err, "path.")
		}
		if p, ok := principal.FromContext(ctx); ok && p.Acting == principal.Table {
			// A table reads the entries of its own rounds only.
			e, err := svc.Entry(ctx, in.ID, in.Seq)
			if err != nil {
				return nil, poolError(ctx, err, "path.")
			}
			if e.Table == "" {
				f := fault.New(fault.Forbidden, "entry %d of pool %s records no table's round: a table reads the proofs of its own rounds' entries only", in.Seq, in.ID)
				f.Fields = []fault.Problem{{Field: "path.seq", Message: "not an entry of one of the principal's tables", Value: in.Seq}}
				return nil, problemOf(ctx, f, "")
			}
			if err := requireTable(ctx, e.Table, "path.seq"); err != nil {
				return nil, err
			}
		}
		return &proofOutput{Body: pr}, nil
	})
	huma.Register(api, huma.Operation{
		OperationID: "pool-consistency", Method: http.MethodGet, Path: "/v1/pools/{id}/consistency",
		Summary: "A consistency proof between two of a pool's tree sizes", Tags: tags,
		Description: "The RFC 9162 consistency proof that the pool's tree of size from is a prefix of its tree of size to (index is from). from > to or a size past the ledger's is 422; reading it writes nothing (docs/ledger.md).",
	}, func(ctx context.Context, in *consistencyInput) (*proofOutput, error) {
		if svc == nil {
			return nil, poolsUnavailable()
		}
		pr, err := svc.ConsistencyProof(ctx, in.ID, in.From, in.To)
		if err != nil {
			return nil, poolError(ctx, err, "path.")
		}
		return &proofOutput{Body: pr}, nil
	})
}
