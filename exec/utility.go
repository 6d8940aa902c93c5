package exec

import (
	"context"
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
		name = st.name
		if strings.Contains(name, ".") {
			name = strings.ToLower(name)
		}
	}
	return []pgwire.Column{text(name)}
}

// runUtility executes an intercepted statement, returning its rows (SHOW)
// and command tag.
func (s *Session) runUtility(ctx context.Context, u *sqlparse.Utility) ([][]string, string, error) {
	switch u.Kind {
	case sqlparse.Begin:
		switch {
		case s.tx.implicit:
			s.tx.implicit = false // the implicit block becomes the explicit one, as in PG
			s.applyModes(u)
		case s.tx.block:
			s.notice("WARNING", pgerror.CodeActiveSQLTransaction, "there is already a transaction in progress")
		default:
			s.beginBlock(false, u.Isolation, s.values["default_transaction_read_only"] == "on")
			s.applyModes(u)
		}
		return nil, "BEGIN", nil
	case sqlparse.Commit:
		if !s.tx.block || s.tx.implicit {
			s.notice("WARNING", pgerror.CodeNoActiveSQLTransaction, "there is no transaction in progress")
			if s.tx.implicit {
				return nil, "COMMIT", s.commitBlock(ctx)
			}
			return nil, "COMMIT", nil
		}
		if s.txn == 'E' {
			s.rollbackBlock()
			return nil, "ROLLBACK", nil
		}
		return nil, "COMMIT", s.commitBlock(ctx)
	case sqlparse.Rollback:
		if !s.tx.block || s.tx.implicit {
			s.notice("WARNING", pgerror.CodeNoActiveSQLTransaction, "there is no transaction in progress")
		}
		if s.tx.block {
			s.rollbackBlock()
		}
		return nil, "ROLLBACK", nil
	case sqlparse.Savepoint:
		return nil, "SAVEPOINT", s.savepointCmd(ctx, u.Name)
	case sqlparse.Release:
		return nil, "RELEASE", s.releaseCmd(u.Name)
	case sqlparse.RollbackTo:
		return nil, "ROLLBACK", s.rollbackToCmd(u.Name)
	case sqlparse.Set:
		if u.Local && !s.tx.block {
			s.notice("WARNING", pgerror.CodeNoActiveSQLTransaction, "SET LOCAL can only be used in transaction blocks")
			return nil, "SET", nil
		}
		return nil, "SET", s.set(u.Name, u.Values, u.Local)
	case sqlparse.Reset:
		if u.All {
			for _, name := range sortedSettingNames() {
				if st := settings[strings.ToLower(name)]; !st.readOnly && !strings.HasPrefix(name, "transaction_") {
					_ = s.set(st.name, nil, false)
				}
			}
			return nil, "RESET", nil
		}
		return nil, "RESET", s.set(u.Name, nil, false)
	case sqlparse.Show:
		if u.All {
			var rows [][]string
			for _, n := range sortedSettingNames() {
				rows = append(rows, []string{n, s.show(n), settings[strings.ToLower(n)].desc})
			}
			return rows, "SHOW", nil
		}
		st, err := lookupSetting(u.Name)
		if err != nil {
			return nil, "", err
		}
		if _, ok := s.values[st.name]; !ok {
			return nil, "", pgerror.New(pgerror.CodeUndefinedObject, "unrecognized configuration parameter \"%s\"", u.Name)
		}
		return [][]string{{s.show(st.name)}}, "SHOW", nil
	case sqlparse.SetTransaction:
		if !s.tx.block || s.tx.implicit {
			s.notice("WARNING", pgerror.CodeNoActiveSQLTransaction, "SET TRANSACTION can only be used in transaction blocks")
			return nil, "SET", nil
		}
		if u.Isolation != "" && s.tx.started {
			return nil, "", pgerror.New(pgerror.CodeActiveSQLTransaction, "SET TRANSACTION ISOLATION LEVEL must be called before any query")
		}
		s.applyModes(u)
		return nil, "SET", nil
	case sqlparse.SetSessionTransaction:
		if u.Isolation != "" {
			if err := s.set("default_transaction_isolation", []string{u.Isolation}, false); err != nil {
				return nil, "", err
			}
		}
		if u.ReadOnly || u.ReadWrite {
			if err := s.set("default_transaction_read_only", []string{fmt.Sprint(u.ReadOnly)}, false); err != nil {
				return nil, "", err
			}
		}
		return nil, "SET", nil
	case sqlparse.Discard:
		if s.tx.block {
			return nil, "", pgerror.New(pgerror.CodeActiveSQLTransaction, "DISCARD %s cannot run inside a transaction block", strings.ToUpper(u.Name))
		}
		if u.All {
			for _, name := range sortedSettingNames() {
				if st := settings[strings.ToLower(name)]; !st.readOnly && !strings.HasPrefix(name, "transaction_") {
					_ = s.set(st.name, nil, false)
				}
			}
			if s.stmts != nil {
				s.stmts.DeallocateAll()
			}
			s.closeCursors(func(*cursor) bool { return true })
		}
		return nil, "DISCARD " + strings.ToUpper(u.Name), nil
	case sqlparse.Deallocate:
		if u.All {
			if s.stmts != nil {
				s.stmts.DeallocateAll()
			}
			return nil, "DEALLOCATE ALL", nil
		}
		if s.stmts == nil || !s.stmts.Deallocate(u.Name) {
			return nil, "", pgerror.New(pgerror.CodeInvalidSQLStatementName, "prepared statement \"%s\" does not exist", u.Name)
		}
		return nil, "DEALLOCATE", nil
	case sqlparse.Checkpoint:
		return nil, "CHECKPOINT", s.eng.checkpoint(ctx) // exec/checkpoint.go
	}
	return nil, "", pgerror.Unimplemented(fmt.Sprintf("statement %s", u.Kind))
}

