package sqlparse

import (
	"strconv"
	"strings"
	"sync"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/test_driver"
	"github.com/widesql/widesql/pgwire/pgerror"
)

// Statement is one parsed statement of a query string.
type Statement struct {
	SQL        string             // this statement's original text, trimmed, without the trailing ';'
	Offset     int                // byte offset of SQL in the whole input string
	AST        ast.StmtNode       // TiDB AST; nil when Utility != nil
	Utility    *Utility           // intercepted statement; nil otherwise
	NumParams  int                // highest $n referenced (0 if none)
	OnConflict *OnConflict        // INSERT ... ON CONFLICT, cut out before TiDB parsing; nil if absent
	Returning  []*ast.SelectField // RETURNING list of INSERT/UPDATE/DELETE; nil if absent
	// Insert holds the INSERT syntax TiDB does not know (table alias,
	// OVERRIDING); nil if none was written.
	Insert *InsertExtras
	// Columns holds, by column name, what CREATE TABLE said about a column
	// that TiDB does not parse (DEFAULT text, serial, identity); nil if none.
	Columns map[string]*ColumnExtra
	// Index is CREATE INDEX or DROP INDEX, parsed without TiDB (AST nil).
	Index *IndexStmt
	// ColumnAliases holds the column alias lists of FROM items, by the
	// item's alias: (SELECT ...) AS d(a, b) (fromsyntax.go).
	ColumnAliases map[string][]string
	// TableOptions are CREATE TABLE's storage parameters, WITH (name =
	// value, ...), cut out before TiDB parsing (options.go): salt_buckets,
	// layout, and per-family fam.versions, fam.ttl, fam.compression,
	// fam.bloom. nil if none.
	TableOptions []TableOption
	// AlterOptions is ALTER TABLE name SET (...) / RESET (...), parsed
	// without TiDB (AST nil); nil otherwise.
	AlterOptions *AlterOptions
	// AllowFullScan is set by a trailing ALLOW FULL SCAN on a query or DML
	// statement: it lets this statement full-scan a table even under
	// SET widesql.full_scan = 'reject'.
	AllowFullScan bool
	// Cursor is DECLARE, FETCH, MOVE or CLOSE (cursor.go), AST nil; nil
	// otherwise.
	Cursor *CursorStmt
	// Copy is COPY ... FROM STDIN / TO STDOUT (copy.go), AST nil; nil
	// otherwise.
	Copy *CopyStmt
	// Role is CREATE/ALTER/DROP ROLE or USER (role.go), AST nil; nil
	// otherwise.
	Role *RoleStmt
	// Comment is COMMENT ON TABLE/COLUMN (comment.go), AST nil; nil
	// otherwise.
	Comment *CommentStmt
}

// TableOption is one storage parameter: name = value. Name is lower-cased
// and may be dotted (fam.ttl); Value is the literal's text (a string
// without its quotes, a number, or a bare word), empty for RESET.
type TableOption struct {
	Name  string
	Value string
	// Pos is the 1-based character position of the name in the whole
	// query string (as pgerror positions are), for error messages.
	Pos int
}

// AlterOptions is ALTER TABLE Table SET (Set...) or RESET (Reset...).
type AlterOptions struct {
	Table    string // as written, without a "public." prefix
	IfExists bool   // ALTER TABLE IF EXISTS: a missing table is a NOTICE
	Set      []TableOption
	Reset    []string
}

// sqlMode is what makes TiDB read the rewritten text as standard SQL.
const sqlMode = mysql.ModeANSIQuotes | mysql.ModePipesAsConcat | mysql.ModeNoBackslashEscapes

// Parse splits sql at top-level ';' and parses each non-empty statement.
// Empty or comment-only input returns (nil, nil). Errors are
// *pgerror.Error; syntax errors carry Code 42601 and Position, the 1-based
// character position in sql. Parse is safe for concurrent use; the returned
// ASTs belong to the caller.
func Parse(sql string) ([]Statement, error) { return Lex(sql).Parse() }

