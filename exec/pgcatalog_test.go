package exec

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/widesql/widesql/planner/syscat"
	"github.com/widesql/widesql/planner/types"
)

// pgCatalogEnv is a session with a few tables of every shape the catalog
// shows differently, and an executor over it.
func pgCatalogEnv(t *testing.T) *executor {
	e := newJoinEnv(t,
		`CREATE TABLE metrics (host text, ts timestamptz, d.cpu float8, f.note text,
			PRIMARY KEY (host, ts DESC)) WITH (salt_buckets = 4, f.versions = 3)`,
		`CREATE TABLE items (id serial PRIMARY KEY, name varchar(20) NOT NULL DEFAULT 'x', price numeric(10,2))`,
		`CREATE INDEX items_name_idx ON items (name)`,
		`CREATE TABLE nokey (a int, b text)`,
		`COMMENT ON TABLE items IS 'things we sell'`,
		`COMMENT ON COLUMN items.price IS 'in euros'`,
	)
	x := e.executor()
	x.env.x = x
	return x
}

// catalogRowsOf returns the rows of pg_catalog.name as maps by column.
func catalogRowsOf(t *testing.T, x *executor, name string) []map[string]types.Datum {
	t.Helper()
	rel := syscat.Lookup(syscat.PgCatalog, name)
	if rel == nil {
		t.Fatalf("no relation %s", name)
	}
	rows, err := x.pgCatalogRows(context.Background(), rel)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]types.Datum
	for _, r := range rows {
		m := map[string]types.Datum{}
		for i, c := range rel.Columns {
			m[c.Name] = r[i]
		}
		out = append(out, m)
	}
	return out
}

// Every relation's rows have one datum per column, of the column's kind.
func TestPgCatalogRowShapes(t *testing.T) {
	x := pgCatalogEnv(t)
	for _, rel := range syscat.All() {
		if rel.Schema != syscat.PgCatalog {
			continue
		}
		rows, err := x.pgCatalogRows(context.Background(), rel)
		if err != nil {
			t.Fatalf("%s: %v", rel.Name, err)
		}
		for _, r := range rows {
			if len(r) != len(rel.Columns) {
				t.Fatalf("%s: row of %d, want %d", rel.Name, len(r), len(rel.Columns))
			}
			for i, d := range r {
				if want := rel.Columns[i].Type; !d.IsNull() && d.K != want.Kind {
					t.Errorf("%s.%s: datum kind %d, column type %s", rel.Name, rel.Columns[i].Name, d.K, want)
				}
			}
		}
	}
}

func TestPgCatalogUserObjects(t *testing.T) {
	x := pgCatalogEnv(t)
	kinds := map[string]string{}
	oids := map[string]uint32{}
	for _, r := range catalogRowsOf(t, x, "pg_class") {
		if uint32(r["relnamespace"].I) == syscat.NamespacePublic {
			kinds[r["relname"].S] = r["relkind"].S
			oids[r["relname"].S] = uint32(r["oid"].I)
		}
	}
	want := map[string]string{"metrics": "r", "metrics_pkey": "i", "items": "r", "items_pkey": "i",
		"items_name_idx": "i", "items_id_seq": "S", "nokey": "r"}
	if !reflect.DeepEqual(kinds, want) {
		t.Errorf("pg_class public relations: %v, want %v", kinds, want)
	}
	if oids["pg_class"] != 0 || oids["metrics"] < syscat.FirstUserOID {
		t.Errorf("oids: %v", oids)
	}

	// Hidden columns get no attnum; key columns are NOT NULL.
	atts := map[uint32][]string{}
	for _, r := range catalogRowsOf(t, x, "pg_attribute") {
		rel := uint32(r["attrelid"].I)
		s := r["attname"].S
		if r["attnotnull"].Bool() {
			s += "!"
		}
		if r["atthasdef"].Bool() {
			s += "="
		}
		atts[rel] = append(atts[rel], s)
	}
	for rel, want := range map[string][]string{
		"nokey":        {"a", "b"},
		"metrics":      {"host!", "ts!", "cpu", "note"},
		"items":        {"id!=", "name!=", "price"},
		"metrics_pkey": {"host", "ts"},
	} {
		if got := atts[oids[rel]]; !reflect.DeepEqual(got, want) {
			t.Errorf("pg_attribute of %s: %v, want %v", rel, got, want)
		}
	}

	var idx []string
	for _, r := range catalogRowsOf(t, x, "pg_index") {
		idx = append(idx, vectorText(r["indkey"])+"/"+vectorText(r["indoption"])+
			"/"+map[bool]string{true: "pk", false: "-"}[r["indisprimary"].Bool()])
	}
	if want := []string{"1/0/pk", "2/0/-", "1 2/0 3/pk"}; !reflect.DeepEqual(idx, want) {
		t.Errorf("pg_index: %v, want %v", idx, want)
	}

	var cons []string
	for _, r := range catalogRowsOf(t, x, "pg_constraint") {
		d, err := pgGetConstraintdef([]types.Datum{r["oid"]}, nil, x.env)
		if err != nil {
			t.Fatal(err)
		}
		cons = append(cons, r["conname"].S+" "+r["contype"].S+" "+d.S)
	}
	if want := []string{"items_pkey p PRIMARY KEY (id)", "metrics_pkey p PRIMARY KEY (host, ts)"}; !reflect.DeepEqual(cons, want) {
		t.Errorf("pg_constraint: %v, want %v", cons, want)
	}

	for oid, want := range map[uint32]string{
		oids["metrics_pkey"]:   "CREATE UNIQUE INDEX metrics_pkey ON public.metrics USING btree (host, ts DESC)",
		oids["items_name_idx"]: "CREATE INDEX items_name_idx ON public.items USING btree (name)",
	} {
		d, _ := pgGetIndexdef([]types.Datum{types.NewOid(oid)}, nil, x.env)
		if d.S != want {
			t.Errorf("pg_get_indexdef(%d) = %q, want %q", oid, d.S, want)
		}
	}
	col := func(n int64) string {
		d, _ := pgGetIndexdef([]types.Datum{types.NewOid(oids["metrics_pkey"]), types.NewInt(types.Int4, n), types.NewBool(false)}, nil, x.env)
		return d.S
	}
	if col(2) != "ts" || col(3) != "" {
		t.Errorf("pg_get_indexdef(pk, n): %q %q", col(2), col(3))
	}
	if d, _ := pgGetIndexdef([]types.Datum{types.NewOid(12345)}, nil, x.env); !d.IsNull() {
		t.Errorf("pg_get_indexdef(unknown) = %v, want NULL", d)
	}

	seq, err := pgGetSerialSequence([]types.Datum{types.NewText("public.items"), types.NewText("id")}, nil, x.env)
	if err != nil || seq.S != "public.items_id_seq" {
		t.Errorf("pg_get_serial_sequence = %v, %v", seq, err)
	}
	if _, err := pgGetSerialSequence([]types.Datum{types.NewText("nosuch"), types.NewText("id")}, nil, x.env); err == nil {
		t.Error("pg_get_serial_sequence(nosuch) did not fail")
	}

	descs := map[string]string{}
	for _, r := range catalogRowsOf(t, x, "pg_description") {
		descs[fmt.Sprint(r["objoid"].I, "/", r["objsubid"].I)] = r["description"].S
	}
	items := fmt.Sprint(oids["items"])
	if got := descs[items+"/0"]; got != "things we sell\nrowkey (id); family d: name, price" {
		t.Errorf("items description %q", got)
	}
	if got := descs[items+"/3"]; got != "in euros" {
		t.Errorf("items.price description %q", got)
	}
	if _, ok := descs[items+"/2"]; ok {
		t.Error("a column without a comment has a description")
	}
	metrics := fmt.Sprint(oids["metrics"])
	if got, want := descs[metrics+"/0"], "rowkey (host, ts DESC); salt_buckets=4; family d: cpu; family f: note (versions=3)"; got != want {
		t.Errorf("metrics description %q, want %q", got, want)
	}
}

