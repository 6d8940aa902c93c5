# file: widesql-only
# The raw cell view cells.<t> (one row per cell version: the key columns,
# rowkey, family, qualifier, column_name, ts, value, value_text) and the
# row history view versions.<t> (one row per version of each row: t's
# columns and _ts). Timestamps come from widesql.write_timestamp so that
# the history is deterministic.

statement ok
SET TimeZone = 'UTC'

statement ok
CREATE TABLE kv3 (k INT PRIMARY KEY, v TEXT, n INT) WITH (d.versions = 3)

statement ok
SET widesql.write_timestamp = '2024-01-01 00:00:00+00'

statement count 2
INSERT INTO kv3 VALUES (1, 'one', 10), (2, 'two', NULL)

statement ok
SET widesql.write_timestamp = '2024-01-02 00:00:00+00'

statement count 1
UPDATE kv3 SET v = 'uno' WHERE k = 1

statement ok
SET widesql.write_timestamp = '2024-01-03 00:00:00+00'

statement count 1
UPDATE kv3 SET n = 11 WHERE k = 1

statement ok
RESET widesql.write_timestamp

# Every write rewrites the row marker (family d, qualifier 0x00, empty
# column_name); a NULL is no cell at all.
query colnames
SELECT * FROM cells.kv3
----
k  rowkey      family  qualifier  column_name  ts                      value     value_text
1  \x80000001  d       \x00       (empty)      2024-01-03 00:00:00+00  \x        NULL
1  \x80000001  d       \x00       (empty)      2024-01-02 00:00:00+00  \x        NULL
1  \x80000001  d       \x00       (empty)      2024-01-01 00:00:00+00  \x        NULL
1  \x80000001  d       \x02       v            2024-01-02 00:00:00+00  \x756e6f  uno
1  \x80000001  d       \x02       v            2024-01-01 00:00:00+00  \x6f6e65  one
1  \x80000001  d       \x03       n            2024-01-03 00:00:00+00  \x16      11
1  \x80000001  d       \x03       n            2024-01-01 00:00:00+00  \x14      10
2  \x80000002  d       \x00       (empty)      2024-01-01 00:00:00+00  \x        NULL
2  \x80000002  d       \x02       v            2024-01-01 00:00:00+00  \x74776f  two

# Key predicates reach the rowkey of kv3 itself.
query
SELECT column_name, ts, value_text FROM cells.kv3 WHERE k = 2
----
(empty)  2024-01-01 00:00:00+00  NULL
v        2024-01-01 00:00:00+00  two

query
EXPLAIN SELECT column_name, ts, value_text FROM cells.kv3 WHERE k = 2
----
POINT GET ON cells.kv3 KEY (2) FAMILIES (d)

query
SELECT k, column_name, value_text FROM cells.kv3 WHERE k >= 1 AND k < 2 AND column_name = 'n'
----
1  n  11
1  n  10

query
SELECT column_name, count(*) FROM cells.kv3 GROUP BY column_name ORDER BY column_name
----
(empty)  4
n        2
v        3

# versions.kv3: the full row at each of its versions, newest first.
query colnames
SELECT * FROM versions.kv3
----
k  v    n   _ts
1  uno  11  2024-01-03 00:00:00+00
1  uno  10  2024-01-02 00:00:00+00
1  one  10  2024-01-01 00:00:00+00
2  two  NULL  2024-01-01 00:00:00+00

query
SELECT v, n, _ts FROM versions.kv3 WHERE k = 1 AND _ts < '2024-01-03'
----
uno  10  2024-01-02 00:00:00+00
one  10  2024-01-01 00:00:00+00

query
EXPLAIN SELECT v, _ts FROM versions.kv3 WHERE k = 1 AND _ts > '2024-01-01'
----
POINT GET ON versions.kv3 KEY (1) FAMILIES (d) FILTER (_ts > '2024-01-01 00:00:00+00')

# What changed between two versions, with a window over the history.
query
SELECT k, _ts, v, lag(v) OVER (PARTITION BY k ORDER BY _ts) AS before
FROM versions.kv3 ORDER BY k, _ts
----
1  2024-01-01 00:00:00+00  one  NULL
1  2024-01-02 00:00:00+00  uno  one
1  2024-01-03 00:00:00+00  uno  uno
2  2024-01-01 00:00:00+00  two  NULL

