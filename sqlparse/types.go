package sqlparse

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/charset"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/types"
	"github.com/widesql/widesql/pgwire/pgerror"
)

// pgTypeName is a PostgreSQL type name as written, normalized.
type pgTypeName struct {
	base  string   // canonical lower-case name, e.g. "integer", "double precision"
	mods  []string // type modifiers, e.g. ["10"] or ["10","2"]
	array int      // number of [] suffixes
}

// String renders the name as pg_cast expects it: base, "(mods)", "[]"s.
func (t pgTypeName) String() string {
	s := t.base
	if len(t.mods) > 0 {
		s += "(" + strings.Join(t.mods, ",") + ")"
	}
	return s + strings.Repeat("[]", t.array)
}

// typeAliases maps single-word spellings to canonical names.
var typeAliases = map[string]string{
	"int": "integer", "int4": "integer", "integer": "integer",
	"int2": "smallint", "smallint": "smallint",
	"int8": "bigint", "bigint": "bigint",
	"float8": "double precision", "float4": "real", "real": "real",
	"bool": "boolean", "boolean": "boolean",
	"varchar": "varchar", "char": "char", "character": "char", "bpchar": "char",
	"decimal": "numeric", "numeric": "numeric",
	"timestamp": "timestamp", "timestamptz": "timestamptz",
	"time": "time", "timetz": "timetz",
}

// literalTypes are the type names accepted in front of a string literal
// (TYPE 'literal'), after normalization.
var literalTypes = map[string]bool{
	"integer": true, "smallint": true, "bigint": true, "real": true, "double precision": true,
	"boolean": true, "text": true, "varchar": true, "char": true, "bytea": true,
	"timestamp": true, "timestamptz": true, "date": true, "time": true, "timetz": true,
	"interval": true, "numeric": true, "json": true, "jsonb": true, "uuid": true,
	"oid": true, "regclass": true, "regtype": true, "regproc": true, "regnamespace": true, "name": true,
}

// parseTypeName reads a type name at toks[i:]. It returns the name and the
// index just past it; ok is false when toks[i] cannot start a type name.
func parseTypeName(toks []token, i int) (t pgTypeName, next int, ok bool) {
	at := func(j int, kw string) bool { return j < len(toks) && toks[j].is(kw) }
	if i >= len(toks) || (toks[i].kind != tkIdent && toks[i].kind != tkQIdent) {
		return t, i, false
	}
	// Schema-qualified builtin: pg_catalog.int4.
	if at(i, "pg_catalog") && i+2 < len(toks) && toks[i+1].isOp(".") {
		i += 2
		if toks[i].kind != tkIdent && toks[i].kind != tkQIdent {
			return t, i, false
		}
	}
	w := toks[i].val
	j := i + 1
	switch {
	case toks[i].kind == tkQIdent && w == "char":
		// "char" quoted is PostgreSQL's one-byte internal type, not
		// character(1); types.TypeByName knows it by the quoted name.
		t.base = `"char"`
	case toks[i].kind == tkQIdent:
		t.base = w
	case w == "double" && at(j, "precision"):
		t.base, j = "double precision", j+1
	case (w == "character" || w == "char") && at(j, "varying"):
		t.base, j = "varchar", j+1
	case w == "float":
		t.base = "double precision"
	default:
		if a, ok := typeAliases[w]; ok {
			t.base = a
		} else {
			t.base = w
		}
	}
	if j < len(toks) && toks[j].isOp("(") {
		k := j + 1
		for k < len(toks) && (toks[k].kind == tkNumber || toks[k].isOp("-") && k+1 < len(toks) && toks[k+1].kind == tkNumber) {
			sign := ""
			if toks[k].isOp("-") { // numeric(p,-s)
				sign, k = "-", k+1
			}
			t.mods = append(t.mods, sign+toks[k].val)
			k++
			if k < len(toks) && toks[k].isOp(",") {
				k++
			}
		}
		if k >= len(toks) || !toks[k].isOp(")") || len(t.mods) == 0 {
			return t, i, false
		}
		j = k + 1
	}
	if w == "float" && len(t.mods) == 1 {
		if n, err := strconv.Atoi(t.mods[0]); err == nil && n <= 24 {
			t.base = "real"
		}
		t.mods = nil
	}
	if t.base == "timestamp" || t.base == "time" {
		if (at(j, "with") || at(j, "without")) && at(j+1, "time") && at(j+2, "zone") {
			if toks[j].val == "with" {
				t.base += "tz"
			}
			j += 3
		}
	}
	for j+1 < len(toks) && toks[j].isOp("[") {
		k := j + 1
		if toks[k].kind == tkNumber {
			k++
		}
		if k >= len(toks) || !toks[k].isOp("]") {
			break
		}
		t.array++
		j = k + 1
	}
	return t, j, true
}

