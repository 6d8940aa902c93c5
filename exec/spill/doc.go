// Package spill gives exec's blocking operators (sort, hash aggregation,
// hash join) a memory budget and disk-backed containers, so a query larger
// than memory completes instead of failing or exhausting the process.
//
// # Budget
//
// A Budget is one query's allowance (work_mem): operators Grow it as they
// retain rows and Shrink it as they let them go. Grow never blocks; when it
// would exceed the limit it returns an error with SQLSTATE 53200 naming the
// limit, and an operator that can spill writes to disk instead.
//
// # Row files
//
// Spilled rows are written to temporary files under the directory the
// engine gives (its data directory's tmp/), removed on Close. Each record is
//
//	uvarint(len(row)) row
//	row    = column*
//	column = 0x00                                   NULL
//	       | 0x01 uvarint(len(value)) value         keyenc.AppendValue of the column type
//	       | 2+kind uvarint(len(value)) value       of that kind, when the value's kind
//	                                                is not the column type's
//
// # Containers
//
//   - Sorter is a stable external merge sort: rows accumulate in memory up
//     to the budget, are sorted and written as a run when it is exhausted,
//     and the runs are merged (in several passes when there are more than
//     MaxFanIn), ties going to the earlier run.
//   - Partitions splits rows into files by a caller-chosen partition (a hash
//     of the grouping or join key), so a hash aggregation, a hash join, a
//     DISTINCT or a set operation can process one partition at a time
//     (Grace hash join). AppendKey encodes a row's grouping key (equal as
//     DISTINCT sees it, equal bytes); a Hasher maps it to a partition, with
//     a new seed at each level of recursive partitioning.
//
// Containers are used by one goroutine.
package spill
