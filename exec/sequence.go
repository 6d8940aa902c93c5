package exec

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"sync"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
)

// Sequences (serial and identity columns, and the hidden row id of tables
// without a primary key) keep their state in the kv table _widesql_seq:
//
//	rowkey  uint32 table id | uint32 column id (0: the hidden row id), big-endian
//	family "s", qualifier "v" -> int64 last_value, big-endian | 1 byte is_called
//
// as PostgreSQL's (last_value, is_called). A row that does not exist is
// (Start, false). Values are handed out from blocks of seqBlock: the block's
// last value is written durably before its first value is returned, so a
// crash skips at most the rest of a block (PostgreSQL skips too) but never
// repeats a value. Sequences are not transactional: a rolled-back INSERT
// does not give its numbers back, as in PostgreSQL.
const (
	seqTable  = "_widesql_seq"
	seqFamily = "s"
	seqBlock  = 32
)

var qualSeqValue = []byte("v")

// sequences hands out sequence values. It is safe for concurrent use; each
// sequence has its own mutex, held while a block is allocated.
type sequences struct {
	tbl   kv.Table
	clock *clock

	mu     sync.Mutex
	states map[string]*seqState // by rowkey
	names  map[string]seqOwner  // sequence name -> owning column
}

// seqOwner is the column that owns a named sequence.
type seqOwner struct {
	table string
	id    uint32
	col   int
}

type seqState struct {
	mu     sync.Mutex
	loaded bool
	last   int64 // durable last_value
	called bool  // durable is_called
	next   int64 // next value to hand out, when avail > 0
	avail  int   // values left in the allocated block
}

func openSequences(ctx context.Context, store kv.Store, clk *clock) (*sequences, error) {
	err := store.CreateTable(ctx, seqTable, kv.TableSpec{Families: []kv.Family{{Name: seqFamily, MaxVersions: 1}}})
	if err != nil && !errors.Is(err, kv.ErrTableExists) {
		return nil, err
	}
	tbl, err := store.Table(ctx, seqTable)
	if err != nil {
		return nil, err
	}
	return &sequences{tbl: tbl, clock: clk, states: map[string]*seqState{}, names: map[string]seqOwner{}}, nil
}

// sequenceKey is the rowkey of the sequence of column col of table id (0: row id).
func sequenceKey(tableID, colID uint32) []byte {
	k := binary.BigEndian.AppendUint32(nil, tableID)
	return binary.BigEndian.AppendUint32(k, colID)
}

// rowIDDesc is the sequence behind a table's hidden row ids.
func rowIDDesc(t *planner.TableDesc) *planner.SequenceDesc {
	return &planner.SequenceDesc{Name: t.Name + " row id", Start: 1, Increment: 1, Min: 1, Max: 1<<(63-t.ShardBits) - 1}
}

func (s *sequences) state(key []byte) *seqState {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.states[string(key)]
	if st == nil {
		st = &seqState{}
		s.states[string(key)] = st
	}
	return st
}

// load reads the durable state once.
func (s *sequences) load(ctx context.Context, key []byte, d *planner.SequenceDesc, st *seqState) error {
	if st.loaded {
		return nil
	}
	st.last, st.called = d.Start, false
	it := s.tbl.Read(ctx, kv.RowSet{Keys: [][]byte{key}}, kv.ReadOptions{})
	defer it.Close()
	for it.Next() {
		for _, c := range it.Row().Cells {
			if string(c.Qualifier) == string(qualSeqValue) && len(c.Value) == 9 {
				st.last, st.called = int64(binary.BigEndian.Uint64(c.Value)), c.Value[8] == 1
			}
		}
	}
	if err := it.Err(); err != nil {
		return storageError(err)
	}
	st.loaded = true
	return nil
}

// persist durably records (last, called).
func (s *sequences) persist(ctx context.Context, key []byte, last int64, called bool) error {
	v := binary.BigEndian.AppendUint64(nil, uint64(last))
	if called {
		v = append(v, 1)
	} else {
		v = append(v, 0)
	}
	err := s.tbl.Apply(ctx, []kv.RowMutation{{Key: key, Mutations: []kv.Mutation{
		{Kind: kv.SetCell, Family: seqFamily, Qualifier: qualSeqValue, Timestamp: s.clock.now(), Value: v}}}})
	if err != nil {
		return storageError(err)
	}
	return nil
}

