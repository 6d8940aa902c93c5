package exec

import (
	"context"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/syscat"
	"github.com/widesql/widesql/planner/types"
)

// catalogFuncs evaluates the functions of planner/build_funcs_pg.go. As
// in PostgreSQL, a function asked about an OID that names no object of
// its kind returns NULL rather than failing; one given a name that does
// not exist fails as PostgreSQL does (42P01, 42703, 3F000, 3D000).
var catalogFuncs map[string]builtinFunc

func init() {
	catalogFuncs = map[string]builtinFunc{
		"format_type": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
			m := int32(a[1].I)
			return formatType(a[0], &m), nil
		},
		"pg_get_userbyid": func(a []types.Datum, _ *planner.Func, env *evalEnv) (types.Datum, error) {
			return types.NewName(env.x.roleName(context.Background(), uint32(a[0].I))), nil
		},
		"pg_get_indexdef":      pgGetIndexdef,
		"pg_get_constraintdef": pgGetConstraintdef,
		"pg_get_expr": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
			return types.NewText(a[0].S), nil
		},
		"pg_get_viewdef":                  nullFunc, // widesql has no views
		"pg_get_ruledef":                  nullFunc, // nor rules,
		"pg_get_triggerdef":               nullFunc, // triggers,
		"pg_get_functiondef":              nullFunc, // user functions
		"pg_get_statisticsobjdef_columns": nullFunc, // or extended statistics
		"pg_get_serial_sequence":          pgGetSerialSequence,
		"obj_description":                 objDescription,
		"col_description":                 colDescription,
		"shobj_description":               nullFunc, // no shared object has a comment
		"pg_encoding_to_char": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
			return types.NewName(encodingNames[a[0].I]), nil
		},
		"pg_char_to_encoding": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
			for n, name := range encodingNames {
				if strings.EqualFold(name, a[0].S) {
					return types.NewInt(types.Int4, n), nil
				}
			}
			return types.NewInt(types.Int4, -1), nil
		},
		"quote_ident": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
			return types.NewText(planner.QuoteIdent(a[0].S)), nil
		},
		"pg_table_is_visible":     oidVisible,
		"pg_type_is_visible":      oidVisible,
		"pg_function_is_visible":  oidVisible,
		"pg_collation_is_visible": oidVisible,
		"current_schemas": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
			var s []types.Datum
			if a[0].Bool() {
				s = append(s, types.NewName(syscat.PgCatalog))
			}
			return types.NewArray(types.TName, append(s, types.NewName(syscat.Public))), nil
		},
		"pg_size_pretty": func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
			return types.NewText(sizePretty(a[0].I)), nil
		},
		"pg_size_pretty_numeric":       sizePrettyNumeric,
		"pg_relation_size":             relationSize,
		"pg_indexes_size":              relationSizeZero,
		"pg_relation_is_publishable":   relationIsPublishable,
		"pg_database_size":             databaseSize,
		"pg_database_size_oid":         databaseSize,
		"has_table_privilege":          hasTablePrivilege(0, 1),
		"has_table_privilege_user":     hasTablePrivilege(1, 2),
		"has_table_privilege_oid":      hasTablePrivilege(0, 1),
		"has_table_privilege_user_oid": hasTablePrivilege(1, 2),
		"has_schema_privilege":         hasSchemaPrivilege(0),
		"has_schema_privilege_user":    hasSchemaPrivilege(1),
		"has_database_privilege":       hasDatabasePrivilege(0),
		"has_database_privilege_user":  hasDatabasePrivilege(1),
		"has_column_privilege":         hasColumnPrivilege,
		"has_column_privilege_oid":     hasColumnPrivilege,
		"has_column_privilege_attnum":  hasColumnPrivilege,
		"pg_is_in_recovery": func([]types.Datum, *planner.Func, *evalEnv) (types.Datum, error) {
			return types.NewBool(false), nil
		},
	}
}

func nullFunc([]types.Datum, *planner.Func, *evalEnv) (types.Datum, error) { return types.Null, nil }

