package vfs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"strings"
	"sync"
	"syscall"
	"testing"
)

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func create(t *testing.T, fsys FS, name string) File {
	t.Helper()
	f, err := fsys.Create(name)
	must(t, err)
	return f
}

func write(t *testing.T, f File, s string) {
	t.Helper()
	_, err := io.WriteString(f, s)
	must(t, err)
}

// TestMemCrash runs a scenario, crashes, and checks which files exist with
// which content. want maps a name to its content, or to "-" for absent.
func TestMemCrash(t *testing.T) {
	tests := []struct {
		name string
		run  func(t *testing.T, m *MemFS)
		want map[string]string
	}{{
		name: "synced file and dir survive",
		run: func(t *testing.T, m *MemFS) {
			f := create(t, m, "d/f")
			write(t, f, "abc")
			must(t, f.Sync())
			must(t, m.SyncDir("d"))
		},
		want: map[string]string{"d/f": "abc"},
	}, {
		name: "file synced but dir not: entry lost",
		run: func(t *testing.T, m *MemFS) {
			f := create(t, m, "d/f")
			write(t, f, "abc")
			must(t, f.Sync())
		},
		want: map[string]string{"d/f": "-"},
	}, {
		name: "dir synced but file not: empty",
		run: func(t *testing.T, m *MemFS) {
			f := create(t, m, "d/f")
			must(t, m.SyncDir("d"))
			write(t, f, "abc")
		},
		want: map[string]string{"d/f": ""},
	}, {
		name: "unsynced tail dropped",
		run: func(t *testing.T, m *MemFS) {
			f := create(t, m, "d/f")
			must(t, m.SyncDir("d"))
			write(t, f, "abc")
			must(t, f.Sync())
			write(t, f, "def")
		},
		want: map[string]string{"d/f": "abc"},
	}, {
		name: "rename without SyncDir undone",
		run: func(t *testing.T, m *MemFS) {
			mustWrite(t, m, "d/a", "A")
			must(t, m.SyncDir("d"))
			must(t, m.Rename("d/a", "d/b"))
		},
		want: map[string]string{"d/a": "A", "d/b": "-"},
	}, {
		name: "rename over existing, synced",
		run: func(t *testing.T, m *MemFS) {
			mustWrite(t, m, "d/a", "A")
			mustWrite(t, m, "d/b", "B")
			must(t, m.SyncDir("d"))
			must(t, m.Rename("d/a", "d/b"))
			must(t, m.SyncDir("d"))
		},
		want: map[string]string{"d/a": "-", "d/b": "A"},
	}, {
		name: "remove without SyncDir undone",
		run: func(t *testing.T, m *MemFS) {
			mustWrite(t, m, "d/a", "A")
			must(t, m.SyncDir("d"))
			must(t, m.Remove("d/a"))
		},
		want: map[string]string{"d/a": "A"},
	}, {
		name: "remove with SyncDir",
		run: func(t *testing.T, m *MemFS) {
			mustWrite(t, m, "d/a", "A")
			must(t, m.SyncDir("d"))
			must(t, m.Remove("d/a"))
			must(t, m.SyncDir("d"))
		},
		want: map[string]string{"d/a": "-"},
	}, {
		name: "truncate by Create not synced: old content back",
		run: func(t *testing.T, m *MemFS) {
			mustWrite(t, m, "d/a", "old")
			must(t, m.SyncDir("d"))
			f := create(t, m, "d/a")
			write(t, f, "newer")
		},
		want: map[string]string{"d/a": "old"},
	}, {
		name: "truncate by Create then synced",
		run: func(t *testing.T, m *MemFS) {
			mustWrite(t, m, "d/a", "old")
			must(t, m.SyncDir("d"))
			mustWrite(t, m, "d/a", "new")
		},
		want: map[string]string{"d/a": "new"},
	}, {
		name: "new directory needs SyncDir of its parent",
		run: func(t *testing.T, m *MemFS) {
			must(t, m.MkdirAll("d/sub"))
			mustWrite(t, m, "d/sub/a", "A")
			must(t, m.SyncDir("d/sub"))
		},
		want: map[string]string{"d/sub/a": "-"},
	}, {
		name: "removed but open file: handle writes vanish",
		run: func(t *testing.T, m *MemFS) {
			mustWrite(t, m, "d/a", "A")
			must(t, m.SyncDir("d"))
			f, err := m.OpenAppend("d/a")
			must(t, err)
			must(t, m.Remove("d/a"))
			must(t, m.SyncDir("d"))
			write(t, f, "B")
			must(t, f.Sync())
		},
		want: map[string]string{"d/a": "-"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := NewMem()
			must(t, m.MkdirAll("d"))
			must(t, m.SyncDir(""))
			tt.run(t, m)
			m.Crash()
			for name, want := range tt.want {
				got, ok := readAll(t, m, name)
				if !ok {
					got = "-"
				}
				if got != want {
					t.Errorf("%s = %q, want %q", name, got, want)
				}
			}
		})
	}
}

func TestMemCrashInvalidatesHandles(t *testing.T) {
	m := NewMem()
	f := create(t, m, "f")
	m.Crash()
	buf := make([]byte, 1)
	_, werr := f.Write([]byte("x"))
	_, rerr := f.ReadAt(buf, 0)
	_, serr := f.Size()
	for _, err := range []error{werr, rerr, serr, f.Sync(), f.Close()} {
		if !errors.Is(err, ErrCrashed) {
			t.Errorf("got %v, want ErrCrashed", err)
		}
	}
}

