// Package wal is the engine's write-ahead log: every batch is appended here,
// and made durable, before it is applied to the memtable, so that a crash
// loses nothing that was acknowledged.
//
// # Files
//
// The log is a sequence of segment files in one directory, named
//
//	wal-%016d.log        e.g. wal-0000000000000007.log
//
// after a segment number the engine picks (strictly increasing; normally
// the file number recorded in its manifest). The engine rotates to a new
// segment when the memtable is flushed, and deletes segments whose data is
// in sstables with RemoveBefore.
//
// # Record framing
//
// A segment is a sequence of frames with no header, padding or trailer:
//
//	+-----------+-----------+----------------------+
//	| crc (4 B) | len (4 B) | payload (len bytes)  |  frame 0
//	+-----------+-----------+----------------------+
//	| crc (4 B) | len (4 B) | payload (len bytes)  |  frame 1
//	+-----------+-----------+----------------------+
//	| ...                                          |
//
//	crc = CRC-32C (Castagnoli) of len and payload, i.e. of bytes [4, 8+len)
//	      of the frame, little-endian
//	len = payload length in bytes, little-endian uint32, at most
//	      MaxRecordSize (256 MiB); a larger len is corruption
//
// An empty payload is a valid record. The checksum covers len, so a flipped
// length is caught, and a run of zero bytes never checksums.
//
// # Writing: group commit
//
// One Writer appends to the current segment. AppendAsync frames the record
// into an in-memory buffer under the writer's lock, so records are in the
// log in the order AppendAsync was called. The returned wait function
// blocks until a sync covering the record has completed: the first waiter
// that finds no syncer at work becomes the syncer, writes every buffered
// frame with one write (pwrite(2) at the segment's write offset),
// fdatasyncs, and wakes the others; those whose
// record was covered return, the rest elect the next syncer. Under load one
// write and one fdatasync thus acknowledge every record appended while the
// previous ones ran, and the caller's critical section (the engine's commit
// mutex around AppendAsync) makes no system call. Append is AppendAsync
// followed by wait.
//
// A failed write or sync fails the writer for good: that append and every
// later one return an error wrapping the failure. After a failed fsync the
// state of the written data is unknown (the kernel may have dropped it), so
// nothing written after the last successful sync is ever acknowledged.
//
// With Options.NoSync, an append is acknowledged once written to the OS
// (by the same elected writer, without the sync): it survives a process
// crash but not a power loss. Rotate and Close write what is buffered and
// sync.
//
// Each new segment's directory entry is made durable (SyncDir) before the
// segment is used, so a synced record is never lost with its file's name.
//
// # Preallocation
//
// Frames are written at an offset (pwrite) into space the writer
// zero-filled ahead of time, a step (Options.Preallocate, 1 MiB by default)
// at a time in the background, so that a commit's fdatasync flushes data
// only and not also a new file size (prealloc.go). The next segment is
// prepared the same way as a spare file (wal-spare.tmp) that Rotate renames.
// A segment therefore usually ends in zeros.
//
// # Recovery
//
// Replay reads the segments in order. Zeros from a frame boundary to the
// end of any segment are its clean end (preallocated, never written): a
// run of zeros never checksums as a frame. A crash can leave the last
// segment with a torn tail: a partial frame, zeroed bytes or a frame whose checksum
// fails, written but never synced. Replay stops there and returns the
// offset where valid data ends. Damage that cannot come from an unsynced
// tail is reported as *CorruptionError: a bad frame followed by a valid
// one, or a bad frame not followed by zeros only in a segment that is not
// the last.
//
// Because of that rule, a torn tail must not stay in a segment that stops
// being the last: after Replay reports lastValid short of the last segment's
// size, cut it with TruncateSegment (or make the segment obsolete) before
// creating the next segment; TruncateSegment leaves a zero tail alone. Likewise, never append to a replayed segment;
// always Create a new one.
package wal