// encodingNames are PostgreSQL's names of the encodings widesql knows.
var encodingNames = map[int64]string{0: "SQL_ASCII", encodingUTF8: "UTF8"}

// formatType is format_type(oid, typmod): the type's SQL name with its
// modifiers; a nil typmod (SQL NULL) gives the name without modifiers,
// an unknown OID "???", a table's row type the table's name.
func formatType(oid types.Datum, typmod *int32) types.Datum {
	if oid.IsNull() {
		return types.Null
	}
	o := uint32(oid.I)
	t, ok := types.TypeFromOID(o)
	if !ok {
		return types.NewText("???")
	}
	if typmod == nil {
		if t.Kind == types.BPChar {
			return types.NewText("character")
		}
		return types.NewText(t.String())
	}
	if m := *typmod - 4; *typmod >= 4 {
		k := t.Kind
		if k == types.Array {
			k = t.Elem
		}
		switch {
		case k == types.Text && t.VarChar, k == types.BPChar:
			t.Width = m
		case k == types.Numeric:
			t.Width, t.Scale = m>>16&0xffff, int32(int16(m&0xffff))
		}
	}
	if t.Kind == types.BPChar && t.Width == 0 {
		return types.NewText("bpchar")
	}
	return types.NewText(t.String())
}

// FormatType is format_type(oid, typmod) for callers outside the strict
// built-ins (format_type takes a NULL typmod): typmod NULL means no
// modifiers.
func FormatType(oid, typmod types.Datum) types.Datum {
	if typmod.IsNull() {
		return formatType(oid, nil)
	}
	m := int32(typmod.I)
	return formatType(oid, &m)
}

// pgGetIndexdef is pg_get_indexdef(oid [, column, pretty]): the CREATE
// INDEX statement, or with column n > 0 the n-th key column's name ("" past
// the last).
func pgGetIndexdef(a []types.Datum, _ *planner.Func, env *evalEnv) (types.Datum, error) {
	t, _ := env.x.tableByOID(uint32(a[0].I))
	if t == nil {
		return types.Null, nil
	}
	ix := indexByOID(t, uint32(a[0].I), false)
	if ix == nil {
		return types.Null, nil
	}
	if len(a) > 1 && a[1].I > 0 {
		if n := int(a[1].I); n <= len(ix.cols) {
			return types.NewText(planner.QuoteIdent(t.Columns[ix.cols[n-1]].Name)), nil
		}
		return types.NewText(""), nil
	}
	return types.NewText(indexDef(t, ix)), nil
}

func pgGetConstraintdef(a []types.Datum, _ *planner.Func, env *evalEnv) (types.Datum, error) {
	t, _ := env.x.tableByOID(uint32(a[0].I))
	if t == nil {
		return types.Null, nil
	}
	ix := indexByOID(t, uint32(a[0].I), true)
	if ix == nil {
		return types.Null, nil
	}
	return types.NewText(constraintDef(t, ix)), nil
}

