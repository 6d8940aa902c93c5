package lsm

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/widesql/widesql/kv"
)

// TestRowCacheConcurrent has writers raise counters in a few hot rows
// (writer i owns column w<i> of every row) while readers read them, with
// and without store snapshots, and flushes run: every read must return,
// for each counter, a value at least the last one known committed before
// the read began and at most the last one begun after it ended; two reads
// at one snapshot must agree.
func TestRowCacheConcurrent(t *testing.T) {
	const rows, writers, readers = 3, 4, 4
	ops := 3000
	if testing.Short() || raceEnabled {
		ops = 600
	}
	e := newRCEnv(t, Options{MemtableSize: 64 << 10}, kv.Family{Name: "f"})
	ctx := e.ctx
	var committed, begun [writers][rows]atomic.Int64
	rowKey := func(k int) []byte { return fmt.Appendf(nil, "r%d", k) }
	col := func(i int) []byte { return fmt.Appendf(nil, "w%d", i) }
	for k := range rows {
		var ms []kv.Mutation
		for i := range writers {
			ms = append(ms, kv.Mutation{Kind: kv.SetCell, Family: "f", Qualifier: col(i), Timestamp: 1000, Value: []byte("0")})
		}
		e.apply(string(rowKey(k)), ms...)
	}
	// check verifies the counters of row k in r against lo (known
	// committed before) and begun after.
	check := func(r kv.Row, k int, lo *[writers]int64, only int) error {
		seen := 0
		for _, c := range r.Cells {
			i, err := strconv.Atoi(string(c.Qualifier[1:]))
			if err != nil {
				return err
			}
			v, err := strconv.ParseInt(string(c.Value), 10, 64)
			if err != nil {
				return err
			}
			if hi := begun[i][k].Load(); v < lo[i] || v > hi {
				return fmt.Errorf("row %d counter %d = %d, want in [%d, %d]", k, i, v, lo[i], hi)
			}
			seen++
		}
		if want := writers; only >= 0 {
			want = 1
			if seen != want {
				return fmt.Errorf("row %d: %d cells, want %d", k, seen, want)
			}
		} else if seen != want {
			return fmt.Errorf("row %d: %d cells, want %d", k, seen, want)
		}
		return nil
	}
	var wg sync.WaitGroup
	errc := make(chan error, writers+readers+1)
	stop := make(chan struct{})
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), 1))
			for range ops {
				k := rng.IntN(rows)
				n := begun[i][k].Load() + 1
				begun[i][k].Store(n)
				m := kv.RowMutation{Key: rowKey(k), Mutations: []kv.Mutation{{Kind: kv.SetCell, Family: "f", Qualifier: col(i),
					Timestamp: 1000 * kv.Timestamp(1+rng.IntN(2)), Value: strconv.AppendInt(nil, n, 10)}}}
				// Both versions carry the counter: delete the other.
				m.Mutations = append([]kv.Mutation{{Kind: kv.DeleteCells, Family: "f", Qualifier: col(i)}}, m.Mutations...)
				if err := e.tbl.Apply(ctx, []kv.RowMutation{m}); err != nil {
					errc <- err
					return
				}
				committed[i][k].Store(n)
			}
		}()
	}
	var rwg sync.WaitGroup
	for j := range readers {
		rwg.Add(1)
		go func() {
			defer rwg.Done()
			rng := rand.New(rand.NewPCG(uint64(j), 2))
			for {
				select {
				case <-stop:
					return
				default:
				}
				var lo [rows][writers]int64
				for k := range rows {
					for i := range writers {
						lo[k][i] = committed[i][k].Load()
					}
				}
				opts, only := kv.ReadOptions{}, -1
				if rng.IntN(3) == 0 {
					only = rng.IntN(writers)
					opts.Columns = []kv.Column{{Family: "f", Qualifier: col(only)}}
				}
				keys := [][]byte{rowKey(rng.IntN(rows))}
				if rng.IntN(3) == 0 {
					keys = append(keys, rowKey(rng.IntN(rows)))
				}
				read := func(it kv.RowIterator) ([]kv.Row, error) {
					defer it.Close()
					var out []kv.Row
					for it.Next() {
						out = append(out, cloneRowForTest(it.Row()))
					}
					return out, it.Err()
				}
				var snap kv.Snapshot
				var got []kv.Row
				var err error
				if rng.IntN(4) == 0 {
					if snap, err = e.s.Snapshot(ctx); err == nil {
						got, err = read(snap.Read(ctx, "t", kv.RowSet{Keys: keys}, opts))
					}
				} else {
					got, err = read(e.tbl.Read(ctx, kv.RowSet{Keys: keys}, opts))
				}
				if err == nil {
					for _, r := range got {
						k := int(r.Key[1] - '0')
						if err = check(r, k, &lo[k], only); err != nil {
							break
						}
					}
				}
				if err == nil && snap != nil {
					time.Sleep(time.Duration(rng.IntN(200)) * time.Microsecond)
					var again []kv.Row
					again, err = read(snap.Read(ctx, "t", kv.RowSet{Keys: keys}, opts))
					if err == nil && fmt.Sprint(again) != fmt.Sprint(got) {
						err = fmt.Errorf("snapshot read again: %v, first %v", again, got)
					}
				}
				if snap != nil {
					snap.Release()
				}
				if err != nil {
					errc <- err
					return
				}
			}
		}()
	}
	rwg.Add(1)
	go func() {
		defer rwg.Done()
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			if err := e.s.Flush(ctx); err != nil {
				errc <- err
				return
			}
		}
	}()
	wg.Wait()
	close(stop)
	rwg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	m := e.s.Metrics()
	t.Logf("row cache: %d hits, %d misses, %d inserts, %d refused", m.RowCacheHits, m.RowCacheMisses, m.RowCacheInserts, m.RowCacheRefused)
	if m.RowCacheHits == 0 {
		t.Error("no read hit the cache")
	}
}

func cloneRowForTest(r kv.Row) kv.Row {
	out := kv.Row{Key: append([]byte(nil), r.Key...)}
	for _, c := range r.Cells {
		out.Cells = append(out.Cells, kv.Cell{Family: c.Family, Qualifier: append([]byte(nil), c.Qualifier...),
			Timestamp: c.Timestamp, Value: append([]byte(nil), c.Value...)})
	}
	return out
}
