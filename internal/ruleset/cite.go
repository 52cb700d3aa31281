package ruleset

import "reflect"

// citations holds, for each ruleset, the citation of every string its data
// holds ("3.10.2" -> "mbs-megalink-ssp-v6 3.10.2"), computed once when the
// package is initialised and never modified: Cite is called for every line
// of every settlement, and concatenating each would be a tenth of a
// round's allocations. A citation depends only on the id and the rule, so
// the table is right for any Ruleset value, copies and changed copies
// included; a rule it does not hold is concatenated on the call.
var citations = citationTable(rulesets[:])

// payTexts holds Pay.String of every price in the rulesets' paytables,
// computed once at initialisation and never modified: settlement writes the
// price of every winning line, and formatting it would be an allocation
// or two each time. A price not in the data is formatted on the call.
var payTexts = payTextTable(rulesets[:])

func payTextTable(rs []Ruleset) map[Pay]string {
	out := map[Pay]string{}
	for i := range rs {
		for _, w := range rs[i].Wagers {
			for _, e := range w.Paytable {
				out[e.Pay] = e.Pay.format()
			}
		}
		for _, s := range rs[i].Selections {
			out[s.Pay] = s.Pay.format()
		}
	}
	return out
}

func citationTable(rs []Ruleset) map[ID]map[string]string {
	out := make(map[ID]map[string]string, len(rs))
	for i := range rs {
		m := map[string]string{}
		collectStrings(reflect.ValueOf(rs[i]), func(s string) {
			if s != "" {
				m[s] = string(rs[i].ID) + " " + s
			}
		})
		out[rs[i].ID] = m
	}
	return out
}

// collectStrings calls f with every string reachable from v.
func collectStrings(v reflect.Value, f func(string)) {
	switch v.Kind() {
	case reflect.String:
		f(v.String())
	case reflect.Struct:
		for i := range v.NumField() {
			collectStrings(v.Field(i), f)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			collectStrings(v.Index(i), f)
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			collectStrings(v.Elem(), f)
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			collectStrings(it.Key(), f)
			collectStrings(it.Value(), f)
		}
	}
}
