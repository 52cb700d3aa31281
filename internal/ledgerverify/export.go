package ledgerverify

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The files of an export directory (docs/ledger.md, "Export").
const (
	EntriesFile     = "entries.jsonl"     // one entry a line, as GET .../ledger serves it, seq order
	CheckpointsFile = "checkpoints.jsonl" // one {"origin","size","root","note"} a line
	KeysFile        = "keys.json"         // GET /v1/ledger/keys's answer
	LeafHashesFile  = "leafhashes.txt"    // optional: the store's recorded leaf hash of each entry, base64, seq order
	ProofsFile      = "proofs.jsonl"      // optional: {"kind":"consistency"|"inclusion","index","size","hashes"}
)

// CheckpointLine is one line of checkpoints.jsonl (and of the local
// witness file): GET /v1/pools/{id}/checkpoint's answer.
type CheckpointLine struct {
	Origin string `json:"origin"`
	Size   int64  `json:"size"`
	Root   string `json:"root"`
	Note   string `json:"note"`
}

// ProofLine is one line of proofs.jsonl.
type ProofLine struct {
	Kind string `json:"kind"`
	Proof
}

// ReadDir reads an export directory.
func ReadDir(dir string) (Export, error) {
	var x Export
	err := lines(filepath.Join(dir, EntriesFile), false, func(b []byte) error {
		x.Entries = append(x.Entries, bytes.Clone(b))
		return nil
	})
	if err != nil {
		return x, err
	}
	if err := lines(filepath.Join(dir, CheckpointsFile), false, func(b []byte) error {
		var c CheckpointLine
		if err := json.Unmarshal(b, &c); err != nil {
			return err
		}
		x.Checkpoints = append(x.Checkpoints, c.Note)
		return nil
	}); err != nil {
		return x, err
	}
	kb, err := os.ReadFile(filepath.Join(dir, KeysFile))
	if err != nil {
		return x, err
	}
	var keys struct {
		Keys []Key `json:"keys"`
	}
	if err := json.Unmarshal(kb, &keys); err != nil {
		return x, fmt.Errorf("%s: %w", KeysFile, err)
	}
	x.Keys = keys.Keys
	if err := lines(filepath.Join(dir, LeafHashesFile), true, func(b []byte) error {
		hs, err := decodeHashes([]string{string(b)})
		if err != nil {
			return err
		}
		x.LeafHashes = append(x.LeafHashes, hs[0])
		return nil
	}); err != nil {
		return x, err
	}
	err = lines(filepath.Join(dir, ProofsFile), true, func(b []byte) error {
		var p ProofLine
		if err := json.Unmarshal(b, &p); err != nil {
			return err
		}
		switch p.Kind {
		case "consistency":
			x.Consistency = append(x.Consistency, p.Proof)
		case "inclusion":
			x.Inclusion = append(x.Inclusion, p.Proof)
		default:
			return fmt.Errorf("proof kind %q", p.Kind)
		}
		return nil
	})
	return x, err
}

// EachLine calls f with each non-empty line of path; a missing file has
// none (the local witness file before the first checkpoint).
func EachLine(path string, f func([]byte) error) error { return lines(path, true, f) }

// lines calls f with each non-empty line of path (a missing optional
// file has none).
func lines(path string, optional bool, f func([]byte) error) error {
	file, err := os.Open(path)
	if optional && errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		if err := f(sc.Bytes()); err != nil {
			return fmt.Errorf("%s line %d: %w", filepath.Base(path), n, err)
		}
	}
	return sc.Err()
}

