// Package tests holds widesql's end-to-end suites. Everything here talks to a
// real server process over the PostgreSQL wire protocol; nothing imports the
// server's packages.
//
// # Layout
//
//   - main_test.go builds ./cmd/widesql once per `go test` run.
//   - server_test.go starts one fresh server per test (random loopback port,
//     fresh --data directory) and stops it with SIGTERM, requiring exit 0.
//   - target_test.go hands a test a fresh database to talk to: a widesql
//     server, or, with WIDESQL_TEST_PG set, a new database on a real
//     PostgreSQL, so every suite here can check that its expectations are
//     PostgreSQL's.
//   - package sqltest parses testdata/sql/*.sql (the format is described
//     in its file.go) and runs a file through any client; logic_test.go
//     runs each file with three clients (clients_test.go): pgx extended
//     protocol, pgx simple protocol and lib/pq through database/sql.
//     exec's TestSQLFiles runs the same files in-process, straight into
//     an exec.Session, on the in-memory store and on the durable engine.
//   - protocol_test.go drives the wire protocol message by message with
//     pgproto3; params_test.go covers parameters and binary formats;
//     psql_test.go runs the psql binary.
//
// # Running
//
//	go test ./tests/                                  # against widesql
//	go test ./tests/ -run 'TestSQL/select' -rewrite   # regenerate expected rows
//	WIDESQL_TEST_PG=postgres://postgres@127.0.0.1:55432/postgres go test ./tests/
//
// Against PostgreSQL, records marked `# widesql-only` are skipped and records
// marked `# postgres-only` are run (they are skipped against widesql).
package tests
