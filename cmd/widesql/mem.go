package main

import (
	"bufio"
	"fmt"
	"os"
	"path"
	"strconv"
	"strings"
)

// Cache defaults. The server caches decompressed blocks itself: the
// OS page cache holds only the compressed files, so unlike PostgreSQL
// (whose heap pages sit uncompressed in shared_buffers and the page
// cache) every block the cache cannot hold is decompressed again on each
// read. A fixed 128 MiB was smaller than the decompressed working set of
// a 1M-row two-family table, and repeated scans thrashed. The caches'
// default share is therefore a quarter of the memory available to the
// process: the share CockroachDB recommends for its cache and PostgreSQL's
// documentation for shared_buffers. Until issue 8's fourteenth round it
// was capped at 1 GiB, to keep the default footprint modest; but a table
// of 10^7 narrow rows already decompresses to 1.9 GB, and a point read
// that misses the cache costs two to three times one that hits, so the cap
// made point reads that much slower as a table outgrew it. The caches
// fill only with blocks that exist (reads, and the background prefetch of
// --prefetch-blocks, which never evicts), so a small database keeps a
// small footprint; the server's memory limit follows the caches' size
// (budget + caches + 256 MiB). Lower the flags to share the machine.
//
// The row cache (repeated point reads of unchanged rows) takes a quarter
// of that share, between 16 MiB and 256 MiB, and the block cache the
// rest: at ~150 bytes per row of the harness's table, 256 MiB holds its
// 1M rows, which a 64 MiB row cache could not (most point reads then
// missed and paid an insert and an eviction), while blocks are still
// cached for scans and for the rows the row cache does not hold. A row
// cache size set by flag is taken out of the share instead (0: the block
// cache gets it all).
const (
	cacheShareDiv  = 4         // a quarter
	cacheFallback  = 128 << 20 // when the memory cannot be read
	cacheMin       = 16 << 20  // tiny machines: mem/4 below this is pointless
	cacheDefaultIs = "a quarter of the memory available (the cgroup's memory limit when set, else MemTotal), at least 16 MiB (128 MiB when neither can be read), less the row cache, at least 16 MiB"

	rowShareDiv       = 4 // a quarter of the caches' share
	rowCacheMin       = 16 << 20
	rowCacheMax       = 256 << 20
	rowCacheDefaultIs = "a quarter of the caches' share (the memory available / 4), between 16 MiB and 256 MiB"
)

// defaultCacheShare returns the memory the block and row caches share by
// default and how it was derived, for --help and the start-up log.
func defaultCacheShare() (int64, string) {
	mem, src := availableMemory()
	if mem <= 0 {
		return cacheFallback, "memory size unknown"
	}
	size := cacheShareFor(mem)
	switch {
	case size == cacheMin && mem/cacheShareDiv < cacheMin:
		return size, fmt.Sprintf("the minimum, a quarter of %s (%s) being less", fmtBytes(mem), src)
	}
	return size, fmt.Sprintf("a quarter of %s (%s)", fmtBytes(mem), src)
}

// cacheShareFor is the caches' default share on a machine (or cgroup) of
// mem bytes: below 128 MiB only when mem is under 512 MiB.
func cacheShareFor(mem int64) int64 {
	return max(mem/cacheShareDiv, cacheMin)
}

// rowCacheFor is the default row cache size in a share of share bytes.
func rowCacheFor(share int64) int64 {
	return min(max(share/rowShareDiv, rowCacheMin), rowCacheMax)
}

// blockCacheFor is the default block cache size in a share of share
// bytes of which the row cache takes row (0 when disabled).
func blockCacheFor(share, row int64) int64 {
	return max(share-max(row, 0), cacheMin)
}

// availableMemory returns the memory the process may use: the smallest
// of MemTotal and the memory limits of its cgroup and the cgroup's
// ancestors (v2 memory.max, v1 memory.limit_in_bytes), and where it came
// from. It returns 0 when /proc/meminfo cannot be read.
func availableMemory() (int64, string) {
	mem, src := memTotal("/proc/meminfo"), "MemTotal"
	if lim := cgroupMemoryLimit("/proc/self/cgroup", "/sys/fs/cgroup"); lim > 0 && (mem <= 0 || lim < mem) {
		mem, src = lim, "cgroup memory limit"
	}
	return mem, src
}

// memTotal parses MemTotal out of a meminfo file; 0 if it cannot.
func memTotal(file string) int64 {
	f, err := os.Open(file)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:")
		if !ok {
			continue
		}
		fields := strings.Fields(rest) // "24683620 kB"
		if len(fields) == 0 {
			return 0
		}
		n, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil || n <= 0 {
			return 0
		}
		if len(fields) > 1 && strings.EqualFold(fields[1], "kB") {
			n <<= 10
		}
		return n
	}
	return 0
}

// cgroupMemoryLimit returns the lowest memory limit set on the process's
// cgroup or an ancestor, under the cgroup file system mounted at root, or
// 0 when none is set (or none can be read). It understands cgroup v2
// (root itself, or root/unified on hybrid systems) and v1 (root/memory).
// Inside a container the cgroup's path may not exist under root (the
// mount shows the container's own cgroup as root): root's own files are
// read then.
func cgroupMemoryLimit(procCgroup, root string) int64 {
	data, err := os.ReadFile(procCgroup)
	if err != nil {
		return 0
	}
	best := int64(0)
	take := func(n int64) {
		if n > 0 && (best == 0 || n < best) {
			best = n
		}
	}
	for line := range strings.SplitSeq(strings.TrimSpace(string(data)), "\n") {
		// hierarchy-ID:controller-list:cgroup-path
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			for _, mnt := range []string{root, path.Join(root, "unified")} {
				take(walkLimits(mnt, parts[2], "memory.max"))
			}
		case hasController(parts[1], "memory"):
			take(walkLimits(path.Join(root, "memory"), parts[2], "memory.limit_in_bytes"))
		}
	}
	return best
}

func hasController(list, name string) bool {
	for c := range strings.SplitSeq(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

// walkLimits reads file in the cgroup directory mnt/cg and each of its
// ancestors up to mnt, and returns the lowest limit found (0: none).
func walkLimits(mnt, cg, file string) int64 {
	best := int64(0)
	for dir := path.Clean("/" + cg); ; dir = path.Dir(dir) {
		if n := readLimit(path.Join(mnt, dir, file)); n > 0 && (best == 0 || n < best) {
			best = n
		}
		if dir == "/" {
			return best
		}
	}
}

// readLimit parses a cgroup limit file: a byte count, or "max" (v2) or a
// value near the largest int64 (v1's "unlimited"), which count as none.
func readLimit(file string) int64 {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0
	}
	s := strings.TrimSpace(string(data))
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n >= 1<<62 {
		return 0
	}
	return n
}

// fmtBytes renders n in the largest binary unit that keeps one decimal.
func fmtBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d bytes", n)
}
