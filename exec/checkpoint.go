package exec

import (
	"context"

	"github.com/widesql/widesql/kv"
)

// checkpoint runs CHECKPOINT: a store that is a kv.Flusher writes its
// memtables to files. Like PostgreSQL's, it may run inside a transaction
// block and does not commit or see the block's writes: they are not in the
// store until COMMIT. On an in-memory store it does nothing.
func (e *Engine) checkpoint(ctx context.Context) error {
	f, ok := e.store.(kv.Flusher)
	if !ok {
		return nil
	}
	if err := f.Flush(ctx); err != nil {
		return storageError(err)
	}
	return nil
}