func TestPgCatalogSettings(t *testing.T) {
	x := pgCatalogEnv(t)
	joinRunStatement(t, x.env.sess, "SET work_mem = '8MB'")
	got := map[string]string{}
	for _, r := range catalogRowsOf(t, x, "pg_settings") {
		got[r["name"].S] = r["setting"].S + " " + r["unit"].S + " " + r["source"].S + " " + r["boot_val"].S
	}
	for name, want := range map[string]string{
		"work_mem":           "8192 kB session 4096",
		"max_index_keys":     "32  default 32",
		"server_version_num": "150018  default 150018",
	} {
		if got[name] != want {
			t.Errorf("pg_settings %s: %q, want %q", name, got[name], want)
		}
	}
}

func TestFormatType(t *testing.T) {
	null := types.Null
	i4 := func(n int64) types.Datum { return types.NewInt(types.Int4, n) }
	// Expected values from PostgreSQL 15.
	for _, c := range []struct {
		oid    uint32
		typmod types.Datum
		want   string
	}{
		{1042, null, "character"}, {1042, i4(-1), "bpchar"}, {1042, i4(9), "character(5)"},
		{1043, null, "character varying"}, {1043, i4(24), "character varying(20)"},
		{1700, i4(655366), "numeric(10,2)"}, {1700, i4(-1), "numeric"}, {23, null, "integer"},
		{1007, i4(-1), "integer[]"}, {1015, i4(9), "character varying(5)[]"}, {99999, null, "???"},
		{19, i4(-1), "name"}, {18, i4(-1), `"char"`}, {2205, null, "regclass"},
	} {
		if got := FormatType(types.NewOid(c.oid), c.typmod); got.S != c.want {
			t.Errorf("format_type(%d, %v) = %q, want %q", c.oid, c.typmod, got.S, c.want)
		}
	}
}

func TestSizePretty(t *testing.T) {
	// Expected values from PostgreSQL 15.
	for n, want := range map[int64]string{
		0: "0 bytes", 10239: "10239 bytes", 10240: "10 kB", 123456789: "118 MB",
		-123456789012: "-115 GB", 1 << 62: "4096 PB",
	} {
		if got := sizePretty(n); got != want {
			t.Errorf("pg_size_pretty(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestSplitQualifiedName(t *testing.T) {
	for in, want := range map[string]string{
		"t": ".t", "Public.T": "public.t", `"My ""T"""`: `.My "T"`, `s."A.b"`: "s.A.b",
	} {
		s, n := splitQualifiedName(in)
		if got := s + "." + n; got != want {
			t.Errorf("splitQualifiedName(%q) = %q, want %q", in, got, want)
		}
	}
}

// vectorText prints an int2vector as its elements separated by spaces.
func vectorText(d types.Datum) string {
	var s []string
	for _, e := range d.ArrayValue().Elems {
		s = append(s, fmt.Sprint(e.I))
	}
	return strings.Join(s, " ")
}