// applyModes applies BEGIN / SET TRANSACTION modes to the open block.
func (s *Session) applyModes(u *sqlparse.Utility) {
	if u.Isolation != "" {
		s.tx.isolation = u.Isolation
	}
	if u.ReadOnly {
		s.tx.readOnly = true
	}
	if u.ReadWrite {
		s.tx.readOnly = false
	}
}

// show returns a setting's value as SHOW prints it; the transaction_*
// settings describe the open block, or the defaults outside one.
func (s *Session) show(name string) string {
	switch name {
	case "transaction_isolation":
		if s.tx.block {
			return s.tx.isolation
		}
		return s.values["default_transaction_isolation"]
	case "transaction_read_only":
		if s.tx.block && s.tx.readOnly {
			return "on"
		}
		if s.tx.block {
			return "off"
		}
		return s.values["default_transaction_read_only"]
	}
	return s.values[name]
}

// set assigns a setting (SET, SET LOCAL); nil values reset it to the
// default. Inside a block the change is recorded so that the block's end
// restores what PostgreSQL restores.
func (s *Session) set(name string, values []string, local bool) error {
	st, err := lookupSetting(name)
	if err != nil {
		return err
	}
	if st.readOnly {
		return pgerror.New(pgerror.CodeCantChangeRuntimeParam, "parameter \"%s\" cannot be changed", st.name)
	}
	switch st.name {
	case "transaction_isolation", "transaction_read_only", "transaction_deferrable":
		return s.setTransactionParam(st, values)
	}
	v := st.def
	if st.name == "session_authorization" {
		v = s.startup["user"]
	}
	if values != nil {
		v = strings.Join(values, ", ")
		if v, err = validateSetting(st, v); err != nil {
			return err
		}
	}
	if st.name == "TimeZone" && values != nil && strings.EqualFold(v, "local") {
		v = "UTC"
	}
	if s.tx.block {
		g, seen := s.tx.gucs[st.name]
		if !seen {
			g = gucUndo{orig: s.values[st.name], sess: s.values[st.name]}
		}
		if !local {
			g.sess = v
		}
		s.tx.gucs[st.name] = g
	}
	s.setValue(st.name, v)
	return nil
}

// setTransactionParam is SET transaction_isolation / transaction_read_only.
func (s *Session) setTransactionParam(st setting, values []string) error {
	if values == nil {
		return nil
	}
	v, err := validateSetting(st, strings.Join(values, ", "))
	if err != nil {
		return err
	}
	if !s.tx.block {
		return nil // PostgreSQL: no effect outside a block
	}
	switch st.name {
	case "transaction_isolation":
		if s.tx.started && v != s.tx.isolation {
			return pgerror.New(pgerror.CodeActiveSQLTransaction, "SET TRANSACTION ISOLATION LEVEL must be called before any query")
		}
		s.tx.isolation = v
	case "transaction_read_only":
		s.tx.readOnly = v == "on"
	}
	return nil
}

// setValue changes a setting's current value, queueing a ParameterStatus
// when a reported setting changes.
func (s *Session) setValue(name, v string) {
	if s.values[name] == v {
		return
	}
	s.values[name] = v
	s.cacheTimeout(name)
	if settings[strings.ToLower(name)].reported {
		s.changes = append(s.changes, pgwire.Param{Name: name, Value: v})
	}
}
