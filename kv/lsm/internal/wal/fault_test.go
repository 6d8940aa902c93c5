package wal

import (
	"errors"
	"slices"
	"sync"
	"syscall"
	"testing"

	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

func TestSyncErrorFailsWriter(t *testing.T) {
	m, dir := newMemDir(t)
	w := mustCreate(t, m, dir, 1, false)
	if err := w.Append([]byte("durable")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	m.InjectSyncError(boom)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if err := w.Append([]byte("doomed")); !errors.Is(err, boom) {
				t.Errorf("Append with failing sync = %v, want boom", err)
			}
		})
	}
	wg.Wait()
	m.InjectSyncError(nil)
	for range 2 {
		if err := w.Append([]byte("after")); !errors.Is(err, boom) {
			t.Fatalf("Append after the failure = %v, want the sticky boom", err)
		}
	}
	if err := w.Rotate(2); !errors.Is(err, boom) {
		t.Fatalf("Rotate = %v", err)
	}
	if err := w.Close(); !errors.Is(err, boom) {
		t.Fatalf("Close = %v", err)
	}
	m.Crash()
	got, _, err := replayAll(t, m, dir, 0)
	if err != nil || !slices.Equal(got, []replayed{{1, "durable"}}) {
		t.Fatalf("Replay = %v, %v", got, err)
	}
}

func TestSyncErrorOnRotate(t *testing.T) {
	m, dir := newMemDir(t)
	w := mustCreate(t, m, dir, 1, true)
	if err := w.Append([]byte("unsynced")); err != nil {
		t.Fatal(err)
	}
	m.InjectSyncError(vfs.ErrInjected)
	if err := w.Rotate(2); !errors.Is(err, vfs.ErrInjected) {
		t.Fatalf("Rotate = %v", err)
	}
	m.InjectSyncError(nil)
	if err := w.Append([]byte("x")); !errors.Is(err, vfs.ErrInjected) {
		t.Fatalf("Append after failed Rotate = %v", err)
	}
	w.Close()
}

func TestNoSpace(t *testing.T) {
	m, dir := newMemDir(t)
	m.SetSpaceLimit(100)
	w := mustCreate(t, m, dir, 1, false)
	var acked int
	var err error
	for err == nil {
		if err = w.Append(record(acked)); err == nil {
			acked++
		}
	}
	if !errors.Is(err, syscall.ENOSPC) || !errors.Is(err, vfs.ErrNoSpace) {
		t.Fatalf("Append on a full disk = %v, want ENOSPC", err)
	}
	m.SetSpaceLimit(-1)
	if err := w.Append([]byte("x")); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Append after ENOSPC = %v, want the sticky ENOSPC", err)
	}
	w.Close()
	// The short write left a partial frame: a torn tail.
	got, lastValid, err := replayAll(t, m, dir, 0)
	if err != nil || len(got) != acked {
		t.Fatalf("Replay = %d records, %v; %d acknowledged", len(got), err, acked)
	}
	if size := fileSize(t, m, segPath(dir, 1)); size != 100 || lastValid >= size {
		t.Fatalf("size %d, lastValid %d", size, lastValid)
	}
}

// frameOffsets returns the offset of each frame of a segment.
func frameOffsets(recs [][]byte) []int64 {
	var offs []int64
	var off int64
	for _, r := range recs {
		offs = append(offs, off)
		off += int64(headerSize + len(r))
	}
	return offs
}

// TestFlipBit damages one byte of one frame and checks that Replay reports
// corruption, or a torn tail when the frame is the last of the last segment.
func TestFlipBit(t *testing.T) {
	recs := [][]byte{record(1), record(20), record(300), record(4000), record(5)}
	offs := frameOffsets(recs)
	tests := []struct {
		name       string
		seg, frame int   // frame damaged, in segment seg (1 or 2)
		at         int64 // byte of the frame: 0-3 crc, 4-7 len, 8+ payload
		bit        uint
		torn       bool
	}{
		{"crc of middle frame", 2, 2, 1, 0, false},
		{"len of middle frame", 2, 2, 5, 3, false},
		{"len high bit of middle frame", 2, 1, 7, 7, false},
		{"payload of middle frame", 2, 3, 20, 4, false},
		{"payload of first frame", 2, 0, 9, 0, false},
		{"last frame of first segment", 1, 4, 10, 2, false},
		{"crc of last frame of last segment", 2, 4, 0, 0, true},
		{"len of last frame of last segment", 2, 4, 4, 6, true},
		{"payload of last frame of last segment", 2, 4, 9, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, dir := newMemDir(t)
			w := mustCreate(t, m, dir, 1, false)
			for seg := range 2 {
				if seg > 0 {
					if err := w.Rotate(2); err != nil {
						t.Fatal(err)
					}
				}
				for _, r := range recs {
					if err := w.Append(r); err != nil {
						t.Fatal(err)
					}
				}
			}
			w.Close()
			file := segPath(dir, uint64(tt.seg))
			if err := m.FlipBit(file, offs[tt.frame]+tt.at, tt.bit); err != nil {
				t.Fatal(err)
			}
			got, lastValid, err := replayAll(t, m, dir, 0)
			if tt.torn {
				if err != nil || lastValid != offs[tt.frame] || len(got) != 2*len(recs)-1 {
					t.Fatalf("torn tail: %d records, lastValid %d, %v", len(got), lastValid, err)
				}
				return
			}
			var ce *CorruptionError
			if !errors.As(err, &ce) {
				t.Fatalf("Replay = %v, want *CorruptionError", err)
			}
			if ce.File != file || ce.Offset != offs[tt.frame] {
				t.Fatalf("CorruptionError %+v, want file %s offset %d", ce, file, offs[tt.frame])
			}
			if want := (tt.seg-1)*len(recs) + tt.frame; len(got) != want {
				t.Fatalf("%d records delivered before the damage, want %d", len(got), want)
			}
			t.Log(err)
		})
	}
}

