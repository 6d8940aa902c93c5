package txn

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/memstore"
)

var modelFams = []kv.Family{{Name: "a", MaxVersions: 2}, {Name: "b", MaxVersions: 1}}

func randKey(r *rand.Rand) []byte { return []byte{byte('a' + r.IntN(12))} }

func randBatch(r *rand.Rand) []kv.RowMutation {
	batch := make([]kv.RowMutation, 1+r.IntN(3))
	for i := range batch {
		rm := &batch[i]
		rm.Key = randKey(r)
		rm.Require = kv.Precondition(r.IntN(5) % 3) // mostly none
		for range 1 + r.IntN(3) {
			fam := modelFams[r.IntN(2)].Name
			q := []byte{byte('x' + r.IntN(3))}
			ts := kv.Timestamp(1000 * (1 + r.IntN(5)))
			switch r.IntN(10) {
			case 0:
				rm.Mutations = append(rm.Mutations, kv.Mutation{Kind: kv.DeleteRow})
			case 1:
				rm.Mutations = append(rm.Mutations, kv.Mutation{Kind: kv.DeleteFamily, Family: fam})
			case 2, 3:
				rm.Mutations = append(rm.Mutations, kv.Mutation{Kind: kv.DeleteCells, Family: fam, Qualifier: q,
					Start: kv.Timestamp(1000 * r.IntN(3)), End: kv.Timestamp(1000 * r.IntN(6))})
			default:
				rm.Mutations = append(rm.Mutations, kv.Mutation{Kind: kv.SetCell, Family: fam, Qualifier: q,
					Timestamp: ts, Value: []byte(fmt.Sprint(r.IntN(100)))})
			}
		}
		if rm.Require != kv.NoPrecondition && r.IntN(2) == 0 {
			rm.RequireColumn = &kv.Column{Family: modelFams[r.IntN(2)].Name, Qualifier: []byte{byte('x' + r.IntN(3))}}
		}
	}
	return batch
}

func randRead(r *rand.Rand) (kv.RowSet, kv.ReadOptions) {
	var rs kv.RowSet
	for range r.IntN(3) {
		rs.Keys = append(rs.Keys, randKey(r))
	}
	for range r.IntN(3) {
		a, b := randKey(r), randKey(r)
		if r.IntN(4) == 0 {
			b = nil
		}
		rs.Ranges = append(rs.Ranges, kv.KeyRange{Start: a, End: b})
	}
	opts := kv.ReadOptions{MaxVersions: r.IntN(3), Reverse: r.IntN(2) == 0}
	if r.IntN(3) == 0 {
		opts.Limit = int64(1 + r.IntN(4))
	}
	if r.IntN(4) == 0 {
		opts.Families = []string{modelFams[r.IntN(2)].Name}
	}
	if r.IntN(4) == 0 {
		opts.Columns = []kv.Column{{Family: "a", Qualifier: []byte("y")}}
	}
	if r.IntN(4) == 0 {
		opts.MinTimestamp, opts.MaxTimestamp = 2000, 4000
	}
	return rs, opts
}

