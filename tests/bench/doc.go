// Package bench compares widesql's storage engine, kv/lsm, with
// github.com/cockroachdb/pebble on the same workloads in the same process,
// and measures widesql's files on disk against PostgreSQL.
//
// It is its own Go module so that Pebble never enters widesql's
// dependencies; `go test ./...` at the repository root does not descend
// into it. See README.md for how to run each part.
//
// # Layers
//
//	Engine          one storage engine under benchmark: widesql through the
//	                kv.Store contract, or Pebble through its own API
//	rows.go         the data: rowkeys (user_id BIGINT, ts TIMESTAMP DESC)
//	                encoded by planner/keyenc, three cells per row in family d
//	pebblekey.go    how a kv cell becomes a Pebble key, with a Comparer whose
//	                prefix is the rowkey so Pebble's bloom filters see rows
//	fixtures.go     loaded stores shared by every benchmark of one process
//	workloads.go    the benchmark bodies, run by engine_bench_test.go and by
//	                cmd/ratio
//
// Both engines get the same settings: memtable size, block cache size,
// 4 KiB data blocks, bloom filters on every level, no compression, and the
// same sync policy.
//
// Building with -tags memstore stands kv/memstore in for kv/lsm (no files:
// the file-backed benchmarks then read memory, and cold reads are skipped).
package bench