// Lexed is a query string lexed once, so that Parameterize and Parse can
// share the work. It is immutable and safe for concurrent use.
type Lexed struct {
	sql  string
	toks []token
	err  error
}

// Lex lexes sql. A lexing error is reported by Parse; Parameterize then
// declines.
func Lex(sql string) Lexed {
	toks, err := lex(sql)
	return Lexed{sql: sql, toks: toks, err: err}
}

// Parse is Parse of the lexed text.
func (l Lexed) Parse() ([]Statement, error) {
	if l.err != nil {
		return nil, l.err
	}
	sql, toks := l.sql, l.toks
	var stmts []Statement
	var p *parser.Parser
	start := 0
	for i := 0; i <= len(toks); i++ {
		if i < len(toks) && !toks[i].isOp(";") {
			continue
		}
		if i > start {
			if p == nil {
				p = parserPool.Get().(*parser.Parser)
				defer parserPool.Put(p)
			}
			st, err := parseOne(p, sql, toks[start:i])
			if err != nil {
				return nil, err
			}
			stmts = append(stmts, st)
		}
		start = i + 1
	}
	return stmts, nil
}

// parserPool reuses TiDB parsers: building one costs more than parsing a
// short statement. A parser is used by one goroutine at a time, and the
// ASTs it returns do not reference it.
var parserPool = sync.Pool{New: func() any {
	p := parser.New()
	p.SetSQLMode(sqlMode)
	return p
}}

// parseOne parses the tokens of one statement (no ';').
func parseOne(p *parser.Parser, src string, toks []token) (Statement, error) {
	first, last := toks[0], toks[len(toks)-1]
	st := Statement{SQL: src[first.pos:last.end], Offset: first.pos}
	for _, t := range toks {
		if t.kind == tkParam {
			n, _ := strconv.Atoi(t.val)
			st.NumParams = max(st.NumParams, n)
		}
	}
	u, err := intercept(src, toks)
	if err != nil || u != nil {
		st.Utility = u
		return st, err
	}
	if st.Index, err = parseIndexStmt(src, toks); err != nil || st.Index != nil {
		return st, err
	}
	if st.AlterOptions, err = parseAlterOptions(src, toks); err != nil || st.AlterOptions != nil { // options.go
		return st, err
	}
	if st.Cursor, err = parseCursor(p, src, toks); err != nil || st.Cursor != nil { // cursor.go
		return st, err
	}
	if st.Copy, err = parseCopy(p, src, toks); err != nil || st.Copy != nil { // copy.go
		return st, err
	}
	if st.Role, err = parseRole(src, toks); err != nil || st.Role != nil { // role.go
		return st, err
	}
	if st.Comment, err = parseComment(src, toks); err != nil || st.Comment != nil { // comment.go
		return st, err
	}
	prefix, bodyAt, err := explainPrefix(src, toks)
	if err != nil {
		return st, err
	}
	if toks, st.AllowFullScan = cutAllowFullScan(toks, bodyAt); st.AllowFullScan {
		last = toks[len(toks)-1]
	}
	body, conflict, returning, onAt := cutClauses(toks[bodyAt:])
	if body, st.Insert, err = cutInsertExtras(src, body); err != nil {
		return st, err
	}
	if body, st.TableOptions, err = cutTableOptions(src, body); err != nil { // options.go
		return st, err
	}
	if body, st.Columns, err = rewriteDDLTypes(src, body); err != nil {
		return st, err
	}
	if body, st.ColumnAliases, err = rewriteFromSyntax(src, body); err != nil { // fromsyntax.go
		return st, err
	}
	if st.AST, err = parseTokens(p, src, append(prefix, body...), last); err != nil {
		return st, err
	}
	if conflict != nil {
		spec, err := parseConflict(src, conflict, onAt)
		if err != nil {
			return st, err
		}
		if spec.setPiece != nil {
			head := []token{synth("update", onAt), synth("excluded_dummy", onAt)}
			n, err := parseTokens(p, src, append(head, spec.setPiece...), last)
			if err != nil {
				return st, err
			}
			upd, ok := n.(*ast.UpdateStmt)
			if !ok || upd.Order != nil || upd.Limit != nil {
				return st, syntaxErrorAt(src, spec.setPiece[0].pos, spec.setPiece[0].end)
			}
			spec.oc.Set, spec.oc.Where = upd.List, upd.Where
		}
		st.OnConflict = spec.oc
	}
	if returning != nil {
		if len(returning) == 0 {
			return st, pgerror.New(pgerror.CodeSyntaxError, "syntax error at end of input").WithPosition(charPos(src, last.end))
		}
		piece := append([]token{synth("select", returning[0])}, returning...)
		piece = append(piece, synth("from", last), synth("dummy", last))
		n, err := parseTokens(p, src, piece, last)
		if err != nil {
			return st, err
		}
		sel, ok := n.(*ast.SelectStmt)
		if !ok || sel.Fields == nil || sel.Where != nil || sel.GroupBy != nil || sel.OrderBy != nil || sel.Limit != nil {
			return st, syntaxErrorAt(src, returning[0].pos, returning[0].end)
		}
		st.Returning = sel.Fields.Fields
	}
	return st, nil
}

