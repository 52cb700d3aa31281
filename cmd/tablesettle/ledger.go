package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	gojson "github.com/go-json-experiment/json"
	"golang.org/x/mod/sumdb/tlog"

	"github.com/tablesettle/tablesettle/internal/apijson"
	"github.com/tablesettle/tablesettle/internal/ledgerverify"
	"github.com/tablesettle/tablesettle/internal/localledger"
	"github.com/tablesettle/tablesettle/internal/pools"
	"github.com/tablesettle/tablesettle/internal/sqlite"
)

const ledgerUsage = `usage:
  tablesettle ledger export -pool ID -out DIR [-data DIR | -url URL [-token T]]
  tablesettle ledger verify [-pool ID] (DIR | -data DIR | -url URL [-token T])
(docs/ledger.md; the token may also come from TABLESETTLE_TOKEN)`

// errLedgerDiffers is ledger verify's answer when the ledger does not
// verify: the command exits non-zero, having named the seq.
var errLedgerDiffers = errors.New("ledger verify: the ledger does not verify")

// ledger runs ledger export and ledger verify (issue 34 item 7): the
// export is read through the service (the entries exactly as served) and
// checked by internal/ledgerverify, which shares no code with the writer.
func ledger(args []string, out io.Writer) error {
	if len(args) == 0 {
		return errors.New(ledgerUsage)
	}
	cmd, args := args[0], args[1:]
	fs := flag.NewFlagSet("ledger "+cmd, flag.ContinueOnError)
	pool := fs.String("pool", "", "the pool's id")
	data := fs.String("data", "", "the embedded store's directory (serve's -data)")
	url := fs.String("url", "", "a running service's URL, e.g. http://127.0.0.1:8080")
	token := fs.String("token", os.Getenv("TABLESETTLE_TOKEN"), "with -url: a bearer token of a role that reads the ledger; env TABLESETTLE_TOKEN")
	outDir := fs.String("out", "", "export: the directory to write")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ctx := context.Background()
	load := func(id string) (ledgerverify.Export, error) {
		switch {
		case *url != "":
			return ledgerverify.Fetch(ctx, &http.Client{Timeout: time.Minute}, *url, *token, id)
		case *data != "":
			return exportData(ctx, *data, id)
		}
		return ledgerverify.Export{}, errors.New(ledgerUsage)
	}
	switch cmd {
	case "export":
		if *pool == "" || *outDir == "" || fs.NArg() != 0 || (*url == "") == (*data == "") {
			return errors.New(ledgerUsage)
		}
		x, err := load(*pool)
		if err != nil {
			return err
		}
		if err := ledgerverify.WriteDir(*outDir, x); err != nil {
			return err
		}
		fmt.Fprintf(out, "exported pool %s: %d entries, %d checkpoints, %d keys to %s\n", *pool, len(x.Entries), len(x.Checkpoints), len(x.Keys), *outDir)
		return nil
	case "verify":
		var ids []string
		var xs []ledgerverify.Export
		switch {
		case fs.NArg() == 1 && *url == "" && *data == "":
			x, err := ledgerverify.ReadDir(fs.Arg(0))
			if err != nil {
				return err
			}
			ids, xs = []string{fs.Arg(0)}, []ledgerverify.Export{x}
		case fs.NArg() == 0 && (*url == "") != (*data == ""):
			ids = []string{*pool}
			if *pool == "" && *data != "" {
				var err error
				if ids, err = poolsIn(ctx, *data); err != nil {
					return err
				}
			} else if *pool == "" {
				return errors.New("ledger verify -url needs -pool")
			}
			for _, id := range ids {
				x, err := load(id)
				if err != nil {
					return fmt.Errorf("pool %s: %w", id, err)
				}
				xs = append(xs, x)
			}
		default:
			return errors.New(ledgerUsage)
		}
		bad := false
		for i, x := range xs {
			res, err := ledgerverify.Verify(x)
			var m *ledgerverify.Mismatch
			switch {
			case errors.As(err, &m):
				bad = true
				fmt.Fprintf(out, "FAIL %s: %v\n", ids[i], m)
			case err != nil:
				return fmt.Errorf("%s: %w", ids[i], err)
			default:
				fmt.Fprintln(out, res.Summary())
			}
		}
		if bad {
			return errLedgerDiffers
		}
		return nil
	}
	return errors.New(ledgerUsage)
}

// poolsIn lists the pools of the embedded store in data.
func poolsIn(ctx context.Context, data string) ([]string, error) {
	st, err := openExisting(data)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	return st.Pools(ctx)
}