func dump(t *testing.T, it kv.RowIterator) string {
	t.Helper()
	defer it.Close()
	var sb strings.Builder
	for it.Next() {
		row := it.Row()
		fmt.Fprintf(&sb, "%s:", row.Key)
		for _, c := range row.Cells {
			fmt.Fprintf(&sb, " %s/%s@%d=%s", c.Family, c.Qualifier, c.Timestamp, c.Value)
		}
		sb.WriteString("\n")
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return sb.String()
}

// newModelStore returns a memstore holding table "t" after seed batches.
func newModelStore(t *testing.T, seed [][]kv.RowMutation) (*memstore.Store, kv.Table) {
	ctx := context.Background()
	s := memstore.New()
	if err := s.CreateTable(ctx, "t", kv.TableSpec{Families: modelFams}); err != nil {
		t.Fatal(err)
	}
	tbl, _ := s.Table(ctx, "t")
	for _, b := range seed {
		_ = tbl.Apply(ctx, b)
	}
	return s, tbl
}

// TestOverlayModel applies random batches, savepoints and rollbacks to a
// transaction's overlay and the same batches to a memstore model (rebuilt
// from the batch history on rollback), comparing random reads, preconditions
// and, at the end, the committed store.
func TestOverlayModel(t *testing.T) {
	ctx := context.Background()
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 7))
		var initial [][]kv.RowMutation
		for range r.IntN(6) {
			initial = append(initial, randBatch(r))
		}
		store, live := newModelStore(t, initial)
		m := NewManager(store, Options{})
		tx, err := m.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// A write after Begin must not be seen by the transaction.
		_ = live.Apply(ctx, []kv.RowMutation{{Key: []byte("zz"), Mutations: []kv.Mutation{{Kind: kv.SetCell, Family: "a", Timestamp: 1000}}}})
		ov := tx.Table("t", live, modelFams)

		var applied [][]kv.RowMutation // batches the overlay accepted
		type sp struct{ mark, n int }
		var sps []sp
		_, model := newModelStore(t, initial)
		for step := range 60 {
			switch op := r.IntN(10); {
			case op < 5:
				b := randBatch(r)
				err1 := model.Apply(ctx, b)
				err2 := ov.Apply(ctx, b)
				if (err1 == nil) != (err2 == nil) {
					t.Fatalf("seed %d step %d: model err %v, overlay err %v", seed, step, err1, err2)
				}
				if err1 != nil && !errors.Is(err1, kv.ErrInvalidArgument) {
					var c1, c2 *kv.ConditionError
					if !errors.As(err1, &c1) || !errors.As(err2, &c2) || c1.Index != c2.Index {
						t.Fatalf("seed %d step %d: %v vs %v", seed, step, err1, err2)
					}
				} else if err1 == nil {
					applied = append(applied, b)
				}
			case op < 6:
				sps = append(sps, sp{mark: tx.Savepoint(), n: len(applied)})
			case op < 7 && len(sps) > 0:
				s := sps[r.IntN(len(sps))]
				tx.RollbackTo(s.mark)
				applied = applied[:s.n]
				_, model = newModelStore(t, append(append([][]kv.RowMutation{}, initial...), applied...))
				sps = sps[:0] // keep it simple: marks after s are invalid
			default:
				rs, opts := randRead(r)
				want, got := dump(t, model.Read(ctx, rs, opts)), dump(t, ov.Read(ctx, rs, opts))
				if want != got {
					var st strings.Builder
					tx.tables["t"].rows.Ascend(func(r *bufRow) bool {
						fmt.Fprintf(&st, "%s base=%v cur=%v muts=%d\n", r.key, r.base, r.cur, r.muts)
						return true
					})
					t.Fatalf("seed %d step %d: read %+v %+v\nmodel:\n%s\noverlay:\n%s\nbuf:\n%s\nbase:\n%s", seed, step, rs, opts, want, got, st.String(), dump(t, tx.tables["t"].baseRead(ctx, rs, opts)))
				}
			}
		}
		if err := tx.Commit(ctx); err != nil {
			t.Fatalf("seed %d: commit: %v", seed, err)
		}
		// The store now holds the model's rows plus the outside write.
		_ = model.Apply(ctx, []kv.RowMutation{{Key: []byte("zz"), Mutations: []kv.Mutation{{Kind: kv.SetCell, Family: "a", Timestamp: 1000}}}})
		all := kv.ReadOptions{MaxVersions: 10}
		if want, got := dump(t, model.Read(ctx, kv.RowSet{}, all)), dump(t, live.Read(ctx, kv.RowSet{}, all)); want != got {
			t.Fatalf("seed %d: after commit\nmodel:\n%s\nstore:\n%s", seed, want, got)
		}
	}
}
