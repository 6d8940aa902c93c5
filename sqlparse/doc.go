// Package sqlparse is widesql's PostgreSQL dialect bridge onto the TiDB
// parser. It is the only package that knows PostgreSQL syntax quirks; the
// rest of the system sees TiDB ASTs (github.com/pingcap/tidb/pkg/parser/ast)
// plus the few PostgreSQL-only pieces TiDB cannot represent (utility
// statements, ON CONFLICT, RETURNING).
//
// # Pipeline
//
// Parse runs every query string through five stages:
//
//	query string
//	     |
//	1. lex        lexer.go, escape.go: PostgreSQL tokens; comments (nested
//	     |        /* */, --) dropped; strings decoded ('' E'' U&'' $tag$);
//	     |        unquoted identifiers folded to lower case; split at ';'
//	     v
//	2. intercept  utility.go: BEGIN/COMMIT/ROLLBACK/SAVEPOINT/SET/SHOW/RESET/
//	     |        DISCARD/DEALLOCATE become a *Utility and stop here
//	     v
//	3. rewrite    clauses.go: EXPLAIN options, cut ON CONFLICT and RETURNING
//	     |        ddl.go: PostgreSQL column types -> TiDB types (table below)
//	     |        rewrite.go: x::T, CAST(x AS T), TYPE 'lit' -> pg_cast(x,'T');
//	     |        FROM ONLY rejected
//	     v
//	4. emit       emit.go: tokens -> text for TiDB ($n -> ?, strings as
//	     |        standard '...' literals, quoted identifiers as "..."),
//	     |        recording rewritten offset -> original token
//	     v
//	5. TiDB parse parse.go: ANSI_QUOTES|PIPES_AS_CONCAT|NO_BACKSLASH_ESCAPES;
//	              errors mapped back to the original text; every
//	              ParamMarkerExpr gets Order = n-1 for its $n
//
// Nothing between stages is regex-based: every rewrite works on tokens, so
// text inside literals, quoted identifiers and comments is never touched.
//
// # Casts
//
// All casts become a call of the function pg_cast(expr, 'type') that the
// executor implements. The type name is normalized: int/int4/integer ->
// "integer", int2 -> "smallint", int8 -> "bigint", float8/float/double
// precision -> "double precision", float4/real -> "real", bool ->
// "boolean", character varying/varchar -> "varchar", char/character/bpchar
// -> "char", decimal -> "numeric", timestamp without time zone ->
// "timestamp", timestamp with time zone -> "timestamptz", time with time
// zone -> "timetz", pg_catalog.T -> T; any other name is kept lower-cased.
// Modifiers and array suffixes are kept: "varchar(10)", "numeric(10,2)",
// "integer[]".
//
// # DDL type mapping
//
// In CREATE TABLE and ALTER TABLE ... ADD [COLUMN] the PostgreSQL type is
// replaced by a TiDB type chosen so that PGType recovers it exactly:
//
//	PostgreSQL                          TiDB             PGType
//	smallint, int2                      SMALLINT         "smallint"
//	integer, int, int4                  INT              "integer"
//	bigint, int8                        BIGINT           "bigint"
//	real, float4, float(1..24)          FLOAT            "real"
//	double precision, float8, float     DOUBLE           "double precision"
//	boolean, bool                       BOOLEAN          "boolean" (TINYINT(1))
//	text                                LONGTEXT         "text"
//	varchar(n), character varying(n)    VARCHAR(n)       "varchar", width n
//	varchar (no length)                 MEDIUMTEXT       "varchar", width 0
//	char(n), character(n); char = (1)   CHAR(n)          "char", width n
//	bytea                               LONGBLOB         "bytea"
//	timestamp[(p)] [without time zone]  DATETIME(p|6)    "timestamp"
//	timestamptz[(p)], with time zone    TIMESTAMP(p|6)   "timestamptz"
//	time[(p)] [without time zone]       TIME(p|6)        "time"
//	date                                DATE             "date"
//	numeric[(p[,s])], decimal           DECIMAL[(p,s)]   "numeric"
//	json                                JSON             "json"
//	oid                                 INT UNSIGNED     "oid"
//
// serial types, arrays and every other type name (uuid, jsonb, ...) are
// rejected with 0A000 at parse time, so a CREATE TABLE that parses always
// has types PGType understands. Column names may be Phoenix-style
// "family.column"; TiDB keeps the family in ColumnName.Table.
//
// # Positions
//
// Errors are *pgerror.Error. Position is PostgreSQL's: the 1-based character
// (not byte) position in the whole query string, pointing at the offending
// token of the user's text even when TiDB failed on rewritten text.
package sqlparse
