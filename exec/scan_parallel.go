package exec

import (
	"context"
	"io"
	"runtime"
	"sync"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/pgwire/pgerror"
	"github.com/widesql/widesql/planner"
)

// A parallel scan reads a full table scan on GOMAXPROCS workers, as
// PostgreSQL's Parallel Seq Scan does. The key space is cut into pieces
// (scan_parallel_split.go), every piece gets an iterator over ONE
// snapshot (kv.MultiReader), and the workers take pieces in key order,
// each decoding its rows and running the scan's filter itself (the
// filter is parallelSafe). Rows reach the consumer in one of two ways:
//
//   - in key order (the default: a plain SELECT returns rowkey order, as
//     Phoenix does): the consumer returns piece i's rows before piece
//     i+1's. Workers on later pieces buffer their filtered rows, up to
//     work_mem in all, and then wait; the worker on the consumer's piece
//     never waits, so the scan always progresses.
//   - as partial aggregates (Partial/Finalize Aggregate): a hash
//     aggregation directly above the scan has each worker aggregate its
//     rows into a table of its own and hand the groups to the aggregation
//     (aggregate.go), which merges them.
//
// The first error of any worker (a division by zero in the filter, a
// storage error, cancellation) becomes the statement's error and stops the
// other workers. Close stops and waits for every worker.
type parallelScanOp struct {
	p     *planner.Scan
	su    *scanSetup
	env   *evalEnv
	its   []kv.RowIterator // one per piece, in key order
	nwork int
	lazy  bool // the pieces read the filter's families first (scanOp.lazy)
	// fromStore reports that the store cut the pieces (kv.Splitter).
	fromStore bool
	limit     int64 // work_mem: bytes of rows buffered ahead of the consumer
	stats     *nodeStats
	par       *nodeStats // see parallelStatsKey; nil outside EXPLAIN ANALYZE
	// scanRows, when set, receives the count of rows that passed the
	// filter in partial-aggregation mode (EXPLAIN ANALYZE of the scan).
	scanRows *int64

	agg *partialAgg // set before the first Next: aggregate instead of emitting rows

	started bool
	sh      *parShared
	chunk   *rowChunk // the chunk being returned
	ci      int
}

// parShared is the state the workers and the consumer share, under mu.
type parShared struct {
	mu       sync.Mutex
	cond     sync.Cond
	pieces   []pieceOut
	next     int // the next piece to hand out
	cur      int // the piece the consumer reads
	buffered int64
	stopped  bool
	err      error
	wg       sync.WaitGroup
	working  int           // workers still running
	groups   chan []*group // partial aggregation: workers' flushed groups
	passed   int64         // rows that passed the filter
}

type pieceOut struct {
	chunks []*rowChunk
	done   bool
}

// rowChunk is a run of filtered rows a worker copied for the consumer.
type rowChunk struct {
	rows []Row
	size int64
}

const chunkRows = 256

// parallelScan returns a parallel scan of p over t when one applies, or
// nil: see parallelEligible.
func (x *executor) parallelScan(p *planner.Scan, t kv.Table) *parallelScanOp {
	su := scanSetupOf(p)
	if !x.parallelEligible(p, su, t) {
		return nil
	}
	mr := t.(kv.MultiReader)
	opts := kv.ReadOptions{Families: p.Families, Columns: su.cols}
	lazy := su.essential != nil && !noLazyFamilies(x.env)
	weigh := p.Families // the families read for every row
	if lazy {
		opts.Essential = su.essential
		weigh = su.essential
	}
	n := runtime.GOMAXPROCS(0)
	base, _ := x.eng.cat.kvTable(p.Table) // parallelEligible found it
	keys, fromStore := pieceKeys(base, t, p.Table, weigh, n*piecesPerWorker)
	if len(keys) == 0 {
		return nil
	}
	sets := pieceSets(keys)
	o := &parallelScanOp{p: p, su: su, env: x.env, nwork: n, lazy: lazy, fromStore: fromStore,
		its: mr.ReadMulti(context.Background(), sets, opts)}
	kb, _ := parseUnits(x.env.sess.values["work_mem"], "kB", memUnits)
	o.limit = max(kb<<10, 64<<10)
	if x.stats != nil {
		o.par = &nodeStats{}
		x.stats[parallelStatsKey{p}] = o.par
	}
	return o
}