# Two more versions of v push its first one out: the row's state before
# v's oldest kept version is unknown, so versions.kv3 stops there; cells
# still shows what is kept.
statement ok
SET widesql.write_timestamp = '2024-01-04 00:00:00+00'

statement count 1
UPDATE kv3 SET v = 'eins' WHERE k = 1

statement ok
SET widesql.write_timestamp = '2024-01-05 00:00:00+00'

statement count 1
UPDATE kv3 SET v = 'zwei' WHERE k = 1

statement ok
RESET widesql.write_timestamp

query
SELECT v, n, _ts FROM versions.kv3 WHERE k = 1
----
zwei  11  2024-01-05 00:00:00+00
eins  11  2024-01-04 00:00:00+00
uno   11  2024-01-03 00:00:00+00
uno   10  2024-01-02 00:00:00+00

query
SELECT column_name, ts FROM cells.kv3 WHERE k = 1 AND column_name IN ('', 'v')
----
(empty)  2024-01-05 00:00:00+00
(empty)  2024-01-04 00:00:00+00
(empty)  2024-01-03 00:00:00+00
v        2024-01-05 00:00:00+00
v        2024-01-04 00:00:00+00
v        2024-01-02 00:00:00+00

# Setting a column to NULL deletes its cells, history included.
statement count 1
UPDATE kv3 SET n = NULL WHERE k = 1

query
SELECT count(*) FROM cells.kv3 WHERE k = 1 AND column_name = 'n'
----
0

# Families and types: value_text renders the column's type as PostgreSQL
# prints it; the key columns are decoded in rowkey order. Without a family
# d, the row marker lives in the first family.
statement ok
CREATE TABLE ev (host TEXT, at TIMESTAMPTZ, m.cpu DOUBLE PRECISION, m.ok BOOLEAN, info.tags TEXT[], PRIMARY KEY (host, at DESC))

statement ok
SET widesql.write_timestamp = '2024-03-01 10:00:00+00'

statement count 2
INSERT INTO ev VALUES ('h1', '2024-03-01 09:00:00+00', 0.5, true, '{a,b}'), ('h1', '2024-03-01 09:05:00+00', 1.25, false, NULL)

statement ok
RESET widesql.write_timestamp

query
SELECT host, at, family, column_name, value_text FROM cells.ev ORDER BY at, family, column_name
----
h1  2024-03-01 09:00:00+00  info  tags     {a,b}
h1  2024-03-01 09:00:00+00  m     (empty)  NULL
h1  2024-03-01 09:00:00+00  m     cpu      0.5
h1  2024-03-01 09:00:00+00  m     ok       t
h1  2024-03-01 09:05:00+00  m     (empty)  NULL
h1  2024-03-01 09:05:00+00  m     cpu      1.25
h1  2024-03-01 09:05:00+00  m     ok       f

query
SELECT at, value_text FROM cells.ev WHERE host = 'h1' AND at > '2024-03-01 09:01:00+00' AND column_name = 'cpu'
----
2024-03-01 09:05:00+00  1.25

# A table without a primary key: the hidden row id is the key.
statement ok
CREATE TABLE nokey (a INT)

statement count 1
INSERT INTO nokey VALUES (7)

query
SELECT family, column_name, value_text FROM cells.nokey ORDER BY column_name
----
d  (empty)  NULL
d  a        7

query
SELECT a FROM versions.nokey
----
7

# A salted table: the views read through its layout, so rowkeys show
# without the salt byte, and key predicates still reach one bucket.
statement ok
CREATE TABLE salted (k INT PRIMARY KEY, v TEXT) WITH (salt_buckets = 4)

statement ok
SET widesql.write_timestamp = '2024-04-01 00:00:00+00'

statement count 3
INSERT INTO salted VALUES (1, 'a'), (2, 'b'), (3, 'c')

statement ok
SET widesql.write_timestamp = '2024-04-02 00:00:00+00'

