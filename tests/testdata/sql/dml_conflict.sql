# ON CONFLICT in all its forms.

statement ok
CREATE TABLE kv (k INT, v TEXT, n INT, PRIMARY KEY (k))

statement count 2
INSERT INTO kv VALUES (1, 'a', 10), (2, 'b', 20)

# DO NOTHING with and without a target.
statement count 1
INSERT INTO kv VALUES (1, 'x', 0), (3, 'c', 30) ON CONFLICT DO NOTHING

statement count 0
INSERT INTO kv VALUES (1, 'x', 0) ON CONFLICT (k) DO NOTHING

statement count 0
INSERT INTO kv VALUES (2, 'x', 0) ON CONFLICT ON CONSTRAINT kv_pkey DO NOTHING

# Two rows with the same key in one DO NOTHING statement: the first wins.
statement count 1
INSERT INTO kv VALUES (4, 'first', 1), (4, 'second', 2) ON CONFLICT DO NOTHING

query
SELECT v FROM kv WHERE k = 4
----
first

# DO UPDATE with EXCLUDED, the table name and an alias.
statement count 2
INSERT INTO kv VALUES (1, 'A', 1), (5, 'e', 50) ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v, n = kv.n + EXCLUDED.n

statement count 1
INSERT INTO kv AS t VALUES (2, 'B', 2) ON CONFLICT (k) DO UPDATE SET n = t.n * 100 + excluded.n

statement count 1
INSERT INTO kv VALUES (3, 'C', 3) ON CONFLICT ON CONSTRAINT kv_pkey DO UPDATE SET v = excluded.v

# DO UPDATE ... WHERE: a row the WHERE rejects is neither updated nor counted.
statement count 0
INSERT INTO kv VALUES (5, 'E', 0) ON CONFLICT (k) DO UPDATE SET v = excluded.v WHERE kv.n > 100

statement count 1
INSERT INTO kv VALUES (5, 'E', 0) ON CONFLICT (k) DO UPDATE SET v = excluded.v WHERE kv.n = 50 AND excluded.n = 0

query
SELECT k, v, n FROM kv ORDER BY k
----
1  A      11
2  b      2002
3  C      30
4  first  1
5  E      50

# SET col = DEFAULT in DO UPDATE.
statement count 1
INSERT INTO kv VALUES (4, 'x', 0) ON CONFLICT (k) DO UPDATE SET n = DEFAULT

query
SELECT k, v, n FROM kv WHERE k = 4
----
4  first  NULL

# Two rows hitting the same key in one DO UPDATE statement.
statement error 21000 cannot affect row a second time
INSERT INTO kv VALUES (6, 'a', 0), (6, 'b', 0) ON CONFLICT (k) DO UPDATE SET v = excluded.v

# A conflict target that is not a unique constraint.
statement error 42P10
INSERT INTO kv VALUES (1, 'a', 0) ON CONFLICT (v) DO NOTHING

statement error 42P10
INSERT INTO kv VALUES (1, 'a', 0) ON CONFLICT (k, v) DO UPDATE SET n = 0

statement error 42703
INSERT INTO kv VALUES (1, 'a', 0) ON CONFLICT (nosuch) DO NOTHING

statement error 42704
INSERT INTO kv VALUES (1, 'a', 0) ON CONFLICT ON CONSTRAINT nosuch DO NOTHING

statement error 42601
INSERT INTO kv VALUES (1, 'a', 0) ON CONFLICT DO UPDATE SET n = 0

statement error 42703
INSERT INTO kv VALUES (1, 'a', 0) ON CONFLICT (k) DO UPDATE SET nosuch = 0

statement error 42P01
INSERT INTO kv VALUES (1, 'a', 0) ON CONFLICT (k) DO UPDATE SET n = other.n

# Without ON CONFLICT, a duplicate is 23505 with PostgreSQL's detail.
statement error 23505 duplicate key value violates unique constraint "kv_pkey"
INSERT INTO kv VALUES (1, 'dup', 0)

# Composite keys: the target may list the key columns in any order.
statement ok
CREATE TABLE pairs (a TEXT, b INT, c TEXT, CONSTRAINT pairs_pk PRIMARY KEY (a, b))

statement count 2
INSERT INTO pairs VALUES ('x', 1, 'one'), ('x', 2, 'two')

statement count 1
INSERT INTO pairs VALUES ('x', 1, 'uno') ON CONFLICT (b, a) DO UPDATE SET c = excluded.c

statement count 0
INSERT INTO pairs VALUES ('x', 2, 'dos') ON CONFLICT ON CONSTRAINT pairs_pk DO NOTHING

statement error 23505 pairs_pk
INSERT INTO pairs VALUES ('x', 2, 'dos')

statement error 42P10
INSERT INTO pairs VALUES ('x', 2, 'dos') ON CONFLICT (a) DO NOTHING

query
SELECT a, b, c FROM pairs ORDER BY a, b
----
x  1  uno
x  2  two

# INSERT ... SELECT ... ON CONFLICT.
statement count 3
INSERT INTO kv SELECT k + 4, 'copy', n FROM kv WHERE k <= 3 ON CONFLICT (k) DO UPDATE SET v = excluded.v

query
SELECT k, v, n FROM kv ORDER BY k
----
1  A      11
2  b      2002
3  C      30
4  first  NULL
5  copy   50
6  copy   2002
7  copy   30
