package exec

import (
	"context"
	"math/bits"

	"github.com/widesql/widesql/exec/spill"
	"github.com/widesql/widesql/planner"
	"github.com/widesql/widesql/planner/types"
)

// The Grace part of the hash join. When a task's table outgrows the budget,
// spillTable creates n partition pairs (build and probe files) and moves
// every table row outside partition 0 to its build file; later build rows
// go to their partition's file, or to the table for partition 0. If the
// table overflows again, partition 0 is written out too and the task is
// all on disk. The probe side then joins partition 0 rows with the table
// as it streams and writes the others to their probe file (or emits them
// as unmatched when their build partition is empty). finishTask queues one
// task per partition pair that can produce rows; a pair whose build side
// still does not fit is partitioned again one level deeper, with a
// different hash mix, up to maxJoinDepth levels (then 53200).

const (
	maxJoinDepth      = 8
	minJoinPartitions = 16
	maxJoinPartitions = 256
)

// joinSource is where a join task reads rows.
type joinSource interface {
	// next returns the next row or io.EOF; the row is valid until the next
	// call.
	next(ctx context.Context) (Row, error)
}

type joinOpSource struct{ op operator }

func (s joinOpSource) next(ctx context.Context) (Row, error) { return s.op.Next(ctx) }

type joinIterSource struct{ it spill.Iterator }

func (s joinIterSource) next(context.Context) (Row, error) {
	r, err := s.it.Next()
	return Row(r), err
}

// gracePair is the build and probe partitions of one spilled task.
type gracePair struct {
	n            int
	build, probe *spill.Partitions
	pending      int // queued tasks still to read the pair
	closed       bool
	final        spill.Stats // stats once closed
}

func newGracePair(n int, leftTypes, rightTypes []types.T, dir string) *gracePair {
	return &gracePair{
		n:     n,
		build: spill.NewPartitions(n, rightTypes, dir),
		probe: spill.NewPartitions(n, leftTypes, dir),
	}
}

func (pp *gracePair) stats() spill.Stats {
	if pp.closed {
		return pp.final
	}
	st := pp.build.Stats()
	addJoinSpillStats(&st, pp.probe.Stats())
	st.Partitions = pp.n // pairs, not files
	return st
}

func (pp *gracePair) close() {
	if !pp.closed {
		pp.final = pp.stats()
		pp.closed = true
		pp.build.Close()
		pp.probe.Close()
	}
}

// open opens a partition task's sources.
func (t *joinTask) open() error {
	b, err := t.from.build.Read(t.idx)
	if err != nil {
		return err
	}
	p, err := t.from.probe.Read(t.idx)
	if err != nil {
		return err
	}
	t.build, t.probe = joinIterSource{b}, joinIterSource{p}
	return nil
}

// spillTable makes room in the budget: the first time it partitions the
// table, keeping partition 0 in memory; the second time it writes
// partition 0 out as well.
func (o *hashJoinOp) spillTable() error {
	nr := len(o.rightTypes)
	level := o.task.level
	if o.parts == nil {
		n := o.partitionCount()
		o.parts = newGracePair(n, o.leftTypes, o.rightTypes, o.dir)
		o.open = append(o.open, o.parts)
		o.memPart = true
		return o.table.filter(func(r Row, h uint64) (bool, error) {
			p := joinPartition(h, level, n)
			if p == 0 {
				return true, nil
			}
			return false, o.parts.build.Add(p, r[:nr])
		})
	}
	o.memPart = false
	return o.table.filter(func(r Row, _ uint64) (bool, error) {
		return false, o.parts.build.Add(0, r[:nr])
	})
}

// partitionCount chooses how many partitions a task spills to, so that
// each is expected to fill about half of work_mem. The table has just
// filled the budget (its Used is about the limit). The size of an input is
// unknown: assume at least four times what was read, and use 16 to 256
// partitions. A spilled partition's row count is known, which sizes its
// repartitioning closely (8 to 256 partitions: files are not free, but
// with fewer, keys that together just overflow would too often stay
// together level after level).
func (o *hashJoinOp) partitionCount() int {
	used := max(o.budget.Used(), 2)
	est, lo := 4*used, minJoinPartitions
	if rows := int64(len(o.table.rows)); o.task.buildRows > 0 && rows > 0 {
		est, lo = used/rows*o.task.buildRows, 8
	}
	n := (est + used/2 - 1) / (used / 2)
	if n <= int64(lo) {
		return lo
	}
	if n >= maxJoinPartitions {
		return maxJoinPartitions
	}
	return 1 << bits.Len64(uint64(n-1))
}

// finishTask releases the finished task's table and the partition pair it
// read, queues the tasks of the partitions it spilled, and moves on.
func (o *hashJoinOp) finishTask() error {
	o.table.reset()
	t := o.task
	if t.from != nil {
		if t.from.pending--; t.from.pending == 0 {
			o.release(t.from)
		}
	}
	if pp := o.parts; pp != nil {
		o.parts = nil
		keepBuild := o.kind == planner.RightJoin || o.kind == planner.FullJoin
		for i := pp.n - 1; i >= 0; i-- {
			if i == 0 && o.memPart {
				continue // joined in memory
			}
			br := pp.build.Rows(i)
			// Probe rows are written only when their build partition has
			// rows, so pr > 0 implies br > 0.
			if br == 0 || (pp.probe.Rows(i) == 0 && !keepBuild) {
				continue
			}
			o.tasks = append(o.tasks, &joinTask{level: t.level + 1, buildRows: br, from: pp, idx: i})
			pp.pending++
		}
		if pp.pending == 0 {
			o.release(pp)
		}
	}
	o.memPart = false
	o.task = nil
	o.state = hjNextTask
	return nil
}

// release removes a partition pair's files once no task needs them.
func (o *hashJoinOp) release(pp *gracePair) {
	pp.close()
	addJoinSpillStats(&o.spills, pp.final)
	for i, q := range o.open {
		if q == pp {
			o.open = append(o.open[:i], o.open[i+1:]...)
			break
		}
	}
}
