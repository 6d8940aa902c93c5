package exec

import "context"

// flusher is the optional store capability behind CHECKPOINT: write every
// memtable to files so that the write-ahead log holds nothing that is not
// also in a file. kv/lsm implements it; an in-memory store has no files
// and CHECKPOINT does nothing there, as it does nothing to PostgreSQL's
// unlogged data.
type flusher interface {
	Flush(ctx context.Context) error
}

// checkpoint runs CHECKPOINT. Like PostgreSQL's, it may run inside a
// transaction block and does not commit or see the block's writes: they are
// not in the store until COMMIT.
func (e *Engine) checkpoint(ctx context.Context) error {
	f, ok := e.store.(flusher)
	if !ok {
		return nil
	}
	if err := f.Flush(ctx); err != nil {
		return storageError(err)
	}
	return nil
}
