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
//
// # Containers
//
//   - Sorter is an external merge sort: rows accumulate in memory up to the
//     budget, are sorted and written as a run when it is exhausted, and the
//     runs are merged (in several passes when there are more than MaxFanIn).
//   - Partitions splits rows into files by a caller-chosen partition (a hash
//     of the grouping or join key), so a hash aggregation or a hash join can
//     process one partition at a time (Grace hash join).
//
// Containers are used by one goroutine.
package spill
