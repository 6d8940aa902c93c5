package lsm_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/lsm"
	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

// The crash test runs the store in a child process (this test binary run
// again with crashChildDir set) on a real directory with fsync on. The child
// applies numbered batches from several goroutines and prints "ack N" once
// Apply of batch N returned nil. The parent SIGKILLs it at a random moment,
// then reopens the store and checks that every acknowledged batch is there
// and that every batch is either whole or absent; then the next round
// writes on.
//
// Batch N writes rows r0/N .. r7/N, so one batch spans the whole key space
// and, once regions split, several regions: it must still be all or
// nothing.

const (
	crashChildDir   = "LSM_CRASH_CHILD_DIR"   // set in the child: the store directory
	crashChildFirst = "LSM_CRASH_CHILD_FIRST" // the child's first batch number
	crashRowsPerB   = 8
	crashWriters    = 4
	crashBlock      = 1_000_000 // batch numbers of round r are r*crashBlock + i
	crashTable      = "t"
)

func crashOptions() lsm.Options {
	return lsm.Options{
		MemtableSize:     32 << 10,
		RegionSplitSize:  96 << 10,
		MaxFilesPerStore: 3,
		BlockSize:        1 << 10,
		Logger:           discardLogger(),
	}
}

func crashKey(row int, batch int) []byte { return fmt.Appendf(nil, "r%d/%09d", row, batch) }

// crashValue is batch's value, padded so that files grow.
func crashValue(batch int) []byte {
	v := strconv.AppendInt(nil, int64(batch), 10)
	v = append(v, ' ')
	return append(v, bytes.Repeat([]byte{'.'}, 90)...)
}

// crashChild is the child process: it writes until it is killed.
func crashChild(dir string) {
	fail := func(format string, args ...any) {
		fmt.Printf("error "+format+"\n", args...)
		os.Exit(3)
	}
	first, err := strconv.Atoi(os.Getenv(crashChildFirst))
	if err != nil {
		fail("bad %s: %v", crashChildFirst, err)
	}
	ctx := context.Background()
	s, err := lsm.Open(dir, crashOptions())
	if err != nil {
		fail("open: %v", err)
	}
	err = s.CreateTable(ctx, crashTable, kv.TableSpec{Families: []kv.Family{{Name: "f"}}})
	if err != nil && !errors.Is(err, kv.ErrTableExists) {
		fail("create table: %v", err)
	}
	tbl, err := s.Table(ctx, crashTable)
	if err != nil {
		fail("table: %v", err)
	}
	os.Stdout.WriteString("ready\n")
	// Flushes and compactions in the background too, so that kills land
	// in them.
	go func() {
		for i := 0; ; i++ {
			time.Sleep(15 * time.Millisecond)
			op := s.Flush
			if i%3 == 2 {
				op = s.Compact
			}
			if err := op(ctx); err != nil {
				fail("flush/compact: %v", err)
			}
		}
	}()
	var next atomic.Int64
	next.Store(int64(first))
	for range crashWriters {
		go func() {
			for {
				b := int(next.Add(1) - 1)
				batch := make([]kv.RowMutation, crashRowsPerB)
				for i := range batch {
					batch[i] = kv.RowMutation{Key: crashKey(i, b), Mutations: []kv.Mutation{
						{Kind: kv.SetCell, Family: "f", Qualifier: []byte("v"), Timestamp: 1000, Value: crashValue(b)},
					}}
				}
				if err := tbl.Apply(ctx, batch); err != nil {
					fail("apply %d: %v", b, err)
				}
				os.Stdout.WriteString("ack " + strconv.Itoa(b) + "\n") // one write(2): lines never interleave
				if b%8 == 0 {
					// Read your writes, while flushes and compactions run.
					rs := kv.RowSet{}
					for i := range batch {
						rs.Keys = append(rs.Keys, crashKey(i, b))
					}
					rows, err := readAll(ctx, tbl, rs, kv.ReadOptions{})
					if err != nil || len(rows) != crashRowsPerB {
						fail("read back batch %d right after its Apply: %d of %d rows, err %v", b, len(rows), crashRowsPerB, err)
					}
				}
			}
		}()
	}
	select {}
}

// crashRound is what the parent learned from one child.
type crashRound struct {
	acked []int
	ready bool
	err   string // an "error" line from the child
}

