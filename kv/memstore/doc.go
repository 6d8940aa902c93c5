// Package memstore is widesql's in-memory storage engine: the first
// implementation of the kv.Store contract, and the model the durable LSM
// engine's memtable will follow.
//
// # Structure
//
//	Store ── map name → *Table                 (Store.mu, RWMutex)
//	Table ── families (atomic pointer, replaced by SetFamilies)
//	      ├─ regions (atomic pointer, replaced by Split): bookkeeping only
//	      └─ tree: btree.BTreeG[*row]          (Table.mu, Mutex)
//	            ordered by rowkey bytes
//	            row = {key, cells}             immutable once in the tree
//	            cells sorted family ↑, qualifier ↑ (bytes), timestamp ↓
//
// Rows are copy-on-write values. A row mutation never edits a row in place: it
// builds a new row from the old one (mutateRow), replacing or inserting cells,
// removing deleted ones and dropping versions beyond the family's
// MaxVersions and cells past its TTL, then swaps it into the tree with
// ReplaceOrInsert, or deletes the key if no cell is left. Deletes are
// physical, so a later write with an older timestamp is visible again
// (Bigtable semantics). Reads and preconditions also hide cells past
// their family's TTL and versions beyond its MaxVersions (project.go), so
// a SetFamilies that lowers either applies at once, as in kv/lsm. The
// caller's keys, qualifiers and values are copied into one allocation per
// row mutation. A RowMutation's RequireColumn narrows its precondition to
// one column's live cells.
//
// # Regions and load
//
// All rows live in one tree, but a table keeps region boundaries
// (TableSpec.SplitKeys, Admin.Split) with per-region counters
// (region.go), so that kv.Admin's Regions works as on kv/lsm: Rows and
// Bytes (key, qualifier and value bytes) are exact, kept by Apply from
// each row's before and after and recounted for the children of a split;
// Reads (rows visited) and Writes (row mutations) are totals with a recent
// rate decayed over about a minute (kv/internal/loadstat). An iterator
// batches its read counts per region and adds them when it moves on.
// Table implements kv.MultiReader: ReadMulti clones one snapshot per row
// set.
//
// # Snapshots and locking
//
// A read takes Table.mu only to call tree.Clone, which is O(1): the clone
// shares every node with the live tree, and whichever of the two is written
// next copies the nodes on its path. The iterator then walks its private
// clone with no lock held, so a long scan never blocks writers and never sees
// a write applied after Read returned. Because rows are immutable, the cells
// handed to the caller alias the store's memory with no copying; the
// iterator only fills a reused []kv.Cell with the projected cells of the
// current row.
//
// Apply validates the whole batch without a lock, then holds Table.mu for the
// batch. Preconditions are checked in batch order, each seeing the batch's
// earlier row mutations. When a batch has a precondition and more than one
// row, it is staged in a clone of the tree that is installed only if every
// precondition holds, which makes the batch all-or-nothing for free; an
// unconditional batch cannot fail once validated and is applied in place.
//
// # Iteration
//
// A kv.RowSet is normalised into disjoint ascending spans (spans): ranges are
// sorted and merged, keys deduplicated and dropped when a range covers them.
// Point spans are read with tree.Get; a read of at most maxLookupKeys keys
// looks them all up under the lock instead of cloning the tree. Range spans are read by seeking into
// the tree and buffering up to defaultFillSize rows per seek; the next seek resumes
// after the last buffered key. Reverse reads walk the spans backwards with
// Descend. The context is checked every ctxCheckInterval rows.
package memstore
