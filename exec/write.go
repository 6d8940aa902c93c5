package exec

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/keyenc"
	"github.com/widesql/widesql/planner/types"
)

// write runs a statement that changes data or schema and returns its
// command tag and, with RETURNING, the returned rows. Each statement is
// applied as one atomic kv batch.
func (x *executor) write(ctx context.Context, p planner.Plan) (string, []Row, error) {
	switch p := p.(type) {
	case *planner.Insert:
		n, rows, err := x.insert(ctx, p)
		if err != nil {
			return "", nil, err
		}
		out, err := x.returning(p.Returning, rows)
		return countTag("INSERT 0 ", n), out, err
	case *planner.Update:
		n, rows, err := x.update(ctx, p)
		if err != nil {
			return "", nil, err
		}
		out, err := x.returning(p.Returning, rows)
		return countTag("UPDATE ", n), out, err
	case *planner.Delete:
		n, rows, err := x.delete(ctx, p)
		if err != nil {
			return "", nil, err
		}
		out, err := x.returning(p.Returning, rows)
		return countTag("DELETE ", n), out, err
	case *planner.CreateTable:
		created, err := x.eng.cat.create(ctx, p.Desc, p.IfNotExists)
		if err == nil && !created {
			x.env.sess.notice("NOTICE", "42P07", fmt.Sprintf("relation %q already exists, skipping", p.Desc.Name))
		}
		if err == nil && created {
			for _, a := range planner.Advise(p.Desc) { // planner/advisor.go
				x.env.sess.noticeHint("NOTICE", "01000", a.Message, a.Hint)
			}
		}
		return "CREATE TABLE", nil, err
	case *planner.AlterTable:
		return x.alterTable(ctx, p) // alter.go
	case *planner.CommentOn:
		return x.comment(ctx, p) // comment.go
	case *planner.SplitTable:
		return x.splitTable(ctx, p) // regions.go
	case *planner.DropTable:
		for _, name := range p.Names {
			desc, _ := x.eng.cat.Table(name)
			dropped, err := x.eng.cat.drop(ctx, name, p.IfExists)
			if err != nil {
				return "", nil, err
			}
			if !dropped {
				x.env.sess.notice("NOTICE", "00000", fmt.Sprintf("table %q does not exist, skipping", name))
				continue
			}
			if err := x.eng.seqs.dropTable(ctx, desc); err != nil {
				return "", nil, err
			}
		}
		return "DROP TABLE", nil, nil
	case *planner.CreateIndex, *planner.DropIndex:
		return x.indexDDL(ctx, p)
	}
	return "", nil, pgerror.New(pgerror.CodeInternalError, "cannot execute %T", p)
}

// countTag returns a command tag: verb and the row count. The counts of a
// write by key, 0 and 1, need no allocation.
func countTag(verb string, n int64) string {
	switch {
	case n == 1 && verb == "UPDATE ":
		return "UPDATE 1"
	case n == 1 && verb == "INSERT 0 ":
		return "INSERT 0 1"
	case n == 1 && verb == "DELETE ":
		return "DELETE 1"
	case n == 0 && verb == "UPDATE ":
		return "UPDATE 0"
	case n == 0 && verb == "DELETE ":
		return "DELETE 0"
	}
	return verb + strconv.FormatInt(n, 10)
}

// returning evaluates a RETURNING list over the written rows; nil without
// RETURNING.
func (x *executor) returning(r planner.Returning, rows []Row) ([]Row, error) {
	if r.Exprs == nil {
		return nil, nil
	}
	out := make([]Row, len(rows))
	for i, row := range rows {
		o := make(Row, len(r.Exprs))
		for j, e := range r.Exprs {
			v, err := eval(e, row, x.env)
			if err != nil {
				return nil, err
			}
			o[j] = v
		}
		out[i] = o
	}
	return out, nil
}

// rowWriter builds the kv mutations of whole rows.
type rowWriter struct {
	t  *planner.TableDesc
	ts kv.Timestamp

	// Keys, values and mutation lists are carved from these slabs, which
	// grow (doubling, up to a bound) as a statement writes more rows:
	// a COPY or a multi-row INSERT makes a few allocations per slab, not
	// several per row. Carved bytes are never written again, since kv may
	// keep them (a transaction's write buffer), so a slab is only ever
	// appended to.
	buf   []byte
	mbuf  []kv.Mutation
	quals [][]byte // column qualifiers, built once; shared, never modified
}

// qual returns column ci's qualifier.
func (w *rowWriter) qual(ci int) []byte {
	if w.quals == nil {
		w.quals = make([][]byte, len(w.t.Columns))
	}
	if w.quals[ci] == nil {
		q := w.t.Columns[ci].Qualifier()
		w.quals[ci] = q[:len(q):len(q)]
	}
	return w.quals[ci]
}

const (
	slabMin  = 256
	slabMax  = 16 << 10
	mslabMax = 128
)

// room makes sure buf has at least n bytes (a guess) free for carving.
func (w *rowWriter) room(n int) {
	if cap(w.buf)-len(w.buf) >= n {
		return
	}
	w.buf = make([]byte, 0, max(min(2*cap(w.buf), slabMax), slabMin, n))
}

// carve returns buf[start:] as a slice of its own capacity, so an append
// to it never writes into the slab.
func (w *rowWriter) carve(start int) []byte {
	return w.buf[start:len(w.buf):len(w.buf)]
}