statement count 1
UPDATE salted SET v = 'B' WHERE k = 2

statement ok
RESET widesql.write_timestamp

query
SELECT k, rowkey, column_name, ts, value_text FROM cells.salted WHERE column_name = 'v' ORDER BY k, ts
----
1  \x80000001  v  2024-04-01 00:00:00+00  a
2  \x80000002  v  2024-04-02 00:00:00+00  B
3  \x80000003  v  2024-04-01 00:00:00+00  c

query
SELECT k, v, _ts FROM versions.salted WHERE k = 2
----
2  B  2024-04-02 00:00:00+00

query
EXPLAIN SELECT k, v FROM versions.salted WHERE k = 2
----
POINT GET ON versions.salted KEY (2) FAMILIES (d)

# A wide table: one SQL row per value of the last key column, each shown
# as its own (logical) row. A key column called ts leaves the cell's
# timestamp column named cell_ts.
statement ok
CREATE TABLE series (host TEXT, ts INT, v TEXT, PRIMARY KEY (host, ts)) WITH (layout = 'wide')

statement ok
SET widesql.write_timestamp = '2024-04-03 00:00:00+00'

statement count 3
INSERT INTO series VALUES ('h', 1, 'a'), ('h', 2, 'b'), ('g', 1, 'c')

statement ok
RESET widesql.write_timestamp

query colnames
SELECT * FROM cells.series WHERE host = 'h' AND column_name = 'v'
----
host  ts  rowkey            family  qualifier  column_name  cell_ts                 value  value_text
h     1   \x68000180000001  d       \x03       v            2024-04-03 00:00:00+00  \x61   a
h     2   \x68000180000002  d       \x03       v            2024-04-03 00:00:00+00  \x62   b

query
SELECT host, ts, v, _ts FROM versions.series WHERE host = 'h' AND ts = 2
----
h  2  b  2024-04-03 00:00:00+00

# DELETE FROM cells.<t> deletes exactly the cell versions it selects:
# old versions of a column, or a whole family. Row markers stay (DELETE
# FROM <t> removes rows).
query
SELECT column_name, ts FROM cells.kv3 WHERE k = 1 AND column_name = 'v' ORDER BY ts
----
v  2024-01-02 00:00:00+00
v  2024-01-04 00:00:00+00
v  2024-01-05 00:00:00+00

statement count 2
DELETE FROM cells.kv3 WHERE k = 1 AND column_name = 'v' AND ts < '2024-01-05'

# History deleted is history lost: the row's version of 2024-01-04 (its
# marker is still kept) now reads v as NULL.
query
SELECT v, _ts FROM versions.kv3 WHERE k = 1 AND _ts < '2025-01-01'
----
zwei  2024-01-05 00:00:00+00
NULL  2024-01-04 00:00:00+00

query
SELECT k, v FROM kv3 ORDER BY k
----
1  zwei
2  two

statement ok
CREATE TABLE fam (k INT PRIMARY KEY, a TEXT, x.b TEXT, x.c INT)

statement count 2
INSERT INTO fam VALUES (1, 'a1', 'b1', 1), (2, 'a2', 'b2', 2)

query
DELETE FROM cells.fam WHERE k = 1 AND family = 'x' RETURNING column_name, value_text
----
b  b1
c  1

query
SELECT k, a, b, c FROM fam ORDER BY k
----
1  a1  NULL  NULL
2  a2  b2    2

# Only the markers match: nothing is deleted, the rows stay.
statement count 0
DELETE FROM cells.fam WHERE column_name = ''

query
SELECT count(*) FROM fam
----
2

# The other views are read-only, and so is cells.<t> but for DELETE.
statement error 42809 cannot change system view
UPDATE versions.kv3 SET v = 'x' WHERE k = 1

statement error 42809 cannot change system view
UPDATE cells.kv3 SET family = 'x' WHERE k = 1

statement error 42809 cannot change system view
DELETE FROM versions.kv3 WHERE k = 1

statement error 42809 cannot change system view
INSERT INTO cells.kv3 (k) VALUES (5)

query error 42P01
SELECT * FROM cells.nosuch

query error 42P01
SELECT * FROM versions.nosuch
