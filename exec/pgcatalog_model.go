package exec

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/syscat"
	"github.com/widesql/widesql/planner/types"
)

// How user tables appear in pg_catalog: the
// objects one table stands for (its relation, row type, primary-key
// index and constraint, recorded secondary indexes, owned sequences,
// column defaults), each with the OID syscat derives from the table id.
//
// Hidden columns (the row id of a table without a primary key, the
// key-expression columns) appear nowhere: visible columns are numbered
// 1..n in column order (attnum), a primary key lists only its visible key
// columns, and a table with a hidden row id has no primary key, as
// PostgreSQL shows a table declared without one. What the catalog cannot
// show (key expressions, salting, layout, families) is in the table's
// description (tableDescription).

// userTables returns the user tables, ordered by name.
func (x *executor) userTables() []*planner.TableDesc {
	ts := x.eng.cat.list()
	sort.Slice(ts, func(i, j int) bool { return ts[i].Name < ts[j].Name })
	return ts
}

// tableByOID returns the user table owning a user OID and the OID's slot
// (syscat.Slot*), or nil.
func (x *executor) tableByOID(oid uint32) (*planner.TableDesc, uint32) {
	id, slot, ok := syscat.Decode(oid)
	if !ok {
		return nil, 0
	}
	for _, t := range x.eng.cat.list() {
		if t.ID == id {
			return t, slot
		}
	}
	return nil, 0
}

// attnums maps the index of every visible column of t to its attnum.
func attnums(t *planner.TableDesc) map[int]int16 {
	m := make(map[int]int16, len(t.Columns))
	for i, a := range t.Attnums() {
		if a != 0 {
			m[i] = a
		}
	}
	return m
}

// columnByAttnum returns t's column with attnum n, or nil.
func columnByAttnum(t *planner.TableDesc, n int64) *planner.ColumnDesc {
	for i, a := range attnums(t) {
		if int64(a) == n {
			return &t.Columns[i]
		}
	}
	return nil
}

// hasPrimaryKey reports whether t shows a primary key: its rowkey is
// declared (not the hidden row id) and has a visible column.
func hasPrimaryKey(t *planner.TableDesc) bool {
	if t.ShardBits > 0 {
		return false
	}
	for _, kc := range t.Key {
		if !t.Columns[kc.Col].Hidden {
			return true
		}
	}
	return false
}

// catIndex is an index as pg_class/pg_index show it: the primary key
// standing for the rowkey, or a recorded secondary index.
type catIndex struct {
	oid, conOID uint32 // conOID is 0 when no constraint backs the index
	name        string
	primary     bool
	unique      bool
	cols        []int // indexes into t.Columns
	desc        []bool
}

// tableIndexes returns t's indexes: the primary key first, then the
// secondary indexes in creation order.
func tableIndexes(t *planner.TableDesc) []catIndex {
	var out []catIndex
	if hasPrimaryKey(t) {
		ix := catIndex{oid: syscat.PKIndexOID(t.ID), conOID: syscat.PKConstraintOID(t.ID),
			name: t.PrimaryKeyName(), primary: true, unique: true}
		for _, kc := range t.Key {
			if !t.Columns[kc.Col].Hidden {
				ix.cols = append(ix.cols, kc.Col)
				ix.desc = append(ix.desc, kc.Desc)
			}
		}
		out = append(out, ix)
	}
	for i, sx := range t.Indexes {
		oid := syscat.IndexOID(t.ID, i)
		if oid == 0 {
			break
		}
		ix := catIndex{oid: oid, name: sx.Name, unique: sx.Unique}
		if sx.Unique {
			ix.conOID = syscat.IndexConstraintOID(t.ID, i)
		}
		for _, c := range sx.Columns {
			if j := t.ColumnIndex(c); j >= 0 {
				ix.cols = append(ix.cols, j)
				ix.desc = append(ix.desc, false)
			}
		}
		out = append(out, ix)
	}
	return out
}

// indexByOID returns the index of t with the given OID (index or
// constraint OID when byConstraint).
func indexByOID(t *planner.TableDesc, oid uint32, byConstraint bool) *catIndex {
	for _, ix := range tableIndexes(t) {
		if !byConstraint && ix.oid == oid || byConstraint && ix.conOID == oid && oid != 0 {
			ix := ix
			return &ix
		}
	}
	return nil
}

