package exec

import (
	"fmt"
	"strings"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
)

// fullScanHint is the HINT of the guardrail's error and warning.
const fullScanHint = "add a condition on the rowkey, append ALLOW FULL SCAN, or SET widesql.full_scan = 'allow'"

// checkFullScans applies SET widesql.full_scan to the plan's full scans of
// user tables; allow is the statement's trailing ALLOW FULL SCAN. Under
// 'warn' it raises one WARNING per table scanned in full; under 'reject'
// it fails with 55000 before anything runs. Scans of system views and
// EXPLAIN without ANALYZE (which reads nothing) always pass.
func (x *executor) checkFullScans(p planner.Plan, allow bool) error {
	mode := x.env.sess.values["widesql.full_scan"]
	if allow || (mode != "warn" && mode != "reject") {
		return nil
	}
	seen := map[string]bool{}
	for _, s := range planner.FullScans(p) {
		name := s.Table.Name
		if seen[name] {
			continue
		}
		seen[name] = true
		reason := strings.TrimPrefix(s.FullScanReason, "full scan: ")
		if mode == "reject" {
			err := pgerror.New(pgerror.CodeObjectNotInPrerequisiteState, "full scan of table %q rejected by widesql.full_scan", name).
				WithHint("%s", fullScanHint)
			if reason != "" {
				err = err.WithDetail("%s.", strings.ToUpper(reason[:1])+reason[1:])
			}
			return err
		}
		msg := fmt.Sprintf("full scan of table %q", name)
		if reason != "" {
			msg += ": " + reason
		}
		x.env.sess.noticeHint("WARNING", pgerror.CodeWarning, msg, fullScanHint)
	}
	return nil
}
