// Package sqlparse is widesql's PostgreSQL dialect bridge onto the TiDB
// parser. It is the only package that knows PostgreSQL syntax quirks; the
// rest of the system sees TiDB ASTs (github.com/pingcap/tidb/pkg/parser/ast)
// plus the few PostgreSQL-only pieces TiDB cannot represent (utility
// statements, ON CONFLICT, RETURNING).
//
// # Pipeline
//
// Parse runs every query string through six stages:
//
//	query string
//	     |
//	1. lex        lexer.go, escape.go: PostgreSQL tokens; comments (nested
//	     |        /* */, --) dropped; strings decoded ('' E'' U&'' $tag$);
//	     |        unquoted identifiers folded to lower case; split at ';'
//	     v
//	2. intercept  utility.go: BEGIN/COMMIT/ROLLBACK/SAVEPOINT/SET/SHOW/RESET/
//	     |        DISCARD/DEALLOCATE become a *Utility and stop here (but
//	     |        SHOW CREATE TABLE t and SHOW TABLE t REGIONS go on);
//	     |        index.go: CREATE/DROP INDEX; options.go: ALTER TABLE
//	     |        SET/RESET (...) become an IndexStmt / AlterOptions
//	     v
//	3. rewrite    clauses.go: EXPLAIN options, cut ALLOW FULL SCAN, ON
//	     |        CONFLICT and RETURNING; options.go: cut WITH (...)
//	     |        ddl.go: PostgreSQL column types -> TiDB types (table below)
//	     |        rewrite.go, in this order, over the remaining tokens:
//	     |          operators.go  OPERATOR(pg_catalog.op) -> op; COLLATE
//	     |                        "C"/"POSIX"/"default"/ucs_basic dropped
//	     |          unsupported.go constructs widesql lacks -> 0A000 naming
//	     |                        them; MySQL-only syntax -> 42601
//	     |          then one pass: casts -> pg_cast(x,'T'); operators ->
//	     |          TiDB operators + markers (below); LIKE patterns
//	     |          parenthesized; ARRAY[..], ANY/ALL (arrays.go); paging
//	     |          clauses (limit.go); NULLS FIRST/LAST; FILTER
//	     |          (aggfilter.go); x ISNULL/NOTNULL; INTERVAL 'n' unit;
//	     |          keyword aliases quoted; FROM ONLY rejected
//	     v
//	4. emit       emit.go: tokens -> text for TiDB ($n -> ?, strings as
//	     |        standard '...' literals, quoted identifiers as "..."),
//	     |        recording rewritten offset -> original token
//	     v
//	5. TiDB parse parse.go: ANSI_QUOTES|PIPES_AS_CONCAT|NO_BACKSLASH_ESCAPES;
//	     |        errors mapped back to the original text; every
//	     |        ParamMarkerExpr gets Order = n-1 for its $n
//	     v
//	6. markers    markers.go: an ast.Visitor resolves the operator markers
//	              and ANY/ALL into the forms the planner reads (below)
//
// Nothing between stages is regex-based: every rewrite works on tokens, so
// text inside literals, quoted identifiers and comments is never touched.
//
// # Operators and precedence
//
// Operand extents are never guessed for operators: each PostgreSQL operator
// TiDB lacks is emitted as a TiDB operator of the same precedence, so
// TiDB's own grammar decides what its operands are, and tagged with a
// marker "COLLATE <mysql collation>" emitted just before it. COLLATE binds
// tightest in TiDB, so the marker lands on the right spine of the left
// operand, where the marker pass finds it, removes it and rewrites the
// node. User COLLATE clauses never reach TiDB, so every COLLATE in a parsed
// tree is a marker.
//
//	PostgreSQL                   TiDB text              after the marker pass
//	a IS NOT DISTINCT FROM b     a <=> b                a <=> b
//	a IS DISTINCT FROM b         a COLLATE m <=> b      NOT (a <=> b)
//	a ^ b                        a ^ b                  pg_op('^', a, b)
//	a OP b, OP one of            a COLLATE m | b        pg_op('OP', a, b)
//	  ~ ~* !~ !~* ~~ ~~* !~~ !~~* || # & << >> -> ->> #> #>> @> <@ &&
//	a | b                        a | b                  pg_op('|', a, b)
//	OP x, OP one of |/ ||/ @ ~   0 COLLATE m | x        pg_op('OP', x)
//	ORDER BY x [ASC|DESC] NULLS  x COLLATE m [ASC|DESC] ByItem.NullOrder
//
// PostgreSQL gives every operator without its own grammar rule (||, ~, ->,
// &, |, #, <<, >>, ...) one left-associative level between comparison and
// + -; TiDB's '|' is exactly there. ^ is above * and below unary minus in
// both grammars (-2 ^ 2 = 4). A prefix ~ inside arithmetic (1 + ~x) stays
// TiDB's tighter ~, and |/ ||/ @ there are 0A000. IS DISTINCT FROM takes
// TiDB's comparison level, one above PostgreSQL's IS level: only a
// comparison directly to its right (a IS DISTINCT FROM b = c) groups
// differently. After [I]LIKE TiDB reads only a primary, so the pattern is
// parenthesized up to the first token binding as loosely as LIKE
// (operators.go, likePatternEnd). ? ?| ?& @@ and a few others are 0A000.
//
// After the marker pass, ast.ByItem.NullOrder is true exactly when
// PostgreSQL puts NULLs first: NULLS FIRST, or DESC without NULLS LAST.
//
// # Arrays, ANY and ALL
//
// ARRAY[a, b] becomes pg_array(a, b); ARRAY[..]::T[] keeps its cast.
// x op ANY|SOME|ALL (e) becomes x op pg_any(e) / pg_all(e); the marker
// pass expands a literal array: = ANY -> IN (..), <> ALL -> NOT IN (..),
// other operators an OR / AND of comparisons (elements cast when the array
// was). Any other array (a parameter, a column, an empty array) leaves
// pg_any_op('op', x, e) / pg_all_op('op', x, e). x op ANY (SELECT ..) stays
// TiDB's subquery. Nested ARRAY[[..]] is 0A000.
//
// # Set-returning functions, subscripts, field selection (srf_syntax.go)
//
// Before the other FROM rewrites: a[i] becomes pg_subscript(a, i) and
// a[i:j] pg_slice(a, i, j) (type names such as int[] are left alone);
// (expr).f becomes pg_field(expr, 'f'); ARRAY(SELECT ..) becomes a scalar
// subquery aggregating its column; VALUES may stand alone or as a set
// operation's operand; a function call in FROM (optionally LATERAL, WITH
// ORDINALITY, with an alias and column aliases) becomes a marker the
// planner plans as a ProjectSet (planner/build_srf.go).
//
// # Cursors (cursor.go)
//
// DECLARE name [NO SCROLL] CURSOR [WITH|WITHOUT HOLD] FOR query, FETCH,
// MOVE and CLOSE are Statement.Cursor, parsed without TiDB (the query with
// parseOne); backward directions are 55000.
//
// # Clauses
//
// LIMIT n | ALL | NULL | 'n' | $n, OFFSET n [ROW|ROWS] and FETCH
// FIRST|NEXT [n] ROW|ROWS ONLY, in any order, become TiDB's LIMIT c OFFSET
// o (ALL and NULL as the largest count); negative constants are 2201W /
// 2201X, a non-integer string 22P02, expressions 0A000. agg(args) FILTER
// (WHERE c) becomes agg(CASE WHEN c THEN arg1 END, args...) (count(*) ->
// count(CASE WHEN c THEN 1 END)): every aggregate widesql has skips NULLs;
// FILTER on array_agg and the json aggregates is 0A000. INTERVAL 'n' unit
// (one of year, month, day, hour, minute, second) becomes pg_cast('n
// unit', 'interval'), dropping a fraction below the unit as PostgreSQL's
// qualifier does; qualifiers with TO and non-numeric literals are 0A000.
//
// # Rowkey design syntax
//
// widesql's storage syntax, in PostgreSQL's spelling where PostgreSQL has
// one and in TiDB's where only TiDB has it:
//
//	CREATE TABLE t (...) WITH (salt_buckets = 8, layout = 'wide',
//	    d.versions = 3, d.ttl = '7 days', d.compression = 'zstd',
//	    d.bloom = 'row')
//	    PostgreSQL's storage parameters, cut out into
//	    Statement.TableOptions. A name is a word or fam.word (quoted parts
//	    keep their case); a value is a string (its contents), a signed
//	    number (its text) or a bare word (TRUE, off, ...); a name alone
//	    means "true". A name given twice is 22023, as in PostgreSQL. The
//	    planner validates names and values.
//	ALTER TABLE [IF EXISTS] [ONLY] t SET (name = value, ...)
//	ALTER TABLE [IF EXISTS] [ONLY] t RESET (name, ...)
//	    Statement.AlterOptions, AST nil; alone only (with other
//	    subcommands 0A000); a value in RESET is 42601 as in PostgreSQL.
//	    Other ALTER TABLE forms (ADD COLUMN f.c T, DROP COLUMN, RENAME
//	    COLUMN, RENAME TO) go to TiDB.
//	PRIMARY KEY ((md5(a)), (ts % 100), b DESC)
//	    key expressions, IndexPartSpecification.Expr; a bare call as a key
//	    part, PRIMARY KEY (md5(a), b), is parenthesized first, as
//	    PostgreSQL's CREATE INDEX accepts it.
//	FROM t [[AS] alias] AS OF TIMESTAMP expr
//	    TiDB's clause, after the alias: ast.TableName.AsOf. TIMESTAMP is
//	    kept as the keyword, and a string right after it becomes
//	    pg_cast('...', 'timestamptz').
//	SHOW CREATE TABLE t, SHOW TABLE t REGIONS
//	    TiDB's ast.ShowStmt (ShowCreateTable, ShowRegions); only these
//	    exact forms, every other SHOW names a setting.
//	SPLIT TABLE t BY (v, ...), ... | BETWEEN (v, ...) AND (v, ...) REGIONS n
//	    TiDB's ast.SplitRegionStmt.
//	SELECT | INSERT | UPDATE | DELETE ... ALLOW FULL SCAN
//	    the last three words of the statement (after EXPLAIN's prefix,
//	    LIMIT, RETURNING, ON CONFLICT) set Statement.AllowFullScan;
//	    anywhere else they are a syntax error.
//
// # Unsupported syntax
//
// unsupported.go rejects what widesql does not implement with 0A000 and a
// message naming it (LATERAL subqueries, WITH before DML, FOR
// UPDATE/SHARE, TABLESAMPLE, GROUPING SETS/ROLLUP/CUBE, (x).* , ORDER BY
// ... USING, SIMILAR TO, AT TIME ZONE, BETWEEN SYMMETRIC, OVERLAPS, named
// arguments, VACUUM, LISTEN/NOTIFY, CREATE TYPE/VIEW/...), and
// MySQL-only syntax that TiDB would accept with a MySQL meaning (backquoted
// names, REGEXP/RLIKE/DIV/MOD/XOR infix, prefix !, :=, INTERVAL n unit)
// with 42601 at the token, as PostgreSQL does. Joins, subqueries, set
// operations and window functions parse and are rejected by the planner.
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
//	numeric, decimal                    DECIMAL          "numeric"
//	numeric(p[,s]), decimal(p[,s])      ENUM('pg:numeric(p,s)')  "numeric(p,s)"
//	json                                JSON             "json"
//	jsonb                               ENUM('pg:jsonb')         "jsonb"
//	uuid                                ENUM('pg:uuid')          "uuid"
//	interval[(p)]                       ENUM('pg:interval')      "interval"
//	T[] (any type above but oid)        ENUM('pg:T[]')           "T[]", e.g. "varchar(5)[]"
//	oid                                 INT UNSIGNED     "oid"
//
// TiDB has no uuid, jsonb, interval or array type, and its DECIMAL cannot
// hold PostgreSQL's numeric(1000,s) or negative scales, so those columns
// carry the PostgreSQL type name in a one-element ENUM prefixed "pg:",
// which PGType returns verbatim. Every other type name (timetz, money,
// ...) is rejected with 0A000 at parse time, so a CREATE TABLE that parses
// always has types PGType understands. Column names may be Phoenix-style
// "family.column"; TiDB keeps the family in ColumnName.Table.
//
// # Positions
//
// Errors are *pgerror.Error. Position is PostgreSQL's: the 1-based character
// (not byte) position in the whole query string, pointing at the offending
// token of the user's text even when TiDB failed on rewritten text.
package sqlparse
