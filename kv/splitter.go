package kv

import "context"

// Splitter is an optional capability of a Table, found by type assertion:
// it cuts a key range into pieces of about equal size, from what the
// store knows of its data without reading it. A parallel scan reads the
// pieces on separate workers; cutting by interpolating rowkeys instead
// leaves workers idle when keys are skewed.
//
// kv/lsm answers from its region boundaries and its files' index blocks.
// Cloud Bigtable would answer from SampleRowKeys, whose (row key, offset
// in bytes) pairs it keeps for the whole table: the keys inside span
// whose offsets come nearest to equal shares (Families it ignores).
type Splitter interface {
	// SplitKeys returns at most n-1 strictly increasing rowkeys, each
	// strictly inside span, that cut span into pieces holding about
	// equal bytes of data, as of about now (a hint: the keys need not
	// match rows, and data written since may be missed). It returns no
	// keys when span holds too little data for two pieces of
	// opts.MinPieceBytes, or when the store cannot tell where its data
	// lies (say, most of it is still in memory): the caller then cuts
	// its own pieces or reads serially. Errors wrap ErrTableNotFound or
	// ErrClosed, or are ctx's.
	SplitKeys(ctx context.Context, span KeyRange, n int, opts SplitOptions) ([][]byte, error)
}

// SplitOptions shape SplitKeys.
type SplitOptions struct {
	// Families, when non-empty, are the families whose bytes the pieces
	// should balance (those a scan reads for every row); a store that
	// does not keep families apart weighs all of them.
	Families []string
	// MinPieceBytes is the least data worth a piece: fewer keys are
	// returned rather than smaller pieces. 0 means no minimum.
	MinPieceBytes int64
}
