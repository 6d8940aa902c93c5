package exec

import (
	"context"
	"strings"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/syscat"
	"github.com/widesql/widesql/planner/types"
)

//
// A reg* value (regclass, regtype, regproc, regnamespace, regrole) is an
// OID that prints as the object's name. Turning a name into the OID
// ('users'::regclass) and an OID into the name it prints (c.oid::regclass)
// needs the catalog, so these casts run here rather than in planner/types:
// eval's Cast calls regCast for every cast to a reg* kind. The search path
// is PostgreSQL's default: pg_catalog, then public; a name in another
// schema prints qualified ("information_schema.tables").

// regCatalog is what the reg* conversions need to know about the catalog,
// for regclass, regproc, regnamespace and regrole (regtype is the type
// system's: planner/types). The executor implements it over the live
// catalog; tests use a fake.
type regCatalog interface {
	// regLookupName returns the OID of the object of kind k called name in
	// schema ("" searches pg_catalog, then public; ignored for namespaces
	// and roles). ok is false when there is none.
	regLookupName(k types.Kind, schema, name string) (oid uint32, ok bool, err error)
	// regLookupOID returns the schema and name of the object of kind k
	// with the OID; ok is false when there is none.
	regLookupOID(k types.Kind, oid uint32) (schema, name string, ok bool, err error)
}

// regCast converts v (not NULL) to the reg* kind k as PostgreSQL's casts
// do: a string through the kind's input function (a name, a numeric OID
// or "-"), an integer, oid or reg* value of the same kind by its OID. The
// result carries the name its output shows; an OID no object has prints
// as the number, as in PostgreSQL.
func regCast(cat regCatalog, v types.Datum, k types.Kind) (types.Datum, error) {
	if v.K.IsString() || v.K == types.Name {
		return regInput(cat, k, v.S)
	}
	d, err := types.Cast(v, types.T{Kind: k}) // integers, oid: range and kind checks
	if err != nil {
		return types.Null, err
	}
	return regValue(cat, k, d.RegOID())
}

// regValue returns the reg* value of kind k for oid, named as its output
// shows it.
func regValue(cat regCatalog, k types.Kind, oid uint32) (types.Datum, error) {
	if oid == 0 {
		return types.NewReg(k, 0, ""), nil
	}
	if k == types.RegType {
		if t, ok := types.TypeFromOID(oid); ok {
			return types.NewReg(k, oid, types.RegTypeName(t)), nil
		}
		return types.NewReg(k, oid, ""), nil
	}
	schema, name, ok, err := cat.regLookupOID(k, oid)
	if err != nil || !ok {
		return types.NewReg(k, oid, ""), err
	}
	shown := planner.QuoteIdent(name)
	if schema != "" && schema != syscat.PgCatalog && schema != syscat.Public && k != types.RegNamespace && k != types.RegRole {
		shown = planner.QuoteIdent(schema) + "." + shown
	}
	return types.NewReg(k, oid, shown), nil
}

// regInput is the reg* input function for kind k: "-" is OID 0, digits
// are an OID (not checked, as in PostgreSQL), anything else a name to look
// up, possibly schema-qualified and double-quoted.
func regInput(cat regCatalog, k types.Kind, s string) (types.Datum, error) {
	if s == "-" {
		return types.NewReg(k, 0, ""), nil
	}
	if oid, ok := types.RegNumericInput(s); ok {
		return regValue(cat, k, oid)
	}
	if k == types.RegType {
		return regTypeInput(s)
	}
	parts, err := regSplitName(s)
	if err != nil {
		return types.Null, err
	}
	schema, name := "", parts[len(parts)-1]
	switch {
	case k == types.RegClass && len(parts) == 3: // database.schema.name
		schema = parts[1]
	case len(parts) == 2 && (k == types.RegClass || k == types.RegProc):
		schema = parts[0]
	case len(parts) > 1:
		what := map[types.Kind]string{types.RegClass: "relation", types.RegProc: "function",
			types.RegNamespace: "schema", types.RegRole: "role"}[k]
		if k == types.RegNamespace || k == types.RegRole {
			return types.Null, pgerror.New(codeInvalidName, "invalid name syntax")
		}
		return types.Null, pgerror.New(pgerror.CodeSyntaxError, "improper %s name (too many dotted names): %s", what, s)
	}
	if schema != "" && k != types.RegNamespace {
		if _, ok, err := cat.regLookupName(types.RegNamespace, "", schema); err != nil || !ok {
			if err == nil {
				err = pgerror.New(pgerror.CodeInvalidSchemaName, "schema %q does not exist", schema)
			}
			return types.Null, err
		}
	}
	oid, ok, err := cat.regLookupName(k, schema, name)
	if err != nil {
		return types.Null, err
	}
	if !ok {
		return types.Null, regNotFound(k, s, schema, name)
	}
	return regValue(cat, k, oid)
}

