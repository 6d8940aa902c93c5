package sqlparse

import "github.com/widesql/widesql/pgwire/pgerror"

// checkUnsupported rejects, before TiDB sees them, the PostgreSQL
// constructs widesql does not implement (0A000 naming the construct), and
// the MySQL-only syntax TiDB would accept with a meaning PostgreSQL does
// not have (42601 at the token, as PostgreSQL reports it). Without this,
// the first kind would fail with a confusing syntax error and the second
// would silently mean something else.
func checkUnsupported(src string, toks []token) error {
	at := func(i int) token {
		if i >= 0 && i < len(toks) {
			return toks[i]
		}
		return token{}
	}
	for i, t := range toks {
		prev, next := at(i-1), at(i+1)
		name := ""
		switch {
		case t.is("with") && i == 0 && withDML(toks):
			name = "WITH before INSERT, UPDATE or DELETE"
		case t.is("exclude") && (next.is("current") || next.is("group") || next.is("ties") || next.is("no")):
			name = "EXCLUDE in window frames"
		case t.is("lateral"):
			name = "LATERAL"
		case t.is("for") && (next.is("update") || next.is("share") || next.is("no") || next.is("key")):
			name = "SELECT ... FOR UPDATE/SHARE (row locking clauses)"
		case t.is("with") && next.is("ordinality"):
			name = "WITH ORDINALITY"
		case t.is("tablesample"):
			name = "TABLESAMPLE"
		case t.is("grouping") && next.is("sets"), (t.is("rollup") || t.is("cube")) && next.isOp("("):
			name = "GROUPING SETS, ROLLUP and CUBE"
		case t.isOp(")") && next.isOp(".") && i+2 < len(toks):
			name = "field selection from a composite value"
		case t.is("using") && next.kind == tkOp && !next.isOp("("):
			name = "ORDER BY ... USING"
		case (t.is("like") || t.is("ilike")) && (next.is("any") || next.is("some") || next.is("all")) && at(i+2).isOp("("):
			name = toUpperASCII(t.val) + " " + toUpperASCII(next.val) + " (array)"
		case t.is("similar") && next.is("to"):
			name = "SIMILAR TO"
		case t.is("at") && next.is("time") && at(i+2).is("zone"):
			name = "AT TIME ZONE"
		case t.is("between") && (next.is("symmetric") || next.is("asymmetric")):
			name = "BETWEEN SYMMETRIC"
		case t.is("overlaps"):
			name = "OVERLAPS"
		case t.isOp("=>"):
			name = "named function arguments (=>)"
		case i == 0 && (t.is("copy") || t.is("vacuum") || t.is("listen") || t.is("notify") || t.is("unlisten") || t.is("cluster") || t.is("reindex")):
			name = toUpperASCII(t.val)
		case i == 0 && (t.is("create") || t.is("drop") || t.is("alter") || t.is("comment")) && statementObjects[next.val] != "":
			name = toUpperASCII(t.val) + " " + statementObjects[next.val]
		case (t.is("prepare") || t.is("execute")) && i == 0:
			name = "SQL-level " + t.val + " (use the extended query protocol)"
		case t.is("regexp") || t.is("rlike") || t.is("div") || t.is("mod") && !next.isOp("(") || t.is("xor"):
			if i > 0 && endsOperandTok(prev) {
				return syntaxErrorAt(src, t.pos, t.end)
			}
		case t.isOp("!") || t.isOp("`") || t.isOp(":="):
			return syntaxErrorAt(src, t.pos, t.end)
		case t.is("interval") && (next.kind == tkNumber || next.kind == tkParam) && at(i+2).kind == tkIdent && intervalUnits[at(i+2).val]:
			return syntaxErrorAt(src, next.pos, next.end) // MySQL's INTERVAL n unit
		}
		if name != "" {
			return pgerror.Unimplemented(name).WithPosition(charPos(src, t.pos))
		}
	}
	return nil
}

// endsOperandTok reports whether t can end an operand, judged on the
// original tokens.
func endsOperandTok(t token) bool {
	switch t.kind {
	case tkString, tkNumber, tkParam, tkBits, tkQIdent:
		return true
	case tkIdent:
		return !notCallee[t.val] && !operandKeywords[t.val]
	}
	return t.isOp(")") || t.isOp("]")
}

// statementObjects are the object kinds of CREATE/DROP/ALTER/COMMENT ...
// that widesql does not have.
var statementObjects = map[string]string{
	"type": "TYPE", "extension": "EXTENSION", "view": "VIEW", "materialized": "MATERIALIZED VIEW",
	"function": "FUNCTION", "procedure": "PROCEDURE", "trigger": "TRIGGER", "schema": "SCHEMA",
	"domain": "DOMAIN", "role": "ROLE", "user": "USER", "database": "DATABASE", "policy": "POLICY",
	"rule": "RULE", "on": "ON", "publication": "PUBLICATION", "subscription": "SUBSCRIPTION",
	"aggregate": "AGGREGATE", "operator": "OPERATOR", "collation": "COLLATION", "cast": "CAST",
}

func toUpperASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// withDML reports whether a statement starting with WITH has INSERT,
// UPDATE or DELETE as its main statement (or in a CTE).
func withDML(toks []token) bool {
	for _, t := range toks {
		if t.is("insert") || t.is("update") || t.is("delete") {
			return true
		}
	}
	return false
}
