package exec

import (
	"context"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/syscat"
	"github.com/widesql/widesql/planner/types"
)

// information_schema is derived from the live catalog on every read, as
// PostgreSQL 15's views compute it from pg_catalog, so that a client
// comparing it with its own model (GORM's AutoMigrate) sees exactly what
// PostgreSQL would report for the same DDL:
//
//   - user tables live in schema public; table_catalog is the session's
//     database; hidden columns (row id, key expressions) never appear and
//     ordinal_position counts the visible columns, as pg_attribute.attnum
//     does (exec/pgcatalog_rows.go);
//   - a table's rowkey is its PRIMARY KEY constraint, named
//     TableDesc.PrimaryKeyName(), over its visible key columns; a table
//     declared without one (hidden row id) has none;
//   - every NOT NULL column also gets PostgreSQL's pseudo CHECK constraint
//     "<namespace oid>_<table oid>_<attnum>_not_null";
//   - secondary indexes, unique or not, are indexes, not constraints, as
//     for PostgreSQL's CREATE [UNIQUE] INDEX: they appear in pg_indexes only;
//   - the system relations (syscat.All) are listed in tables and columns
//     like PostgreSQL's catalogs and views.

// infoSchemaRows derives the rows of an information_schema relation.
func (x *executor) infoSchemaRows(ctx context.Context, rel *syscat.Relation) ([]Row, error) {
	is, err := x.newInfoSchema(ctx, rel)
	if err != nil {
		return nil, err
	}
	switch rel.Name {
	case "tables":
		is.tables()
	case "columns":
		is.columns()
	case "table_constraints":
		is.tableConstraints()
	case "key_column_usage", "constraint_column_usage":
		is.keyColumnUsage(rel.Name == "key_column_usage")
	case "check_constraints":
		is.checkConstraints()
	case "schemata":
		is.schemata()
	case "sequences":
		is.sequences()
	case "table_privileges":
		is.tablePrivileges()
	case "character_sets":
		is.characterSets()
	}
	// views, routines, parameters and referential_constraints are empty:
	// widesql has no views, functions of its own or foreign keys.
	return is.rows, nil
}

// infoSchema builds the rows of one information_schema relation.
type infoSchema struct {
	rel    *syscat.Relation
	col    map[string]int // column name -> index in rel.Columns
	db     types.Datum    // the current database, as a name
	owner  string         // the bootstrap superuser, owner of everything
	user   []*planner.TableDesc
	rows   []Row
	cur    Row
	public types.Datum
}

func (x *executor) newInfoSchema(ctx context.Context, rel *syscat.Relation) (*infoSchema, error) {
	is := &infoSchema{rel: rel, col: make(map[string]int, len(rel.Columns)),
		db: types.NewName(x.env.sess.param("database")), public: types.NewName(syscat.Public)}
	for i, c := range rel.Columns {
		is.col[c.Name] = i
	}
	roles, err := x.roleList(ctx)
	if err != nil {
		return nil, err
	}
	for _, r := range roles {
		if r.OID == BootstrapRoleOID {
			is.owner = r.Name
		}
	}
	is.user = x.eng.cat.list()
	sort.Slice(is.user, func(i, j int) bool { return is.user[i].Name < is.user[j].Name })
	return is, nil
}

// row starts a new row of NULLs; set fills it by column name.
func (is *infoSchema) row() {
	is.cur = make(Row, len(is.rel.Columns))
	is.rows = append(is.rows, is.cur)
}

// set sets a column of the current row. The names are information_schema's
// own, checked by the tests of every relation; an unknown one is a bug.
func (is *infoSchema) set(name string, d types.Datum) {
	i, ok := is.col[name]
	if !ok {
		panic("information_schema." + is.rel.Name + " has no column " + name)
	}
	is.cur[i] = d
}

