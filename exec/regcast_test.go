package exec

import (
	"testing"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
)

// fakeRegCatalog is a regCatalog over fixed objects: kind -> schema.name -> oid.
type fakeRegCatalog map[types.Kind]map[string]uint32

func (f fakeRegCatalog) regLookupName(k types.Kind, schema, name string) (uint32, bool, error) {
	if k == types.RegNamespace {
		schema = ""
	}
	for _, s := range []string{schema, "pg_catalog", "public"} {
		if oid, ok := f[k][s+"."+name]; ok && (schema == "" || s == schema) {
			return oid, true, nil
		}
		if schema != "" {
			break
		}
	}
	return 0, false, nil
}

func (f fakeRegCatalog) regLookupOID(k types.Kind, oid uint32) (string, string, bool, error) {
	for qn, o := range f[k] {
		if o == oid {
			for i := 0; i < len(qn); i++ {
				if qn[i] == '.' {
					return qn[:i], qn[i+1:], true, nil
				}
			}
		}
	}
	return "", "", false, nil
}

func TestRegCast(t *testing.T) {
	cat := fakeRegCatalog{
		types.RegClass: {"pg_catalog.pg_class": 1259, "public.users": 16384, "public.Mixed Case": 17408,
			"information_schema.tables": 13300, "public.select": 18432},
		types.RegNamespace: {".pg_catalog": 11, ".public": 2200, ".information_schema": 13183},
		types.RegRole:      {".alice": 10},
		types.RegProc:      {"pg_catalog.now": 1299},
	}
	for _, c := range []struct {
		in   types.Datum
		k    types.Kind
		want string
		oid  uint32
		code string
	}{
		{types.NewText("pg_class"), types.RegClass, "pg_class", 1259, ""},
		{types.NewText("PG_CLASS"), types.RegClass, "pg_class", 1259, ""},
		{types.NewText(` "pg_class" `), types.RegClass, "pg_class", 1259, ""},
		{types.NewText("pg_catalog.pg_class"), types.RegClass, "pg_class", 1259, ""},
		{types.NewText("public.users"), types.RegClass, "users", 16384, ""},
		{types.NewText(`"Mixed Case"`), types.RegClass, `"Mixed Case"`, 17408, ""},
		{types.NewText(`"select"`), types.RegClass, `"select"`, 18432, ""},
		{types.NewText("information_schema.tables"), types.RegClass, "information_schema.tables", 13300, ""},
		{types.NewText("1259"), types.RegClass, "pg_class", 1259, ""},
		{types.NewText("424242"), types.RegClass, "424242", 424242, ""},
		{types.NewText("-"), types.RegClass, "-", 0, ""},
		{types.NewOid(16384), types.RegClass, "users", 16384, ""},
		{types.NewInt(types.Int4, 1259), types.RegClass, "pg_class", 1259, ""},
		{types.NewText("mixed case"), types.RegClass, "", 0, "42602"},
		{types.NewText("nosuch"), types.RegClass, "", 0, "42P01"},
		{types.NewText("nosuch.users"), types.RegClass, "", 0, "3F000"},
		{types.NewText("a.b.c.d"), types.RegClass, "", 0, "42601"},
		{types.NewText(""), types.RegClass, "", 0, "42602"},
		{types.NewText(`"unterminated`), types.RegClass, "", 0, "42602"},
		{types.NewInt(types.Int8, -1), types.RegClass, "", 0, "22003"},
		{types.NewReg(types.RegType, 23, "integer"), types.RegClass, "", 0, "42846"},
		{types.NewText("int4"), types.RegType, "integer", 23, ""},
		{types.NewText("pg_catalog.int4"), types.RegType, "integer", 23, ""},
		{types.NewText("character varying(10)"), types.RegType, "character varying", 1043, ""},
		{types.NewText(`"char"`), types.RegType, `"char"`, 18, ""},
		{types.NewText("1043"), types.RegType, "character varying", 1043, ""},
		{types.NewText("nosuchtype"), types.RegType, "", 0, "42704"},
		{types.NewText("public"), types.RegNamespace, "public", 2200, ""},
		{types.NewOid(11), types.RegNamespace, "pg_catalog", 11, ""},
		{types.NewText("nosuch"), types.RegNamespace, "", 0, "3F000"},
		{types.NewText("alice"), types.RegRole, "alice", 10, ""},
		{types.NewText("bob"), types.RegRole, "", 0, "42704"},
		{types.NewText("now"), types.RegProc, "now", 1299, ""},
		{types.NewText("pg_catalog.now"), types.RegProc, "now", 1299, ""},
		{types.NewText("nosuch"), types.RegProc, "", 0, "42883"},
	} {
		d, err := regCast(cat, c.in, c.k)
		if c.code != "" {
			if pgerror.CodeOf(err) != c.code {
				t.Errorf("%v::%s = %v, %v; want %s", c.in, types.T{Kind: c.k}, d, err, c.code)
			}
			continue
		}
		if err != nil || d.K != c.k || string(types.AppendText(nil, d)) != c.want || d.RegOID() != c.oid {
			t.Errorf("%v::%s = %v (oid %d), %v; want %s (oid %d)", c.in, types.T{Kind: c.k}, d, d.RegOID(), err, c.want, c.oid)
		}
	}
}
