// Package compat runs real PostgreSQL clients against widesql and against a
// throwaway PostgreSQL 15 with the same scripted scenario, and diffs what
// each client got from the two servers. It holds no code outside its tests.
//
// # The scenario
//
// Every client creates the table of clients/scenario.json (a composite
// rowkey (tenant, seq) and two column families; for PostgreSQL the family
// prefixes are removed from the DDL, see pgDDL), loads its rows, reads by
// full key, by a key-prefix range with ORDER BY and by a range over the
// leading key column, reflects the schema the client's own way, updates and
// deletes, and then runs what is particular to the client:
//
//   - pgjdbc (clients/java/Compat.java, compiled at test time against
//     /usr/share/java/postgresql.jar): a PreparedStatement executed more than
//     five times (named statements, binary parameters), ResultSetMetaData,
//     DatabaseMetaData getTables/getColumns/getPrimaryKeys/getIndexInfo/
//     getSchemas, setFetchSize with autocommit off (a named portal).
//   - psycopg2 and psycopg 3 (clients/python, run with /usr/bin/python3, where
//     Debian's python3-* packages are): CRUD, server-side (named) cursors,
//     psycopg 3 binary results, executemany and transactions.
//   - SQLAlchemy 1.4 on psycopg2: first-connect probes, inspect() has_table,
//     get_columns, get_pk_constraint, get_indexes, Table reflection, ORM
//     session CRUD whose INSERT uses RETURNING.
//   - node-postgres (clients/node, npm pg 8.x from package-lock.json,
//     installed with npm ci into clients/node/node_modules when missing):
//     parameterized and named queries, transactions, a pg.Pool of four
//     clients with eight queries in flight.
//   - psql (clients/psql/compat.psql): \copy from/to, \d, \dt, \d TABLE,
//     \d+ TABLE, \di, \dn, \l, \x, \timing.
//   - pgx (extended protocol with binary formats, simple protocol, CopyFrom,
//     SendBatch), lib/pq, and GORM (AutoMigrate with every statement logged:
//     none against the pre-created table, none on the second run for the
//     models it creates; HasTable/HasColumn/HasIndex, ColumnTypes, CRUD,
//     transactions, Preload) are Go code in this package. GORM migrates
//     without foreign-key constraints (DisableForeignKeyConstraintWhenMigrating)
//     because widesql refuses FOREIGN KEY by design (docs/STATUS.md).
//
// Steps that would change the data the later steps read when they fail
// (psql's \copy, pgx's CopyFrom) come last or use their own table, so one
// missing feature shows as one differing step rather than a cascade.
//
// Each client gets its own fresh widesql server (memory store) and its own
// new database on the PostgreSQL server, so the clients do not see each
// other's tables. A client prints a transcript: "## step" headers, one line
// per value it got (with the client-side type, so a wrong type shows), and
// "error SQLSTATE message" when a step fails; a step's failure does not stop
// the next steps. The test fails when the scenario errs against PostgreSQL
// (the script is wrong) or when the two transcripts differ; the failure
// names the first differing step and shows a unified diff (- PostgreSQL,
// + widesql).
//
// # Normalisations
//
// Applied to both transcripts alike (normalize.go), each for a difference
// that says nothing about compatibility:
//
//   - psql's "Time: 0.123 ms" (\timing) becomes "Time: N ms".
//   - psql's Owner column becomes <owner>: who owns an object is a fact of
//     the server's roles, not of the client protocol.
//   - pgjdbc getIndexInfo CARDINALITY and PAGES become <stat>: they are
//     planner statistics (pg_class.reltuples/relpages), which even in
//     PostgreSQL change with autovacuum.
//   - In a table description (pgjdbc getTables REMARKS), lines that start
//     with "rowkey (" are removed: widesql appends its rowkey/family design
//     summary to the table description, which PostgreSQL has no counterpart
//     for. A description left empty reads as null, as in PostgreSQL.
//
// psql output is unaligned (-A), so the comparison is of headers, rows and
// footers rather than column widths, and `\l` is given the current
// database as its pattern, because the set of databases on two servers
// differs by construction (template0, template1, postgres).
//
// # Running
//
//	go test ./tests/compat/                       # all clients
//	go test ./tests/compat/ -run 'TestCompat/jdbc' -v   # one client, with transcripts
//	COMPAT_WIDESQL_BIN=/path/widesql go test ./tests/compat/   # a prebuilt server
//
// # Requirements
//
// PostgreSQL 15 server binaries (pgtmp), psql, javac with
// /usr/share/java/postgresql.jar, /usr/bin/python3 with psycopg2, psycopg and
// SQLAlchemy 1.4, node and npm. .ci/run installs them. When one is missing
// the client's test is skipped with a message saying what to install, except
// under CI (CI set), where it fails.
package compat