func (is *infoSchema) setName(col, v string) { is.set(col, types.NewName(v)) }
func (is *infoSchema) setText(col, v string) { is.set(col, types.NewText(v)) }
func (is *infoSchema) setInt(col string, v int64) {
	is.set(col, types.NewInt(types.Int4, v))
}
func (is *infoSchema) setYesNo(col string, yes bool) {
	if yes {
		is.setText(col, "YES")
	} else {
		is.setText(col, "NO")
	}
}

// table starts a row naming a user table in the given column prefix
// ("table" -> table_catalog, table_schema, table_name).
func (is *infoSchema) table(prefix, name string) {
	is.set(prefix+"_catalog", is.db)
	is.set(prefix+"_schema", is.public)
	is.setName(prefix+"_name", name)
}

// visibleColumns returns t's columns clients see with their attnums
// (1-based positions among the visible columns).
func visibleColumns(t *planner.TableDesc) []*planner.ColumnDesc {
	out := make([]*planner.ColumnDesc, 0, len(t.Columns))
	for i := range t.Columns {
		if !t.Columns[i].Hidden {
			out = append(out, &t.Columns[i])
		}
	}
	return out
}

// columnNotNull reports attnotnull: declared NOT NULL, part of the rowkey
// (primary key columns are NOT NULL), serial or identity.
func columnNotNull(c *planner.ColumnDesc) bool {
	return c.NotNull || c.IsKey() || c.Seq != nil
}

// primaryKey returns t's visible primary key columns in key order, and
// whether t shows a primary key at all: not for the hidden row id, nor
// for a rowkey of key expressions alone (as pg_catalog shows it).
func primaryKey(t *planner.TableDesc) ([]*planner.ColumnDesc, bool) {
	if !hasPrimaryKey(t) { // pgcatalog_model.go
		return nil, false
	}
	var out []*planner.ColumnDesc
	for _, kc := range t.Key {
		if c := &t.Columns[kc.Col]; !c.Hidden {
			out = append(out, c)
		}
	}
	return out, true
}

func (is *infoSchema) tables() {
	for _, t := range is.user {
		is.row()
		is.table("table", t.Name)
		is.setText("table_type", "BASE TABLE")
		is.setYesNo("is_insertable_into", true)
		is.setYesNo("is_typed", false)
	}
	for _, r := range syscat.All() {
		is.row()
		is.set("table_catalog", is.db)
		is.setName("table_schema", r.Schema)
		is.setName("table_name", r.Name)
		view := isSystemView(r)
		if view {
			is.setText("table_type", "VIEW")
		} else {
			is.setText("table_type", "BASE TABLE")
		}
		is.setYesNo("is_insertable_into", !view)
		is.setYesNo("is_typed", false)
	}
}

// isSystemView reports whether PostgreSQL defines r as a view: all of
// information_schema, and pg_catalog's relations outside the bootstrap
// catalogs' OID range (pg_roles, pg_settings, pg_indexes, ... are 12000
// and up).
func isSystemView(r *syscat.Relation) bool {
	return r.Schema == syscat.InformationSchema || r.OID >= 10000
}

func (is *infoSchema) columns() {
	for _, t := range is.user {
		for pos, c := range visibleColumns(t) {
			is.row()
			is.table("table", t.Name)
			is.columnRow(pos+1, c.Name, c.Type, !columnNotNull(c))
			if def, ok := columnDefault(c); ok {
				is.setText("column_default", def)
			}
			if c.Identity != "" && c.Seq != nil {
				is.setYesNo("is_identity", true)
				is.setText("identity_generation", map[string]string{
					planner.IdentityAlways: "ALWAYS", planner.IdentityByDefault: "BY DEFAULT"}[c.Identity])
				is.setText("identity_start", strconv.FormatInt(c.Seq.Start, 10))
				is.setText("identity_increment", strconv.FormatInt(c.Seq.Increment, 10))
				is.setText("identity_maximum", strconv.FormatInt(c.Seq.Max, 10))
				is.setText("identity_minimum", strconv.FormatInt(c.Seq.Min, 10))
			}
		}
	}
	for _, r := range syscat.All() {
		view := isSystemView(r)
		for pos, c := range r.Columns {
			is.row()
			is.set("table_catalog", is.db)
			is.setName("table_schema", r.Schema)
			is.setName("table_name", r.Name)
			// Bootstrap catalogs declare their fixed-width columns NOT
			// NULL; views' columns are nullable.
			is.columnRow(pos+1, c.Name, c.Type, view || !fixedWidth(c.Type))
			if r.Schema == syscat.InformationSchema {
				is.set("domain_catalog", is.db)
				is.setName("domain_schema", syscat.InformationSchema)
				is.setName("domain_name", domainName(c.Type))
			}
			is.setYesNo("is_updatable", !view)
		}
	}
}

