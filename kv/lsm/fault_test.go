package lsm_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"math/rand/v2"
	"path"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm"
	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

// Fault injection on a MemFS: failed fsyncs, a full disk and flipped bits.
// Each test keeps a ledger of the batches acknowledged and of those whose
// Apply failed, and checks that every acknowledged batch survives a restart,
// that a failed one is all or nothing, and that damage is reported with an
// error naming the damaged file, never read as wrong data.

// ledger tracks batches of new rows: batch b writes keys k<b>/0..k<b>/3.
type ledger struct {
	acked  map[int]bool
	failed map[int]bool
	next   int
}

const ledgerRows = 4

func newLedger() *ledger { return &ledger{acked: map[int]bool{}, failed: map[int]bool{}} }

func ledgerKey(b, i int) []byte { return fmt.Appendf(nil, "k%06d/%d", b, i) }

func ledgerValue(b, i int) []byte {
	return append(fmt.Appendf(nil, "value of %d/%d ", b, i), bytes.Repeat([]byte{byte('a' + b%26)}, 200)...)
}

// write applies the next batch and records the outcome.
func (l *ledger) write(ctx context.Context, tbl kv.Table) error {
	b := l.next
	l.next++
	batch := make([]kv.RowMutation, ledgerRows)
	for i := range batch {
		batch[i] = kv.RowMutation{Key: ledgerKey(b, i), Mutations: []kv.Mutation{
			{Kind: kv.SetCell, Family: "f", Qualifier: []byte("q"), Timestamp: 1000, Value: ledgerValue(b, i)},
			{Kind: kv.SetCell, Family: "g", Qualifier: []byte("q"), Timestamp: 2000, Value: ledgerValue(b, i)},
		}}
	}
	err := tbl.Apply(ctx, batch)
	if err != nil {
		l.failed[b] = true
	} else {
		l.acked[b] = true
	}
	return err
}

func (l *ledger) spec() kv.TableSpec {
	return kv.TableSpec{Families: []kv.Family{{Name: "f"}, {Name: "g", Compression: "zstd"}}}
}

// check scans tbl: every acknowledged batch must be whole, a failed one
// absent or, with failedMayExist, whole; nothing else may exist.
func (l *ledger) check(t *testing.T, tbl kv.Table, failedMayExist bool, when string) {
	t.Helper()
	rows, err := readAll(context.Background(), tbl, kv.RowSet{}, kv.ReadOptions{})
	if err != nil {
		t.Fatalf("%s: scan: %v", when, err)
	}
	count := map[int]int{}
	for _, r := range rows {
		var b, i int
		if _, err := fmt.Sscanf(string(r.Key), "k%d/%d", &b, &i); err != nil {
			t.Fatalf("%s: unexpected row %q", when, r.Key)
		}
		if len(r.Cells) != 2 || !bytes.Equal(r.Cells[0].Value, ledgerValue(b, i)) || !bytes.Equal(r.Cells[1].Value, ledgerValue(b, i)) {
			t.Fatalf("%s: row %q has wrong cells: %s", when, r.Key, strings.Join(rowLines([]kv.Row{r}), "\n"))
		}
		count[b]++
	}
	for b := range l.acked {
		if count[b] != ledgerRows {
			t.Fatalf("%s: acknowledged batch %d has %d of %d rows", when, b, count[b], ledgerRows)
		}
	}
	for b, n := range count {
		switch {
		case l.acked[b]:
		case !l.failed[b]:
			t.Fatalf("%s: batch %d was never written but has %d rows", when, b, n)
		case !failedMayExist:
			t.Fatalf("%s: batch %d, whose Apply failed, is visible (%d rows)", when, b, n)
		case n != ledgerRows:
			t.Fatalf("%s: batch %d, whose Apply failed, is half-applied: %d of %d rows", when, b, n, ledgerRows)
		}
	}
}

// faultStore is a store on a MemFS with its simulated process.
type faultStore struct {
	t     *testing.T
	mem   *vfs.MemFS
	proc  *procFS
	opts  lsm.Options
	store *lsm.Store
	tbl   kv.Table
}