// parseTokens rewrites, emits and parses one statement's tokens with TiDB,
// then fixes parameter orders. last is the statement's last original token,
// for "at end of input" positions.
func parseTokens(p *parser.Parser, src string, toks []token, last token) (_ ast.StmtNode, err error) {
	defer func() {
		// The TiDB parser panics on a few inputs (its test driver's
		// decimals); bad input must never take the server down.
		if r := recover(); r != nil {
			err = syntaxErrorAt(src, toks[0].pos, toks[0].end)
		}
	}()
	toks, err = rewrite(src, toks)
	if err != nil {
		return nil, err
	}
	r := emit(toks)
	nodes, _, err := p.ParseSQL(r.sql)
	if err != nil {
		return nil, r.mapError(src, err, last)
	}
	if len(nodes) != 1 {
		return nil, syntaxErrorAt(src, toks[0].pos, toks[0].end)
	}
	nodes[0].Accept(&paramFixer{params: r.params})
	mp := &markerPass{}
	nodes[0].Accept(mp)
	if mp.err != nil {
		return nil, mp.err
	}
	return nodes[0], nil
}

// mapError turns a TiDB error into a 42601 pointing into the original text.
// TiDB reports `line L column C near "<rest of input>"`; the rest of input
// locates the offending token in the rewritten text.
func (r *rewritten) mapError(src string, err error, last token) error {
	msg := err.Error()
	i := strings.Index(msg, `near "`)
	if i < 0 {
		return pgerror.Wrap(err, pgerror.CodeSyntaxError, "")
	}
	rest := msg[i+len(`near "`):]
	off := -1
	if j := strings.Index(rest, "(total length "); j >= 0 {
		if n, e := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest[j+len("(total length "):]), ")")); e == nil {
			off = len(r.sql) - n
		}
	}
	if l := len(rest) - 2; off < 0 && l >= 0 && l <= len(r.sql) && rest[l:] == `" ` && strings.HasSuffix(r.sql, rest[:l]) {
		off = len(r.sql) - l
	}
	for k := 0; off < 0 && k <= len(r.sql); k++ {
		if n := len(r.sql) - k; len(rest) > n && rest[n] == '"' && strings.HasPrefix(rest, r.sql[k:]) {
			off = k
		}
	}
	pos, end, ok := r.origin(off)
	if off < 0 || !ok {
		return pgerror.New(pgerror.CodeSyntaxError, "syntax error at end of input").WithPosition(charPos(src, last.end))
	}
	return syntaxErrorAt(src, pos, end)
}

// paramFixer sets each ParamMarkerExpr's Order to its PostgreSQL $n - 1.
type paramFixer struct{ params map[int]int }

func (f *paramFixer) Enter(n ast.Node) (ast.Node, bool) {
	if pm, ok := n.(*test_driver.ParamMarkerExpr); ok {
		if num, ok := f.params[pm.Offset]; ok {
			pm.Order = num - 1
		}
	}
	return n, false
}

func (f *paramFixer) Leave(n ast.Node) (ast.Node, bool) { return n, true }
