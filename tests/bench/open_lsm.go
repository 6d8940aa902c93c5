//go:build !memstore

package bench

import (
	"context"

	"github.com/widesql/widesql/kv"

	"github.com/widesql/widesql/kv/lsm"
)

// StandIn is empty when widesql means kv/lsm.
const StandIn = ""

func openWidesql(dir string, cfg Config) (Engine, error) {
	s, err := lsm.Open(dir, lsm.Options{
		MemtableSize:   cfg.MemtableSize,
		MemoryBudget:   2 * cfg.MemtableSize, // Pebble: MemTableStopWritesThreshold 2
		BlockCacheSize: cfg.BlockCacheSize,
		BlockSize:      cfg.BlockSize,
		NoSync:         !cfg.Sync,
	})
	if err != nil {
		return nil, err
	}
	// Config's "" is no compression for both engines; kv/lsm's "" would be
	// its default, snappy.
	comp := cfg.Compression
	if comp == "" {
		comp = "none"
	}
	return newKVEngine(context.Background(), s, comp)
}

func storeFlushes(s kv.Store) int64 { return s.(*lsm.Store).Metrics().Flushes }

// storeLiveBytes returns the bytes and number of the live files of the
// benchmark table, as the engine's manifest lists them.
func storeLiveBytes(s kv.Store) (bytes int64, files int, err error) {
	regions, err := s.(*lsm.Store).Regions(context.Background(), TableName)
	for _, r := range regions {
		bytes += r.Bytes
		files += r.Files
	}
	return bytes, files, err
}