// parallelStatsKey keys a parallel scan's worker and piece counts
// (nodeStats.workers, pieces) in executor.stats, for EXPLAIN ANALYZE.
type parallelStatsKey struct{ *planner.Scan }

// parallelEligible reports whether p may run as a parallel scan: a full
// scan in key order without a row limit, AS OF time or key-bucket merge,
// of a tall unsalted table whose store reads several row sets over one
// snapshot, outside a transaction block (whose overlay the statement may
// change while the scan runs), with a parallel-safe filter, on more than
// one core. Anything else reads serially.
func (x *executor) parallelEligible(p *planner.Scan, su *scanSetup, t kv.Table) bool {
	// The plan's shape first: keyed reads (the common case) return before
	// runtime.GOMAXPROCS, which takes the scheduler's lock.
	if p.Access.Kind != planner.FullScan || p.Access.Merge || p.Reverse || p.AsOf != nil {
		return false
	}
	if x.env == nil || x.env.sess == nil || inTxBlock(x.env) || scanLimit(p, x.env) != 0 || runtime.GOMAXPROCS(0) < 2 {
		return false
	}
	if p.Table.SaltBuckets > 0 || p.Table.Layout == planner.LayoutWide || !su.parallel {
		return false
	}
	// The autocommit handle is a MultiReader either way; only a live
	// table that is one shares a snapshot among the pieces.
	base, err := x.eng.cat.kvTable(p.Table)
	if err != nil {
		return false
	}
	if _, ok := base.(kv.MultiReader); !ok {
		return false
	}
	_, ok := t.(kv.MultiReader)
	return ok
}

// testHookParallelStart, when set by a test, is called as a parallel
// scan starts, with its worker count and whether workers aggregate.
var testHookParallelStart func(workers int, partialAgg bool)

// testHookParallelDone, when set by a test, is called as a started
// parallel scan closes, with whether the store cut its pieces and the
// rows each piece read.
var testHookParallelDone func(fromStore bool, pieceRows []int64)

func (o *parallelScanOp) start(ctx context.Context) {
	o.started = true
	if testHookParallelStart != nil {
		testHookParallelStart(o.nwork, o.agg != nil)
	}
	if o.par != nil {
		o.par.workers, o.par.pieces = int64(o.nwork), int64(len(o.its))
	}
	o.env.zone() // warm the session's zone cache: workers only read it
	sh := &parShared{pieces: make([]pieceOut, len(o.its)), working: o.nwork}
	sh.cond.L = &sh.mu
	if o.agg != nil {
		sh.groups = make(chan []*group, 2*o.nwork)
	}
	o.sh = sh
	sh.wg.Add(o.nwork)
	fast := o.su.fast.resolve(o.env) // read-only: the workers share it
	for range o.nwork {
		w := &scanOp{p: o.p, env: workerEnv(o.env), row: make(Row, len(o.p.Table.Columns)),
			ids: o.su.ids, wt: o.su.wt, keyWT: o.su.keyWT, late: o.su.late, lazy: o.lazy, fast: fast, reset: o.su.reset}
		if fast != nil && o.su.rawF != nil && !rawDecodeOff(false) {
			w.rawF = o.su.rawF
		}
		go o.work(ctx, w)
	}
}

// workerEnv is a worker's copy of the statement's evalEnv: it shares the
// read-only parts (parameters, session, statement time) and has its own
// caches. parallelSafe expressions touch nothing else.
func workerEnv(env *evalEnv) *evalEnv {
	w := *env
	w.regexps, w.outer, w.subq, w.work = nil, nil, nil, nil
	return &w
}