// pgGetSerialSequence is pg_get_serial_sequence(table, column): the
// qualified name of the sequence a serial or identity column owns, NULL
// for a column with none. The table name is parsed as SQL (lower-cased
// unless quoted); the column name is taken literally.
func pgGetSerialSequence(a []types.Datum, _ *planner.Func, env *evalEnv) (types.Datum, error) {
	t, err := env.x.tableByName(a[0].S)
	if err != nil {
		return types.Null, err
	}
	i := t.ColumnIndex(a[1].S)
	if i < 0 {
		return types.Null, pgerror.New(pgerror.CodeUndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", a[1].S, t.Name)
	}
	if s := t.Columns[i].Seq; s != nil {
		return types.NewText("public." + planner.QuoteIdent(s.Name)), nil
	}
	return types.Null, nil
}

// objDescription is obj_description(oid [, catalog]): a user table's
// description (tableDescription) or a schema's.
func objDescription(a []types.Datum, _ *planner.Func, env *evalEnv) (types.Datum, error) {
	oid := uint32(a[0].I)
	class := ""
	if len(a) > 1 {
		class = a[1].S
	}
	if class == "" || class == "pg_class" {
		if t, slot := env.x.tableByOID(oid); t != nil && slot == syscat.SlotTable {
			return types.NewText(tableDescription(t)), nil
		}
	}
	if class == "" || class == "pg_namespace" {
		if d, ok := namespaceDescriptions[oid]; ok {
			return types.NewText(d), nil
		}
	}
	return types.Null, nil
}

// namespaceDescriptions are PostgreSQL's comments on its schemas.
var namespaceDescriptions = map[uint32]string{
	syscat.NamespacePgCatalog: "system catalog schema",
	syscat.NamespacePublic:    "standard public schema",
}

// colDescription is col_description(table oid, attnum): the column's
// COMMENT ON COLUMN text alone, NULL for none.
func colDescription(a []types.Datum, _ *planner.Func, env *evalEnv) (types.Datum, error) {
	t, slot := env.x.tableByOID(uint32(a[0].I))
	if t == nil || slot != syscat.SlotTable {
		return types.Null, nil
	}
	if c := columnByAttnum(t, a[1].I); c != nil && c.Comment != "" {
		return types.NewText(c.Comment), nil
	}
	return types.Null, nil
}

// oidVisible is pg_table_is_visible and its kin: every object widesql
// has lives in pg_catalog or public, which are on the search path, except
// information_schema's; NULL for an unknown OID.
func oidVisible(a []types.Datum, e *planner.Func, env *evalEnv) (types.Datum, error) {
	oid := uint32(a[0].I)
	if t, _ := env.x.tableByOID(oid); t != nil {
		return types.NewBool(true), nil
	}
	for _, r := range syscat.All() {
		if r.OID == oid && r.OID != 0 {
			return types.NewBool(r.Schema != syscat.InformationSchema), nil
		}
	}
	if oid < syscat.FirstUserOID {
		return types.NewBool(true), nil // built-in types, collations, functions
	}
	return types.Null, nil
}

// sizePretty is pg_size_pretty(bigint), PostgreSQL 15's rounding: bytes
// below 10 kB, then kB, MB, GB, TB and PB below 20480 of the unit, each
// half-rounded.
func sizePretty(size int64) string {
	units := []struct {
		name  string
		limit int64
		round bool
		bits  uint
	}{{"bytes", 10 * 1024, false, 0}, {"kB", 20*1024 - 1, true, 10}, {"MB", 20*1024 - 1, true, 20},
		{"GB", 20*1024 - 1, true, 30}, {"TB", 20*1024 - 1, true, 40}, {"PB", 20*1024 - 1, true, 50}}
	abs := func(n int64) int64 {
		if n < 0 {
			return -n
		}
		return n
	}
	for i, u := range units {
		if i == len(units)-1 || abs(size) < u.limit {
			if u.round {
				size = halfRounded(size)
			}
			return strconv.FormatInt(size, 10) + " " + u.name
		}
		next := units[i+1]
		bits := next.bits - u.bits
		if next.round {
			bits--
		}
		if u.round {
			bits++
		}
		size /= int64(1) << bits
	}
	return ""
}

func halfRounded(n int64) int64 {
	if n < 0 {
		return (n - 1) / 2
	}
	return (n + 1) / 2
}

// sizePrettyNumeric is pg_size_pretty(numeric) for values that fit a
// bigint (fractions are truncated, as PostgreSQL's numeric division does
// for these sizes).
func sizePrettyNumeric(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
	var i apd.Decimal
	if _, err := apd.BaseContext.RoundToIntegralValue(&i, a[0].Numeric()); err == nil {
		if n, err := i.Int64(); err == nil {
			return types.NewText(sizePretty(n)), nil
		}
	}
	return types.Null, pgerror.New(pgerror.CodeNumericValueOutOfRange, "bigint out of range")
}

// relationSize is pg_relation_size and pg_table_size: the bytes a user
// table's regions hold (0 before the first flush of an in-memory store's
// figures), 0 for indexes, sequences and system relations, NULL for an
// unknown OID.
func relationSize(a []types.Datum, _ *planner.Func, env *evalEnv) (types.Datum, error) {
	oid := uint32(a[0].I)
	if t, slot := env.x.tableByOID(oid); t != nil {
		if slot != syscat.SlotTable {
			return types.NewInt(types.Int8, 0), nil
		}
		st, _ := env.x.tableStats(context.Background(), t)
		return types.NewInt(types.Int8, st.bytes), nil
	}
	return relationSizeZero(a, nil, env)
}

// relationSizeZero is 0 for an existing relation (pg_indexes_size: no
// secondary index is built), NULL otherwise.
func relationSizeZero(a []types.Datum, _ *planner.Func, env *evalEnv) (types.Datum, error) {
	oid := uint32(a[0].I)
	if t, _ := env.x.tableByOID(oid); t != nil {
		return types.NewInt(types.Int8, 0), nil
	}
	for _, r := range syscat.All() {
		if r.OID == oid && r.OID != 0 {
			return types.NewInt(types.Int8, 0), nil
		}
	}
	return types.Null, nil
}

// relationIsPublishable: user tables could be published (psql's \d
// footer lists publications; there are none).
func relationIsPublishable(a []types.Datum, _ *planner.Func, env *evalEnv) (types.Datum, error) {
	t, slot := env.x.tableByOID(uint32(a[0].I))
	return types.NewBool(t != nil && slot == syscat.SlotTable), nil
}

func databaseSize(a []types.Datum, _ *planner.Func, env *evalEnv) (types.Datum, error) {
	db := env.sess.param("database")
	if a[0].K == types.Oid && uint32(a[0].I) != databaseOID || a[0].K != types.Oid && a[0].S != db {
		if a[0].K == types.Oid {
			return types.Null, nil
		}
		return types.Null, pgerror.New("3D000", "database \"%s\" does not exist", a[0].S)
	}
	var n int64
	for _, t := range env.x.userTables() {
		st, _ := env.x.tableStats(context.Background(), t)
		n += st.bytes
	}
	return types.NewInt(types.Int8, n), nil
}

// tableByName resolves a relation name written as SQL ("t", "public.t",
// "\"My T\"") to a user table, or 42P01.
func (x *executor) tableByName(s string) (*planner.TableDesc, error) {
	schema, name := splitQualifiedName(s)
	if schema == "" || schema == syscat.Public {
		if t, err := x.eng.cat.Table(name); err == nil {
			return t, nil
		}
	}
	return nil, pgerror.New(pgerror.CodeUndefinedTable, "relation \"%s\" does not exist", s)
}

// relationExists reports whether a relation name written as SQL names a
// user table or a system relation.
func (x *executor) relationExists(s string) bool {
	if _, err := x.tableByName(s); err == nil {
		return true
	}
	schema, name := splitQualifiedName(s)
	if schema == "" {
		schema = syscat.PgCatalog
	}
	return syscat.Lookup(schema, name) != nil
}

// splitQualifiedName splits [schema.]name, folding unquoted parts to
// lower case and unquoting quoted ones.
func splitQualifiedName(s string) (schema, name string) {
	var parts []string
	var cur strings.Builder
	quoted := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' && quoted && i+1 < len(s) && s[i+1] == '"':
			cur.WriteByte('"')
			i++
		case c == '"':
			quoted = !quoted
		case c == '.' && !quoted:
			parts = append(parts, cur.String())
			cur.Reset()
		case !quoted && c >= 'A' && c <= 'Z':
			cur.WriteByte(c + 'a' - 'A')
		default:
			cur.WriteByte(c)
		}
	}
	parts = append(parts, cur.String())
	if len(parts) == 1 {
		return "", strings.TrimSpace(parts[0])
	}
	return strings.TrimSpace(parts[len(parts)-2]), strings.TrimSpace(parts[len(parts)-1])
}