// step returns v + inc if it stays within [d.Min, d.Max].
func step(v int64, d *planner.SequenceDesc) (int64, bool) {
	if d.Increment > 0 && v > math.MaxInt64-d.Increment || d.Increment < 0 && v < math.MinInt64-d.Increment {
		return 0, false
	}
	n := v + d.Increment
	return n, n >= d.Min && n <= d.Max
}

// next returns the sequence's next value.
func (s *sequences) next(ctx context.Context, key []byte, d *planner.SequenceDesc) (int64, error) {
	st := s.state(key)
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.avail == 0 {
		if err := s.load(ctx, key, d, st); err != nil {
			return 0, err
		}
		first, ok := st.last, true
		if st.called {
			first, ok = step(st.last, d)
		}
		if !ok || first < d.Min || first > d.Max {
			if d.Increment > 0 {
				return 0, pgerror.New("2200H", "nextval: reached maximum value of sequence %q (%d)", d.Name, d.Max)
			}
			return 0, pgerror.New("2200H", "nextval: reached minimum value of sequence %q (%d)", d.Name, d.Min)
		}
		end, n := first, 1
		for ; n < seqBlock; n++ {
			v, ok := step(end, d)
			if !ok {
				break
			}
			end = v
		}
		if err := s.persist(ctx, key, end, true); err != nil {
			return 0, err
		}
		st.last, st.called, st.next, st.avail = end, true, first, n
	}
	v := st.next
	if st.avail--; st.avail > 0 {
		st.next += d.Increment
	}
	return v, nil
}

// set is setval: the next value will be v (called false) or the one after.
func (s *sequences) set(ctx context.Context, key []byte, d *planner.SequenceDesc, v int64, called bool) error {
	if v < d.Min || v > d.Max {
		return pgerror.New(pgerror.CodeNumericValueOutOfRange, "setval: value %d is out of bounds for sequence %q (%d..%d)", v, d.Name, d.Min, d.Max)
	}
	st := s.state(key)
	st.mu.Lock()
	defer st.mu.Unlock()
	if err := s.persist(ctx, key, v, called); err != nil {
		return err
	}
	st.loaded, st.last, st.called, st.avail = true, v, called, 0
	return nil
}

// dropTable forgets the sequences of a dropped table and deletes their rows.
func (s *sequences) dropTable(ctx context.Context, t *planner.TableDesc) error {
	var batch []kv.RowMutation
	s.mu.Lock()
	for i := range t.Columns {
		c := &t.Columns[i]
		if c.Seq == nil && !(c.Hidden && t.ShardBits > 0) {
			continue
		}
		id := c.ID
		if c.Hidden {
			id = 0
		} else {
			delete(s.names, c.Seq.Name)
		}
		key := sequenceKey(t.ID, id)
		delete(s.states, string(key))
		batch = append(batch, kv.RowMutation{Key: key, Mutations: []kv.Mutation{{Kind: kv.DeleteRow}}})
	}
	s.mu.Unlock()
	if len(batch) == 0 {
		return nil
	}
	if err := s.tbl.Apply(ctx, batch); err != nil {
		return storageError(err)
	}
	return nil
}

// lookup resolves a sequence name ('t_id_seq', 'public.t_id_seq' or a
// quoted name) to its owning column; 42P01 if there is none.
func (s *sequences) lookup(cat *catalog, name string) (*planner.TableDesc, int, error) {
	name = relName(name)
	s.mu.Lock()
	o, ok := s.names[name]
	s.mu.Unlock()
	if ok {
		if t, err := cat.Table(o.table); err == nil && t.ID == o.id {
			return t, o.col, nil
		}
	}
	for _, t := range cat.list() {
		for i := range t.Columns {
			if c := &t.Columns[i]; c.Seq != nil && c.Seq.Name == name {
				s.mu.Lock()
				s.names[name] = seqOwner{table: t.Name, id: t.ID, col: i}
				s.mu.Unlock()
				return t, i, nil
			}
		}
	}
	return nil, 0, pgerror.New(pgerror.CodeUndefinedTable, "relation %q does not exist", name)
}

// relName parses a relation name as regclass input does: an optional
// public. schema, unquoted parts folded to lower case.
func relName(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, `"`) && strings.HasSuffix(s, `"`) && len(s) >= 2 {
		return strings.ReplaceAll(s[1:len(s)-1], `""`, `"`)
	}
	s = strings.ToLower(s)
	return strings.TrimPrefix(s, "public.")
}
