package exec

import (
	"context"
	"fmt"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/syscat"
	"github.com/widesql/widesql/planner/types"
)

// pgCatalogRows derives the rows of a pg_catalog relation from the live
// catalog (pgcatalog_model.go), the fixed rows (pgcatalog_static.go) and
// the session. A relation without a generator has no rows: widesql has no
// objects of its kind (policies, triggers, rules, publications, ...).
func (x *executor) pgCatalogRows(ctx context.Context, rel *syscat.Relation) ([]Row, error) {
	r := newRelRows(rel)
	if gen := pgRowGens[rel.Name]; gen != nil {
		if err := gen(ctx, x, r); err != nil {
			return nil, err
		}
	}
	return r.rows, r.err
}

// pgRowGens produce the rows of the pg_catalog relations that have any.
var pgRowGens map[string]func(ctx context.Context, x *executor, r *relRows) error

func init() {
	pgRowGens = map[string]func(ctx context.Context, x *executor, r *relRows) error{
		"pg_namespace":   pgNamespaceRows,
		"pg_class":       pgClassRows,
		"pg_attribute":   pgAttributeRows,
		"pg_type":        pgTypeRows,
		"pg_index":       pgIndexRows,
		"pg_constraint":  pgConstraintRows,
		"pg_attrdef":     pgAttrdefRows,
		"pg_description": pgDescriptionRows,
		"pg_depend":      pgDependRows,
		"pg_sequence":    pgSequenceRows,
		"pg_sequences":   pgSequencesRows,
		"pg_indexes":     pgIndexesRows,
		"pg_tables":      pgTablesRows,
		// pgcatalog_misc.go
		"pg_am":         pgAmRows,
		"pg_opclass":    pgOpclassRows,
		"pg_collation":  pgCollationRows,
		"pg_tablespace": pgTablespaceRows,
		"pg_language":   pgLanguageRows,
		"pg_database":   pgDatabaseRows,
		"pg_roles":      pgRolesRows,
		"pg_user":       pgUserRows,
		"pg_settings":   pgSettingsRows,
	}
}

// relRows collects the rows of one relation, built by column name: a
// column a row does not name is NULL.
type relRows struct {
	rel  *syscat.Relation
	cols map[string]int
	rows []Row
	err  error
}

func newRelRows(rel *syscat.Relation) *relRows {
	r := &relRows{rel: rel, cols: make(map[string]int, len(rel.Columns))}
	for i, c := range rel.Columns {
		r.cols[c.Name] = i
	}
	return r
}

// add appends a row from name, value pairs. A value is a types.Datum or a
// Go value converted to the column's type (catalogDatum); nil is NULL.
func (r *relRows) add(pairs ...any) {
	row := make(Row, len(r.rel.Columns))
	for i := 0; i+1 < len(pairs); i += 2 {
		name, _ := pairs[i].(string)
		j, ok := r.cols[name]
		if !ok {
			r.fail(fmt.Errorf("no column %q", name))
			return
		}
		d, err := catalogDatum(r.rel.Columns[j].Type, pairs[i+1])
		if err != nil {
			r.fail(fmt.Errorf("column %s: %w", name, err))
			return
		}
		row[j] = d
	}
	r.rows = append(r.rows, row)
}

func (r *relRows) fail(err error) {
	if r.err == nil {
		r.err = pgerror.New(pgerror.CodeInternalError, "pg_catalog.%s: %v", r.rel.Name, err)
	}
}