// regNotFound is PostgreSQL's error for a name the reg* input functions
// cannot find.
func regNotFound(k types.Kind, s, schema, name string) error {
	switch k {
	case types.RegClass:
		if schema != "" {
			name = schema + "." + name
		}
		return pgerror.New(pgerror.CodeUndefinedTable, "relation %q does not exist", name)
	case types.RegProc:
		return pgerror.New(pgerror.CodeUndefinedFunction, "function %q does not exist", s)
	case types.RegNamespace:
		return pgerror.New(pgerror.CodeInvalidSchemaName, "schema %q does not exist", name)
	}
	return pgerror.New(pgerror.CodeUndefinedObject, "role %q does not exist", name)
}

// regTypeInput is regtypein for a name: any type name a cast accepts
// ("int4", "character varying(10)", "integer[]", "pg_catalog.int4").
func regTypeInput(s string) (types.Datum, error) {
	n := strings.TrimSpace(s)
	if len(n) > len("pg_catalog.") && strings.EqualFold(n[:len("pg_catalog.")], "pg_catalog.") {
		n = n[len("pg_catalog."):]
	}
	t, err := types.TypeByName(n)
	if err != nil || t.Kind == types.Unknown && !strings.EqualFold(n, "unknown") {
		return types.Null, pgerror.New(pgerror.CodeUndefinedObject, "type %q does not exist", strings.TrimSpace(s))
	}
	return types.NewReg(types.RegType, t.OID(), types.RegTypeName(t)), nil
}

// regSplitName splits a possibly qualified name as PostgreSQL's
// stringToQualifiedNameList does: dot-separated identifiers, each
// double-quoted (case kept, "" for a quote) or plain (lower-cased),
// whitespace allowed around them. An empty or malformed name is 42602.
func regSplitName(s string) ([]string, error) {
	bad := pgerror.New(codeInvalidName, "invalid name syntax")
	var parts []string
	i := 0
	for {
		for i < len(s) && regBlank(s[i]) {
			i++
		}
		var b strings.Builder
		if i < len(s) && s[i] == '"' {
			i++
			for {
				if i >= len(s) {
					return nil, bad
				}
				if s[i] == '"' {
					if i+1 < len(s) && s[i+1] == '"' {
						b.WriteByte('"')
						i += 2
						continue
					}
					i++
					break
				}
				b.WriteByte(s[i])
				i++
			}
			if b.Len() == 0 {
				return nil, bad
			}
		} else {
			start := i
			for i < len(s) && s[i] != '.' && !regBlank(s[i]) && s[i] != '"' {
				i++
			}
			if i == start {
				return nil, bad
			}
			b.WriteString(strings.ToLower(s[start:i]))
		}
		parts = append(parts, b.String())
		for i < len(s) && regBlank(s[i]) {
			i++
		}
		if i == len(s) {
			return parts, nil
		}
		if s[i] != '.' {
			return nil, bad
		}
		i++
	}
}

func regBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// SQLSTATEs of the reg* input functions that pgerror has no name for.
const (
	codeInvalidName = "42602"
)

// execRegCatalog is the executor's regCatalog.
type execRegCatalog struct{ x *executor }

var _ regCatalog = execRegCatalog{}

// regNamespaces are the schemas widesql has, with their pg_namespace OIDs.
var regNamespaces = []struct {
	name string
	oid  uint32
}{
	{syscat.PgCatalog, syscat.NamespacePgCatalog},
	{syscat.Public, syscat.NamespacePublic},
	{syscat.InformationSchema, syscat.NamespaceInformationSchema},
}

func (c execRegCatalog) regLookupName(k types.Kind, schema, name string) (uint32, bool, error) {
	if c.x == nil && k != types.RegNamespace && k != types.RegClass {
		return 0, false, nil // no session: only the fixed catalog is known
	}
	switch k {
	case types.RegNamespace:
		for _, n := range regNamespaces {
			if n.name == name {
				return n.oid, true, nil
			}
		}
	case types.RegRole:
		roles, err := c.x.roleList(context.Background())
		if err != nil {
			return 0, false, err
		}
		for _, r := range roles {
			if r.Name == name {
				return r.OID, true, nil
			}
		}
	case types.RegClass:
		if schema == "" || schema == syscat.PgCatalog || schema == syscat.InformationSchema {
			s := schema
			if s == "" {
				s = syscat.PgCatalog
			}
			if r := syscat.Lookup(s, name); r != nil {
				return r.OID, true, nil
			}
		}
		if schema == "" || schema == syscat.Public {
			oid, ok := c.userRelationOID(name)
			return oid, ok, nil
		}
	case types.RegProc:
		return c.procLookup(func(oid uint32, ns uint32, proname string) bool {
			return proname == name && (schema == "" || regNamespaceName(ns) == schema)
		})
	}
	return 0, false, nil
}

