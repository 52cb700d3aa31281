package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/tablesettle/tablesettle/internal/sqlite"
)

// storeUsage is the store command's synopsis.
const storeUsage = `usage: tablesettle store backup FILE [-data DIR]
       tablesettle store check [-data DIR]
       tablesettle store import FILE [-data DIR]`

// errDiffers is store check's answer when the database is not sound or a
// pool does not reconcile: the command exits non-zero.
var errDiffers = errors.New("store check: differences found")

// openStore opens the embedded store of serve in data and, on the first
// start (an empty store) with an earlier build's pools.json beside it,
// imports that file: every pool, reconciled, or nothing. The JSON file is
// left as it was.
func openStore(ctx context.Context, data string, out io.Writer, opts ...sqlite.Option) (*sqlite.Store, error) {
	st, err := sqlite.Open(data, opts...)
	if err != nil {
		return nil, err
	}
	legacy := filepath.Join(data, sqlite.LegacyFileName)
	if _, err := os.Stat(legacy); err != nil {
		return st, nil
	}
	empty, err := st.Empty(ctx)
	if err != nil || !empty {
		if err != nil {
			st.Close()
		}
		return st, err
	}
	imp, err := st.Import(ctx, legacy)
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("%w\n(%s is untouched; fix it, or move it aside to start with an empty store)", err, legacy)
	}
	fmt.Fprintf(out, "tablesettle: imported %d pools (%d ledger entries, %d round records) from %s into %s, each reconciled; %s is kept as it was\n",
		imp.Pools, imp.Entries, imp.Records, legacy, st.Path(), legacy)
	return st, nil
}

// store runs the store's operations: backup, check, import.
func store(args []string, out io.Writer) error {
	if len(args) == 0 {
		return errors.New(storeUsage)
	}
	cmd, args := args[0], args[1:]
	var file string
	if cmd == "backup" || cmd == "import" {
		if len(args) == 0 || args[0] == "" || args[0][0] == '-' {
			return errors.New(storeUsage)
		}
		file, args = args[0], args[1:]
	}
	fs := flag.NewFlagSet("store "+cmd, flag.ContinueOnError)
	data := fs.String("data", ".tablesettle", "directory of the embedded store")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return errors.New(storeUsage)
	}
	ctx := context.Background()
	switch cmd {
	case "backup", "check":
		if _, err := os.Stat(filepath.Join(*data, sqlite.FileName)); err != nil {
			return fmt.Errorf("store %s: no store in %s: %w", cmd, *data, err)
		}
	case "import":
	default:
		return fmt.Errorf("unknown store command %q\n%s", cmd, storeUsage)
	}
	st, err := sqlite.Open(*data)
	if err != nil {
		return err
	}
	defer st.Close()
	switch cmd {
	case "backup":
		if err := st.Backup(ctx, file); err != nil {
			return err
		}
		fmt.Fprintf(out, "backed up %s to %s\n", st.Path(), file)
		return nil
	case "import":
		imp, err := st.Import(ctx, file)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "imported %d pools (%d ledger entries, %d round records) from %s into %s, each reconciled\n",
			imp.Pools, imp.Entries, imp.Records, file, st.Path())
		return nil
	}
	c, err := st.Check(ctx)
	if err != nil {
		return fmt.Errorf("store check: %w", err)
	}
	for _, line := range c.Integrity {
		fmt.Fprintf(out, "integrity: %s\n", line)
	}
	for _, p := range c.Pools {
		fmt.Fprintf(out, "pool %s\n", p)
	}
	if !c.OK() {
		return errDiffers
	}
	fmt.Fprintf(out, "ok: %d pools reconcile\n", len(c.Pools))
	return nil
}