// runCrashChild starts a child writing from batch number first, kills it
// with SIGKILL after delay (counted from "ready", or from the start when
// early), and returns what it acknowledged.
func runCrashChild(t *testing.T, dir string, first int, delay time.Duration, early bool) crashRound {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrash$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashChildDir+"="+dir, crashChildFirst+"="+strconv.Itoa(first))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var (
		mu    sync.Mutex
		round crashRound
	)
	ready := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			line := sc.Text()
			mu.Lock()
			switch {
			case line == "ready":
				round.ready = true
				close(ready)
			case strings.HasPrefix(line, "ack "):
				n, err := strconv.Atoi(strings.TrimPrefix(line, "ack "))
				if err != nil {
					round.err = "bad line " + line
				}
				round.acked = append(round.acked, n)
			case strings.HasPrefix(line, "error "):
				round.err = line
			}
			mu.Unlock()
		}
	}()
	if !early {
		select {
		case <-ready:
		case <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("child printed no ready line within 20s")
		}
	}
	time.Sleep(delay)
	cmd.Process.Kill() // SIGKILL
	<-done
	err = cmd.Wait()
	mu.Lock()
	defer mu.Unlock()
	if round.err != "" || !strings.Contains(fmt.Sprint(err), "killed") {
		t.Fatalf("child: %s (exit: %v)\nstderr:\n%s", round.err, err, stderr.String())
	}
	return round
}

// scanCrashStore opens the store in this process and returns the batches
// present, failing on a half-applied batch or a wrong value.
func scanCrashStore(t *testing.T, dir string) map[int]bool {
	t.Helper()
	ctx := context.Background()
	s, err := lsm.Open(dir, crashOptions())
	if err != nil {
		t.Fatalf("reopen after kill: %v", err)
	}
	defer func() {
		if err := s.Close(); err != nil {
			t.Fatalf("close: %v", err)
		}
	}()
	tbl, err := s.Table(ctx, crashTable)
	if err != nil {
		t.Fatalf("table after kill: %v", err)
	}
	rows, err := readAll(ctx, tbl, kv.RowSet{}, kv.ReadOptions{})
	if err != nil {
		t.Fatalf("scan after kill: %v", err)
	}
	count := map[int]int{}
	for _, r := range rows {
		var row, b int
		if _, err := fmt.Sscanf(string(r.Key), "r%d/%d", &row, &b); err != nil {
			t.Fatalf("unexpected row %q", r.Key)
		}
		if len(r.Cells) != 1 || !bytes.Equal(r.Cells[0].Value, crashValue(b)) {
			t.Fatalf("row %q: cells %v, want one with value %q", r.Key, r.Cells, crashValue(b))
		}
		count[b]++
	}
	present := map[int]bool{}
	for b, n := range count {
		if n != crashRowsPerB {
			t.Fatalf("batch %d is half-applied: %d of %d rows", b, n, crashRowsPerB)
		}
		present[b] = true
	}
	return present
}

func TestCrash(t *testing.T) {
	if dir := os.Getenv(crashChildDir); dir != "" {
		crashChild(dir)
		return
	}
	rounds := 16
	if testing.Short() {
		rounds = 3
	}
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 7))
	t.Logf("seed %d", seed)
	dir := t.TempDir()

	acked := map[int]bool{} // every batch ever acknowledged
	known := map[int]bool{} // the batches present at a verification, of verified rounds
	verifiedUpTo := 0       // rounds below this are settled in known
	for round := range rounds {
		// Kill early (during recovery) now and then; otherwise after a
		// random time of writing.
		early := round > 0 && rng.IntN(5) == 0
		delay := time.Duration(20+rng.IntN(350)) * time.Millisecond
		if early {
			delay = time.Duration(rng.IntN(60)) * time.Millisecond
		}
		res := runCrashChild(t, dir, round*crashBlock, delay, early)
		for _, b := range res.acked {
			acked[b] = true
		}
		t.Logf("round %d: killed after %v (early=%v), %d batches acknowledged", round, delay, early, len(res.acked))

		// Verify after most rounds; the others leave a crashed store for
		// the next child to recover.
		if round%3 == 1 && round != rounds-1 {
			continue
		}
		present := scanCrashStore(t, dir)
		for b := range acked {
			if !present[b] {
				t.Fatalf("round %d: acknowledged batch %d is lost", round, b)
			}
		}
		for b, was := range known {
			if was && !present[b] {
				t.Fatalf("round %d: batch %d, present after an earlier recovery, is gone", round, b)
			}
		}
		for b := range present {
			r := b / crashBlock
			if r < verifiedUpTo && !known[b] {
				t.Fatalf("round %d: batch %d, absent after an earlier recovery, has appeared", round, b)
			}
		}
		for b := range present {
			if !acked[b] && b/crashBlock >= verifiedUpTo {
				// Durable but killed before its ack was printed: at most one
				// per writer per round.
				if n := countUnacked(present, acked, b/crashBlock); n > crashWriters {
					t.Fatalf("round %d: %d unacknowledged batches of round %d present; at most %d can be in flight", round, n, b/crashBlock, crashWriters)
				}
			}
			known[b] = true
		}
		verifiedUpTo = round + 1
		t.Logf("round %d: verified %d batches present (%d acknowledged)", round, len(present), len(acked))
	}
	if len(acked) == 0 {
		t.Fatal("no batch was ever acknowledged")
	}
}

