package lsm

import "github.com/widesql/widesql/kv"

// SetIngestSizes shrinks a builder's chunk and file sizes, so tests make
// many runs and files out of a few rows.
func SetIngestSizes(b kv.IngestBuilder, chunkBytes int, fileBytes int64) {
	ib := b.(*ingestBuilder)
	ib.chunkBytes, ib.fileBytes = chunkBytes, fileBytes
}

// AppendRowPrefix is ingest's one-pass row prefix, for comparison with
// ikey.RowPrefix.
var AppendRowPrefix = appendRowPrefix
