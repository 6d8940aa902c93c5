package vfs

import (
	"errors"
	"io"
	"io/fs"
	"path"
	"slices"
	"testing"
)

// Conformance tests every FS implementation passes.

func eachFS(t *testing.T, f func(t *testing.T, fsys FS, root string)) {
	t.Run("os", func(t *testing.T) { f(t, Default, t.TempDir()) })
	t.Run("mem", func(t *testing.T) { f(t, NewMem(), "db") })
}

func mustWrite(t *testing.T, fsys FS, name, content string) {
	t.Helper()
	f, err := fsys.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(f, content); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// readAll returns a file's content, or ok=false if it does not exist.
func readAll(t *testing.T, fsys FS, name string) (string, bool) {
	t.Helper()
	f, err := fsys.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	size, err := f.Size()
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, size)
	if n, err := f.ReadAt(buf, 0); n != len(buf) || (err != nil && err != io.EOF) {
		t.Fatalf("ReadAt %s: %d, %v", name, n, err)
	}
	return string(buf), true
}

func TestFSBasics(t *testing.T) {
	eachFS(t, func(t *testing.T, fsys FS, root string) {
		dir := path.Join(root, "a", "b")
		if err := fsys.MkdirAll(dir); err != nil {
			t.Fatal(err)
		}
		if err := fsys.MkdirAll(dir); err != nil {
			t.Fatalf("MkdirAll of an existing dir: %v", err)
		}
		mustWrite(t, fsys, path.Join(dir, "z"), "zz")
		mustWrite(t, fsys, path.Join(dir, "x"), "hello")
		mustWrite(t, fsys, path.Join(dir, "y"), "")
		names, err := fsys.List(dir)
		if err != nil || !slices.Equal(names, []string{"x", "y", "z"}) {
			t.Fatalf("List = %v, %v", names, err)
		}
		if got, _ := readAll(t, fsys, path.Join(dir, "x")); got != "hello" {
			t.Fatalf("read %q", got)
		}

		// ReadAt past the end and short reads report io.EOF.
		f, err := fsys.Open(path.Join(dir, "x"))
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 10)
		if n, err := f.ReadAt(buf, 3); n != 2 || err != io.EOF || string(buf[:2]) != "lo" {
			t.Fatalf("short ReadAt = %d, %v", n, err)
		}
		if _, err := f.Write([]byte("no")); err == nil {
			t.Fatal("Write on a file opened with Open succeeded")
		}
		f.Close()

		// OpenAppend appends.
		f, err = fsys.OpenAppend(path.Join(dir, "x"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write([]byte(" world")); err != nil {
			t.Fatal(err)
		}
		if size, err := f.Size(); size != 11 || err != nil {
			t.Fatalf("Size = %d, %v", size, err)
		}
		f.Close()
		if got, _ := readAll(t, fsys, path.Join(dir, "x")); got != "hello world" {
			t.Fatalf("after append: %q", got)
		}

		// Create truncates; Rename replaces; Remove deletes.
		mustWrite(t, fsys, path.Join(dir, "z"), "new")
		if got, _ := readAll(t, fsys, path.Join(dir, "z")); got != "new" {
			t.Fatalf("after truncate: %q", got)
		}
		if err := fsys.Rename(path.Join(dir, "z"), path.Join(dir, "x")); err != nil {
			t.Fatal(err)
		}
		if got, _ := readAll(t, fsys, path.Join(dir, "x")); got != "new" {
			t.Fatalf("after rename: %q", got)
		}
		if err := fsys.Remove(path.Join(dir, "y")); err != nil {
			t.Fatal(err)
		}
		if err := fsys.SyncDir(dir); err != nil {
			t.Fatal(err)
		}
		names, _ = fsys.List(dir)
		if !slices.Equal(names, []string{"x"}) {
			t.Fatalf("List = %v", names)
		}

		for _, err := range []error{
			func() error { _, err := fsys.Open(path.Join(dir, "missing")); return err }(),
			func() error { _, err := fsys.OpenAppend(path.Join(dir, "missing")); return err }(),
			fsys.Remove(path.Join(dir, "missing")),
			fsys.Rename(path.Join(dir, "missing"), path.Join(dir, "m2")),
			func() error { _, err := fsys.List(path.Join(dir, "missing")); return err }(),
		} {
			if !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("got %v, want fs.ErrNotExist", err)
			}
		}
	})
}

func TestFSDoubleClose(t *testing.T) {
	eachFS(t, func(t *testing.T, fsys FS, root string) {
		if err := fsys.MkdirAll(root); err != nil {
			t.Fatal(err)
		}
		f, err := fsys.Create(path.Join(root, "f"))
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err == nil {
			t.Fatal("second Close succeeded")
		}
	})
}

func TestLock(t *testing.T) {
	for name, fsys := range map[string]FS{"os": Default, "mem": NewMem()} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if name == "mem" {
				dir = "db"
				if err := fsys.MkdirAll(dir); err != nil {
					t.Fatal(err)
				}
			}
			l := fsys.(Locker)
			p := path.Join(dir, "LOCK")
			a, err := l.Lock(p)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := l.Lock(p); !errors.Is(err, ErrLocked) {
				t.Fatalf("second Lock: %v, want ErrLocked", err)
			}
			if err := a.Close(); err != nil {
				t.Fatal(err)
			}
			b, err := l.Lock(p)
			if err != nil {
				t.Fatalf("Lock after Close: %v", err)
			}
			if m, ok := fsys.(*MemFS); ok {
				m.Crash() // the holder died
				c, err := l.Lock(p)
				if err != nil {
					t.Fatalf("Lock after Crash: %v", err)
				}
				c.Close()
			}
			b.Close()
		})
	}
}