// checkPrivileges validates a privilege list ("SELECT, INSERT WITH GRANT
// OPTION") against the privileges of an object kind, or 22023.
func checkPrivileges(list string, allowed ...string) error {
	for _, p := range strings.Split(list, ",") {
		p = strings.ToLower(strings.Join(strings.Fields(p), " "))
		p = strings.TrimSuffix(p, " with grant option")
		ok := false
		for _, a := range allowed {
			ok = ok || p == a
		}
		if !ok {
			return pgerror.New(pgerror.CodeInvalidParameterValue, "unrecognized privilege type: \"%s\"", strings.TrimSpace(p))
		}
	}
	return nil
}

var tablePrivileges = []string{"select", "insert", "update", "delete", "truncate", "references", "trigger"}

// hasTablePrivilege is has_table_privilege([user,] table, privileges) with
// the table at argument obj: true for any existing table.
func hasTablePrivilege(obj, priv int) builtinFunc {
	return func(a []types.Datum, _ *planner.Func, env *evalEnv) (types.Datum, error) {
		if err := checkPrivileges(a[priv].S, tablePrivileges...); err != nil {
			return types.Null, err
		}
		if a[obj].K == types.Oid {
			return relationSizeExists(a[obj], env), nil
		}
		if !env.x.relationExists(a[obj].S) {
			return types.Null, pgerror.New(pgerror.CodeUndefinedTable, "relation \"%s\" does not exist", a[obj].S)
		}
		return types.NewBool(true), nil
	}
}

