package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// memSampler polls the memory of a process and all its descendants (for
// PostgreSQL: the postmaster and its backends) and keeps the peak of their
// sum. Each process counts its proportional set size (Pss from
// /proc/<pid>/smaps_rollup), so shared memory such as PostgreSQL's
// shared_buffers is counted once across processes, not once per backend.
// Where smaps_rollup cannot be read it falls back to VmRSS.
type memSampler struct {
	root int
	quit chan struct{}
	done chan struct{}

	mu   sync.Mutex
	peak int64 // bytes
}

// startMemSampler samples pid's process tree every interval until stop.
func startMemSampler(pid int, interval time.Duration) *memSampler {
	m := &memSampler{root: pid, quit: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(m.done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			m.sample()
			select {
			case <-m.quit:
				return
			case <-t.C:
			}
		}
	}()
	return m
}

// sample adds one measurement.
func (m *memSampler) sample() {
	var total int64
	for _, pid := range processTree(m.root) {
		total += processMemory(pid)
	}
	m.mu.Lock()
	if total > m.peak {
		m.peak = total
	}
	m.mu.Unlock()
}

// Peak returns the largest sum seen so far, in bytes.
func (m *memSampler) Peak() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.peak
}

// stop ends sampling; it is idempotent.
func (m *memSampler) stop() {
	select {
	case <-m.quit:
	default:
		close(m.quit)
	}
	<-m.done
}

// processTree returns root and every live descendant of it.
func processTree(root int) []int {
	children := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ppid := parentPID(pid); ppid > 0 {
			children[ppid] = append(children[ppid], pid)
		}
	}
	out := []int{root}
	for i := 0; i < len(out); i++ {
		out = append(out, children[out[i]]...)
	}
	return out
}

// parentPID reads the parent of pid from /proc/<pid>/stat, or returns 0.
func parentPID(pid int) int {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0
	}
	// The command name may hold spaces and parentheses: skip past the last ')'.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.Atoi(f[1])
	return n
}

// processMemory returns pid's Pss, or its VmRSS when smaps_rollup is not
// readable, in bytes; 0 if the process is gone.
func processMemory(pid int) int64 {
	dir := filepath.Join("/proc", strconv.Itoa(pid))
	if kb, ok := kbField(filepath.Join(dir, "smaps_rollup"), "Pss:"); ok {
		return kb << 10
	}
	kb, _ := kbField(filepath.Join(dir, "status"), "VmRSS:")
	return kb << 10
}

// kbField returns the number of kB on the line of path starting with key.
func kbField(path, key string) (int64, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, key) {
			continue
		}
		fs := strings.Fields(line[len(key):])
		if len(fs) == 0 {
			return 0, false
		}
		n, err := strconv.ParseInt(fs[0], 10, 64)
		return n, err == nil
	}
	return 0, false
}

// dirSize returns the bytes allocated on disk (du) for the files under dir,
// and separately those under any subdirectory named skipName (e.g. "wal").
func dirSize(dir, skipName string) (total, sub int64) {
	_ = filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return nil
		}
		n := info.Size()
		if st, ok := info.Sys().(*syscall.Stat_t); ok {
			n = st.Blocks * 512
		}
		total += n
		rel, _ := filepath.Rel(dir, path)
		if skipName != "" && strings.HasPrefix(rel, skipName+string(filepath.Separator)) {
			sub += n
		}
		return nil
	})
	return total, sub
}