// columnRow fills the columns of information_schema.columns that depend
// on the column's name, position, type and nullability.
func (is *infoSchema) columnRow(attnum int, name string, t types.T, nullable bool) {
	is.setName("column_name", name)
	is.setInt("ordinal_position", int64(attnum))
	is.setYesNo("is_nullable", nullable)
	m := typeMeta(t)
	is.setText("data_type", m.dataType)
	for col, v := range map[string]int64{
		"character_maximum_length": m.charMax, "character_octet_length": m.octets,
		"numeric_precision": m.precision, "numeric_precision_radix": m.radix,
		"numeric_scale": m.scale, "datetime_precision": m.dtPrecision,
	} {
		if v >= 0 {
			is.setInt(col, v)
		}
	}
	is.set("udt_catalog", is.db)
	is.setName("udt_schema", syscat.PgCatalog)
	is.setName("udt_name", udtName(t))
	is.setName("dtd_identifier", strconv.Itoa(attnum))
	is.setYesNo("is_self_referencing", false)
	is.setYesNo("is_identity", false)
	is.setYesNo("identity_cycle", false)
	is.setText("is_generated", "NEVER")
	is.setYesNo("is_updatable", true)
}

func (is *infoSchema) tableConstraints() {
	for _, t := range is.user {
		if _, ok := primaryKey(t); ok {
			is.constraintRow(t, t.PrimaryKeyName(), "PRIMARY KEY")
		}
		for pos, c := range visibleColumns(t) {
			if columnNotNull(c) {
				is.constraintRow(t, notNullName(t, pos+1), "CHECK")
			}
		}
	}
}

func (is *infoSchema) constraintRow(t *planner.TableDesc, name, kind string) {
	is.row()
	is.set("constraint_catalog", is.db)
	is.set("constraint_schema", is.public)
	is.setName("constraint_name", name)
	is.table("table", t.Name)
	is.setText("constraint_type", kind)
	is.setYesNo("is_deferrable", false)
	is.setYesNo("initially_deferred", false)
	is.setYesNo("enforced", true)
}

// notNullName is the name PostgreSQL's information_schema makes up for a
// NOT NULL column's pseudo CHECK constraint.
func notNullName(t *planner.TableDesc, attnum int) string {
	return strconv.FormatUint(uint64(syscat.NamespacePublic), 10) + "_" +
		strconv.FormatUint(uint64(syscat.TableOID(t.ID)), 10) + "_" + strconv.Itoa(attnum) + "_not_null"
}

// keyColumnUsage lists the primary key columns: key_column_usage with
// their position in the key, constraint_column_usage without.
func (is *infoSchema) keyColumnUsage(positions bool) {
	for _, t := range is.user {
		cols, ok := primaryKey(t)
		if !ok {
			continue
		}
		for i, c := range cols {
			is.row()
			is.set("constraint_catalog", is.db)
			is.set("constraint_schema", is.public)
			is.setName("constraint_name", t.PrimaryKeyName())
			is.table("table", t.Name)
			is.setName("column_name", c.Name)
			if positions {
				is.setInt("ordinal_position", int64(i+1))
			}
		}
	}
}