// Fetch reads pool's export from a running service at base (its URL)
// with a bearer token (empty: none): its keys, its latest checkpoint, its
// ledger up to that checkpoint's size, and the inclusion proofs of the
// first and the last entry it signs. The API lists no older checkpoints
// nor the recorded leaf hashes: a root mismatch is named by range.
func Fetch(ctx context.Context, client *http.Client, base, token, pool string) (Export, error) {
	var x Export
	get := func(path string, v any) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(base, "/")+path, nil)
		if err != nil {
			return err
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
		if err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("GET %s: %s: %s", path, resp.Status, bytes.TrimSpace(b))
		}
		return json.Unmarshal(b, v)
	}
	p := url.PathEscape(pool)
	var keys struct {
		Keys []Key `json:"keys"`
	}
	if err := get("/v1/ledger/keys", &keys); err != nil {
		return x, err
	}
	x.Keys = keys.Keys
	var c CheckpointLine
	if err := get("/v1/pools/"+p+"/checkpoint", &c); err != nil {
		return x, err
	}
	x.Checkpoints = []string{c.Note}
	for after := int64(0); after < c.Size; {
		var page struct {
			Entries []json.RawMessage `json:"entries"`
		}
		if err := get("/v1/pools/"+p+"/ledger?limit=1000&after="+strconv.FormatInt(after, 10), &page); err != nil {
			return x, err
		}
		if len(page.Entries) == 0 {
			break
		}
		for _, e := range page.Entries {
			if after < c.Size {
				x.Entries = append(x.Entries, []byte(e))
			}
			after++
		}
	}
	for _, seq := range []int64{1, c.Size} {
		if seq < 1 || (seq == 1 && c.Size == 1 && len(x.Inclusion) > 0) {
			continue
		}
		var pr Proof
		if err := get("/v1/pools/"+p+"/ledger/"+strconv.FormatInt(seq, 10)+"/proof?size="+strconv.FormatInt(c.Size, 10), &pr); err != nil {
			return x, err
		}
		x.Inclusion = append(x.Inclusion, pr)
	}
	return x, nil
}

// EncodeHash is a hash as the export's files write it: base64.
func EncodeHash(h Hash) string { return base64.StdEncoding.EncodeToString(h[:]) }

// WriteDir writes x as an export directory (created if missing; files
// already there are replaced). Each checkpoint line's origin, size and
// root are read from its note's first three lines, as written (they are
// what the note claims, verified only by Verify).
func WriteDir(dir string, x Export) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	write := func(name string, each func(w *bufio.Writer) error) error {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		w := bufio.NewWriter(f)
		if err := each(w); err != nil {
			f.Close()
			return fmt.Errorf("%s: %w", name, err)
		}
		if err := w.Flush(); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	jsonLine := func(w *bufio.Writer, v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		w.Write(b)
		return w.WriteByte('\n')
	}
	if err := write(EntriesFile, func(w *bufio.Writer) error {
		for _, e := range x.Entries {
			if bytes.ContainsAny(e, "\n") {
				return errors.New("an entry's JSON spans lines")
			}
			w.Write(e)
			w.WriteByte('\n')
		}
		return nil
	}); err != nil {
		return err
	}
	if err := write(CheckpointsFile, func(w *bufio.Writer) error {
		for _, n := range x.Checkpoints {
			l := strings.SplitN(n, "\n", 4)
			c := CheckpointLine{Note: n}
			if len(l) == 4 {
				c.Origin, c.Root = l[0], l[2]
				c.Size, _ = strconv.ParseInt(l[1], 10, 64)
			}
			if err := jsonLine(w, c); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return err
	}
	if err := write(KeysFile, func(w *bufio.Writer) error {
		return jsonLine(w, struct {
			Keys []Key `json:"keys"`
		}{x.Keys})
	}); err != nil {
		return err
	}
	if len(x.LeafHashes) > 0 {
		if err := write(LeafHashesFile, func(w *bufio.Writer) error {
			for _, h := range x.LeafHashes {
				w.WriteString(EncodeHash(h) + "\n")
			}
			return nil
		}); err != nil {
			return err
		}
	}
	return write(ProofsFile, func(w *bufio.Writer) error {
		for _, p := range x.Consistency {
			if err := jsonLine(w, ProofLine{Kind: "consistency", Proof: p}); err != nil {
				return err
			}
		}
		for _, p := range x.Inclusion {
			if err := jsonLine(w, ProofLine{Kind: "inclusion", Proof: p}); err != nil {
				return err
			}
		}
		return nil
	})
}
