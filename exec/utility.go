package exec

import (
	"fmt"
	"strings"

	"github.com/widesql/widesql/pgwire"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
	"github.com/widesql/widesql/sqlparse"
)

func utilityColumns(u *sqlparse.Utility) []pgwire.Column {
	if u.Kind != sqlparse.Show {
		return nil
	}
	text := func(n string) pgwire.Column {
		return pgwire.Column{Name: n, TypeOID: types.OIDText, TypeSize: -1, TypeModifier: -1}
	}
	if u.All {
		return []pgwire.Column{text("name"), text("setting"), text("description")}
	}
	name := u.Name
	if st, err := lookupSetting(u.Name); err == nil {
		name = strings.ToLower(st.name)
	}
	return []pgwire.Column{text(name)}
}

// runUtility executes an intercepted statement, returning its rows (SHOW)
// and command tag.
func (s *Session) runUtility(u *sqlparse.Utility) ([][]string, string, error) {
	switch u.Kind {
	case sqlparse.Begin:
		if s.txn != 'I' {
			s.notice("WARNING", "25001", "there is already a transaction in progress")
		} else {
			s.txn, s.txnWrite = 'T', 0
		}
		return nil, "BEGIN", nil
	case sqlparse.Commit:
		tag := "COMMIT"
		switch s.txn {
		case 'I':
			s.notice("WARNING", "25P01", "there is no transaction in progress")
		case 'E':
			tag = "ROLLBACK"
		}
		s.txn = 'I'
		return nil, tag, nil
	case sqlparse.Rollback:
		if s.txn == 'I' {
			s.notice("WARNING", "25P01", "there is no transaction in progress")
		}
		s.warnUndone()
		s.txn = 'I'
		return nil, "ROLLBACK", nil
	case sqlparse.Savepoint, sqlparse.Release, sqlparse.RollbackTo:
		if s.txn == 'I' {
			return nil, "", pgerror.New("25P01", "%s can only be used in transaction blocks", strings.ToUpper(u.Kind.String()))
		}
		if u.Kind == sqlparse.RollbackTo {
			s.warnUndone()
			s.txn = 'T'
			return nil, "ROLLBACK", nil
		}
		return nil, strings.ToUpper(u.Kind.String()), nil
	case sqlparse.Set:
		return nil, "SET", s.set(u.Name, u.Values)
	case sqlparse.Reset:
		if u.All {
			for _, st := range settings {
				if !st.readOnly {
					_ = s.set(st.name, nil)
				}
			}
			return nil, "RESET", nil
		}
		return nil, "RESET", s.set(u.Name, nil)
	case sqlparse.Show:
		if u.All {
			var rows [][]string
			for _, n := range sortedSettingNames() {
				rows = append(rows, []string{n, s.values[n], ""})
			}
			return rows, "SHOW", nil
		}
		st, err := lookupSetting(u.Name)
		if err != nil {
			return nil, "", err
		}
		v, ok := s.values[st.name]
		if !ok {
			return nil, "", pgerror.New(pgerror.CodeUndefinedObject, "unrecognized configuration parameter %q", u.Name)
		}
		return [][]string{{v}}, "SHOW", nil
	case sqlparse.SetTransaction, sqlparse.SetSessionTransaction:
		return nil, "SET", nil
	case sqlparse.Discard:
		if s.txn != 'I' {
			return nil, "", pgerror.New(pgerror.CodeInvalidTransactionState, "DISCARD ALL cannot run inside a transaction block")
		}
		return nil, "DISCARD " + strings.ToUpper(u.Name), nil
	case sqlparse.Deallocate:
		if u.All {
			return nil, "DEALLOCATE ALL", nil
		}
		return nil, "", pgerror.New(pgerror.CodeInvalidSQLStatementName, "prepared statement %q does not exist", u.Name)
	}
	return nil, "", pgerror.Unimplemented(fmt.Sprintf("statement %s", u.Kind))
}

func (s *Session) warnUndone() {
	if s.txnWrite > 0 {
		s.notice("WARNING", "01000", fmt.Sprintf(
			"widesql applies each statement atomically on its own: %d statement(s) of this transaction block were already applied and are not rolled back", s.txnWrite))
	}
	s.txnWrite = 0
}

// set assigns a setting; nil values reset it to the default.
func (s *Session) set(name string, values []string) error {
	st, err := lookupSetting(name)
	if err != nil {
		return err
	}
	if st.readOnly {
		return pgerror.New("55P02", "parameter %q cannot be changed", name)
	}
	v := st.def
	if values != nil {
		v = strings.Join(values, ", ")
		if v, err = validateSetting(st, v); err != nil {
			return err
		}
	}
	if st.name == "TimeZone" && values != nil && strings.EqualFold(v, "local") {
		v = "UTC"
	}
	if s.values[st.name] != v {
		s.values[st.name] = v
		if st.reported {
			s.changes = append(s.changes, pgwire.Param{Name: st.name, Value: v})
		}
	}
	return nil
}
