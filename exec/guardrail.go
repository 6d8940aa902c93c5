package exec

import "github.com/widesql/widesql/planner"

// OWNER: helper "regions".

// checkFullScans applies SET widesql.full_scan to the plan's full scans of
// user tables; allow is the statement's trailing ALLOW FULL SCAN.
func (x *executor) checkFullScans(p planner.Plan, allow bool) error { return nil }