func newFaultStore(t *testing.T, opts lsm.Options, spec kv.TableSpec) *faultStore {
	f := &faultStore{t: t, mem: vfs.NewMem(), opts: opts}
	if err := f.open(); err != nil {
		t.Fatalf("open: %v", err)
	}
	if err := f.store.CreateTable(context.Background(), "t", spec); err != nil {
		t.Fatal(err)
	}
	var err error
	if f.tbl, err = f.store.Table(context.Background(), "t"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if f.store != nil {
			closeWithin(t, f.store)
		}
	})
	return f
}

func (f *faultStore) open() error {
	f.proc = &procFS{inner: f.mem}
	o := f.opts
	o.FS, o.Logger = f.proc, discardLogger()
	s, err := lsm.Open(modelDir, o)
	if err != nil {
		f.store = nil
		return err
	}
	f.store = s
	if f.tbl, err = s.Table(context.Background(), "t"); err != nil && !errors.Is(err, kv.ErrTableNotFound) {
		return err
	}
	return nil
}

// crash closes the store as a dead process would (it can touch nothing) and
// drops what was not synced.
func (f *faultStore) crash() {
	f.proc.kill()
	f.mem.Crash()
	if err := f.store.Close(); err != nil {
		f.t.Logf("close of the crashed store: %v", err)
	}
	f.store = nil
}

func (f *faultStore) reopen() {
	f.t.Helper()
	if err := f.open(); err != nil {
		f.t.Fatalf("reopen: %v", err)
	}
}

// memFiles returns every file under dir with its size. The store may be
// live: a file it removes meanwhile is left out.
func memFiles(t *testing.T, fs vfs.FS, dir string) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	names, err := fs.List(dir)
	if err != nil {
		t.Fatalf("list %s: %v", dir, err)
	}
	for _, n := range names {
		p := path.Join(dir, n)
		if _, err := fs.List(p); err == nil { // a directory
			for k, v := range memFiles(t, fs, p) {
				out[k] = v
			}
			continue
		}
		f, err := fs.Open(p)
		if errors.Is(err, iofs.ErrNotExist) {
			continue // removed by the live store since List
		}
		if err != nil {
			t.Fatalf("open %s: %v", p, err)
		}
		size, err := f.Size()
		f.Close()
		if err != nil {
			t.Fatalf("size %s: %v", p, err)
		}
		out[p] = size
	}
	return out
}

func usage(t *testing.T, fs vfs.FS) int64 {
	var n int64
	for _, s := range memFiles(t, fs, modelDir) {
		n += s
	}
	return n
}

// TestFaultSyncError: a failed fsync fails the Apply waiting on it and
// every later one, even once fsync works again (after a failed fsync the
// kernel may have dropped the data); reads go on; a restart loses nothing
// acknowledged.
func TestFaultSyncError(t *testing.T) {
	ctx := context.Background()
	l := newLedger()
	f := newFaultStore(t, lsm.Options{MemtableSize: 16 << 10}, l.spec())
	for range 40 {
		if err := l.write(ctx, f.tbl); err != nil {
			t.Fatalf("apply: %v", err)
		}
	}
	f.mem.InjectSyncError(errors.New("EIO from the test"))
	err := l.write(ctx, f.tbl)
	if err == nil {
		t.Fatal("Apply succeeded while every fsync fails")
	}
	if !errors.Is(err, vfs.ErrInjected) {
		t.Errorf("Apply's error does not wrap the fsync failure: %v", err)
	}
	t.Logf("Apply with fsync failing: %v", err)
	f.mem.InjectSyncError(nil)
	if err := l.write(ctx, f.tbl); err == nil {
		t.Error("Apply succeeded after an fsync failure: a failed fsync must fail the store for writes")
	}
	l.check(t, f.tbl, false, "after the fsync failure")
	f.crash()
	f.reopen()
	l.check(t, f.tbl, true, "after restart")
	for range 10 {
		if err := l.write(ctx, f.tbl); err != nil {
			t.Fatalf("apply after restart: %v", err)
		}
	}
	f.crash()
	f.reopen()
	l.check(t, f.tbl, true, "after a second restart")
}

