package exec

import (
	"context"

	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// isSeqFunc reports whether name is a sequence function evalSeqFunc runs.
func isSeqFunc(name string) bool {
	switch name {
	case "nextval", "currval", "setval", "lastval", "pg_get_serial_sequence":
		return true
	}
	return false
}

// evalSeqFunc runs a sequence function over evaluated arguments. Sequence
// calls are not transactional, as in PostgreSQL. currval and lastval read
// the session's last values.
func evalSeqFunc(name string, args []types.Datum, env *evalEnv) (types.Datum, error) {
	for _, a := range args {
		if a.IsNull() {
			return types.Null, nil
		}
	}
	ctx := context.Background()
	eng, sess := env.sess.eng, env.sess
	switch name {
	case "lastval":
		v, ok := sess.seqLast[""]
		if !ok {
			return types.Null, pgerror.New("55000", "lastval is not yet defined in this session")
		}
		return types.NewInt(types.Int8, v), nil
	case "pg_get_serial_sequence":
		t, err := eng.cat.Table(relName(args[0].S))
		if err != nil {
			return types.Null, err
		}
		col := args[1].S
		if len(col) >= 2 && col[0] == '"' && col[len(col)-1] == '"' {
			col = col[1 : len(col)-1]
		}
		i := t.ColumnIndex(col)
		if i < 0 {
			return types.Null, pgerror.New(pgerror.CodeUndefinedColumn, "column %q of relation %q does not exist", col, t.Name)
		}
		if s := t.Columns[i].Seq; s != nil {
			return types.NewText("public." + s.Name), nil
		}
		return types.Null, nil
	}
	t, ci, err := eng.seqs.lookup(eng.cat, args[0].S)
	if err != nil {
		return types.Null, err
	}
	c := &t.Columns[ci]
	key := sequenceKey(t.ID, c.ID)
	switch name {
	case "nextval":
		v, err := eng.seqs.next(ctx, key, c.Seq)
		if err != nil {
			return types.Null, err
		}
		sess.noteSeq(c.Seq, v)
		return types.NewInt(types.Int8, v), nil
	case "currval":
		v, ok := sess.seqLast[c.Seq.Name]
		if !ok {
			return types.Null, pgerror.New("55000", "currval of sequence %q is not yet defined in this session", c.Seq.Name)
		}
		return types.NewInt(types.Int8, v), nil
	case "setval":
		called := len(args) < 3 || args[2].Bool()
		if err := eng.seqs.set(ctx, key, c.Seq, args[1].I, called); err != nil {
			return types.Null, err
		}
		return args[1], nil
	}
	return types.Null, pgerror.New(pgerror.CodeInternalError, "unknown sequence function %s", name)
}

// noteSeq records a value nextval returned for currval and lastval.
func (s *Session) noteSeq(d *planner.SequenceDesc, v int64) {
	if s.seqLast == nil {
		s.seqLast = map[string]int64{}
	}
	s.seqLast[d.Name], s.seqLast[""] = v, v
}
