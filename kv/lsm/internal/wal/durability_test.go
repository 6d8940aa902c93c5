package wal

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

// TestCrashDurability appends from several goroutines while rotating, cuts
// the power at a random moment (optionally keeping torn tails), and checks
// the log after recovery: every acknowledged record is there, every record
// is whole and in order, and recovery can continue the log through a second
// crash.
func TestCrashDurability(t *testing.T) {
	for seed := range uint64(40) {
		for _, torn := range []bool{false, true} {
			// Preallocation on (small steps: frames overwrite zeros, fills
			// race with syncers and rotations) and off (plain appends).
			for _, prealloc := range []int64{testPreallocate, -1} {
				t.Run(fmt.Sprintf("seed=%d/torn=%v/prealloc=%d", seed, torn, prealloc), func(t *testing.T) {
					crashRound(t, seed, torn, prealloc)
				})
			}
		}
	}
}

const crashWriters = 6

func crashRound(t *testing.T, seed uint64, torn bool, prealloc int64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	m, dir := newMemDir(t)
	w := mustCreateOpts(t, Options{FS: m, Dir: dir, Preallocate: prealloc}, 1)

	var (
		acked   [crashWriters]atomic.Int64 // per writer: highest acked index + 1
		nacked  atomic.Int64
		stop    atomic.Bool
		wg      sync.WaitGroup
		crashAt = int64(20 + rng.IntN(300))
	)
	for g := range crashWriters {
		wg.Go(func() {
			for i := 0; !stop.Load(); i++ {
				if w.Append(crashRecord(g, i)) != nil {
					return // failed for good after the crash
				}
				acked[g].Store(int64(i + 1))
				nacked.Add(1)
			}
		})
	}
	wg.Go(func() {
		for seg := uint64(2); !stop.Load(); seg++ {
			time.Sleep(time.Duration(rng.IntN(300)) * time.Microsecond)
			if w.Rotate(seg) != nil {
				return
			}
		}
	})
	for nacked.Load() < crashAt {
		time.Sleep(10 * time.Microsecond)
	}
	// Acks observed before the crash must survive it.
	var mustHave [crashWriters]int64
	for g := range mustHave {
		mustHave[g] = acked[g].Load()
	}
	if torn {
		m.CrashKeepPartial(rand.New(rand.NewPCG(seed, 2)))
	} else {
		m.Crash()
	}
	stop.Store(true)
	wg.Wait()
	w.Close()

	checkRecovered(t, m, dir, mustHave)

	// Recover the way the engine must: cut the torn tail, start a new
	// segment, write, crash again. The log must replay cleanly.
	segs, _ := Segments(m, dir)
	last := segs[len(segs)-1]
	lastValid, err := Replay(m, dir, 0, func(uint64, []byte) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if err := TruncateSegment(m, dir, last, lastValid); err != nil {
		t.Fatal(err)
	}
	w2 := mustCreateOpts(t, Options{FS: m, Dir: dir, Preallocate: prealloc}, last+1)
	if err := w2.Append([]byte("after recovery")); err != nil {
		t.Fatal(err)
	}
	w2.AppendAsync([]byte("unsynced garbage tail"))
	m.CrashKeepPartial(rand.New(rand.NewPCG(seed, 3)))
	got, _, err := replayAll(t, m, dir, 0)
	if err != nil {
		t.Fatalf("second recovery: %v", err)
	}
	found := false
	for _, r := range got {
		found = found || r.rec == "after recovery"
	}
	if !found {
		t.Fatal("record acknowledged after recovery lost")
	}
}

// crashRecord is record i of writer g; its body lets checkRecovered tell a
// whole record from a damaged one.
func crashRecord(g, i int) []byte {
	b := fmt.Appendf(nil, "%d/%d/", g, i)
	for j := range (g*31 + i*7) % 200 {
		b = append(b, byte(g+i+j))
	}
	return b
}

func checkRecovered(t *testing.T, fs vfs.FS, dir string, mustHave [crashWriters]int64) {
	t.Helper()
	got, lastValid, err := replayAll(t, fs, dir, 0)
	if err != nil {
		t.Fatalf("Replay after crash: %v", err)
	}
	segs, _ := Segments(fs, dir)
	if size := fileSize(t, fs, segPath(dir, segs[len(segs)-1])); lastValid > size {
		t.Fatalf("lastValid %d beyond size %d", lastValid, size)
	}
	var next [crashWriters]int64
	for _, r := range got {
		var g, i int
		if _, err := fmt.Sscanf(r.rec, "%d/%d/", &g, &i); err != nil || g < 0 || g >= crashWriters {
			t.Fatalf("garbage record %.30q", r.rec)
		}
		if r.rec != string(crashRecord(g, i)) {
			t.Fatalf("damaged record %d/%d", g, i)
		}
		if int64(i) != next[g] {
			t.Fatalf("writer %d: record %d where %d expected", g, i, next[g])
		}
		next[g]++
	}
	for g := range next {
		if next[g] < mustHave[g] {
			t.Fatalf("writer %d: %d records recovered, %d were acknowledged", g, next[g], mustHave[g])
		}
	}
}