// relationSizeExists is true for a relation OID, NULL for an unknown one.
func relationSizeExists(oid types.Datum, env *evalEnv) types.Datum {
	d, _ := relationSizeZero([]types.Datum{oid}, nil, env)
	if d.IsNull() {
		return d
	}
	return types.NewBool(true)
}

func hasSchemaPrivilege(obj int) builtinFunc {
	return func(a []types.Datum, _ *planner.Func, _ *evalEnv) (types.Datum, error) {
		if err := checkPrivileges(a[obj+1].S, "create", "usage"); err != nil {
			return types.Null, err
		}
		if _, name := splitQualifiedName(a[obj].S); namespaceOID(name) == 0 {
			return types.Null, pgerror.New(pgerror.CodeInvalidSchemaName, "schema \"%s\" does not exist", a[obj].S)
		}
		return types.NewBool(true), nil
	}
}

func hasDatabasePrivilege(obj int) builtinFunc {
	return func(a []types.Datum, _ *planner.Func, env *evalEnv) (types.Datum, error) {
		if err := checkPrivileges(a[obj+1].S, "create", "connect", "temporary", "temp"); err != nil {
			return types.Null, err
		}
		if _, name := splitQualifiedName(a[obj].S); name != env.sess.param("database") {
			return types.Null, pgerror.New("3D000", "database \"%s\" does not exist", a[obj].S)
		}
		return types.NewBool(true), nil
	}
}

// hasColumnPrivilege is has_column_privilege(table, column, privileges):
// true for an existing column of an existing table.
func hasColumnPrivilege(a []types.Datum, _ *planner.Func, env *evalEnv) (types.Datum, error) {
	if err := checkPrivileges(a[2].S, "select", "insert", "update", "references"); err != nil {
		return types.Null, err
	}
	var t *planner.TableDesc
	if a[0].K == types.Oid {
		if t, _ = env.x.tableByOID(uint32(a[0].I)); t == nil {
			return types.Null, nil
		}
	} else {
		var err error
		if t, err = env.x.tableByName(a[0].S); err != nil {
			return types.Null, err
		}
	}
	if a[1].K == types.Int2 {
		return types.NewBool(columnByAttnum(t, a[1].I) != nil), nil
	}
	if t.ColumnIndex(a[1].S) < 0 {
		return types.Null, pgerror.New(pgerror.CodeUndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", a[1].S, t.Name)
	}
	return types.NewBool(true), nil
}