// catalogDatum converts a Go value to a datum of type t: strings to name,
// text or "char" (a byte is a "char" too, 0 the empty one), integers to
// the integer kinds, oid or real, []string to text[], []int16 to
// int2vector or int2[], []uint32 to oidvector or oid[].
func catalogDatum(t types.T, v any) (types.Datum, error) {
	switch v := v.(type) {
	case nil:
		return types.Null, nil
	case types.Datum:
		return v, nil
	case string:
		switch t.Kind {
		case types.Name:
			return types.NewName(v), nil
		case types.Text:
			return types.NewText(v), nil
		case types.Char:
			return types.NewChar(v), nil
		}
	case byte:
		if t.Kind == types.Char {
			if v == 0 {
				return types.NewChar(""), nil
			}
			return types.NewChar(string(rune(v))), nil
		}
	case bool:
		if t.Kind == types.Bool {
			return types.NewBool(v), nil
		}
	case int:
		return catalogInt(t, int64(v))
	case int16:
		return catalogInt(t, int64(v))
	case int32:
		return catalogInt(t, int64(v))
	case int64:
		return catalogInt(t, v)
	case uint32:
		return catalogInt(t, int64(v))
	case float32:
		if t.Kind == types.Float4 {
			return types.NewFloat4(v), nil
		}
	case []string:
		if t.Kind == types.Array && t.Elem == types.Text {
			if v == nil {
				return types.Null, nil
			}
			elems := make([]types.Datum, len(v))
			for i, s := range v {
				elems[i] = types.NewText(s)
			}
			return types.NewArray(types.TText, elems), nil
		}
	case []int16:
		switch {
		case t.Kind == types.Int2Vector:
			return types.NewInt2Vector(v), nil
		case t.Kind == types.Array && t.Elem == types.Int2:
			elems := make([]types.Datum, len(v))
			for i, n := range v {
				elems[i] = types.NewInt(types.Int2, int64(n))
			}
			return types.NewArray(types.TInt2, elems), nil
		}
	case []uint32:
		switch {
		case t.Kind == types.OidVector:
			return types.NewOidVector(v), nil
		case t.Kind == types.Array && t.Elem == types.Oid:
			elems := make([]types.Datum, len(v))
			for i, n := range v {
				elems[i] = types.NewOid(n)
			}
			return types.NewArray(types.TOid, elems), nil
		}
	}
	return types.Null, fmt.Errorf("cannot store %T as %s", v, t)
}

func catalogInt(t types.T, n int64) (types.Datum, error) {
	switch t.Kind {
	case types.Int2, types.Int4, types.Int8:
		return types.NewInt(t.Kind, n), nil
	case types.Oid:
		return types.NewOid(uint32(n)), nil
	case types.Float4:
		return types.NewFloat4(float32(n)), nil
	}
	return types.Null, fmt.Errorf("cannot store an integer as %s", t)
}

func pgNamespaceRows(_ context.Context, _ *executor, r *relRows) error {
	for _, n := range namespaces {
		r.add("oid", n.oid, "nspname", n.name, "nspowner", n.owner)
	}
	return nil
}

// classRow adds a pg_class row with the values every relation shares.
func classRow(r *relRows, oid uint32, name string, ns uint32, kind byte, pairs ...any) {
	r.add(append([]any{"oid", oid, "relname", name, "relnamespace", ns, "reltype", 0, "reloftype", 0,
		"relowner", BootstrapRoleOID, "relam", 0, "relfilenode", 0, "reltablespace", 0, "relpages", 0,
		"reltuples", float32(-1), "relallvisible", 0, "reltoastrelid", 0, "relhasindex", false,
		"relisshared", false, "relpersistence", "p", "relkind", kind, "relnatts", 0, "relchecks", 0,
		"relhasrules", false, "relhastriggers", false, "relhassubclass", false, "relrowsecurity", false,
		"relforcerowsecurity", false, "relispopulated", true, "relreplident", "n", "relispartition", false,
		"relrewrite", 0}, pairs...)...)
}

func pgClassRows(ctx context.Context, x *executor, r *relRows) error {
	for _, rel := range syscat.All() {
		if rel.OID == 0 {
			continue
		}
		kind := syscat.RelKind(rel)
		am, ns := amHeap, syscat.NamespacePgCatalog
		if kind != 'r' {
			am = 0
		}
		if rel.Schema == syscat.InformationSchema {
			ns = syscat.NamespaceInformationSchema
		}
		classRow(r, rel.OID, rel.Name, ns, kind, "relam", am, "relfilenode", rel.OID, "relnatts", len(rel.Columns))
	}
	for _, t := range x.userTables() {
		oid := syscat.TableOID(t.ID)
		ixs := tableIndexes(t)
		tuples, pages := float32(-1), 0
		if st, ok := x.tableStats(ctx, t); ok {
			tuples, pages = float32(st.rows), int(st.bytes/8192)
		}
		var opts []string
		if o := relOptions(t); len(o) > 0 {
			opts = o
		}
		classRow(r, oid, t.Name, syscat.NamespacePublic, 'r', "reltype", syscat.RowTypeOID(t.ID),
			"relam", amHeap, "relfilenode", oid, "relpages", pages, "reltuples", tuples,
			"relhasindex", len(ixs) > 0, "relnatts", len(attnums(t)), "relreplident", "d", "reloptions", opts)
		for _, ix := range ixs {
			classRow(r, ix.oid, ix.name, syscat.NamespacePublic, 'i', "relam", amBtree,
				"relfilenode", ix.oid, "relnatts", len(ix.cols))
		}
		for i := range t.Columns {
			c := &t.Columns[i]
			if c.Seq == nil || c.Hidden {
				continue
			}
			if so := syscat.SequenceOID(t.ID, c.ID); so != 0 {
				classRow(r, so, c.Seq.Name, syscat.NamespacePublic, 'S', "relfilenode", so, "relnatts", 3)
			}
		}
	}
	return nil
}