func (is *infoSchema) checkConstraints() {
	for _, t := range is.user {
		for pos, c := range visibleColumns(t) {
			if columnNotNull(c) {
				is.row()
				is.set("constraint_catalog", is.db)
				is.set("constraint_schema", is.public)
				is.setName("constraint_name", notNullName(t, pos+1))
				is.setText("check_clause", c.Name+" IS NOT NULL")
			}
		}
	}
}

func (is *infoSchema) schemata() {
	for _, s := range []string{syscat.InformationSchema, syscat.PgCatalog, syscat.Public} {
		is.row()
		is.set("catalog_name", is.db)
		is.setName("schema_name", s)
		owner := is.owner
		if s == syscat.Public {
			owner = "pg_database_owner" // PostgreSQL 15's owner of public
		}
		is.setName("schema_owner", owner)
	}
}

// sequences lists the sequences of serial columns. Identity columns'
// sequences are internal, and PostgreSQL leaves them out too.
func (is *infoSchema) sequences() {
	for _, t := range is.user {
		for _, c := range visibleColumns(t) {
			if c.Seq == nil || c.Identity != "" {
				continue
			}
			is.row()
			is.table("sequence", c.Seq.Name)
			m := typeMeta(c.Type)
			is.setText("data_type", m.dataType)
			is.setInt("numeric_precision", m.precision)
			is.setInt("numeric_precision_radix", m.radix)
			is.setInt("numeric_scale", m.scale)
			is.setText("start_value", strconv.FormatInt(c.Seq.Start, 10))
			is.setText("minimum_value", strconv.FormatInt(c.Seq.Min, 10))
			is.setText("maximum_value", strconv.FormatInt(c.Seq.Max, 10))
			is.setText("increment", strconv.FormatInt(c.Seq.Increment, 10))
			is.setYesNo("cycle_option", false)
		}
	}
}

// tablePrivileges: the owner holds every privilege on every user table,
// grantable, as PostgreSQL lists them for a table nobody GRANTed on.
func (is *infoSchema) tablePrivileges() {
	for _, t := range is.user {
		for _, p := range []string{"INSERT", "SELECT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER"} {
			is.row()
			is.setName("grantor", is.owner)
			is.setName("grantee", is.owner)
			is.table("table", t.Name)
			is.setText("privilege_type", p)
			is.setYesNo("is_grantable", true)
			is.setYesNo("with_hierarchy", p == "SELECT")
		}
	}
}

func (is *infoSchema) characterSets() {
	is.row()
	is.setName("character_set_name", "UTF8")
	is.setName("character_repertoire", "UCS")
	is.setName("form_of_use", "UTF8")
	// The database's default collation is libc's, not a pg_collation
	// entry: PostgreSQL leaves its schema and name NULL.
	is.set("default_collate_catalog", is.db)
}

// colTypeMeta is what information_schema reports about a column's type;
// -1 stands for NULL.
type colTypeMeta struct {
	dataType                             string
	charMax, octets                      int64
	precision, radix, scale, dtPrecision int64
}

// maxVarlenaOctets is PostgreSQL's character_octet_length of an unbounded
// character type (1 GB); a bounded one is its width times the encoding's
// maximum character size (4 for UTF8).
const maxVarlenaOctets = 1073741824

// typeMeta derives information_schema's type columns as PostgreSQL's
// _pg_char_max_length, _pg_numeric_precision, ... compute them from the
// type and typmod. widesql keeps no fractional-second precision, so every
// time type has PostgreSQL's default, 6.
func typeMeta(t types.T) colTypeMeta {
	m := colTypeMeta{dataType: dataTypeName(t), charMax: -1, octets: -1, precision: -1, radix: -1, scale: -1, dtPrecision: -1}
	switch t.Kind {
	case types.Text, types.BPChar:
		m.octets = maxVarlenaOctets
		if t.Width > 0 {
			m.charMax, m.octets = int64(t.Width), 4*int64(t.Width)
		}
	case types.Int2:
		m.precision, m.radix, m.scale = 16, 2, 0
	case types.Int4:
		m.precision, m.radix, m.scale = 32, 2, 0
	case types.Int8:
		m.precision, m.radix, m.scale = 64, 2, 0
	case types.Float4:
		m.precision, m.radix = 24, 2
	case types.Float8:
		m.precision, m.radix = 53, 2
	case types.Numeric:
		m.radix = 10
		if t.Width > 0 {
			m.precision, m.scale = int64(t.Width), int64(t.Scale)
		}
	case types.Date:
		m.dtPrecision = 0
	case types.Time, types.Timestamp, types.TimestampTZ, types.Interval:
		m.dtPrecision = 6
	}
	return m
}