// work is one worker: it takes pieces in key order until none is left,
// the scan stopped or it failed.
func (o *parallelScanOp) work(ctx context.Context, w *scanOp) {
	sh := o.sh
	var pa *partialTable
	if o.agg != nil {
		pa = o.agg.newTable(w.env)
		w.noKey = o.agg.noKey
	}
	defer func() {
		if r := recover(); r != nil {
			o.fail(pgerror.New(pgerror.CodeInternalError, "parallel scan worker: %v", r))
		}
		if pa != nil && o.failed() == nil {
			if err := pa.flush(o); err != nil {
				o.fail(err)
			}
		}
		sh.mu.Lock()
		sh.working--
		last := sh.working == 0
		sh.mu.Unlock()
		if last && sh.groups != nil {
			close(sh.groups)
		}
		sh.wg.Done()
	}()
	for {
		sh.mu.Lock()
		if sh.stopped || sh.next >= len(o.its) {
			sh.mu.Unlock()
			return
		}
		i := sh.next
		sh.next++
		sh.mu.Unlock()
		if err := o.readPiece(ctx, i, w, pa); err != nil {
			o.fail(err)
			return
		}
	}
}

// readPiece reads piece i, emitting its rows or aggregating them into pa.
func (o *parallelScanOp) readPiece(ctx context.Context, i int, w *scanOp, pa *partialTable) error {
	sh := o.sh
	it := o.its[i]
	var c *rowChunk
	var passed int64
	w.ref = kv.RowRefOf(it)
	// raw: fold rows in from their raw cells where possible.
	raw := pa != nil && pa.a.raw != nil && (o.p.Filter == nil || w.rawF != nil)
	defer func() {
		sh.mu.Lock()
		sh.passed += passed
		sh.mu.Unlock()
	}()
	for n := 0; it.Next(); n++ {
		if n&1023 == 1023 {
			if err := ctx.Err(); err != nil {
				return pgerror.New(pgerror.CodeQueryCanceled, "canceling statement due to user request")
			}
			if o.failed() != nil {
				return nil // another worker failed: its error is the statement's
			}
		}
		if raw {
			handled, pass, err := pa.addRaw(o, w, w.rowOf(it).Cells)
			if err != nil {
				return err
			}
			if handled {
				if pass {
					passed++
				}
				continue
			}
		}
		ok, err := w.decodeFiltered(it)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		passed++
		if pa != nil {
			if err := pa.add(o, w.row); err != nil {
				return err
			}
			continue
		}
		if c == nil {
			c = &rowChunk{rows: make([]Row, 0, chunkRows)}
		}
		r := append(make(Row, 0, len(w.row)), w.row...)
		c.rows = append(c.rows, r)
		c.size += rowMem(r)
		if len(c.rows) == chunkRows {
			if !o.emit(i, c, false) {
				return nil
			}
			c = nil
		}
	}
	if err := it.Err(); err != nil {
		return storageError(err)
	}
	if err := ctx.Err(); err != nil {
		return pgerror.New(pgerror.CodeQueryCanceled, "canceling statement due to user request")
	}
	if pa == nil {
		o.emit(i, c, true)
	}
	return nil
}

func rowMem(r Row) int64 {
	n := int64(24 + 48*len(r))
	for i := range r {
		n += int64(len(r[i].S))
	}
	return n
}

// decodeFiltered decodes it's current row into o.row and runs the
// filter: ok reports that the row passes. It is scanOp.Next's loop body
// without AS OF.
func (o *scanOp) decodeFiltered(it kv.RowIterator) (ok bool, err error) {
	if o.late != nil {
		return o.decodeLate(it)
	}
	if _, err := o.decode(o.rowOf(it)); err != nil {
		return false, err
	}
	if o.p.Filter == nil {
		return true, nil
	}
	return o.filter()
}