// key encodes a row's rowkey; a NULL key column is 23502. Key-expression
// columns are computed from the row first (and stored in it, so RETURNING
// and moves see them).
func (w *rowWriter) key(row Row) ([]byte, error) {
	w.room(64)
	start := len(w.buf)
	for _, kc := range w.t.Key {
		c := &w.t.Columns[kc.Col]
		if e := w.t.KeyExpr(kc.Col); e != nil {
			v, err := eval(e, row, keyExprEnv)
			if err != nil {
				return nil, err
			}
			row[kc.Col] = v
		}
		if row[kc.Col].IsNull() {
			return nil, notNullError(w.t, c)
		}
		w.buf = keyenc.AppendKey(w.buf, row[kc.Col], c.Type, kc.Desc)
	}
	key := w.carve(start)
	if len(key) > kv.MaxKeySize {
		return nil, pgerror.New("54000", "rowkey of %d bytes exceeds the maximum of %d", len(key), kv.MaxKeySize)
	}
	return key, nil
}

// keyExprEnv evaluates key expressions: they are immutable (planner
// checkKeyExpr), so they read no session state.
var keyExprEnv = &evalEnv{}

func notNullError(t *planner.TableDesc, c *planner.ColumnDesc) error {
	e := pgerror.New(pgerror.CodeNotNullViolation, "null value in column %q of relation %q violates not-null constraint", c.Name, t.Name)
	e.Table, e.Column = t.Name, c.Name
	return e
}

// cells returns the mutations writing the given columns of row: a set
// for a value, a delete for a NULL, and the row marker.
func (w *rowWriter) cells(row Row, cols []int, muts []kv.Mutation) ([]kv.Mutation, error) {
	if muts == nil {
		// At most the marker and one mutation per column: carve that
		// much from mbuf, and give back what is unused.
		need := 1 + len(cols)
		if cap(w.mbuf)-len(w.mbuf) < need {
			w.mbuf = make([]kv.Mutation, 0, max(min(2*cap(w.mbuf), mslabMax), need))
		}
		n := len(w.mbuf)
		defer func() { w.mbuf = w.mbuf[:n+len(muts)] }()
		muts = w.mbuf[n : n : n+need]
	}
	muts = append(muts, kv.Mutation{Kind: kv.SetCell, Family: w.t.MarkerFamily, Qualifier: planner.MarkerQualifier, Timestamp: w.ts})
	for _, ci := range cols {
		c := &w.t.Columns[ci]
		if c.IsKey() {
			continue
		}
		d := row[ci]
		if d.IsNull() {
			if c.NotNull {
				return nil, notNullError(w.t, c)
			}
			muts = append(muts, kv.Mutation{Kind: kv.DeleteCells, Family: c.Family, Qualifier: w.qual(ci)})
			continue
		}
		w.room(16)
		start := len(w.buf)
		w.buf = keyenc.AppendValue(w.buf, d, c.Type)
		muts = append(muts, kv.Mutation{Kind: kv.SetCell, Family: c.Family, Qualifier: w.qual(ci),
			Timestamp: w.ts, Value: w.carve(start)})
	}
	return muts, nil
}

func allColumns(t *planner.TableDesc) []int {
	out := make([]int, len(t.Columns))
	for i := range out {
		out[i] = i
	}
	return out
}

// uniqueError is PostgreSQL's message for a duplicate rowkey.
func uniqueError(t *planner.TableDesc, row Row) error {
	names := make([]string, len(t.Key))
	vals := make([]string, len(t.Key))
	for i, kc := range t.Key {
		names[i] = t.Columns[kc.Col].Name
		vals[i] = string(types.AppendText(nil, row[kc.Col]))
	}
	e := pgerror.New(pgerror.CodeUniqueViolation, "duplicate key value violates unique constraint %q", t.PrimaryKeyName())
	e.Detail = fmt.Sprintf("Key (%s)=(%s) already exists.", strings.Join(names, ", "), strings.Join(vals, ", "))
	e.Table, e.Constraint = t.Name, t.PrimaryKeyName()
	return e
}

// readRows point-reads whole rows by key.
func (x *executor) readRows(ctx context.Context, t *planner.TableDesc, kvt kv.Table, keys [][]byte, which []int) (map[string]Row, error) {
	out := map[string]Row{}
	if len(which) == 0 {
		return out, nil
	}
	scan := &planner.Scan{Table: t, Access: planner.Access{Kind: planner.MultiGet}, Needed: allColumns(t)}
	for _, f := range t.Families {
		scan.Families = append(scan.Families, f.Name)
	}
	var rs kv.RowSet
	for _, i := range which {
		rs.Keys = append(rs.Keys, keys[i])
	}
	err := eachRow(ctx, newScanOp(scan, kvt, rs, x.env), t, func(row Row, key []byte) error {
		out[string(key)] = append(Row(nil), row...)
		return nil
	})
	return out, err
}

// eachRow drains op, calling fn with each row and its rowkey, and closes op.
func eachRow(ctx context.Context, op operator, t *planner.TableDesc, fn func(row Row, key []byte) error) error {
	return eachRowKeyed(ctx, op, &rowWriter{t: t}, fn)
}

// eachRowKeyed is eachRow with the rowkeys carved from w's slab: a writer
// that also builds the rows' mutations (UPDATE) shares one slab with them.
func eachRowKeyed(ctx context.Context, op operator, w *rowWriter, fn func(row Row, key []byte) error) error {
	defer op.Close()
	for {
		row, err := op.Next(ctx)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		key, err := w.key(row)
		if err != nil {
			return err
		}
		if err := fn(row, key); err != nil {
			return err
		}
	}
}