// dataTypeName is information_schema's data_type: format_type without
// modifiers, "ARRAY" for arrays (int2vector and oidvector are arrays too).
func dataTypeName(t types.T) string {
	switch t.Kind {
	case types.Array, types.Int2Vector, types.OidVector:
		return "ARRAY"
	case types.BPChar:
		return "character"
	}
	t.Width, t.Scale = 0, 0
	return t.String()
}

// udtName is the column type's pg_type.typname ("_int4" for int4[]).
// GORM joins information_schema.columns with pg_type on it.
func udtName(t types.T) string {
	if t.Kind == types.Array {
		return "_" + udtName(t.ElemType())
	}
	if t.Kind == types.Text && t.VarChar {
		return "varchar"
	}
	if n, ok := typNames[t.Kind]; ok {
		return n
	}
	return "unknown"
}

var typNames = map[types.Kind]string{
	types.Bool: "bool", types.Int2: "int2", types.Int4: "int4", types.Int8: "int8",
	types.Float4: "float4", types.Float8: "float8", types.Numeric: "numeric", types.Text: "text",
	types.BPChar: "bpchar", types.Bytea: "bytea", types.Timestamp: "timestamp",
	types.TimestampTZ: "timestamptz", types.Date: "date", types.Time: "time",
	types.Interval: "interval", types.UUID: "uuid", types.JSON: "json", types.JSONB: "jsonb",
	types.Oid: "oid", types.Name: "name", types.Char: "char", types.RegClass: "regclass",
	types.RegType: "regtype", types.RegProc: "regproc", types.RegNamespace: "regnamespace",
	types.RegRole: "regrole", types.Int2Vector: "int2vector", types.OidVector: "oidvector",
}

// fixedWidth reports whether values of t have a fixed size (name is
// fixed-width in PostgreSQL: 64 bytes).
func fixedWidth(t types.T) bool {
	return t.TypeSize() > 0 || t.Kind == types.Name || t.Kind == types.Char || t.Kind == types.Oid ||
		t.Kind >= types.RegClass && t.Kind <= types.RegRole
}

// domainName is the information_schema domain a column of an
// information_schema relation is declared with (syscat declares the base
// types).
func domainName(t types.T) string {
	switch {
	case t.Kind == types.Name:
		return "sql_identifier"
	case t.Kind == types.Int4:
		return "cardinal_number"
	case t.Kind == types.TimestampTZ:
		return "time_stamp"
	case t.Kind == types.Text && t.Width == 3:
		return "yes_or_no"
	}
	return "character_data"
}

// columnDefault returns a column's default as PostgreSQL's
// pg_get_expr(adbin) prints it (information_schema.columns.column_default),
// and false for none: identity columns have none, serial columns
// nextval('t_c_seq'::regclass). widesql keeps the DEFAULT text as written;
// the common forms are printed as PostgreSQL deparses them (literals get
// the column type's cast: 'x'::text, '-5'::integer, '7 days'::interval;
// true; CURRENT_TIMESTAMP), because clients compare the text with their
// model. Other expressions are shown as written.
func columnDefault(c *planner.ColumnDesc) (string, bool) {
	if c.Identity != "" || c.Default == "" {
		return "", false
	}
	text := strings.TrimSpace(c.Default)
	switch lower := strings.ToLower(text); {
	case lower == "null":
		return "", false
	case lower == "true" || lower == "false":
		return lower, true
	case sqlValueFuncs[lower] != "":
		return sqlValueFuncs[lower], true
	case strings.HasPrefix(lower, "nextval("):
		return text, true
	}
	if s, ok := singleQuoted(text); ok {
		return constSQL(s, c.Type, false), true
	}
	if isNumberLiteral(text) {
		return numberSQL(text), true
	}
	if i := strings.IndexByte(text, '('); i > 0 && strings.HasSuffix(text, ")") && isIdent(text[:i]) {
		// A function call: PostgreSQL prints the name in lower case.
		return strings.ToLower(text[:i]) + text[i:], true
	}
	return text, true
}

