# INSERT: multi-row VALUES, column lists, duplicate keys and ON CONFLICT.

statement ok
CREATE TABLE kv (k INT, v TEXT, n INT, PRIMARY KEY (k))

statement count 3
INSERT INTO kv VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', 30)

# A column list in another order; omitted columns are NULL.
statement count 1
INSERT INTO kv (v, k) VALUES ('d', 4)

query
SELECT k, v, n FROM kv ORDER BY k
----
1  a  10
2  b  20
3  c  30
4  d  NULL

# A duplicate against an existing row: nothing of the statement is written.
statement error 23505
INSERT INTO kv VALUES (5, 'e', 50), (1, 'dup', 0)

# A duplicate within one statement: nothing is written either.
statement error 23505
INSERT INTO kv VALUES (6, 'f', 60), (7, 'g', 70), (6, 'f2', 61)

query
SELECT k, v, n FROM kv ORDER BY k
----
1  a  10
2  b  20
3  c  30
4  d  NULL

statement error 23505 duplicate key value violates unique constraint
INSERT INTO kv VALUES (2, 'again', 0)

# ON CONFLICT DO NOTHING skips conflicting rows and counts only the inserted ones.
statement count 1
INSERT INTO kv VALUES (1, 'x', 0), (5, 'e', 50) ON CONFLICT (k) DO NOTHING

statement count 0
INSERT INTO kv VALUES (1, 'x', 0) ON CONFLICT DO NOTHING

# ON CONFLICT DO UPDATE counts inserted and updated rows.
statement count 2
INSERT INTO kv VALUES (2, 'B', 0), (6, 'f', 60) ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v

query
SELECT k, v, n FROM kv ORDER BY k
----
1  a  10
2  B  20
3  c  30
4  d  NULL
5  e  50
6  f  60

statement count 1
INSERT INTO kv VALUES (3, 'C', 33) ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v, n = kv.n + EXCLUDED.n

query
SELECT k, v, n FROM kv WHERE k = 3
----
3  C  63

# Composite keys: only the full key conflicts.
statement ok
CREATE TABLE pairs (a TEXT, b INT, c TEXT, PRIMARY KEY (a, b))

statement count 3
INSERT INTO pairs VALUES ('x', 1, 'one'), ('x', 2, 'two'), ('y', 1, 'three')

statement error 23505
INSERT INTO pairs VALUES ('y', 1, 'again')

statement count 0
INSERT INTO pairs VALUES ('x', 2, 'again') ON CONFLICT (a, b) DO NOTHING

query
SELECT a, b, c FROM pairs ORDER BY a, b
----
x  1  one
x  2  two
y  1  three

# Values are coerced to the column types.
statement count 1
INSERT INTO kv VALUES ('7', 'g', '70')

statement count 1
INSERT INTO kv VALUES (8, 8, 8.4)

query
SELECT k, v, n FROM kv WHERE k >= 7 ORDER BY k
----
7  g  70
8  8  8

statement ok
DROP TABLE kv

statement ok
DROP TABLE pairs
