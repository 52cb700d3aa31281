package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tablesettle/tablesettle/internal/auth"
	"github.com/tablesettle/tablesettle/internal/httpapi"
	"github.com/tablesettle/tablesettle/internal/principal"
)

// principalsEnv names the principals file when -principals is not given.
const principalsEnv = "TABLESETTLE_PRINCIPALS"

// defaultPrincipals is the principals file's name in the data directory.
const defaultPrincipals = "principals.json"

// localAccess is serve's authentication: the principals file at path (or
// DATA/principals.json), followed as it changes (auth.File: a principal
// added or removed counts from the next request). When the default file
// does not exist it is made, with a fresh token per role, and the path and
// tokens are written to out once (only their hashes are kept). A file
// named explicitly must exist. Stateless operations stay open without
// credentials (docs/security.md).
func localAccess(path, data string, out io.Writer) (*httpapi.Access, error) {
	explicit := path != ""
	if !explicit {
		path = filepath.Join(data, defaultPrincipals)
	}
	file, err := auth.OpenFile(path)
	if errors.Is(err, os.ErrNotExist) && !explicit {
		tokens, err := auth.Bootstrap(path)
		if err != nil {
			return nil, fmt.Errorf("principals: %w", err)
		}
		fmt.Fprintf(out, "tablesettle: made %s with one principal per role; their bearer tokens (shown once, only hashes are kept):\n", path)
		for _, r := range principal.Roles {
			extra := ""
			if r == principal.Table {
				extra = " (tables " + strings.Join(auth.LocalTables, ",") + ")"
			}
			fmt.Fprintf(out, "  %-10s local-%s%s\n             Authorization: Bearer %s\n", r, r, extra, tokens[r])
		}
		if file, err = auth.OpenFile(path); err != nil {
			return nil, err
		}
	} else if err != nil {
		return nil, fmt.Errorf("principals: %w", err)
	}
	return &httpapi.Access{Authenticator: httpapi.BearerTokens{Tokens: file}, OpenStateless: true}, nil
}

// principalsUsage is the principals command's synopsis.
const principalsUsage = `usage: tablesettle principals add --id ID --role ROLE [--tables T1,T2] [-file FILE]
       tablesettle principals remove --id ID [-file FILE]
       tablesettle principals list [-file FILE]`

// principals runs `tablesettle principals add|remove|list`. add makes a
// principal with a fresh token, printed once (the file keeps its hash);
// remove takes one out, and its token stops working on a running serve's
// next request; list prints who holds which roles and tables, never a
// hash.
func principals(args []string, out io.Writer) error {
	if len(args) == 0 || !slices.Contains([]string{"add", "remove", "list"}, args[0]) {
		return errors.New(principalsUsage)
	}
	verb := args[0]
	fs := flag.NewFlagSet("principals "+verb, flag.ContinueOnError)
	id := fs.String("id", "", "the principal's id (it names the principal in the ledger)")
	var role, tables *string
	if verb == "add" {
		role = fs.String("role", "", "its role: "+fmt.Sprint(principal.Roles))
		tables = fs.String("tables", "", "comma-separated table ids (role table: the tables it reports for)")
	}
	file := fs.String("file", os.Getenv(principalsEnv), "principals file (default .tablesettle/"+defaultPrincipals+"); env "+principalsEnv)
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("principals %s: unexpected %q\n%s", verb, fs.Arg(0), principalsUsage)
	}
	if *file == "" {
		*file = filepath.Join(".tablesettle", defaultPrincipals)
	}
	switch verb {
	case "remove":
		if *id == "" {
			return errors.New("principals remove: --id is required")
		}
		if err := auth.Update(*file, func(entries []auth.Entry) ([]auth.Entry, error) { return auth.Remove(entries, *id) }); err != nil {
			return fmt.Errorf("principals remove: %s: %w", *file, err)
		}
		fmt.Fprintf(out, "removed %s from %s; its token is refused from a running serve's next request\n", *id, *file)
		return nil
	case "list":
		entries, err := auth.ReadFile(*file)
		if err != nil {
			return err
		}
		for _, e := range entries {
			fmt.Fprintf(out, "%s\troles %s", e.ID, strings.Join(roleNames(e.Roles), ","))
			if len(e.Tables) > 0 {
				fmt.Fprintf(out, "\ttables %s", strings.Join(e.Tables, ","))
			}
			fmt.Fprintln(out)
		}
		return nil
	}
	var ts []string
	for _, t := range strings.Split(*tables, ",") {
		if t = strings.TrimSpace(t); t != "" {
			ts = append(ts, t)
		}
	}
	var tok string
	err := auth.Update(*file, func(entries []auth.Entry) ([]auth.Entry, error) {
		var err error
		entries, tok, err = auth.Add(entries, *id, []principal.Role{principal.Role(*role)}, ts)
		return entries, err
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "added %s (%s) to %s; its bearer token (shown once, only its hash is kept):\n%s\n", *id, *role, *file, tok)
	return nil
}

func roleNames(rs []principal.Role) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = string(r)
	}
	return out
}
