package vfs

import (
	"errors"
	"io"
	"math/rand/v2"
	"testing"
)

// contents returns the file's current content.
func contents(t *testing.T, m *MemFS, name string) string {
	t.Helper()
	f, err := m.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n, _ := f.Size()
	b := make([]byte, n)
	if _, err := f.ReadAt(b, 0); err != nil && !errors.Is(err, io.EOF) {
		t.Fatal(err)
	}
	return string(b)
}

// TestMemWriteAtCrash overwrites synced bytes and extends past the end with
// WriteAt: a crash undoes every unsynced write, a torn crash keeps a prefix
// of them in write order, and Sync makes them durable.
func TestMemWriteAtCrash(t *testing.T) {
	setup := func() (*MemFS, File) {
		m := NewMem()
		f, err := m.Create("f")
		if err != nil {
			t.Fatal(err)
		}
		m.SyncDir("")
		f.Write([]byte("0000000000"))
		f.Sync()
		return m, f
	}
	// The states after each write, in order; a torn crash lands on one of
	// them or between two, inside the next write.
	writes := []struct {
		off  int64
		data string
	}{{2, "ab"}, {8, "cdef"}, {-1, "gh"}, {15, "i"}, {0, "j"}}
	states := []string{"0000000000"}
	{
		m, f := setup()
		for _, w := range writes {
			if w.off < 0 {
				f.Write([]byte(w.data))
			} else if _, err := f.(io.WriterAt).WriteAt([]byte(w.data), w.off); err != nil {
				t.Fatal(err)
			}
			states = append(states, contents(t, m, "f"))
		}
		if want := "j0ab0000cdefgh\x00i"; states[len(states)-1] != want {
			t.Fatalf("content %q, want %q", states[len(states)-1], want)
		}
		m.Crash()
		if got := contents(t, m, "f"); got != states[0] {
			t.Fatalf("after crash %q, want %q", got, states[0])
		}
	}
	for seed := range uint64(50) {
		m, f := setup()
		for _, w := range writes {
			if w.off < 0 {
				f.Write([]byte(w.data))
			} else {
				f.(io.WriterAt).WriteAt([]byte(w.data), w.off)
			}
		}
		m.CrashKeepPartial(rand.New(rand.NewPCG(seed, 9)))
		got := contents(t, m, "f")
		// got lies between two consecutive states: each byte from one or
		// the other, and its length between theirs.
		ok := false
		for i := 1; i < len(states) && !ok; i++ {
			a, b := states[i-1], states[i]
			if len(got) < min(len(a), len(b)) || len(got) > max(len(a), len(b)) {
				continue
			}
			ok = true
			for j := range len(got) {
				if (j >= len(a) || got[j] != a[j]) && (j >= len(b) || got[j] != b[j]) {
					ok = false
				}
			}
		}
		if !ok {
			t.Fatalf("seed %d: torn crash left %q, not a prefix of the writes %q", seed, got, states)
		}
	}
	m, f := setup()
	f.(io.WriterAt).WriteAt([]byte("xy"), 3)
	f.Sync()
	f.(io.WriterAt).WriteAt([]byte("zz"), 4)
	if err := m.FlipBit("f", 4, 0); err != nil {
		t.Fatal(err)
	}
	m.Crash()
	if got, want := contents(t, m, "f"), "000xx00000"; got != want { // 'y'^1 == 'x'
		t.Fatalf("after sync, overwrite, flip and crash %q, want %q", got, want)
	}
}

// TestMemWriteAtSpaceLimit checks that WriteAt inside the file needs no
// space and a write past the limit is short.
func TestMemWriteAtSpaceLimit(t *testing.T) {
	m := NewMem()
	f, _ := m.Create("f")
	f.Write(make([]byte, 10))
	m.SetSpaceLimit(12)
	wa := f.(io.WriterAt)
	if n, err := wa.WriteAt([]byte("abcd"), 2); n != 4 || err != nil {
		t.Fatalf("WriteAt inside = %d, %v", n, err)
	}
	if n, err := wa.WriteAt([]byte("wxyz"), 9); n != 3 || !errors.Is(err, ErrNoSpace) {
		t.Fatalf("WriteAt past the limit = %d, %v", n, err)
	}
	if got := contents(t, m, "f"); got != "\x00\x00abcd\x00\x00\x00wxy" {
		t.Fatalf("content %q", got)
	}
}