// countUnacked counts the batches of round r present but not acknowledged.
func countUnacked(present, acked map[int]bool, r int) int {
	n := 0
	for b := range present {
		if b/crashBlock == r && !acked[b] {
			n++
		}
	}
	return n
}

// procFS is the file system as one simulated process sees it: kill cuts it
// off, so that after a simulated crash the dead store's goroutines (and its
// Close) can touch nothing, exactly as if the process were gone.
type procFS struct {
	inner vfs.FS
	mu    sync.RWMutex // held shared by every operation, exclusively by kill
	dead  bool
}

var errProcDead = errors.New("test: simulated process is dead")

var _ vfs.FS = (*procFS)(nil)

func (p *procFS) kill() {
	p.mu.Lock()
	p.dead = true
	p.mu.Unlock()
}

func (p *procFS) do(f func() error) error {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if p.dead {
		return errProcDead
	}
	return f()
}

func (p *procFS) file(open func() (vfs.File, error)) (vfs.File, error) {
	var f vfs.File
	err := p.do(func() (err error) { f, err = open(); return err })
	if err != nil {
		return nil, err
	}
	return &procFile{p: p, f: f}, nil
}

func (p *procFS) Create(name string) (vfs.File, error) {
	return p.file(func() (vfs.File, error) { return p.inner.Create(name) })
}
func (p *procFS) Open(name string) (vfs.File, error) {
	return p.file(func() (vfs.File, error) { return p.inner.Open(name) })
}
func (p *procFS) OpenAppend(name string) (vfs.File, error) {
	return p.file(func() (vfs.File, error) { return p.inner.OpenAppend(name) })
}
func (p *procFS) Rename(o, n string) error { return p.do(func() error { return p.inner.Rename(o, n) }) }
func (p *procFS) Remove(name string) error { return p.do(func() error { return p.inner.Remove(name) }) }
func (p *procFS) MkdirAll(dir string) error {
	return p.do(func() error { return p.inner.MkdirAll(dir) })
}
func (p *procFS) SyncDir(dir string) error { return p.do(func() error { return p.inner.SyncDir(dir) }) }
func (p *procFS) List(dir string) (names []string, err error) {
	err = p.do(func() error { names, err = p.inner.List(dir); return err })
	return names, err
}

type procFile struct {
	p *procFS
	f vfs.File
}

func (f *procFile) Write(b []byte) (n int, err error) {
	err = f.p.do(func() error { n, err = f.f.Write(b); return err })
	return n, err
}

// WriteAt passes positional writes through, so that the WAL preallocates
// under the crash tests as it does on the OS.
func (f *procFile) WriteAt(b []byte, off int64) (n int, err error) {
	wa, ok := f.f.(io.WriterAt)
	if !ok {
		return 0, errors.New("test: file has no WriteAt")
	}
	err = f.p.do(func() error { n, err = wa.WriteAt(b, off); return err })
	return n, err
}
func (f *procFile) ReadAt(b []byte, off int64) (n int, err error) {
	err = f.p.do(func() error { n, err = f.f.ReadAt(b, off); return err })
	return n, err
}
func (f *procFile) Size() (n int64, err error) {
	err = f.p.do(func() error { n, err = f.f.Size(); return err })
	return n, err
}
func (f *procFile) Sync() error  { return f.p.do(f.f.Sync) }
func (f *procFile) Close() error { return f.p.do(f.f.Close) }