// attRow adds a pg_attribute row.
func attRow(r *relRows, relid uint32, name string, t types.T, num int16, pairs ...any) {
	bt := builtinTypeByOID[t.OID()]
	if bt == nil {
		bt = builtinTypeByOID[types.OIDText]
	}
	ndims := 0
	if t.Kind == types.Array {
		ndims = 1
	}
	r.add(append([]any{"attrelid", relid, "attname", name, "atttypid", t.OID(), "attstattarget", -1,
		"attlen", bt.len, "attnum", num, "attndims", ndims, "attcacheoff", -1, "atttypmod", t.TypeModifier(),
		"attbyval", bt.byVal, "attalign", bt.align, "attstorage", bt.storage, "attcompression", byte(0),
		"attnotnull", false, "atthasdef", false, "atthasmissing", false, "attidentity", byte(0),
		"attgenerated", byte(0), "attisdropped", false, "attislocal", true, "attinhcount", 0,
		"attcollation", bt.collation}, pairs...)...)
}

func pgAttributeRows(_ context.Context, x *executor, r *relRows) error {
	for _, rel := range syscat.All() {
		if rel.OID == 0 {
			continue
		}
		for i, c := range rel.Columns {
			attRow(r, rel.OID, c.Name, c.Type, int16(i+1))
		}
	}
	for _, t := range x.userTables() {
		oid := syscat.TableOID(t.ID)
		nums := attnums(t)
		for i := range t.Columns {
			c := &t.Columns[i]
			if c.Hidden {
				continue
			}
			var ident byte
			switch c.Identity {
			case planner.IdentityAlways:
				ident = 'a'
			case planner.IdentityByDefault:
				ident = 'd'
			}
			attRow(r, oid, c.Name, c.Type, nums[i], "attnotnull", columnNotNull(c), // infoschema.go
				"atthasdef", c.Default != "", "attidentity", ident)
		}
		for _, ix := range tableIndexes(t) {
			for j, ci := range ix.cols {
				attRow(r, ix.oid, t.Columns[ci].Name, t.Columns[ci].Type, int16(j+1))
			}
		}
	}
	return nil
}

func pgTypeRows(_ context.Context, x *executor, r *relRows) error {
	for i := range builtinTypes {
		bt := &builtinTypes[i]
		typtype := byte('b')
		if bt.oid == types.OIDUnknown {
			typtype = 'p'
		}
		r.add("oid", bt.oid, "typname", bt.name, "typnamespace", syscat.NamespacePgCatalog,
			"typowner", BootstrapRoleOID, "typlen", bt.len, "typbyval", bt.byVal, "typtype", typtype,
			"typcategory", bt.category, "typispreferred", bt.preferred, "typisdefined", true,
			"typdelim", ",", "typrelid", 0, "typsubscript", bt.procs[0].datum(), "typelem", bt.elem,
			"typarray", bt.array, "typinput", bt.procs[1].datum(), "typoutput", bt.procs[2].datum(),
			"typreceive", bt.procs[3].datum(), "typsend", bt.procs[4].datum(),
			"typmodin", bt.procs[5].datum(), "typmodout", bt.procs[6].datum(),
			"typanalyze", bt.procs[7].datum(), "typalign", bt.align, "typstorage", bt.storage,
			"typnotnull", false, "typbasetype", 0, "typtypmod", -1, "typndims", 0, "typcollation", bt.collation)
	}
	none := regProc{0, "-"}.datum()
	for _, t := range x.userTables() {
		// Every table has a composite row type named after it.
		r.add("oid", syscat.RowTypeOID(t.ID), "typname", t.Name, "typnamespace", syscat.NamespacePublic,
			"typowner", BootstrapRoleOID, "typlen", -1, "typbyval", false, "typtype", "c",
			"typcategory", "C", "typispreferred", false, "typisdefined", true, "typdelim", ",",
			"typrelid", syscat.TableOID(t.ID), "typsubscript", none, "typelem", 0, "typarray", 0,
			"typinput", regProc{2290, "record_in"}.datum(), "typoutput", regProc{2291, "record_out"}.datum(),
			"typreceive", regProc{2402, "record_recv"}.datum(), "typsend", regProc{2403, "record_send"}.datum(),
			"typmodin", none, "typmodout", none, "typanalyze", none, "typalign", "d", "typstorage", "x",
			"typnotnull", false, "typbasetype", 0, "typtypmod", -1, "typndims", 0, "typcollation", 0)
	}
	return nil
}

