package planner

import (
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/sqlparse"
)

// OWNER: helper "families" (table and family options).

// applyTableOptions applies CREATE TABLE's WITH (...) options to t.
func applyTableOptions(t *TableDesc, opts []sqlparse.TableOption) error {
	if len(opts) > 0 {
		return pgerror.Unimplemented("table options")
	}
	return nil
}