// TestTailShapes writes raw segment contents and checks how Replay reads
// them as the last segment.
func TestTailShapes(t *testing.T) {
	a, b := appendFrame(nil, []byte("alpha")), appendFrame(nil, []byte("beta"))
	good := append(slices.Clone(a), b...)
	huge := []byte{0, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f} // len > MaxRecordSize
	cat := func(parts ...[]byte) []byte { return slices.Concat(parts...) }
	tests := []struct {
		name      string
		data      []byte
		records   int
		lastValid int64 // -1: expect *CorruptionError
	}{
		{"empty", nil, 0, 0},
		{"intact", good, 2, int64(len(good))},
		{"partial header", cat(good, b[:5]), 2, int64(len(good))},
		{"partial payload", cat(good, b[:10]), 2, int64(len(good))},
		{"zeroed tail", cat(good, make([]byte, 4096)), 2, int64(len(good))},
		{"zeroed frame then valid", cat(a, make([]byte, 16), b), 1, -1},
		{"zeroed frame then garbage", cat(a, make([]byte, 16), []byte("x")), 1, int64(len(a))},
		{"torn frame then zeros", cat(good, b[:10], make([]byte, 100)), 2, int64(len(good))},
		{"huge length at tail", cat(good, huge), 2, int64(len(good))},
		{"huge length then valid", cat(a, huge, b), 1, -1},
		{"garbage then valid", cat(a, []byte("garbage!"), b), 1, -1},
		{"torn frame then valid", cat(a, b[:10], a), 1, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, dir := newMemDir(t)
			writeRaw(t, m, dir, SegmentName(7), tt.data)
			got, lastValid, err := replayAll(t, m, dir, 0)
			if len(got) != tt.records {
				t.Errorf("%d records, want %d", len(got), tt.records)
			}
			if tt.lastValid < 0 {
				var ce *CorruptionError
				if !errors.As(err, &ce) || ce.File != segPath(dir, 7) {
					t.Fatalf("Replay = %v, want *CorruptionError naming the segment", err)
				}
				return
			}
			if err != nil || lastValid != tt.lastValid {
				t.Fatalf("Replay = %d, %v; want lastValid %d", lastValid, err, tt.lastValid)
			}
			// The same bytes in a segment that is not the last are corrupt
			// unless intact or followed by zeros only (preallocated).
			writeRaw(t, m, dir, SegmentName(8), nil)
			_, _, err = replayAll(t, m, dir, 0)
			var ce *CorruptionError
			if intact := allZero(tt.data[tt.lastValid:]); intact != (err == nil) || (!intact && !errors.As(err, &ce)) {
				t.Fatalf("as a non-last segment: %v", err)
			}
		})
	}
}

func TestTruncateSegment(t *testing.T) {
	m, dir := newMemDir(t)
	a := appendFrame(nil, []byte("alpha"))
	writeRaw(t, m, dir, SegmentName(1), append(slices.Clone(a), "torn"...))
	if err := TruncateSegment(m, dir, 1, int64(len(a))); err != nil {
		t.Fatal(err)
	}
	m.Crash()
	if size := fileSize(t, m, segPath(dir, 1)); size != int64(len(a)) {
		t.Fatalf("size after truncate and crash = %d", size)
	}
	names, _ := m.List(dir)
	if !slices.Equal(names, []string{SegmentName(1)}) {
		t.Fatalf("dir = %v", names)
	}
}

func TestReplayCallbackError(t *testing.T) {
	m, dir := newMemDir(t)
	w := mustCreate(t, m, dir, 1, false)
	w.Append([]byte("a"))
	w.Append([]byte("b"))
	w.Close()
	stop := errors.New("stop")
	n := 0
	_, err := Replay(m, dir, 0, func(uint64, []byte) error { n++; return stop })
	if err != stop || n != 1 {
		t.Fatalf("Replay = %v after %d calls", err, n)
	}
}
