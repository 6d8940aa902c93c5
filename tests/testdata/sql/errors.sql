# Bad input: each error carries the SQLSTATE PostgreSQL uses, and the
# connection stays usable after every one of them.

statement ok
CREATE TABLE t (k INT, s SMALLINT, v VARCHAR(5), d DOUBLE PRECISION, PRIMARY KEY (k))

statement ok
INSERT INTO t VALUES (1, 1, 'one', 1.5)

# 42601 syntax error.
statement error 42601
SELEC 1

statement error 42601
SELECT FROM WHERE

statement error 42601
INSERT INTO t VALUES (1,

statement error 42601
CREATE TABLE broken (a INT,, PRIMARY KEY (a))

# 42P01 undefined table.
query error 42P01
SELECT * FROM nosuch

statement error 42P01
INSERT INTO nosuch VALUES (1)

statement error 42P01
UPDATE nosuch SET a = 1

statement error 42P01
DELETE FROM nosuch

# 42703 undefined column.
query error 42703
SELECT nope FROM t

query error 42703
SELECT k FROM t WHERE nope = 1

statement error 42703
INSERT INTO t (k, nope) VALUES (2, 1)

statement error 42703
UPDATE t SET nope = 1 WHERE k = 1

statement error 42703
CREATE TABLE badkey (a INT, PRIMARY KEY (b))

# 22P02 invalid text representation.
statement error 22P02
INSERT INTO t VALUES ('abc', 1, 'x', 1)

query error 22P02
SELECT 'x'::integer

query error 22P02
SELECT '1.5'::INT

query error 22P02
SELECT 'maybe'::BOOLEAN

query error 22P02
SELECT k FROM t WHERE k = 'abc'

# 22007 bad timestamp text.
query error 22007
SELECT 'not a time'::TIMESTAMP

# 42804 datatype mismatch.
query error 42804
SELECT k FROM t WHERE 1

query error 42804
SELECT k FROM t WHERE k

statement error 42804
INSERT INTO t VALUES (true, 1, 'x', 1)

# 42883 no operator for these types.
query error 42883
SELECT 1 + 'a'::TEXT

# 23502 NULL in a key column.
statement error 23502
INSERT INTO t VALUES (NULL, 1, 'x', 1)

statement error 23502
INSERT INTO t (s) VALUES (1)

# 23505 duplicate key.
statement error 23505
INSERT INTO t VALUES (1, 1, 'x', 1)

# 22003 out of range.
statement error 22003
INSERT INTO t VALUES (2, 32768, 'x', 1)

query error 22003
SELECT 32767::SMALLINT + 1::SMALLINT

query error 22003
SELECT 2147483647 + 1

query error 22003
SELECT 9223372036854775807::BIGINT * 2

query error 22003
SELECT '99999999999'::INTEGER

# 22012 division by zero.
query error 22012
SELECT 1/0

query error 22012
SELECT k % 0 FROM t

query error 22012
SELECT d / 0 FROM t

# 22001 too long for varchar(n); an explicit cast truncates instead.
statement error 22001
INSERT INTO t VALUES (3, 1, 'toolong', 1)

statement error 22001
UPDATE t SET v = 'toolong' WHERE k = 1

# Nothing of the failed statements above was written.
query
SELECT k, s, v, d FROM t
----
1  1  one  1.5

# 0A000 unsupported features name the feature.
# widesql-only
statement error 0A000 UNIQUE
CREATE UNIQUE INDEX t_v ON t (v)

# 42P07 duplicate table.
statement error 42P07
CREATE TABLE t (k INT, PRIMARY KEY (k))

# CHECK constraints are not enforced yet, so they are refused.
# widesql-only
statement error 0A000 CHECK
CREATE TABLE nokey (a INT CHECK (a > 0))

# 42701 duplicate column.
statement error 42701
CREATE TABLE dupcol (a INT, a TEXT, PRIMARY KEY (a))

# Still fine after all of that.
query
SELECT 1
----
1

statement ok
DROP TABLE t