// indexDef is pg_get_indexdef's text: CREATE [UNIQUE] INDEX name ON
// public.t USING btree (a, b DESC).
func indexDef(t *planner.TableDesc, ix *catIndex) string {
	var sb strings.Builder
	sb.WriteString("CREATE ")
	if ix.unique {
		sb.WriteString("UNIQUE ")
	}
	sb.WriteString("INDEX " + planner.QuoteIdent(ix.name) + " ON public." + planner.QuoteIdent(t.Name) + " USING btree (")
	for i, c := range ix.cols {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(planner.QuoteIdent(t.Columns[c].Name))
		if ix.desc[i] {
			sb.WriteString(" DESC")
		}
	}
	sb.WriteString(")")
	return sb.String()
}

// constraintDef is pg_get_constraintdef's text: PRIMARY KEY (a, b) or
// UNIQUE (c).
func constraintDef(t *planner.TableDesc, ix *catIndex) string {
	kind := "UNIQUE ("
	if ix.primary {
		kind = "PRIMARY KEY ("
	}
	names := make([]string, len(ix.cols))
	for i, c := range ix.cols {
		names[i] = planner.QuoteIdent(t.Columns[c].Name)
	}
	return kind + strings.Join(names, ", ") + ")"
}

// tableDescription is the description of a user table that
// obj_description, pg_description and information_schema show: the
// COMMENT ON TABLE text, if any, then on its own line a summary of the
// design the catalog has no columns for, for example
//
//	rowkey ((md5(host)), ts DESC); salt_buckets=8; family d: cpu, mem (versions=3); family f: note
//
// Column descriptions are the COMMENT ON COLUMN texts alone: tools (GORM)
// compare them with their models.
func tableDescription(t *planner.TableDesc) string {
	s := designSummary(t)
	if t.Comment == "" {
		return s
	}
	return t.Comment + "\n" + s
}

func designSummary(t *planner.TableDesc) string {
	var parts []string
	if t.ShardBits > 0 {
		parts = append(parts, "rowkey hidden "+planner.RowIDColumn+" (no primary key) over "+strconv.Itoa(1<<t.ShardBits)+" shards")
	} else {
		keys := make([]string, len(t.Key))
		for i, kc := range t.Key {
			c := &t.Columns[kc.Col]
			if c.Generated != "" {
				keys[i] = "(" + c.Generated + ")"
			} else {
				keys[i] = planner.QuoteIdent(c.Name)
			}
			if kc.Desc {
				keys[i] += " DESC"
			}
		}
		parts = append(parts, "rowkey ("+strings.Join(keys, ", ")+")")
	}
	if t.SaltBuckets > 0 {
		parts = append(parts, "salt_buckets="+strconv.Itoa(t.SaltBuckets))
	}
	if t.Layout == planner.LayoutWide {
		parts = append(parts, "layout=wide")
	}
	for _, f := range t.Families {
		var cols []string
		for i := range t.Columns {
			if c := &t.Columns[i]; !c.Hidden && !c.IsKey() && c.Family == f.Name {
				cols = append(cols, planner.QuoteIdent(c.Name))
			}
		}
		s := "family " + planner.QuoteIdent(f.Name)
		if len(cols) > 0 {
			s += ": " + strings.Join(cols, ", ")
		}
		if opts := familyOptions(f); len(opts) > 0 {
			s += " (" + strings.Join(opts, ", ") + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

// familyOptions lists a family's non-default options as name=value.
func familyOptions(f planner.FamilyDesc) []string {
	var out []string
	if f.MaxVersions > 1 {
		out = append(out, "versions="+strconv.Itoa(f.MaxVersions))
	}
	if f.TTL > 0 {
		const day = 24 * time.Hour
		iv := types.NewInterval(0, int32(f.TTL/day), (f.TTL % day).Microseconds())
		out = append(out, "ttl="+string(types.AppendText(nil, iv)))
	}
	if f.Compression != "" {
		out = append(out, "compression="+f.Compression)
	}
	if f.Bloom != "" {
		out = append(out, "bloom="+f.Bloom)
	}
	return out
}

// relOptions is pg_class.reloptions: the table's WITH (...) options as
// name=value, or nil when it has none.
func relOptions(t *planner.TableDesc) []string {
	var out []string
	if t.SaltBuckets > 0 {
		out = append(out, "salt_buckets="+strconv.Itoa(t.SaltBuckets))
	}
	if t.Layout == planner.LayoutWide {
		out = append(out, "layout=wide")
	}
	for _, f := range t.Families {
		for _, o := range familyOptions(f) {
			out = append(out, f.Name+"."+o)
		}
	}
	return out
}
