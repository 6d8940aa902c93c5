package exec

import (
	"sync"
	"sync/atomic"
)

// ParallelStarts counts the parallel scans started and those of them
// that aggregated partially, for the tests in package exec_test. Tests
// that read it must not run in parallel with each other.
var ParallelStarts, PartialAggStarts atomic.Int64

func init() {
	testHookParallelStart = func(_ int, partialAgg bool) {
		ParallelStarts.Add(1)
		if partialAgg {
			PartialAggStarts.Add(1)
		}
	}
}

// LazyScans counts the scans that read their filter's families first
// (on-demand family loading); with NoLazyFamilies set, scans read every
// family of every row instead (results must not change).
var (
	LazyScans      atomic.Int64
	NoLazyFamilies atomic.Bool
)

func init() {
	testHookNoLazyFamilies = func(*evalEnv) bool {
		if NoLazyFamilies.Load() {
			return true
		}
		LazyScans.Add(1)
		return false
	}
}

// LastParallelPieces returns, for the last parallel scan closed, whether
// the store cut its pieces (kv.Splitter) and the rows each piece read.
func LastParallelPieces() (fromStore bool, pieceRows []int64) {
	lastPieces.Lock()
	defer lastPieces.Unlock()
	return lastPieces.fromStore, lastPieces.rows
}

var lastPieces struct {
	sync.Mutex
	fromStore bool
	rows      []int64
}

func init() {
	testHookParallelDone = func(fromStore bool, pieceRows []int64) {
		lastPieces.Lock()
		lastPieces.fromStore, lastPieces.rows = fromStore, pieceRows
		lastPieces.Unlock()
	}
}