func pgIndexRows(_ context.Context, x *executor, r *relRows) error {
	for _, t := range x.userTables() {
		nums := attnums(t)
		for _, ix := range tableIndexes(t) {
			keys := make([]int16, len(ix.cols))
			opts := make([]int16, len(ix.cols))
			colls := make([]uint32, len(ix.cols))
			classes := make([]uint32, len(ix.cols))
			for j, ci := range ix.cols {
				ct := t.Columns[ci].Type
				keys[j] = nums[ci]
				if ix.desc[j] {
					opts[j] = 3 // INDOPTION_DESC | INDOPTION_NULLS_FIRST, DESC's default
				}
				if bt := builtinTypeByOID[ct.OID()]; bt != nil {
					colls[j] = bt.collation
				}
				classes[j] = opclassFor(ct)
			}
			r.add("indexrelid", ix.oid, "indrelid", syscat.TableOID(t.ID), "indnatts", len(keys),
				"indnkeyatts", len(keys), "indisunique", ix.unique, "indnullsnotdistinct", false,
				"indisprimary", ix.primary, "indisexclusion", false, "indimmediate", true,
				"indisclustered", false, "indisvalid", true, "indcheckxmin", false, "indisready", true,
				"indislive", true, "indisreplident", false, "indkey", keys, "indcollation", colls,
				"indclass", classes, "indoption", opts)
		}
	}
	return nil
}

func pgConstraintRows(_ context.Context, x *executor, r *relRows) error {
	for _, t := range x.userTables() {
		nums := attnums(t)
		for _, ix := range tableIndexes(t) {
			if ix.conOID == 0 {
				continue
			}
			kind := "u"
			if ix.primary {
				kind = "p"
			}
			keys := make([]int16, len(ix.cols))
			for j, ci := range ix.cols {
				keys[j] = nums[ci]
			}
			r.add("oid", ix.conOID, "conname", ix.name, "connamespace", syscat.NamespacePublic,
				"contype", kind, "condeferrable", false, "condeferred", false, "convalidated", true,
				"conrelid", syscat.TableOID(t.ID), "contypid", 0, "conindid", ix.oid, "conparentid", 0,
				"confrelid", 0, "confupdtype", " ", "confdeltype", " ", "confmatchtype", " ",
				"conislocal", true, "coninhcount", 0, "connoinherit", true, "conkey", keys)
		}
	}
	return nil
}

func pgAttrdefRows(_ context.Context, x *executor, r *relRows) error {
	for _, t := range x.userTables() {
		nums := attnums(t)
		for i := range t.Columns {
			c := &t.Columns[i]
			if c.Hidden {
				continue
			}
			def, ok := columnDefault(c) // infoschema.go: PostgreSQL's spelling
			if !ok {
				continue
			}
			if oid := syscat.AttrDefOID(t.ID, c.ID); oid != 0 {
				r.add("oid", oid, "adrelid", syscat.TableOID(t.ID), "adnum", nums[i], "adbin", def)
			}
		}
	}
	return nil
}

