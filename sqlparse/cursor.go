package sqlparse

import (
	"strconv"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/widesql/widesql/pgwire/pgerror"
)

// CursorKind says which cursor statement a CursorStmt is.
type CursorKind int

// Cursor statement kinds.
const (
	DeclareCursor CursorKind = iota + 1 // DECLARE name ... CURSOR [WITH HOLD] FOR query
	FetchCursor                         // FETCH [direction] [FROM|IN] name
	MoveCursor                          // MOVE [direction] [FROM|IN] name
	CloseCursor                         // CLOSE name | ALL
)

// FetchAll is CursorStmt.Count for FETCH ALL / FORWARD ALL.
const FetchAll = -1

// CursorStmt is a server-side cursor statement (psycopg's named cursors,
// SQLAlchemy's stream_results). Cursors only move forward: PostgreSQL's
// NO SCROLL, the default for most queries.
type CursorStmt struct {
	Kind CursorKind
	Name string // "" with All for CLOSE ALL
	All  bool
	// Hold is WITH HOLD: the cursor outlives its transaction (DECLARE).
	Hold bool
	// Query is the cursor's query (DECLARE).
	Query *Statement
	// Count is the number of rows FETCH or MOVE reads, or FetchAll.
	Count int64
}

// parseCursor parses DECLARE, FETCH, MOVE and CLOSE; nil, nil for other
// statements.
func parseCursor(p *parser.Parser, src string, toks []token) (*CursorStmt, error) {
	u := &utilParser{src: src, toks: toks, i: 1}
	switch first := toks[0]; {
	case first.is("declare"):
		return u.declare(p)
	case first.is("fetch") || first.is("move"):
		c := &CursorStmt{Kind: FetchCursor, Count: 1}
		if first.is("move") {
			c.Kind = MoveCursor
		}
		if err := u.direction(c); err != nil {
			return nil, err
		}
		u.accept("from", "in")
		n, err := u.name()
		if err != nil {
			return nil, err
		}
		c.Name = n
		return c, u.end()
	case first.is("close"):
		c := &CursorStmt{Kind: CloseCursor}
		if u.accept("all") {
			c.All = true
			return c, u.end()
		}
		n, err := u.name()
		if err != nil {
			return nil, err
		}
		c.Name = n
		return c, u.end()
	}
	return nil, nil
}

func (u *utilParser) end() error {
	if u.i < len(u.toks) {
		return u.errHere()
	}
	return nil
}

// declare parses DECLARE name [BINARY] [ASENSITIVE | INSENSITIVE] [[NO]
// SCROLL] CURSOR [{WITH | WITHOUT} HOLD] FOR query.
func (u *utilParser) declare(p *parser.Parser) (*CursorStmt, error) {
	n, err := u.name()
	if err != nil {
		return nil, err
	}
	c := &CursorStmt{Kind: DeclareCursor, Name: n}
	for {
		switch {
		case u.peek("binary"):
			return nil, unsupported("binary cursors").WithPosition(charPos(u.src, u.toks[u.i].pos))
		case u.accept("asensitive", "insensitive"):
			continue
		case u.peek("scroll"):
			return nil, unsupported("scrollable cursors").WithPosition(charPos(u.src, u.toks[u.i].pos))
		case u.peek("no") && u.i+1 < len(u.toks) && u.toks[u.i+1].is("scroll"):
			u.i += 2
			continue
		}
		break
	}
	if !u.accept("cursor") {
		return nil, u.errHere()
	}
	switch {
	case u.accept("with"):
		if !u.accept("hold") {
			return nil, u.errHere()
		}
		c.Hold = true
	case u.accept("without"):
		if !u.accept("hold") {
			return nil, u.errHere()
		}
	}
	if !u.accept("for") || u.i >= len(u.toks) {
		return nil, u.errHere()
	}
	body := u.toks[u.i:]
	if !(body[0].is("select") || body[0].is("values") || body[0].is("with") || body[0].isOp("(") || body[0].is("table")) {
		return nil, syntaxErrorAt(u.src, body[0].pos, body[0].end)
	}
	q, err := parseOne(p, u.src, body)
	if err != nil {
		return nil, err
	}
	c.Query = &q
	return c, nil
}

// direction parses FETCH's and MOVE's direction: NEXT, FORWARD [n | ALL],
// n, ALL. The backward and absolute forms need a scrollable cursor.
func (u *utilParser) direction(c *CursorStmt) error {
	count := func() error {
		t := u.toks[u.i]
		if t.isOp("-") {
			return scrollOnly(u.src, t)
		}
		if t.kind != tkNumber {
			return nil
		}
		n, err := strconv.ParseInt(t.val, 10, 64)
		if err != nil {
			return syntaxErrorAt(u.src, t.pos, t.end)
		}
		u.i++
		c.Count = n
		return nil
	}
	if u.i >= len(u.toks) {
		return nil
	}
	switch t := u.toks[u.i]; {
	case t.is("next"):
		u.i++
	case t.is("all"):
		u.i++
		c.Count = FetchAll
	case t.is("forward"):
		u.i++
		if u.accept("all") {
			c.Count = FetchAll
		} else if u.i < len(u.toks) {
			return count()
		}
	case t.is("prior") || t.is("first") || t.is("last") || t.is("absolute") || t.is("relative") || t.is("backward"):
		return scrollOnly(u.src, t)
	default:
		return count()
	}
	return nil
}

func scrollOnly(src string, t token) error {
	return pgerror.New(pgerror.CodeObjectNotInPrerequisiteState, "cursor can only scan forward").
		WithHint("Declare it with SCROLL option to enable backward scan.").WithPosition(charPos(src, t.pos))
}