// TestFaultSyncErrorInFlush: a flush whose fsync fails reports it, and
// loses nothing: the WAL it would have replaced must still be there.
func TestFaultSyncErrorInFlush(t *testing.T) {
	ctx := context.Background()
	l := newLedger()
	f := newFaultStore(t, lsm.Options{MemtableSize: 1 << 20}, l.spec())
	for range 60 {
		if err := l.write(ctx, f.tbl); err != nil {
			t.Fatalf("apply: %v", err)
		}
	}
	f.mem.InjectSyncError(errors.New("EIO from the test"))
	if err := f.store.Flush(ctx); err == nil {
		t.Error("Flush succeeded while every fsync fails")
	} else {
		t.Logf("Flush with fsync failing: %v", err)
	}
	l.check(t, f.tbl, false, "after the failed flush")
	f.crash()
	f.mem.InjectSyncError(nil)
	f.reopen()
	l.check(t, f.tbl, true, "after restart")
}

// TestFaultDiskFull: with the disk full, writes or flushes fail with an
// error matching ENOSPC; with space again, a restart has every acknowledged
// batch and the store works.
func TestFaultDiskFull(t *testing.T) {
	ctx := context.Background()
	for _, memtable := range []int64{8 << 10, 1 << 20} {
		t.Run(fmt.Sprintf("memtable=%d", memtable), func(t *testing.T) {
			l := newLedger()
			f := newFaultStore(t, lsm.Options{MemtableSize: memtable, BlockSize: 1 << 10}, l.spec())
			for range 20 {
				if err := l.write(ctx, f.tbl); err != nil {
					t.Fatalf("apply: %v", err)
				}
			}
			f.mem.SetSpaceLimit(usage(t, f.mem) + 48<<10)
			var err error
			for range 2000 {
				if err = l.write(ctx, f.tbl); err != nil {
					break
				}
			}
			if err == nil {
				t.Fatal("2000 batches fit in 48 KiB")
			}
			if !errors.Is(err, syscall.ENOSPC) {
				t.Errorf("Apply on a full disk: error does not match ENOSPC: %v", err)
			}
			t.Logf("Apply on a full disk (%d batches acknowledged): %v", len(l.acked), err)
			if err := f.store.Flush(ctx); err != nil {
				t.Logf("Flush on a full disk: %v", err)
			}
			l.check(t, f.tbl, false, "with the disk full")
			f.crash()
			f.mem.SetSpaceLimit(-1)
			f.reopen()
			l.check(t, f.tbl, true, "after restart with space")
			for range 20 {
				if err := l.write(ctx, f.tbl); err != nil {
					t.Fatalf("apply after restart: %v", err)
				}
			}
			if err := f.store.Flush(ctx); err != nil {
				t.Fatalf("flush after restart: %v", err)
			}
			if err := f.store.Compact(ctx); err != nil {
				t.Fatalf("compact after restart: %v", err)
			}
			f.crash()
			f.reopen()
			l.check(t, f.tbl, true, "after a second restart")
		})
	}
}

// copyMem returns a new MemFS holding src's files, all synced.
func copyMem(t *testing.T, src *vfs.MemFS) *vfs.MemFS {
	t.Helper()
	dst := vfs.NewMem()
	for name, size := range memFiles(t, src, modelDir) {
		in, err := src.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, size)
		if _, err := in.ReadAt(buf, 0); err != nil && size > 0 {
			t.Fatal(err)
		}
		in.Close()
		if err := dst.MkdirAll(path.Dir(name)); err != nil {
			t.Fatal(err)
		}
		out, err := dst.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := out.Write(buf); err != nil {
			t.Fatal(err)
		}
		if err := out.Sync(); err != nil {
			t.Fatal(err)
		}
		out.Close()
	}
	return dst
}

