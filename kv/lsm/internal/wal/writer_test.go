package wal

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

func TestRoundTrip(t *testing.T) {
	m, dir := newMemDir(t)
	w := mustCreate(t, m, dir, 1, false)
	recs := [][]byte{{}, []byte("a"), bytes.Repeat([]byte("xyz"), 1<<18), []byte("last")}
	for _, r := range recs {
		if err := w.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	if want := int64(len(recs)*headerSize + 1 + 3<<18 + 4); w.Size() != want {
		t.Fatalf("Size = %d, want %d", w.Size(), want)
	}
	size := w.Size()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, lastValid, err := replayAll(t, m, dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(recs) {
		t.Fatalf("replayed %d records, want %d", len(got), len(recs))
	}
	for i, r := range recs {
		if got[i].seg != 1 || got[i].rec != string(r) {
			t.Fatalf("record %d differs", i)
		}
	}
	if lastValid != size {
		t.Fatalf("lastValid = %d, want size %d", lastValid, size)
	}
	if fsize := fileSize(t, m, segPath(dir, 1)); fsize < size {
		t.Fatalf("file size %d < appended %d", fsize, size)
	}
}

func TestRotateSegmentsRemoveBefore(t *testing.T) {
	m, dir := newMemDir(t)
	w := mustCreate(t, m, dir, 3, false)
	var want []replayed
	for i, seg := range []uint64{3, 5, 9} {
		if i > 0 {
			if err := w.Rotate(seg); err != nil {
				t.Fatal(err)
			}
		}
		if w.Segment() != seg || w.Size() != 0 {
			t.Fatalf("Segment, Size = %d, %d after rotating to %d", w.Segment(), w.Size(), seg)
		}
		for j := range 3 {
			r := fmt.Sprintf("s%d-%d", seg, j)
			if err := w.Append([]byte(r)); err != nil {
				t.Fatal(err)
			}
			want = append(want, replayed{seg, r})
		}
	}
	for _, bad := range []uint64{9, 4} {
		if err := w.Rotate(bad); err == nil {
			t.Fatalf("Rotate(%d) from 9 succeeded", bad)
		}
	}
	if err := w.Append([]byte("after bad rotate")); err != nil {
		t.Fatalf("bad Rotate failed the writer: %v", err)
	}
	want = append(want, replayed{9, "after bad rotate"})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	writeRaw(t, m, dir, "unrelated.txt", []byte("x"))
	writeRaw(t, m, dir, "wal-12.log", []byte("x"))

	segs, err := Segments(m, dir)
	if err != nil || !slices.Equal(segs, []uint64{3, 5, 9}) {
		t.Fatalf("Segments = %v, %v", segs, err)
	}
	got, _, err := replayAll(t, m, dir, 0)
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("Replay = %v, %v\nwant %v", got, err, want)
	}
	got, _, err = replayAll(t, m, dir, 4)
	if err != nil || !slices.Equal(got, want[3:]) {
		t.Fatalf("Replay from 4 = %v, %v", got, err)
	}
	if got, lastValid, err := replayAll(t, m, dir, 10); len(got) != 0 || lastValid != 0 || err != nil {
		t.Fatalf("Replay past the end = %v, %d, %v", got, lastValid, err)
	}

	if err := RemoveBefore(m, dir, 9); err != nil {
		t.Fatal(err)
	}
	m.Crash() // the removal was synced
	segs, err = Segments(m, dir)
	if err != nil || !slices.Equal(segs, []uint64{9}) {
		t.Fatalf("Segments after RemoveBefore = %v, %v", segs, err)
	}
	if _, err := Create(Options{FS: m, Dir: dir}, 9); err == nil {
		t.Fatal("Create over an existing segment succeeded")
	}
}

func TestCloseAndLimits(t *testing.T) {
	m, dir := newMemDir(t)
	w := mustCreate(t, m, dir, 1, false)
	if err := w.Append(make([]byte, MaxRecordSize+1)); err == nil {
		t.Fatal("oversized record accepted")
	}
	if err := w.Append([]byte("ok")); err != nil {
		t.Fatalf("oversized record failed the writer: %v", err)
	}
	wait := w.AppendAsync([]byte("pending"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := wait(); err != nil {
		t.Fatalf("waiter pending at Close: %v", err)
	}
	if err := w.Append([]byte("late")); !errors.Is(err, ErrClosed) {
		t.Fatalf("Append after Close = %v", err)
	}
	if err := w.Close(); !errors.Is(err, ErrClosed) {
		t.Fatalf("second Close = %v", err)
	}
	if err := w.Rotate(2); !errors.Is(err, ErrClosed) {
		t.Fatalf("Rotate after Close = %v", err)
	}
	m.Crash()
	got, _, err := replayAll(t, m, dir, 0)
	if err != nil || len(got) != 2 {
		t.Fatalf("Replay = %v, %v", got, err)
	}
}

// TestGroupCommit appends from many goroutines in a known global order
// (AppendAsync under a lock, as the engine does) and checks that syncs are
// shared and the log keeps that order.
func TestGroupCommit(t *testing.T) {
	const writers, perWriter = 16, 50
	m, dir := newMemDir(t)
	cfs := &countingFS{FS: m, delay: 200 * time.Microsecond}
	w := mustCreate(t, cfs, dir, 1, false)
	var (
		commitMu sync.Mutex
		next     int
		wg       sync.WaitGroup
	)
	for range writers {
		wg.Go(func() {
			for range perWriter {
				commitMu.Lock()
				wait := w.AppendAsync(record(next))
				next++
				commitMu.Unlock()
				if err := wait(); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	const n = writers * perWriter
	syncs, writes := cfs.syncs.Load(), cfs.writes.Load()
	t.Logf("%d appends, %d writes, %d syncs", n, writes, syncs)
	if syncs > n/4 {
		t.Errorf("%d syncs for %d concurrent appends: group commit not sharing syncs", syncs, n)
	}
	if writes > n/4 {
		t.Errorf("%d writes for %d concurrent appends: group commit not sharing writes", writes, n)
	}
	got, _, err := replayAll(t, m, dir, 0)
	if err != nil || len(got) != n {
		t.Fatalf("Replay: %d records, %v", len(got), err)
	}
	for i, r := range got {
		if r.rec != string(record(i)) {
			t.Fatalf("record %d out of order: %.20q", i, r.rec)
		}
	}
}

// TestAppendConcurrentWithRotate checks that waiters of a rotated segment
// complete and nothing is lost or reordered across segments.
func TestAppendConcurrentWithRotate(t *testing.T) {
	m, dir := newMemDir(t)
	w := mustCreate(t, m, dir, 1, false)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				if err := w.Append(fmt.Appendf(nil, "%d/%d", g, i)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Go(func() {
		for seg := uint64(2); seg < 20; seg++ {
			if err := w.Rotate(seg); err != nil {
				t.Error(err)
			}
			time.Sleep(50 * time.Microsecond)
		}
	})
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	m.Crash()
	got, _, err := replayAll(t, m, dir, 0)
	if err != nil || len(got) != 8*200 {
		t.Fatalf("Replay: %d records, %v", len(got), err)
	}
	nextOf := make([]int, 8)
	var lastSeg uint64
	for _, r := range got {
		var g, i int
		fmt.Sscanf(r.rec, "%d/%d", &g, &i)
		if i != nextOf[g] || r.seg < lastSeg {
			t.Fatalf("record %q in segment %d out of order", r.rec, r.seg)
		}
		nextOf[g]++
		lastSeg = r.seg
	}
}

func TestNoSync(t *testing.T) {
	m, dir := newMemDir(t)
	cfs := &countingFS{FS: m}
	w := mustCreate(t, cfs, dir, 1, true)
	var size int64
	for i := range 100 {
		if err := w.Append(record(i)); err != nil {
			t.Fatal(err)
		}
		// Acknowledged means written to the OS (buffered frames are not).
		size += int64(headerSize + len(record(i)))
		if got := fileSize(t, m, segPath(dir, 1)); got != size {
			t.Fatalf("after append %d the segment has %d bytes, want %d", i, got, size)
		}
	}
	if n := cfs.syncs.Load(); n != 0 {
		t.Fatalf("NoSync appends synced %d times", n)
	}
	if err := w.Rotate(2); err != nil {
		t.Fatal(err)
	}
	if n := cfs.syncs.Load(); n != 1 {
		t.Fatalf("Rotate synced %d times, want 1", n)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, _, err := replayAll(t, m, dir, 0)
	if err != nil || len(got) != 100 {
		t.Fatalf("Replay: %d records, %v", len(got), err)
	}
}
