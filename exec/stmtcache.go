package exec

import (
	"context"
	"fmt"
	"slices"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/widesql/widesql/pgwire"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner/types"
	"github.com/widesql/widesql/sqlparse"
)

// A session's statement cache spares short statements that come back
// again and again their parsing and planning, which cost more than a point
// read itself:
//
//   - texts: the parsed statements of a query string, by its exact text
//     (parsing is a pure function of the text), and for each statement
//     that can be planned ahead the plans by declared parameter types.
//     Drivers that send Parse for every execution (lib/pq, pgx's unnamed
//     statements) hit it.
//   - shapes: a single SELECT, INSERT, UPDATE or DELETE whose constants
//     sqlparse.Parameterize lifted out, by the parameterized text and the
//     constants' types, with its plan; the constants are bound as the
//     plan's parameters. Simple-protocol clients, which inline their
//     values, hit it.
//
// A cached plan is used only when the catalog generation (DDL) and the
// session's time zone are those it was built with; otherwise it is
// planned afresh, as a new statement (never the 0A000 of a re-planned
// prepared statement, whose types the client knows). A shape whose
// parameterized form fails to parse, plan or bind is run from its original
// text, so errors are always the original's.

// stmtCacheEntries bounds each map; a full map is emptied (statements
// worth caching come back quickly).
const stmtCacheEntries = 256

// stmtCacheMaxText is the longest query string cached by text: long ones
// (multi-row INSERTs) rarely repeat.
const stmtCacheMaxText = 4096

type stmtCache struct {
	texts  map[string]*cachedText
	shapes map[string]*cachedShape
}

// cachedText is a query string's parsed statements.
type cachedText struct {
	stmts []pgwire.Statement // *statement, each with cache set
}

// cachedShape is a parameterized statement and its plan.
type cachedShape struct {
	stmt  *statement
	kinds []sqlparse.LiteralKind
	prep  *prepared // nil until planned, or after it could not be
	// failedGen is 1 + the catalog generation at which planning failed
	// (0: it did not), so that a shape that cannot be planned is not
	// tried again until DDL.
	failedGen uint64
}

// planEntry is one cached plan of a statement.
type planEntry struct {
	declared string // the declared parameter OIDs, as planKey renders them
	prep     *prepared
}

// parseCached is Parse through the cache.
func (s *Session) parseCached(sql string) ([]pgwire.Statement, error) {
	c := &s.cache
	if e, ok := c.texts[sql]; ok {
		return e.stmts, nil
	}
	// One lex serves both the shape lookup and, on a miss, the parse.
	lx := sqlparse.Lex(sql)
	if pz, ok := lx.Parameterize(); ok {
		if st := s.shape(sql, pz); st != nil {
			return []pgwire.Statement{st}, nil
		}
	}
	stmts, err := lx.Parse()
	if err != nil {
		return nil, s.fail(err)
	}
	out := make([]pgwire.Statement, len(stmts))
	for i := range stmts {
		out[i] = &statement{p: stmts[i], cacheable: len(sql) <= stmtCacheMaxText}
	}
	if len(sql) <= stmtCacheMaxText {
		if c.texts == nil || len(c.texts) >= stmtCacheEntries {
			c.texts = map[string]*cachedText{}
		}
		c.texts[sql] = &cachedText{stmts: out}
	}
	return out, nil
}

// shape returns the statement for a parameterized statement, or nil when its
// parameterized text does not parse as one statement.
func (s *Session) shape(sql string, pz sqlparse.Parameterized) *statement {
	c := &s.cache
	sh, ok := c.shapes[pz.Key]
	if !ok {
		stmts, err := sqlparse.Parse(pz.SQL)
		if err != nil || len(stmts) != 1 || stmts[0].AST == nil || stmts[0].NumParams != len(pz.Literals) {
			return nil
		}
		switch stmts[0].AST.(type) {
		case *ast.SelectStmt, *ast.InsertStmt, *ast.UpdateStmt, *ast.DeleteStmt:
		default:
			return nil
		}
		sh = &cachedShape{stmt: &statement{p: stmts[0]}}
		for _, l := range pz.Literals {
			sh.kinds = append(sh.kinds, l.Kind)
		}
		if c.shapes == nil || len(c.shapes) >= stmtCacheEntries {
			c.shapes = map[string]*cachedShape{}
		}
		c.shapes[pz.Key] = sh
	}
	return &statement{p: sh.stmt.p, shape: sh, literals: pz.Literals, orig: sql}
}

// fresh reports whether a cached plan can run now.
func (s *Session) fresh(p *prepared) bool {
	return p != nil && p.gen == s.eng.cat.gen.Load() && p.zone == s.zone()
}

// planAhead reports whether stmt is a statement whose plan may be cached:
// queries and DML, whose plans are re-run by prepared statements anyway.
func planAhead(stmt *sqlparse.Statement) bool {
	if stmt.Utility != nil || stmt.Cursor != nil || stmt.Copy != nil || stmt.AST == nil {
		return false
	}
	switch stmt.AST.(type) {
	case *ast.SelectStmt, *ast.SetOprStmt, *ast.InsertStmt, *ast.UpdateStmt, *ast.DeleteStmt:
		return true
	}
	return false
}

