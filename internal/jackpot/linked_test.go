package jackpot_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/jackpot"
	"github.com/tablesettle/tablesettle/internal/jackpot/jackpottest"
)

// A pool's tables (issue 24) are table ids and, for a wide-area pool of
// thousands of tables (issue 25), prefix patterns: "table-*" links every
// table whose id starts with "table-". A list of 10,000 ids would not fit
// the 200 entries, and would make the pool item, rewritten by every
// commit of the pool, 140 KB.
func TestLinksTablePatterns(t *testing.T) {
	s := jackpottest.MBSSettings()
	s.Tables = []string{"T12", "table-*", "pit:3.*"}
	p, _, err := jackpot.New("wide", s, jackpottest.Admin, t0)
	if err != nil {
		t.Fatal(err)
	}
	for table, want := range map[string]bool{
		"T12": true, "T1": false, "T123": false,
		"table-00000": true, "table-09999": true, "table-": true, "table": false, "Table-1": false, "tables-1": false,
		"pit:3.7": true, "pit:37": false,
		"*": false, "table-*": true, // "table-*" is not a table id (the API refuses it as one), but it starts with the prefix
	} {
		if got := p.Links(table); got != want {
			t.Errorf("Links(%q) = %v, want %v", table, got, want)
		}
	}
	if err := jackpot.CheckLinked(p, "table-04242"); err != nil {
		t.Errorf("CheckLinked(table-04242): %v", err)
	}
	err = jackpot.CheckLinked(p, "T13")
	var fe *fault.Error
	if !errors.As(err, &fe) || fe.Kind != fault.Forbidden || fe.Detail != "table T13 is not linked to pool wide (it links tables T12, table-*, pit:3.*)" {
		t.Errorf("CheckLinked(T13): %v", err)
	}
}

// 10,000 tables in one pool are one pattern; the list of ids stays
// bounded (MaxTables) and a pattern is a valid id prefix and one '*', at
// the end.
func TestTablePatternsValidated(t *testing.T) {
	ids := make([]string, jackpot.MaxTables)
	for i := range ids {
		ids[i] = fmt.Sprintf("table-%05d", i)
	}
	for _, tc := range []struct {
		name   string
		tables []string
		field  string // "" when valid
	}{
		{"a prefix pattern", []string{"table-*"}, ""},
		{"ids and patterns", []string{"T12", "table-*", "pit:3.*"}, ""},
		{"MaxTables entries", ids, ""},
		{"one more than MaxTables", append(ids, "T1"), "tables"},
		{"a lone star links every table", []string{"*"}, "tables[0]"},
		{"a star inside", []string{"T12", "ta*ble"}, "tables[1]"},
		{"two stars", []string{"table-**"}, "tables[0]"},
		{"a leading star", []string{"*-00001"}, "tables[0]"},
		{"a prefix of 64 characters and a star (65)", []string{fmt.Sprintf("%064d*", 0)}, "tables[0]"},
		{"a prefix of 63 characters and a star", []string{fmt.Sprintf("%063d*", 0)}, ""},
		{"a bad character in the prefix", []string{"tab le-*"}, "tables[0]"},
		{"the same pattern twice", []string{"table-*", "table-*"}, "tables[1]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := jackpottest.MBSSettings()
			s.Tables = tc.tables
			_, _, err := jackpot.New("p", s, jackpottest.Admin, t0)
			if tc.field == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var fe *fault.Error
			if !errors.As(err, &fe) || fe.Kind != fault.Invalid || len(fe.Fields) == 0 || fe.Fields[0].Field != tc.field {
				t.Fatalf("err %v, want invalid at %s", err, tc.field)
			}
		})
	}
}