// sqlValueFuncs are the SQL-standard functions written without
// parentheses, as PostgreSQL prints them.
var sqlValueFuncs = map[string]string{
	"current_timestamp": "CURRENT_TIMESTAMP", "current_date": "CURRENT_DATE",
	"current_time": "CURRENT_TIME", "localtimestamp": "LOCALTIMESTAMP", "localtime": "LOCALTIME",
	"current_user": "CURRENT_USER", "session_user": "SESSION_USER", "user": "CURRENT_USER",
	"current_role": "CURRENT_ROLE", "current_catalog": "CURRENT_CATALOG", "current_schema": "CURRENT_SCHEMA",
}

// constSQL prints a constant of type t whose text is s as ruleutils.c's
// get_const_expr does: integers bare unless negative, numerics bare when
// they look like a decimal number, booleans bare, anything else quoted
// with a cast to its type. A string literal written for the column is
// first read as the column's type, so the canonical text is shown.
func constSQL(s string, t types.T, numberLiteral bool) string {
	if !numberLiteral {
		if d, err := types.ParseText(t, s); err == nil && !d.IsNull() {
			s = string(types.AppendText(nil, d))
		}
	}
	switch t.Kind {
	case types.Int4:
		if !strings.HasPrefix(s, "-") {
			return s
		}
	case types.Numeric:
		if s != "" && s[0] >= '0' && s[0] <= '9' && strings.ContainsAny(s, ".eE") {
			return s
		}
	case types.Bool:
		if s == "t" || s == "f" {
			return map[string]string{"t": "true", "f": "false"}[s]
		}
	}
	t.Width, t.Scale = 0, 0 // the constant carries no modifier
	return "'" + strings.ReplaceAll(s, "'", "''") + "'::" + t.String()
}

// numberSQL prints a numeric literal written in a DEFAULT: an integer
// literal is int4 when it fits, else int8, else numeric, as PostgreSQL's
// lexer types it; one with a point or exponent is numeric. The implicit
// cast to the column's type is not printed.
func numberSQL(s string) string {
	if !strings.ContainsAny(s, ".eE") {
		if v, err := strconv.ParseInt(s, 10, 64); err == nil {
			if v >= math.MinInt32 && v <= math.MaxInt32 {
				return constSQL(s, types.TInt4, true)
			}
			return constSQL(s, types.TInt8, true)
		}
	}
	return constSQL(s, types.TNumeric, true)
}

// singleQuoted decodes a standard-conforming string literal 'it”s' that
// is the whole of s.
func singleQuoted(s string) (string, bool) {
	if len(s) < 2 || s[0] != '\'' || s[len(s)-1] != '\'' {
		return "", false
	}
	body := s[1 : len(s)-1]
	out := strings.ReplaceAll(body, "''", "")
	if strings.Contains(out, "'") {
		return "", false // two literals, or an expression between quotes
	}
	return strings.ReplaceAll(body, "''", "'"), true
}

// isNumberLiteral reports whether s is an optionally negative decimal
// number: 5, -5, 1.5, .5, 1e3.
func isNumberLiteral(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r == '.' || r == 'e' || r == 'E' || r == '+' || r == '-')
	}) < 0
}

func isIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && (r >= '0' && r <= '9' || r == '.')) {
			return false
		}
	}
	return s != ""
}
