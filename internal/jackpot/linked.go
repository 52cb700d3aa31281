package jackpot

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/tablesettle/tablesettle/internal/fault"
)

// Linked tables (issue 24): a pool's settings name the tables linked to
// it, and a round from any other table is refused. A pool whose settings
// name no table accepts no round: a table feeds a pool only once someone
// linked it, under dual control.

// MaxTables is how many tables one pool links.
const MaxTables = 200

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
		if !ValidID(t) {
			return invalid(field, "a table id is 1-64 letters, digits, '-', '_', '.' or ':'")
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

// Links reports whether table is linked to p.
func (p Pool) Links(table string) bool { return slices.Contains(p.Settings.Tables, table) }

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
