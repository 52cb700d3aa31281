// Package auth authenticates callers and decides what each may do (issue
// 16). It knows two kinds of credentials: bearer tokens of a principals
// file (the local server) and IAM identities mapped to roles by
// configuration (the stack, where API Gateway has already checked the
// SigV4 signature). Routes says which roles may call each operation; the
// HTTP layer (internal/httpapi) applies it before an operation runs, so a
// refused request writes nothing.
//
// A token is never stored or logged: the principals file holds its SHA-256,
// and a token is found by its own hash in an index of the entries' hashes.
package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/tablesettle/tablesettle/internal/principal"
)

// Entry is one principal of a principals file:
//
//	{"id": "cage-1", "roles": ["cage"], "tables": [], "tokenSha256": "9f86d0..."}
type Entry struct {
	ID          string           `json:"id"`
	Roles       []principal.Role `json:"roles"`
	Tables      []string         `json:"tables,omitempty"`
	TokenSHA256 string           `json:"tokenSha256"`
}

// tableID is the form of a table id, as the pools operations accept it.
var tableID = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,64}$`)

// principalID is the form of a principal id in a principals file.
var principalID = regexp.MustCompile(`^[A-Za-z0-9._@:-]{1,128}$`)

// ValidTable reports whether s is a well-formed table id.
func ValidTable(s string) bool { return tableID.MatchString(s) }

func validRoles(where string, roles []principal.Role, tables []string) error {
	if len(roles) == 0 {
		return fmt.Errorf("%s: roles: at least one of %v", where, principal.Roles)
	}
	for _, r := range roles {
		if !r.Valid() {
			return fmt.Errorf("%s: roles: %q is not one of %v", where, r, principal.Roles)
		}
	}
	for _, t := range tables {
		if !ValidTable(t) {
			return fmt.Errorf("%s: tables: %q is not a table id (1-64 letters, digits, '.', '_', ':', '-')", where, t)
		}
	}
	if slices.Contains(roles, principal.Table) && len(tables) == 0 {
		return fmt.Errorf("%s: a principal with role table needs the table ids it reports for (tables)", where)
	}
	return nil
}

// Validate says what is wrong with a principals file's entries.
func Validate(entries []Entry) error {
	ids := map[string]bool{}
	hashes := map[string]bool{}
	for i, e := range entries {
		where := fmt.Sprintf("principal [%d] %q", i, e.ID)
		if !principalID.MatchString(e.ID) {
			return fmt.Errorf("%s: id: 1-128 letters, digits, '.', '_', '@', ':', '-'", where)
		}
		if ids[e.ID] {
			return fmt.Errorf("%s: id appears twice", where)
		}
		ids[e.ID] = true
		if err := validRoles(where, e.Roles, e.Tables); err != nil {
			return err
		}
		h, err := hex.DecodeString(e.TokenSHA256)
		if err != nil || len(h) != sha256.Size {
			return fmt.Errorf("%s: tokenSha256: want the 64 hex digits of the token's SHA-256", where)
		}
		if hashes[strings.ToLower(e.TokenSHA256)] {
			return fmt.Errorf("%s: tokenSha256: the same token as another principal", where)
		}
		hashes[strings.ToLower(e.TokenSHA256)] = true
	}
	return nil
}

// ReadFile reads and validates a principals file. A file that the group or
// others may write, or that another user owns, is refused: whoever can
// write it can add an admin.
func ReadFile(path string) ([]Entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm()&0o022 != 0 {
		return nil, fmt.Errorf("%s: writable by group or others (mode %v): anyone who can write it can add a principal; chmod go-w %s", path, fi.Mode().Perm(), path)
	}
	if uid, foreign := foreignOwner(fi); foreign {
		return nil, fmt.Errorf("%s: owned by uid %d, neither this user (uid %d) nor root: its owner can add a principal; chown it", path, uid, os.Getuid())
	}
	var entries []Entry
	dec := json.NewDecoder(f)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&entries); err != nil {
		return nil, fmt.Errorf("%s: want a JSON array of {\"id\", \"roles\", \"tables\", \"tokenSha256\"}: %w", path, err)
	}
	if err := atEnd(dec); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := Validate(entries); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return entries, nil
}

// atEnd refuses anything but white space after the JSON value dec has
// read: a second array (two files pasted together) would otherwise be
// dropped without a word.
func atEnd(dec *json.Decoder) error {
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("data after the JSON array: want one array and nothing else")
	}
	return nil
}

// WriteFile validates entries and writes them to path (mode 0600), by a
// rename so that a reader never sees half a file.
func WriteFile(path string, entries []Entry) error {
	if err := Validate(entries); err != nil {
		return err
	}
	b, err := json.MarshalIndent(entries, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".principals-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Update reads the principals file at path (none yet: no entries), lets
// change make the new entries and writes them, holding an exclusive lock
// on path+".lock" throughout, so that two updates at once (two operators
// running principals add) both land: without it the second write would
// drop the first one's principal, whose token was already printed.
func Update(path string, change func([]Entry) ([]Entry, error)) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	lf, err := os.OpenFile(filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer lf.Close()
	unlock, err := lockFile(lf)
	if err != nil {
		return fmt.Errorf("%s: lock: %w", path, err)
	}
	defer unlock()
	entries, err := ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if entries, err = change(entries); err != nil {
		return err
	}
	return WriteFile(path, entries)
}

// TokenPrefix starts every token NewToken makes, so that a token pasted
// into a log or a ticket is recognisable (and greppable) as one.
const TokenPrefix = "tst_"

// NewToken returns a fresh token: 256 random bits, base64url.
func NewToken() string {
	var b [32]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never returns an error (Go 1.24+)
	return TokenPrefix + base64.RawURLEncoding.EncodeToString(b[:])
}

// HashToken is the hex SHA-256 of a token, as the principals file keeps it.
func HashToken(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// Add appends a principal with a fresh token to entries and returns the
// token (shown once: only its hash is kept).
func Add(entries []Entry, id string, roles []principal.Role, tables []string) ([]Entry, string, error) {
	tok := NewToken()
	out := append(slices.Clone(entries), Entry{ID: id, Roles: roles, Tables: tables, TokenSHA256: HashToken(tok)})
	if err := Validate(out); err != nil {
		return nil, "", err
	}
	return out, tok, nil
}

// Tokens authenticates bearer tokens against a principals file's entries.
type Tokens struct {
	entries []tokenEntry
	// byHash indexes entries by their token's SHA-256, so a lookup costs
	// the same with 10 principals as with 10,000 (a wide-area pool's
	// tables, one principal each).
	byHash map[[sha256.Size]byte]int
}

type tokenEntry struct {
	hash [sha256.Size]byte
	p    principal.Principal
}

// NewTokens returns the authenticator of entries (validate them first:
// ReadFile does).
func NewTokens(entries []Entry) *Tokens {
	t := &Tokens{byHash: make(map[[sha256.Size]byte]int, len(entries))}
	for _, e := range entries {
		var te tokenEntry
		h, _ := hex.DecodeString(e.TokenSHA256)
		copy(te.hash[:], h)
		te.p = principal.Principal{ID: e.ID, Roles: slices.Clone(e.Roles), Tables: slices.Clone(e.Tables)}
		if _, dup := t.byHash[te.hash]; !dup { // Validate refuses duplicates; the first would win
			t.byHash[te.hash] = len(t.entries)
		}
		t.entries = append(t.entries, te)
	}
	return t
}

// ErrBadToken is the answer to a token no principal holds.
var ErrBadToken = errors.New("the bearer token is not one of the principals file's")

// Lookup returns the principal holding token. It hashes the token and
// looks the hash up in an index: the time a lookup takes can depend on the
// hash, never on the token, and a hash of a secret 256-bit token says
// nothing an attacker can turn back into a token (the way services that
// keep only token hashes look them up).
func (t *Tokens) Lookup(token string) (*principal.Principal, error) {
	h := sha256.Sum256([]byte(token))
	found, ok := t.byHash[h]
	if !ok {
		return nil, ErrBadToken
	}
	p := t.entries[found].p
	p.Roles, p.Tables = slices.Clone(p.Roles), slices.Clone(p.Tables) // the request's own: nothing it does reaches the next
	return &p, nil
}

// LocalTables are the table ids the principals file that serve creates on
// a fresh machine binds its table principal to.
var LocalTables = []string{"T12"}

// Bootstrap makes a principals file at path with one principal per role
// ("local-table", "local-supervisor", ...), each with a fresh token, and
// returns the tokens by role (to print once: only hashes are written).
// The table principal is bound to LocalTables.
func Bootstrap(path string) (map[principal.Role]string, error) {
	var entries []Entry
	tokens := map[principal.Role]string{}
	for _, r := range principal.Roles {
		var tables []string
		if r == principal.Table {
			tables = slices.Clone(LocalTables)
		}
		var tok string
		var err error
		entries, tok, err = Add(entries, "local-"+string(r), []principal.Role{r}, tables)
		if err != nil {
			return nil, err
		}
		tokens[r] = tok
	}
	if err := WriteFile(path, entries); err != nil {
		return nil, err
	}
	return tokens, nil
}

// File authenticates bearer tokens against the principals file at a path,
// and reads the file again whenever it has changed (a stat per lookup: its
// inode, size, modification time, mode or owner), so that a principal
// added or removed, by principals add or remove or by hand, counts from the
// next request with no restart: a removed principal's token stops working
// at once. A changed file that cannot be read or is refused (ReadFile's
// checks) refuses every token as an error that is not ErrBadToken (the
// server answers 503 and logs why) until it is fixed: never the previous
// set, which may hold the principal being removed.
type File struct {
	path string

	mu     sync.Mutex
	fi     os.FileInfo // the file as last read (or refused); nil: not there
	tokens *Tokens     // nil while the file is refused
	err    error       // why it is refused
}

// OpenFile reads the principals file at path; it must exist and be valid.
func OpenFile(path string) (*File, error) {
	f := &File{path: path}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	f.load(fi)
	if f.err != nil {
		return nil, f.err
	}
	return f, nil
}

// load reads the file, whose stat is fi, and keeps its tokens or why it
// was refused.
func (f *File) load(fi os.FileInfo) {
	f.fi = fi
	entries, err := ReadFile(f.path)
	if err != nil {
		f.tokens, f.err = nil, err
		return
	}
	f.tokens, f.err = NewTokens(entries), nil
}

// Lookup returns the principal holding token in the file as it is now.
func (f *File) Lookup(token string) (*principal.Principal, error) {
	fi, statErr := os.Stat(f.path)
	f.mu.Lock()
	switch {
	case statErr != nil:
		f.fi, f.tokens, f.err = nil, nil, statErr
	case f.fi == nil || changed(f.fi, fi):
		f.load(fi)
	}
	tokens, err := f.tokens, f.err
	f.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("principals file refused, so no token can be checked: %w", err)
	}
	return tokens.Lookup(token)
}

// changed reports whether the file's stat differs in anything ReadFile
// depends on. A rewrite by WriteFile is a rename: a new inode.
func changed(a, b os.FileInfo) bool {
	ua, _ := foreignOwner(a)
	ub, _ := foreignOwner(b)
	return !os.SameFile(a, b) || a.Size() != b.Size() || !a.ModTime().Equal(b.ModTime()) || a.Mode() != b.Mode() || ua != ub
}

// Remove drops the principal id from entries; it is an error if there is
// none.
func Remove(entries []Entry, id string) ([]Entry, error) {
	i := slices.IndexFunc(entries, func(e Entry) bool { return e.ID == id })
	if i < 0 {
		return nil, fmt.Errorf("no principal %q", id)
	}
	return slices.Delete(slices.Clone(entries), i, i+1), nil
}
