# CREATE TABLE / DROP TABLE and their IF [NOT] EXISTS forms.

statement ok
CREATE TABLE t (a INT, b TEXT, PRIMARY KEY (a))

statement error 42P07
CREATE TABLE t (a INT, PRIMARY KEY (a))

# IF NOT EXISTS on an existing table succeeds and changes nothing.
statement ok
CREATE TABLE IF NOT EXISTS t (x BIGINT, PRIMARY KEY (x))

statement count 1
INSERT INTO t VALUES (1, 'one')

query
SELECT a, b FROM t
----
1  one

statement ok
DROP TABLE t

query error 42P01
SELECT a FROM t

statement error 42P01
DROP TABLE t

statement ok
DROP TABLE IF EXISTS t

# A dropped table's name can be reused, and the new table starts empty.
statement ok
CREATE TABLE t (x BIGINT, PRIMARY KEY (x))

query
SELECT count(*) FROM t
----
0

# A column-level PRIMARY KEY is the same as the table constraint.
statement ok
CREATE TABLE kv (k TEXT PRIMARY KEY, v TEXT)

statement ok
INSERT INTO kv VALUES ('a', '1')

statement error 23505
INSERT INTO kv VALUES ('a', '2')

# Unquoted names fold to lower case.
statement ok
CREATE TABLE Mixed (Id INT, PRIMARY KEY (ID))

statement ok
INSERT INTO mixed (id) VALUES (7)

query colnames
SELECT ID FROM MIXED
----
id
7

statement ok
CREATE TABLE IF NOT EXISTS fresh (id INT, PRIMARY KEY (id))

statement ok
DROP TABLE IF EXISTS fresh

statement ok
DROP TABLE kv