func TestMemCrashKeepPartial(t *testing.T) {
	const synced, tail = "synced|", "0123456789"
	seen := map[int]bool{}
	for seed := range uint64(200) {
		m := NewMem()
		f := create(t, m, "f")
		must(t, m.SyncDir(""))
		write(t, f, synced)
		must(t, f.Sync())
		write(t, f, tail)
		m.CrashKeepPartial(rand.New(rand.NewPCG(seed, 0)))
		got, _ := readAll(t, m, "f")
		if !strings.HasPrefix(synced+tail, got) || len(got) < len(synced) {
			t.Fatalf("seed %d: %q is not a prefix of the written data keeping the synced part", seed, got)
		}
		seen[len(got)-len(synced)] = true
		// What a partial crash kept is now the durable content.
		m.Crash()
		if again, _ := readAll(t, m, "f"); again != got {
			t.Fatalf("seed %d: second crash changed %q to %q", seed, got, again)
		}
	}
	if !seen[0] || !seen[len(tail)] {
		t.Errorf("kept tail lengths %v: want both none and all to occur", seen)
	}
}

func TestMemInjectSyncError(t *testing.T) {
	m := NewMem()
	f := create(t, m, "f")
	must(t, m.SyncDir(""))
	write(t, f, "a")
	must(t, f.Sync())
	boom := errors.New("boom")
	m.InjectSyncError(boom)
	write(t, f, "b")
	for i := range 2 { // sticky
		if err := f.Sync(); !errors.Is(err, boom) || !errors.Is(err, ErrInjected) {
			t.Fatalf("Sync #%d = %v, want boom and ErrInjected", i, err)
		}
	}
	if err := m.SyncDir(""); !errors.Is(err, boom) {
		t.Fatalf("SyncDir = %v", err)
	}
	m.InjectSyncError(nil)
	g := create(t, m, "g")
	must(t, g.Sync())
	m.Crash() // "b" never synced, g's entry never synced
	if got, _ := readAll(t, m, "f"); got != "a" {
		t.Fatalf("f = %q, want a", got)
	}
	if _, ok := readAll(t, m, "g"); ok {
		t.Fatal("g survived without a successful SyncDir")
	}
}

func TestMemSpaceLimit(t *testing.T) {
	m := NewMem()
	mustWrite(t, m, "a", "12345")
	m.SetSpaceLimit(8)
	f := create(t, m, "b")
	n, err := f.Write([]byte("abcdef"))
	if n != 3 {
		t.Fatalf("short write wrote %d, want 3", n)
	}
	for _, target := range []error{ErrNoSpace, syscall.ENOSPC, ErrInjected} {
		if !errors.Is(err, target) {
			t.Errorf("Write error %v does not match %v", err, target)
		}
	}
	if _, err := f.Write([]byte("x")); !errors.Is(err, ErrNoSpace) {
		t.Fatalf("full disk write = %v", err)
	}
	must(t, m.Remove("a"))
	write(t, f, "xyz")
	if got, _ := readAll(t, m, "b"); got != "abcxyz" {
		t.Fatalf("b = %q", got)
	}
	m.SetSpaceLimit(-1)
	write(t, f, strings.Repeat("x", 1000))
}

func TestMemFlipBit(t *testing.T) {
	m := NewMem()
	f := create(t, m, "f")
	must(t, m.SyncDir(""))
	write(t, f, "aaaa")
	must(t, f.Sync())
	write(t, f, "bbbb")
	must(t, m.FlipBit("f", 1, 0)) // synced part
	must(t, m.FlipBit("f", 5, 1)) // unsynced tail
	if got, _ := readAll(t, m, "f"); got != "a`aab`bb" {
		t.Fatalf("after flips: %q", got)
	}
	m.Crash()
	if got, _ := readAll(t, m, "f"); got != "a`aa" {
		t.Fatalf("after crash: %q", got)
	}
	for _, err := range []error{
		m.FlipBit("f", 4, 0),
		m.FlipBit("f", 0, 8),
		m.FlipBit("missing", 0, 0),
	} {
		if err == nil {
			t.Error("FlipBit out of range succeeded")
		}
	}
	if err := m.FlipBit("missing", 0, 0); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("FlipBit(missing) = %v", err)
	}
}

func TestMemConcurrent(t *testing.T) {
	m := NewMem()
	must(t, m.MkdirAll("d"))
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			name := fmt.Sprintf("d/f%d", g)
			f, err := m.Create(name)
			if err != nil {
				t.Error(err)
				return
			}
			for i := range 100 {
				fmt.Fprintf(f, "%d,", i)
				if err := f.Sync(); err != nil {
					t.Error(err)
				}
				if _, err := m.List("d"); err != nil {
					t.Error(err)
				}
			}
			f.Close()
		})
	}
	wg.Wait()
	must(t, m.SyncDir("d"))
	must(t, m.SyncDir(""))
	m.Crash()
	names, err := m.List("d")
	if err != nil || len(names) != 8 {
		t.Fatalf("List = %v, %v", names, err)
	}
}
