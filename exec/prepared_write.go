package exec

import (
	"errors"

	"github.com/widesql/widesql/planner"
)

// A prepared UPDATE or DELETE by key (pgbench's UPDATE ... WHERE tenant =
// $2 AND id = $3, YCSB's read-modify-write) reads its row through the same
// kind of operator tree as a prepared point Get. Reads keep theirs in the
// prepared statement between executions (prepared.go, reuseTree); a
// write's is kept here, in the session's autocommit handle of the table
// (txn.go), which is per session and per table and is dropped whenever
// kvTable makes a new one (another table, a changed descriptor). Only
// autocommit writes keep a tree: a transaction block reads through its
// own overlay. The tree is keyed by its plan node, which a prepared
// statement keeps until it is re-planned.

// writeScan returns the operator tree that reads the rows of write plan
// scan: the one the session's last write of the same plan left, readied
// by reuseTree for this execution, or a new one. Pass what it returns to
// keepWriteScan once the rows are read.
func (x *executor) writeScan(scan planner.Plan) (operator, error) {
	ac := x.writeTreeSlot(scan)
	if ac == nil {
		return x.build(scan)
	}
	if op := ac.tree; op != nil && ac.treePlan == scan {
		ac.tree, ac.treePlan = nil, nil
		err := x.reuseTree(scan, op)
		if err == nil {
			return op, nil
		}
		op.Close()
		if !errors.Is(err, errTreeShape) {
			return nil, err
		}
	}
	return x.build(scan)
}

// keepWriteScan keeps op, writeScan's tree for scan, which the caller has
// closed, for the session's next execution of the same plan.
func (x *executor) keepWriteScan(scan planner.Plan, op operator) {
	if ac := x.writeTreeSlot(scan); ac != nil {
		ac.tree, ac.treePlan = op, scan
	}
}

// writeTreeSlot returns the autocommit handle that keeps scan's tree, or
// nil when none may: no session, a transaction block, EXPLAIN ANALYZE's
// instrumented trees, a plan reuseTree cannot ready, or a handle that is
// not of scan's table (kvTable has not made one for it).
func (x *executor) writeTreeSlot(scan planner.Plan) *autocommitHandle {
	s := x.env.sess
	if s == nil || s.tx.tx != nil || x.stats != nil || !reusablePlan(scan) {
		return nil
	}
	ac := &s.autocommit // reusablePlan found a scan under scan
	if ac.desc == nil || ac.desc != scanUnder(scan).Table {
		return nil
	}
	return ac
}