// flippedStore is a closed store with files only (no WAL to replay).
func flippedStore(t *testing.T) (*vfs.MemFS, *ledger) {
	ctx := context.Background()
	l := newLedger()
	f := newFaultStore(t, lsm.Options{MemtableSize: 1 << 20, BlockSize: 256, RegionSplitSize: -1}, l.spec())
	for range 50 {
		if err := l.write(ctx, f.tbl); err != nil {
			t.Fatalf("apply: %v", err)
		}
	}
	if err := f.store.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if err := f.store.Close(); err != nil {
		t.Fatal(err)
	}
	f.store = nil
	return f.mem, l
}

// filesLike returns the files under the store whose base name satisfies
// match, sorted.
func filesLike(t *testing.T, fs vfs.FS, match func(base string) bool) []string {
	var out []string
	for name := range memFiles(t, fs, modelDir) {
		if match(path.Base(name)) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

func isSST(base string) bool { return strings.HasSuffix(base, ".sst") }

// readEverything opens the store and reads every row every way: a scan
// both ways and a Get of each key (and of a missing one, for the bloom
// filters). It fails on wrong data, or rows missing from a read that
// reported no error, and returns the errors seen.
func readEverything(t *testing.T, fs vfs.FS, l *ledger) []error {
	t.Helper()
	ctx := context.Background()
	s, err := lsm.Open(modelDir, lsm.Options{FS: fs, Logger: discardLogger()})
	if err != nil {
		return []error{err}
	}
	defer closeWithin(t, s)
	tbl, err := s.Table(ctx, "t")
	if err != nil {
		return []error{err}
	}
	var errs []error
	check := func(rs kv.RowSet, o kv.ReadOptions, want int) {
		it := tbl.Read(ctx, rs, o)
		defer it.Close()
		n := 0
		for ; it.Next(); n++ {
			r := it.Row()
			var b, i int
			fmt.Sscanf(string(r.Key), "k%d/%d", &b, &i)
			if !l.acked[b] || len(r.Cells) != 2 || !bytes.Equal(r.Cells[0].Value, ledgerValue(b, i)) || !bytes.Equal(r.Cells[1].Value, ledgerValue(b, i)) {
				t.Fatalf("wrong data read after a bit flip: %s", strings.Join(rowLines([]kv.Row{cloneRow(r)}), "\n"))
			}
		}
		if err := it.Err(); err != nil {
			errs = append(errs, err)
		} else if n != want {
			t.Fatalf("read %s of %v: %d rows and no error, want %d: rows silently lost", fmtRowSet(rs), o, n, want)
		}
	}
	check(kv.RowSet{}, kv.ReadOptions{}, len(l.acked)*ledgerRows)
	check(kv.RowSet{}, kv.ReadOptions{Reverse: true}, len(l.acked)*ledgerRows)
	for b := range l.acked {
		for i := range ledgerRows {
			check(kv.RowSet{Keys: [][]byte{ledgerKey(b, i)}}, kv.ReadOptions{}, 1)
		}
	}
	check(kv.RowSet{Keys: [][]byte{[]byte("k999999/0")}}, kv.ReadOptions{}, 0)
	return errs
}

func requireNamed(t *testing.T, errs []error, file string, what string) {
	t.Helper()
	if len(errs) == 0 {
		t.Errorf("%s: went unnoticed", what)
		return
	}
	for _, err := range errs {
		if !strings.Contains(err.Error(), path.Base(file)) {
			t.Errorf("%s: error does not name %s: %v", what, path.Base(file), err)
			return
		}
	}
	t.Logf("%s: %v", what, errs[0])
}

// TestFaultFlippedBitInFile: a flipped bit in a data block is an error
// naming the file; a flip anywhere else in a file is an error or harmless,
// never wrong data or a panic.
func TestFaultFlippedBitInFile(t *testing.T) {
	base, l := flippedStore(t)
	ssts := filesLike(t, base, isSST)
	if len(ssts) == 0 {
		t.Fatalf("no .sst file among %v", memFiles(t, base, modelDir))
	}
	sizes := memFiles(t, base, modelDir)
	rng := rand.New(rand.NewPCG(1, 2))
	trials := 40
	if testing.Short() {
		trials = 10
	}
	for trial := range trials {
		fs := copyMem(t, base)
		file := ssts[rng.IntN(len(ssts))]
		dataBlock := trial%2 == 0
		off := rng.Int64N(sizes[file])
		if dataBlock {
			off = rng.Int64N(min(200, sizes[file])) // inside the first data block (BlockSize 256)
		}
		bit := uint(rng.IntN(8))
		if err := fs.FlipBit(file, off, bit); err != nil {
			t.Fatal(err)
		}
		what := fmt.Sprintf("bit %d at offset %d of %s (size %d)", bit, off, file, sizes[file])
		errs := readEverything(t, fs, l)
		if dataBlock {
			requireNamed(t, errs, file, what)
		} else if len(errs) > 0 {
			requireNamed(t, errs, file, what)
		} else {
			t.Logf("%s: no read noticed (not in anything read)", what)
		}
	}
}

// TestFaultFlippedBitInManifest: a flipped bit in the manifest or CURRENT
// makes Open fail with an error naming the file.
func TestFaultFlippedBitInManifest(t *testing.T) {
	base, l := flippedStore(t)
	sizes := memFiles(t, base, modelDir)
	meta := filesLike(t, base, func(b string) bool {
		return b == "CURRENT" || strings.Contains(strings.ToUpper(b), "MANIFEST")
	})
	if len(meta) < 2 {
		t.Fatalf("want CURRENT and a manifest among %v", sizes)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, file := range meta {
		for range 4 {
			fs := copyMem(t, base)
			off, bit := rng.Int64N(sizes[file]), uint(rng.IntN(8))
			if path.Base(file) == "CURRENT" && sizes[file] > 1 {
				off = rng.Int64N(sizes[file] - 1) // not the newline
			}
			if err := fs.FlipBit(file, off, bit); err != nil {
				t.Fatal(err)
			}
			what := fmt.Sprintf("bit %d at offset %d of %s (size %d)", bit, off, file, sizes[file])
			s, err := lsm.Open(modelDir, lsm.Options{FS: fs, Logger: discardLogger()})
			if err == nil {
				closeWithin(t, s)
				readEverything(t, fs, l) // at least never wrong data
				t.Errorf("%s: Open succeeded", what)
				continue
			}
			requireNamed(t, []error{err}, file, what)
		}
	}
}

// TestFaultFlippedBitInWAL: a flipped bit in the middle of a WAL segment,
// with valid records after it, cannot be a torn write: Open fails naming
// the segment.
func TestFaultFlippedBitInWAL(t *testing.T) {
	ctx := context.Background()
	l := newLedger()
	f := newFaultStore(t, lsm.Options{MemtableSize: 4 << 20}, l.spec())
	for range 200 {
		if err := l.write(ctx, f.tbl); err != nil {
			t.Fatalf("apply: %v", err)
		}
	}
	f.crash()
	sizes := memFiles(t, f.mem, modelDir)
	wals := filesLike(t, f.mem, func(b string) bool { return strings.HasPrefix(b, "wal-") && strings.HasSuffix(b, ".log") })
	var wal string
	for _, w := range wals {
		if wal == "" || sizes[w] > sizes[wal] {
			wal = w
		}
	}
	if wal == "" || sizes[wal] < 10<<10 {
		t.Fatalf("no WAL segment holding the 200 batches among %v", sizes)
	}
	// A control first: an intact copy opens with everything there.
	ctrl, err := lsm.Open(modelDir, lsm.Options{FS: copyMem(t, f.mem), Logger: discardLogger()})
	if err != nil {
		t.Fatalf("open of the intact copy: %v", err)
	}
	tbl, err := ctrl.Table(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	l.check(t, tbl, false, "intact WAL")
	closeWithin(t, ctrl)

	off := sizes[wal] / 2
	if err := f.mem.FlipBit(wal, off, 3); err != nil {
		t.Fatal(err)
	}
	if err := f.open(); err == nil {
		l.check(t, f.tbl, false, "WAL with a flipped bit")
		t.Fatalf("Open succeeded with bit 3 at offset %d of %s (size %d) flipped", off, wal, sizes[wal])
	} else {
		requireNamed(t, []error{err}, wal, fmt.Sprintf("bit 3 at offset %d of %s", off, wal))
	}
}