// openExisting opens the embedded store in data, refusing to create one.
func openExisting(data string) (*sqlite.Store, error) {
	if _, err := os.Stat(filepath.Join(data, sqlite.FileName)); err != nil {
		return nil, fmt.Errorf("no embedded store in %s: %w", data, err)
	}
	return sqlite.Open(data)
}

// exportData reads pool id's export from the embedded store in data: its
// entries as GET .../ledger serves them, every checkpoint the store and
// the witness file beside it keep, the keys of the key file, the leaf
// hashes recorded with the entries, the consistency proofs between
// successive checkpoints and the inclusion proofs of the first and the
// newest entry the latest checkpoint signs.
func exportData(ctx context.Context, data, id string) (ledgerverify.Export, error) {
	var x ledgerverify.Export
	if _, err := os.Stat(filepath.Join(data, localledger.KeyFile)); err != nil {
		return x, fmt.Errorf("no ledger key in %s: %w", data, err)
	}
	st, err := openExisting(data)
	if err != nil {
		return x, err
	}
	defer st.Close()
	svc := pools.NewService(st, time.Now, 1)
	if svc.Signing, err = localledger.Open(data); err != nil {
		return x, err
	}
	for _, k := range svc.Keys() {
		x.Keys = append(x.Keys, ledgerverify.Key{Origin: k.Origin, VerifierKey: k.VerifierKey})
	}
	// The entries, as the API serves them.
	for after := int64(0); ; {
		page, err := svc.FloorLedger(ctx, id, "asc", after, 0, 1000)
		if err != nil {
			return x, err
		}
		for _, e := range page.Entries {
			b, err := gojson.Marshal(e, apijson.EncodeOptions)
			if err != nil {
				return x, err
			}
			x.Entries = append(x.Entries, b)
			after = e.Seq
		}
		if page.Next == nil || len(page.Entries) == 0 {
			break
		}
		after = *page.Next
	}
	// The recorded leaf hashes (level 0 of the stored hashes).
	for i := int64(0); i < int64(len(x.Entries)); i += 1000 {
		var idx []int64
		for j := i; j < min(i+1000, int64(len(x.Entries))); j++ {
			idx = append(idx, tlog.StoredHashIndex(0, j))
		}
		hs, err := st.LogHashes(ctx, id, idx)
		if err != nil {
			break // the leaf hashes only help name an entry: without them, a range is named
		}
		for _, h := range hs {
			x.LeafHashes = append(x.LeafHashes, ledgerverify.Hash(h))
		}
	}
	if len(x.LeafHashes) != len(x.Entries) {
		x.LeafHashes = nil
	}
	// The checkpoints: the store's and the witness file's, each note once.
	seen := map[string]bool{}
	var sizes []int64
	add := func(size int64, n string) {
		if !seen[n] {
			seen[n] = true
			x.Checkpoints = append(x.Checkpoints, n)
			sizes = append(sizes, size)
		}
	}
	for before := int64(0); ; {
		got, err := st.Checkpoints(ctx, id, before, 1000)
		if err != nil {
			return x, err
		}
		for _, c := range got {
			add(c.Size, string(c.Note))
			before = c.Size
		}
		if len(got) < 1000 {
			break
		}
	}
	origin := "/tablesettle/pools/" + id
	err = ledgerverify.EachLine(filepath.Join(data, localledger.WitnessFile), func(b []byte) error {
		var c ledgerverify.CheckpointLine
		if err := json.Unmarshal(b, &c); err != nil {
			return err
		}
		if strings.HasSuffix(c.Origin, origin) {
			add(c.Size, c.Note)
		}
		return nil
	})
	if err != nil {
		return x, err
	}
	// The service's proofs, for the verifier to check against its own roots.
	distinct := map[int64]bool{}
	var ordered []int64
	for _, s := range sizes {
		if !distinct[s] && s > 0 && s <= int64(len(x.Entries)) {
			distinct[s] = true
			ordered = append(ordered, s)
		}
	}
	slices.Sort(ordered)
	for i := 1; i < len(ordered); i++ {
		p, err := svc.ConsistencyProof(ctx, id, ordered[i-1], ordered[i])
		if err != nil {
			return x, err
		}
		x.Consistency = append(x.Consistency, ledgerverify.Proof{Index: p.Index, Size: p.Size, Hashes: p.Hashes})
	}
	if n := len(ordered); n > 0 {
		last := ordered[n-1]
		for _, seq := range []int64{1, last} {
			p, err := svc.InclusionProof(ctx, id, seq, last)
			if err != nil {
				return x, err
			}
			x.Inclusion = append(x.Inclusion, ledgerverify.Proof{Index: p.Index, Size: p.Size, Hashes: p.Hashes})
			if last == 1 {
				break
			}
		}
	}
	return x, nil
}
