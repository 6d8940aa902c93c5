package lsm

import (
	"runtime"
	"runtime/metrics"
	"testing"
	"time"
)

// BenchmarkRowCacheGC is what a full cache costs the garbage collector:
// the time of a forced collection (runtime.GC, which marks the whole
// heap) and its mark CPU, with the harness's 1M rows cached and with the
// cache empty. The difference is the cache's share of every GC cycle of
// a server whose cache is full.
func BenchmarkRowCacheGC(b *testing.B) {
	const n = 1_000_000
	for _, full := range []bool{false, true} {
		name := "empty"
		if full {
			name = "full"
		}
		b.Run(name, func(b *testing.B) {
			c := newRowCache(512<<20, 0)
			if full {
				fillHarnessRows(b, c, n)
			}
			runtime.GC()
			samples := []metrics.Sample{{Name: "/cpu/classes/gc/mark/dedicated:cpu-seconds"},
				{Name: "/cpu/classes/gc/mark/idle:cpu-seconds"}, {Name: "/cpu/classes/gc/mark/assist:cpu-seconds"}}
			markCPU := func() float64 {
				metrics.Read(samples)
				s := 0.0
				for _, x := range samples {
					s += x.Value.Float64()
				}
				return s
			}
			cpu0 := markCPU()
			start := time.Now()
			for b.Loop() {
				runtime.GC()
			}
			b.ReportMetric(float64(time.Since(start).Microseconds())/float64(b.N), "us/gc")
			b.ReportMetric((markCPU()-cpu0)*1e6/float64(b.N), "mark-cpu-us/gc")
			runtime.KeepAlive(c)
		})
	}
}