func pgDescriptionRows(_ context.Context, x *executor, r *relRows) error {
	for _, t := range x.userTables() {
		oid := syscat.TableOID(t.ID)
		r.add("objoid", oid, "classoid", classPgClass, "objsubid", 0, "description", tableDescription(t))
		nums := attnums(t)
		for i := range t.Columns {
			if c := &t.Columns[i]; !c.Hidden && c.Comment != "" {
				r.add("objoid", oid, "classoid", classPgClass, "objsubid", nums[i], "description", c.Comment)
			}
		}
	}
	return nil
}

// pgDependRows records what psql and drivers look up in pg_depend: the
// column owning each sequence ('a' for serial, 'i' for identity) and the
// constraint owning each index.
func pgDependRows(_ context.Context, x *executor, r *relRows) error {
	for _, t := range x.userTables() {
		oid := syscat.TableOID(t.ID)
		nums := attnums(t)
		for i := range t.Columns {
			c := &t.Columns[i]
			so := syscat.SequenceOID(t.ID, c.ID)
			if c.Hidden || c.Seq == nil || so == 0 {
				continue
			}
			kind := "a"
			if c.Identity != "" {
				kind = "i"
			}
			r.add("classid", classPgClass, "objid", so, "objsubid", 0, "refclassid", classPgClass,
				"refobjid", oid, "refobjsubid", nums[i], "deptype", kind)
		}
		for _, ix := range tableIndexes(t) {
			if ix.conOID != 0 {
				r.add("classid", classPgClass, "objid", ix.oid, "objsubid", 0, "refclassid", classPgConstraint,
					"refobjid", ix.conOID, "refobjsubid", 0, "deptype", "i")
			}
		}
	}
	return nil
}

// tableSequences calls f for every sequence of t's visible columns.
func tableSequences(t *planner.TableDesc, f func(c *planner.ColumnDesc, oid uint32)) {
	for i := range t.Columns {
		c := &t.Columns[i]
		if c.Hidden || c.Seq == nil {
			continue
		}
		if oid := syscat.SequenceOID(t.ID, c.ID); oid != 0 {
			f(c, oid)
		}
	}
}

func pgSequenceRows(_ context.Context, x *executor, r *relRows) error {
	for _, t := range x.userTables() {
		tableSequences(t, func(c *planner.ColumnDesc, oid uint32) {
			s := c.Seq
			r.add("seqrelid", oid, "seqtypid", c.Type.OID(), "seqstart", s.Start, "seqincrement", s.Increment,
				"seqmax", s.Max, "seqmin", s.Min, "seqcache", 1, "seqcycle", false)
		})
	}
	return nil
}

func pgSequencesRows(ctx context.Context, x *executor, r *relRows) error {
	owner := x.roleName(ctx, BootstrapRoleOID)
	for _, t := range x.userTables() {
		tableSequences(t, func(c *planner.ColumnDesc, oid uint32) {
			s := c.Seq
			r.add("schemaname", syscat.Public, "sequencename", s.Name, "sequenceowner", owner,
				"data_type", types.NewReg(types.RegType, c.Type.OID(), c.Type.String()),
				"start_value", s.Start, "min_value", s.Min, "max_value", s.Max, "increment_by", s.Increment,
				"cycle", false, "cache_size", 1)
		})
	}
	return nil
}

func pgIndexesRows(_ context.Context, x *executor, r *relRows) error {
	for _, t := range x.userTables() {
		for _, ix := range tableIndexes(t) {
			ix := ix
			r.add("schemaname", syscat.Public, "tablename", t.Name, "indexname", ix.name,
				"indexdef", indexDef(t, &ix))
		}
	}
	return nil
}

func pgTablesRows(ctx context.Context, x *executor, r *relRows) error {
	owner := x.roleName(ctx, BootstrapRoleOID)
	for _, rel := range syscat.All() {
		if rel.OID != 0 && syscat.RelKind(rel) == 'r' {
			r.add("schemaname", rel.Schema, "tablename", rel.Name, "tableowner", owner,
				"hasindexes", false, "hasrules", false, "hastriggers", false, "rowsecurity", false)
		}
	}
	for _, t := range x.userTables() {
		r.add("schemaname", syscat.Public, "tablename", t.Name, "tableowner", owner,
			"hasindexes", len(tableIndexes(t)) > 0, "hasrules", false, "hastriggers", false, "rowsecurity", false)
	}
	return nil
}