// ddlType returns the TiDB column type text for a PostgreSQL type in CREATE
// or ALTER TABLE. The mapping is chosen so that PGType inverts it; see doc.go.
func ddlType(t pgTypeName) (string, *pgerror.Error) {
	if t.array > 0 {
		elem := t
		elem.array = 0
		if _, err := ddlType(elem); err != nil || elem.base == "oid" {
			return "", unsupported("array column type " + t.String())
		}
		return pgNameType(t), nil
	}
	mods := ""
	if len(t.mods) > 0 {
		mods = "(" + strings.Join(t.mods, ",") + ")"
	}
	prec := "(6)"
	if len(t.mods) == 1 {
		prec = mods
	}
	switch t.base {
	case "smallint":
		return "SMALLINT", nil
	case "integer":
		return "INT", nil
	case "bigint":
		return "BIGINT", nil
	case "real":
		return "FLOAT", nil
	case "double precision":
		return "DOUBLE", nil
	case "boolean":
		return "BOOLEAN", nil
	case "text":
		return "LONGTEXT", nil
	case "varchar":
		if mods == "" {
			return "MEDIUMTEXT", nil
		}
		return "VARCHAR" + mods, nil
	case "char":
		if mods == "" {
			mods = "(1)"
		}
		return "CHAR" + mods, nil
	case "bytea":
		return "LONGBLOB", nil
	case "timestamp":
		return "DATETIME" + prec, nil
	case "timestamptz":
		return "TIMESTAMP" + prec, nil
	case "time":
		return "TIME" + prec, nil
	case "date":
		return "DATE", nil
	case "numeric":
		if mods == "" {
			return "DECIMAL", nil
		}
		if len(t.mods) > 2 {
			return "", pgerror.New(pgerror.CodeSyntaxError, "invalid NUMERIC type modifier")
		}
		return pgNameType(t), nil
	case "json":
		return "JSON", nil
	case "jsonb", "uuid":
		return pgNameType(t), nil
	case "interval":
		t.mods = nil // interval(p): the precision is not kept
		return pgNameType(t), nil
	case "oid":
		return "INT UNSIGNED", nil
	}
	return "", unsupported("type " + t.String())
}

// pgNamePrefix marks an ENUM that carries a PostgreSQL type name TiDB has
// no type for: ENUM('pg:numeric(10,2)').
const pgNamePrefix = "pg:"

// pgNameType returns the TiDB ENUM that carries t's name for PGType.
func pgNameType(t pgTypeName) string { return "ENUM(" + quoteString(pgNamePrefix+t.String()) + ")" }

// PGType maps the TiDB column type of a CREATE TABLE or ALTER TABLE that went
// through Parse back to the PostgreSQL type the user wrote. width is n for
// varchar(n) and char(n), 0 otherwise. Types TiDB has no twin for come back
// as their full name, modifiers and array suffix included: "numeric(10,2)",
// "uuid", "jsonb", "interval", "integer[]", "varchar(5)[]"; types.TypeByName
// resolves every name PGType returns. The fractional-second precision of
// time types stays in ft's Flen/Decimal.
// A type Parse cannot have produced is reported as a 0A000 *pgerror.Error.
func PGType(ft *types.FieldType) (name string, width int32, err error) {
	binary := ft.GetCharset() == charset.CharsetBin
	switch ft.GetType() {
	case mysql.TypeShort:
		return "smallint", 0, nil
	case mysql.TypeLong:
		if mysql.HasUnsignedFlag(ft.GetFlag()) {
			return "oid", 0, nil
		}
		return "integer", 0, nil
	case mysql.TypeLonglong:
		return "bigint", 0, nil
	case mysql.TypeFloat:
		return "real", 0, nil
	case mysql.TypeDouble:
		return "double precision", 0, nil
	case mysql.TypeTiny:
		return "boolean", 0, nil
	case mysql.TypeLongBlob:
		if binary {
			return "bytea", 0, nil
		}
		return "text", 0, nil
	case mysql.TypeMediumBlob:
		if !binary {
			return "varchar", 0, nil
		}
	case mysql.TypeVarchar:
		if !binary && ft.GetFlen() > 0 {
			return "varchar", int32(ft.GetFlen()), nil
		}
	case mysql.TypeString:
		if !binary && ft.GetFlen() > 0 {
			return "char", int32(ft.GetFlen()), nil
		}
	case mysql.TypeDatetime:
		return "timestamp", 0, nil
	case mysql.TypeTimestamp:
		return "timestamptz", 0, nil
	case mysql.TypeDuration:
		return "time", 0, nil
	case mysql.TypeDate:
		return "date", 0, nil
	case mysql.TypeNewDecimal:
		return "numeric", 0, nil
	case mysql.TypeJSON:
		return "json", 0, nil
	case mysql.TypeEnum:
		if e := ft.GetElems(); len(e) == 1 && strings.HasPrefix(e[0], pgNamePrefix) {
			return strings.TrimPrefix(e[0], pgNamePrefix), 0, nil
		}
	}
	return "", 0, unsupported("column type " + ft.String())
}