// emit hands chunk c (nil: none) of piece i to the consumer, marking the
// piece done when last. A worker ahead of the consumer waits while the
// buffered rows exceed the limit. It reports false when the scan stopped.
func (o *parallelScanOp) emit(i int, c *rowChunk, last bool) bool {
	sh := o.sh
	sh.mu.Lock()
	defer sh.mu.Unlock()
	for c != nil && !sh.stopped && i != sh.cur && sh.buffered > o.limit {
		sh.cond.Wait()
	}
	if sh.stopped {
		return false
	}
	if c != nil {
		sh.pieces[i].chunks = append(sh.pieces[i].chunks, c)
		sh.buffered += c.size
	}
	if last {
		sh.pieces[i].done = true
	}
	sh.cond.Broadcast()
	return true
}

// fail records the scan's first error and stops every worker.
func (o *parallelScanOp) fail(err error) {
	sh := o.sh
	sh.mu.Lock()
	if sh.err == nil {
		sh.err = err
	}
	sh.stopped = true
	sh.cond.Broadcast()
	sh.mu.Unlock()
}

func (o *parallelScanOp) failed() error {
	o.sh.mu.Lock()
	defer o.sh.mu.Unlock()
	return o.sh.err
}

// Next returns the scan's rows in key order.
func (o *parallelScanOp) Next(ctx context.Context) (Row, error) {
	if !o.started {
		o.start(ctx)
	}
	for {
		if o.chunk != nil && o.ci < len(o.chunk.rows) {
			r := o.chunk.rows[o.ci]
			o.ci++
			return r, nil
		}
		o.chunk = nil
		c, err := o.nextChunk(ctx)
		if err != nil {
			return nil, err
		}
		o.chunk, o.ci = c, 0
	}
}

// nextChunk waits for the next chunk of the consumer's piece, moving on
// to the next piece when one is done.
func (o *parallelScanOp) nextChunk(ctx context.Context) (*rowChunk, error) {
	sh := o.sh
	sh.mu.Lock()
	defer sh.mu.Unlock()
	for {
		if sh.err != nil {
			return nil, sh.err
		}
		if sh.cur >= len(sh.pieces) {
			return nil, io.EOF
		}
		p := &sh.pieces[sh.cur]
		if len(p.chunks) > 0 {
			c := p.chunks[0]
			p.chunks[0] = nil
			p.chunks = p.chunks[1:]
			sh.buffered -= c.size
			sh.cond.Broadcast()
			return c, nil
		}
		if p.done {
			sh.cur++
			sh.cond.Broadcast()
			continue
		}
		if sh.stopped {
			// Stopped without an error: only Close does that.
			return nil, io.EOF
		}
		sh.cond.Wait()
	}
}

// Close stops the workers, waits for them and closes the iterators.
func (o *parallelScanOp) Close() {
	if o.sh != nil {
		o.sh.mu.Lock()
		o.sh.stopped = true
		o.sh.cond.Broadcast()
		o.sh.mu.Unlock()
		if o.sh.groups != nil {
			for range o.sh.groups { // unblock workers flushing groups
			}
		}
		o.sh.wg.Wait()
	}
	if o.its == nil {
		return
	}
	var st kv.ReadStats
	var pieceRows []int64
	if testHookParallelDone != nil {
		pieceRows = make([]int64, 0, len(o.its))
	}
	for _, it := range o.its {
		s := it.Stats()
		st.Add(s)
		it.Close()
		if pieceRows != nil {
			pieceRows = append(pieceRows, s.RowsRead)
		}
	}
	if pieceRows != nil && o.started {
		testHookParallelDone(o.fromStore, pieceRows)
	}
	o.its = nil
	if o.stats != nil {
		o.stats.read = st
	}
}

// partialGroups returns the next batch of groups the workers aggregated,
// io.EOF after the last, or the scan's error.
func (o *parallelScanOp) partialGroups(ctx context.Context) ([]*group, error) {
	if !o.started {
		o.start(ctx)
	}
	gs, ok := <-o.sh.groups
	if err := o.failed(); err != nil {
		return nil, err
	}
	if !ok {
		if o.scanRows != nil {
			o.sh.mu.Lock()
			*o.scanRows = o.sh.passed
			o.sh.mu.Unlock()
		}
		return nil, io.EOF
	}
	return gs, nil
}
