package lsm

import (
	"context"
	"testing"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/internal/kvtest"
	"github.com/widesql/widesql/kv/lsm/internal/vfs"
)

// testOptions keeps memtables tiny so that tests exercise files.
func testOptions(fs vfs.FS) Options {
	return Options{FS: fs, MemtableSize: 1 << 20, MemoryBudget: 8 << 20, BlockCacheSize: 1 << 20, BlockSize: 256}
}

func mustOpen(t testing.TB, fs vfs.FS) *Store {
	t.Helper()
	s, err := Open("db", testOptions(fs))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// harness runs the shared conformance suite on lsm. The commands flush,
// compact and restart (close and reopen on the same MemFS) may appear in
// lsm's own testdata; after, if set, runs after every apply.
func harness(after func(s *Store) (*Store, error)) kvtest.Harness {
	var fs *vfs.MemFS
	h := kvtest.Harness{
		Open: func(t *testing.T) kv.Store {
			fs = vfs.NewMem()
			return mustOpen(t, fs)
		},
		Command: func(ks kv.Store, cmd string) (kv.Store, string, error, bool) {
			s := ks.(*Store)
			ctx := context.Background()
			switch cmd {
			case "flush":
				return s, "", s.Flush(ctx), true
			case "compact":
				return s, "", s.Compact(ctx), true
			case "restart":
				s, err := restart(s, fs)
				return s, "", err, true
			}
			return s, "", nil, false
		},
		ErrorPrefix: "lsm: ",
		IgnoreStats: true,
	}
	if after != nil {
		h.AfterApply = func(ks kv.Store) (kv.Store, error) { return after(ks.(*Store)) }
	}
	return h
}

func restart(s *Store, fs vfs.FS) (*Store, error) {
	if err := s.Close(); err != nil {
		return s, err
	}
	return Open("db", testOptions(fs))
}

func TestDataDriven(t *testing.T) {
	ctx := context.Background()
	modes := map[string]func(s *Store) (*Store, error){
		"plain": nil,
		"flush": func(s *Store) (*Store, error) { return s, s.Flush(ctx) },
		"compact": func(s *Store) (*Store, error) {
			if err := s.Flush(ctx); err != nil {
				return s, err
			}
			return s, s.Compact(ctx)
		},
		"restart": func(s *Store) (*Store, error) { return restart(s, s.fs) },
		"flush-restart": func(s *Store) (*Store, error) {
			if err := s.Flush(ctx); err != nil {
				return s, err
			}
			return restart(s, s.fs)
		},
	}
	for name, after := range modes {
		t.Run(name, func(t *testing.T) {
			kvtest.Run(t, "../memstore/testdata", harness(after))
		})
	}
	t.Run("lsm", func(t *testing.T) { kvtest.Run(t, "testdata", harness(nil)) })
}
