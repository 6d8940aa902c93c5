package main

import (
	"os"
	"path/filepath"
	"testing"
)

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestCgroupMemoryLimit(t *testing.T) {
	for _, tc := range []struct {
		name  string
		proc  string
		files map[string]string
		want  int64
	}{
		{"v2", "0::/user.slice/app\n", map[string]string{
			"memory.max":                "max\n",
			"user.slice/memory.max":     "max\n",
			"user.slice/app/memory.max": "2147483648\n",
		}, 2 << 30},
		{"v2 parent lower", "0::/a/b\n", map[string]string{
			"a/memory.max":   "1073741824\n",
			"a/b/memory.max": "max\n",
		}, 1 << 30},
		{"v2 unlimited", "0::/a\n", map[string]string{"a/memory.max": "max\n"}, 0},
		{"v1", "4:memory:/docker/x\n1:cpu:/\n", map[string]string{
			"memory/docker/x/memory.limit_in_bytes": "536870912\n",
			"memory/memory.limit_in_bytes":          "9223372036854771712\n",
		}, 512 << 20},
		{"v1 unlimited", "4:memory:/p\n", map[string]string{
			"memory/p/memory.limit_in_bytes": "9223372036854771712\n",
		}, 0},
		{"v1 co-mounted controllers", "3:cpu,memory:/p\n", map[string]string{
			"memory/p/memory.limit_in_bytes": "104857600\n",
		}, 100 << 20},
		{"hybrid, v2 on unified", "4:memory:/p\n0::/p\n", map[string]string{
			"memory/p/memory.limit_in_bytes": "9223372036854771712\n",
			"unified/p/memory.max":           "3221225472\n",
		}, 3 << 30},
		{"container: path absent, root's files", "0::/long/host/path\n", map[string]string{
			"memory.max": "805306368\n",
		}, 768 << 20},
		{"garbage", "not a cgroup line\n0::/a\n", map[string]string{"a/memory.max": "lots\n"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			root := filepath.Join(dir, "cgroup")
			writeFiles(t, root, tc.files)
			proc := filepath.Join(dir, "cgroup.txt")
			if err := os.WriteFile(proc, []byte(tc.proc), 0o644); err != nil {
				t.Fatal(err)
			}
			if got := cgroupMemoryLimit(proc, root); got != tc.want {
				t.Fatalf("got %d, want %d", got, tc.want)
			}
		})
	}
	if got := cgroupMemoryLimit(filepath.Join(t.TempDir(), "absent"), "/nonexistent"); got != 0 {
		t.Fatalf("no /proc/self/cgroup: got %d", got)
	}
}

func TestMemTotal(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "meminfo")
	if err := os.WriteFile(p, []byte("MemFree:  100 kB\nMemTotal:       24683620 kB\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := memTotal(p); got != 24683620<<10 {
		t.Fatalf("got %d", got)
	}
	if got := memTotal(filepath.Join(dir, "absent")); got != 0 {
		t.Fatalf("absent file: got %d", got)
	}
}

func TestCacheDefaults(t *testing.T) {
	for _, tc := range []struct{ mem, share, row, block int64 }{
		{24 << 30, 6 << 30, 256 << 20, 6<<30 - 256<<20},
		{4 << 30, 1 << 30, 256 << 20, 768 << 20},
		{2 << 30, 512 << 20, 128 << 20, 384 << 20},
		{512 << 20, 128 << 20, 32 << 20, 96 << 20},
		{256 << 20, 64 << 20, 16 << 20, 48 << 20},
		{32 << 20, 16 << 20, 16 << 20, 16 << 20},           // both at their minimum
		{1 << 40, 256 << 30, 256 << 20, 256<<30 - 256<<20}, // no cap
	} {
		share := cacheShareFor(tc.mem)
		row := rowCacheFor(share)
		if block := blockCacheFor(share, row); share != tc.share || row != tc.row || block != tc.block {
			t.Errorf("mem %d: share %d, row %d, block %d; want %d, %d, %d", tc.mem, share, row, block, tc.share, tc.row, tc.block)
		}
	}
	// A row cache set by flag is taken out of the share; disabled, the
	// block cache takes it all.
	if got := blockCacheFor(1<<30, 512<<20); got != 512<<20 {
		t.Errorf("block cache beside a 512 MiB row cache: %d", got)
	}
	if got := blockCacheFor(1<<30, -1); got != 1<<30 {
		t.Errorf("block cache without a row cache: %d", got)
	}
	if got := blockCacheFor(1<<30, 2<<30); got != cacheMin {
		t.Errorf("block cache beside a 2 GiB row cache: %d", got)
	}
	// On this machine: positive and never above what it reads.
	size, how := defaultCacheShare()
	mem, _ := availableMemory()
	if size <= 0 || (mem > 0 && size > mem) || how == "" {
		t.Fatalf("default %d (%s) with %d bytes of memory", size, how, mem)
	}
}
