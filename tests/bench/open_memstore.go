//go:build memstore

package bench

import (
	"context"

	"github.com/widesql/widesql/kv"

	"github.com/widesql/widesql/kv/memstore"
)

// StandIn names the store standing in for kv/lsm in this build.
const StandIn = "memstore"

// openWidesql ignores dir and cfg: kv/memstore keeps nothing on disk.
func openWidesql(dir string, cfg Config) (Engine, error) {
	return newKVEngine(context.Background(), memstore.New(), cfg.Compression)
}

func storeFlushes(kv.Store) int64 { return 0 }

func storeLiveBytes(kv.Store) (int64, int, error) { return 0, 0, nil }
