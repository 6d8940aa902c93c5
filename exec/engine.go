package exec

import (
	"context"
	"log/slog"

	"github.com/widesql/widesql/kv"
	"github.com/widesql/widesql/kv/txn"
	"github.com/widesql/widesql/pgwire"
)

// Engine is widesql's SQL engine over a kv.Store. It implements
// pgwire.Engine; it is safe for concurrent use by many sessions.
type Engine struct {
	store kv.Store
	cat   *catalog
	seqs  *sequences
	clock *clock
	log   *slog.Logger
	txm   *txn.Manager // transactions and write-write conflicts (exec/txn.go)
	roles *roleStore   // roles and their SCRAM verifiers (exec/roles_store.go)
	// tempDir holds the spill files of sorts, aggregations and joins over
	// work_mem ("" is the system temporary directory).
	tempDir string
}

// SetTempDir sets the directory for spill files; call it before serving.
func (e *Engine) SetTempDir(dir string) { e.tempDir = dir }

var _ pgwire.Engine = (*Engine)(nil)

// Open loads the catalog from store and returns an engine serving it.
func Open(ctx context.Context, store kv.Store, log *slog.Logger) (*Engine, error) {
	if log == nil {
		log = slog.Default()
	}
	clk := &clock{}
	cat, err := openCatalog(ctx, store, clk)
	if err != nil {
		return nil, err
	}
	seqs, err := openSequences(ctx, store, clk) // exec/sequence.go
	if err != nil {
		return nil, err
	}
	roles, err := openRoles(ctx, store, clk) // exec/roles_store.go
	if err != nil {
		return nil, err
	}
	txm := txn.NewManager(store, txn.Options{})
	// Finish the multi-table commits a crash cut short before serving.
	n, err := txm.Recover(ctx)
	if err != nil {
		return nil, err
	}
	if n > 0 {
		log.Info("completed interrupted transaction commits", "count", n)
	}
	return &Engine{store: store, cat: cat, seqs: seqs, clock: clk, log: log, txm: txm, roles: roles}, nil
}

// NewSession implements pgwire.Engine.
func (e *Engine) NewSession(ctx context.Context, params map[string]string) (pgwire.Session, error) {
	return newSession(e, params)
}