// planKey renders declared parameter OIDs as a map key.
func planKey(oids []uint32) string {
	if len(oids) == 0 {
		return ""
	}
	return fmt.Sprint(oids)
}

// prepareCached is Prepare for a statement from the texts cache.
func (s *Session) prepareCached(ctx context.Context, st *statement, oids []uint32) (pgwire.Prepared, error) {
	key := planKey(oids)
	for i, e := range st.plans {
		if e.declared == key {
			if s.fresh(e.prep) {
				return e.prep, nil
			}
			st.plans = append(st.plans[:i], st.plans[i+1:]...)
			break
		}
	}
	prep, err := s.prepare(ctx, &st.p, oids)
	if err != nil {
		return nil, err
	}
	if p, ok := prep.(*prepared); ok && p.plan != nil {
		if len(st.plans) >= 4 {
			st.plans = st.plans[1:]
		}
		st.plans = append(st.plans, planEntry{declared: key, prep: p})
	}
	return prep, nil
}

// prepareShape is Prepare for a parameterized statement: the cached plan with
// the statement's constants to bind, or the original text's own plan when
// the parameterized one cannot be had. The constants are converted now,
// as PostgreSQL folds them when it plans (in the time zone in force).
func (s *Session) prepareShape(ctx context.Context, st *statement, oids []uint32) (pgwire.Prepared, error) {
	sh := st.shape
	if len(oids) == 0 {
		if !s.fresh(sh.prep) {
			sh.prep = nil
			if gen := s.eng.cat.gen.Load(); sh.failedGen != gen+1 {
				if sh.prep = s.planShape(sh); sh.prep == nil {
					sh.failedGen = gen + 1
				}
			}
		}
		if p := sh.prep; p != nil {
			vals := make([]types.Datum, len(st.literals))
			ok := true
			for i, l := range st.literals {
				d, err := types.ParseTextIn(p.paramTypes[i], l.Text, s.zone())
				if err != nil {
					ok = false
					break
				}
				vals[i] = d
			}
			if ok {
				return &shapePrepared{p: p, vals: vals, st: st}, nil
			}
		}
	}
	return s.prepareOriginal(ctx, st, oids)
}

// planShape plans a shape with its constants' types, or returns nil.
func (s *Session) planShape(sh *cachedShape) *prepared {
	declared := make([]types.T, len(sh.kinds))
	for i, k := range sh.kinds {
		switch k {
		case sqlparse.LitInt4:
			declared[i] = types.TInt4
		case sqlparse.LitInt8:
			declared[i] = types.TInt8
		}
	}
	p, err := s.planStatement(&sh.stmt.p, declared)
	if err != nil || len(p.paramTypes) != len(sh.kinds) {
		return nil
	}
	return p
}

// prepareOriginal prepares the text a shape was lifted from, as if no
// cache existed.
func (s *Session) prepareOriginal(ctx context.Context, st *statement, oids []uint32) (pgwire.Prepared, error) {
	stmts, err := sqlparse.Parse(st.orig)
	if err != nil {
		return nil, s.fail(err)
	}
	if len(stmts) != 1 {
		return nil, s.fail(pgerror.New(pgerror.CodeInternalError, "statement cache: %d statements in a parameterized text", len(stmts)))
	}
	return s.prepare(ctx, &stmts[0], oids)
}

// shapePrepared is a shape's plan with one text's constants; it
// implements pgwire.Prepared as the original text's plan would. After DDL
// it is the original text's plan, re-planned as a prepared statement is
// (prepared.replan: 0A000 when the result types change).
type shapePrepared struct {
	p    *prepared
	vals []types.Datum
	st   *statement
	orig *prepared // the original text's plan, once needed
}

var _ pgwire.Prepared = (*shapePrepared)(nil)

func (sp *shapePrepared) ParamOIDs() []uint32      { return []uint32{} }
func (sp *shapePrepared) Columns() []pgwire.Column { return sp.p.cols }

// Bind binds the constants as the plan's parameters.
func (sp *shapePrepared) Bind(ctx context.Context, params [][]byte, paramFormats, resultFormats []int16) (pgwire.Portal, error) {
	p, s := sp.p, sp.p.sess
	if sp.orig == nil && len(params) == 0 && p.gen == s.eng.cat.gen.Load() {
		if s.txn == 'E' {
			return nil, errAborted()
		}
		return p.bindDatums(nil, sp.vals, resultFormats)
	}
	if sp.orig == nil {
		prep, err := s.prepareOriginal(ctx, sp.st, nil)
		if err != nil {
			return nil, err
		}
		orig := prep.(*prepared)
		if !slices.EqualFunc(orig.cols, p.cols, func(a, b pgwire.Column) bool {
			return a.Name == b.Name && a.TypeOID == b.TypeOID
		}) {
			return nil, s.fail(pgerror.New(pgerror.CodeFeatureNotSupported, "cached plan must not change result type"))
		}
		sp.orig = orig
	}
	return sp.orig.Bind(ctx, params, paramFormats, resultFormats)
}
