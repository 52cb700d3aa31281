package irregularity

import "github.com/tablesettle/tablesettle/internal/ruleset"

// The standard ruleset ids as the tests name them (ruleset's constants are
// the only definition).
const (
	MBSMegalinkSSPv6 = string(ruleset.SSPv6)
	MBSSSPv4         = string(ruleset.SSPv4)
	MBSMegalinkTCPv6 = string(ruleset.TCPv6)
	MBSMegalinkTHBv9 = string(ruleset.THBv9)
	RWSMLPCSPv2      = string(ruleset.RWSCSPv2)
)

// IDs are the standard ruleset ids, in the order of the rulesets table of
// ../shared/rules/README.md.
var IDs = []string{MBSMegalinkSSPv6, MBSSSPv4, MBSMegalinkTCPv6, MBSMegalinkTHBv9, RWSMLPCSPv2}