func (c execRegCatalog) regLookupOID(k types.Kind, oid uint32) (string, string, bool, error) {
	if c.x == nil && k != types.RegNamespace && k != types.RegClass {
		return "", "", false, nil // no session: only the fixed catalog is known
	}
	switch k {
	case types.RegNamespace:
		if n := regNamespaceName(oid); n != "" {
			return "", n, true, nil
		}
	case types.RegRole:
		roles, err := c.x.roleList(context.Background())
		if err != nil {
			return "", "", false, err
		}
		for _, r := range roles {
			if r.OID == oid {
				return "", r.Name, true, nil
			}
		}
	case types.RegClass:
		for _, r := range syscat.All() {
			if r.OID == oid {
				return r.Schema, r.Name, true, nil
			}
		}
		if name := c.userRelationName(oid); name != "" {
			return syscat.Public, name, true, nil
		}
	case types.RegProc:
		var schema, name string
		_, ok, err := c.procLookup(func(o uint32, ns uint32, proname string) bool {
			if o == oid {
				schema, name = regNamespaceName(ns), proname
				return true
			}
			return false
		})
		return schema, name, ok, err
	}
	return "", "", false, nil
}

func regNamespaceName(oid uint32) string {
	for _, n := range regNamespaces {
		if n.oid == oid {
			return n.name
		}
	}
	return ""
}

// userRelationOID finds a user relation by name: a table, the index that
// stands for its primary key, a secondary index or a column's sequence.
func (c execRegCatalog) userRelationOID(name string) (uint32, bool) {
	if c.x == nil {
		return 0, false
	}
	if d, err := c.x.eng.cat.Table(name); err == nil {
		return syscat.TableOID(d.ID), true
	}
	for _, d := range c.x.eng.cat.list() {
		if d.ShardBits == 0 && d.PrimaryKeyName() == name {
			return syscat.PKIndexOID(d.ID), true
		}
		for i, ix := range d.Indexes {
			if ix.Name == name {
				return syscat.IndexOID(d.ID, i), true
			}
		}
		for _, col := range d.Columns {
			if col.Seq != nil && col.Seq.Name == name {
				return syscat.SequenceOID(d.ID, col.ID), true
			}
		}
	}
	return 0, false
}

// userRelationName is the name of the user relation with the OID, "" for
// none.
func (c execRegCatalog) userRelationName(oid uint32) string {
	id, slot, ok := syscat.Decode(oid)
	if !ok || c.x == nil {
		return ""
	}
	for _, d := range c.x.eng.cat.list() {
		if d.ID != id {
			continue
		}
		switch {
		case slot == syscat.SlotTable:
			return d.Name
		case slot == syscat.SlotPKIndex && d.ShardBits == 0:
			return d.PrimaryKeyName()
		}
		for i, ix := range d.Indexes {
			if syscat.IndexOID(d.ID, i) == oid {
				return ix.Name
			}
		}
		for _, col := range d.Columns {
			if col.Seq != nil && syscat.SequenceOID(d.ID, col.ID) == oid {
				return col.Seq.Name
			}
		}
	}
	return ""
}

// procLookup scans pg_proc's rows (oid, proname, pronamespace) for the
// first function match accepts.
func (c execRegCatalog) procLookup(match func(oid, ns uint32, proname string) bool) (uint32, bool, error) {
	rel := syscat.Lookup(syscat.PgCatalog, "pg_proc")
	if rel == nil {
		return 0, false, nil
	}
	oidCol, nameCol, nsCol := -1, -1, -1
	for i, col := range rel.Columns {
		switch col.Name {
		case "oid":
			oidCol = i
		case "proname":
			nameCol = i
		case "pronamespace":
			nsCol = i
		}
	}
	if oidCol < 0 || nameCol < 0 || nsCol < 0 {
		return 0, false, nil
	}
	rows, err := c.x.pgCatalogRows(context.Background(), rel)
	if err != nil {
		return 0, false, err
	}
	for _, r := range rows {
		if match(r[oidCol].RegOID(), r[nsCol].RegOID(), r[nameCol].S) {
			return r[oidCol].RegOID(), true, nil
		}
	}
	return 0, false, nil
}
