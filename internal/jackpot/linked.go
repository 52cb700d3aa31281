package jackpot

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/tablesettle/tablesettle/internal/fault"
)

// Linked tables (issue 24): a pool's settings name the tables linked to
// it, and a round from any other table is refused. A pool whose settings
// name no table accepts no round: a table feeds a pool only once someone
// linked it, under dual control.

// MaxTables is how many entries a pool's tables hold: table ids and
// prefix patterns (TablePattern) together.
const MaxTables = 200

// TablePattern ends an entry of a pool's tables that links every table
// whose id starts with what comes before it: "table-*" links table-00000
// to table-09999 and any other id starting with "table-" (issue 25: a
// wide-area pool of 10,000 tables). The prefix is 1-63 characters of a
// table id, so a pattern never matches every table and no table id is
// mistaken for one (a table id holds no '*').
const TablePattern = "*"

// tablePrefix is the prefix of entry when it is a pattern.
func tablePrefix(entry string) (string, bool) {
	return strings.CutSuffix(entry, TablePattern)
}

// MaxDisplayName is the longest display name, in characters.
const MaxDisplayName = 80

// FieldTable is the Error.Field of a refusal of a round's table: the HTTP
// layer places it at the body's "table".
const FieldTable = "table"

// validateLinks checks s's tables and display name.
func validateLinks(s Settings) error {
	if len(s.Tables) > MaxTables {
		return invalid("tables", "a pool links at most %d tables", MaxTables)
	}
	seen := map[string]bool{}
	for i, t := range s.Tables {
		field := fmt.Sprintf("tables[%d]", i)
		if prefix, ok := tablePrefix(t); ok {
			if !ValidID(prefix) || len(prefix) > 63 {
				return invalid(field, "a table pattern is 1-63 letters, digits, '-', '_', '.' or ':', then one '*' (every table whose id starts with them)")
			}
		} else if !ValidID(t) {
			return invalid(field, "a table id is 1-64 letters, digits, '-', '_', '.' or ':' (or a pattern: a prefix of one, then '*')")
		}
		if seen[t] {
			return invalid(field, "table %q listed twice", t)
		}
		seen[t] = true
	}
	if utf8.RuneCountInString(s.DisplayName) > MaxDisplayName || !utf8.ValidString(s.DisplayName) {
		return invalid("displayName", "a display name is at most %d characters of valid UTF-8", MaxDisplayName)
	}
	for _, r := range s.DisplayName {
		if r < 0x20 || r == 0x7f {
			return invalid("displayName", "a display name holds no control characters")
		}
	}
	return nil
}

// linkNow gives the pool the tables and display name of a change at once:
// they move no money, so unlike the money settings they do not wait for
// the next reset (a table linked today would otherwise wait months for a
// Royal Flush).
func linkNow(q *Pool, s Settings) {
	q.Settings.Tables = append([]string(nil), s.Tables...)
	q.Settings.DisplayName = s.DisplayName
}

// Links reports whether table is linked to p: named in its tables, or
// starting with the prefix of one of its patterns.
func (p Pool) Links(table string) bool {
	for _, t := range p.Settings.Tables {
		if t == table {
			return true
		}
		if prefix, ok := tablePrefix(t); ok && strings.HasPrefix(table, prefix) {
			return true
		}
	}
	return false
}

// CheckLinked refuses a round of table on p unless the table is linked to
// it: Forbidden, naming the table (FieldTable).
func CheckLinked(p Pool, table string) error {
	if p.Links(table) {
		return nil
	}
	linked := "no table: link tables with a settings change (tables) before its rounds are applied"
	if n := len(p.Settings.Tables); n > 10 {
		linked = fmt.Sprintf("%d tables: %s, ...", n, strings.Join(p.Settings.Tables[:10], ", "))
	} else if n > 0 {
		linked = "tables " + strings.Join(p.Settings.Tables, ", ")
	}
	msg := fmt.Sprintf("table %s is not linked to pool %s (it links %s)", table, p.ID, linked)
	return &fault.Error{Kind: fault.Forbidden, Detail: msg, Fields: []fault.Problem{{Field: FieldTable, Message: "not a table linked to the pool", Value: table}}}
}
