# The session statement cache (exec/stmtcache.go): the same text, or the
# same SELECT with other constants, reuses a parsed and planned statement.
# Every answer, type and error must stay the uncached one, and DDL and
# setting changes must be seen at once.

statement ok
CREATE TABLE sc (k INT, s SMALLINT, b BIGINT, n NUMERIC, t TEXT, ts TIMESTAMPTZ, bo BOOLEAN, PRIMARY KEY (k))

statement count 3
INSERT INTO sc VALUES (1, 1, 3000000000, 1.5, 'x', '2024-01-01 00:00:00+00', true), (2, 2, 5, 2, '5', '2024-06-01 12:00:00+00', false), (3, 3, 7, 3.25, 'it''s', '2025-01-01 00:00:00+00', NULL)

# The same shape with other constants.
query
SELECT t FROM sc WHERE k = 1
----
x

query
SELECT t FROM sc WHERE k = 2
----
5

query
SELECT t FROM sc WHERE k = 3
----
it's

query
SELECT k FROM sc WHERE t = 'it''s'
----
3

# Integer constants keep their type: a smallint column against a constant
# out of its range is no error, a bigint constant compares as bigint.
query
SELECT k FROM sc WHERE s = 100000
----

query
SELECT k FROM sc WHERE s = 1
----
1

query
SELECT k FROM sc WHERE b = 3000000000
----
1

query
SELECT k FROM sc WHERE k = 3000000000
----

query
SELECT k FROM sc WHERE n = 2
----
2

# A string constant is typed by its column; one that does not convert
# fails as without the cache, after the same shape ran fine.
query
SELECT k FROM sc WHERE k = '2'
----
2

query error 22P02 invalid input syntax for type integer: "abc"
SELECT k FROM sc WHERE k = 'abc'

query error 42883
SELECT k FROM sc WHERE t = 5

query error 42883
SELECT k FROM sc WHERE bo = 1

query
SELECT k FROM sc WHERE bo = 't'
----
1

query error 42703
SELECT k FROM sc WHERE nosuch = 1

# Comparison results, IN lists of several lengths, BETWEEN.
query colnames
SELECT k, k = 1, k IN (1, 3) AS i FROM sc ORDER BY k
----
k  ?column?  i
1  t  t
2  f  f
3  f  t

query
SELECT k FROM sc WHERE k IN (1, 2) ORDER BY k
----
1
2

query
SELECT k FROM sc WHERE k IN (3, 2, 1, 9) ORDER BY k
----
1
2
3

query
SELECT k FROM sc WHERE k IN (1, 3000000000) ORDER BY k
----
1

query
SELECT k FROM sc WHERE k BETWEEN 2 AND 3 ORDER BY k
----
2
3

query
SELECT k FROM sc WHERE k BETWEEN 3 AND 2 ORDER BY k
----

query
SELECT k FROM sc WHERE k > 1 ORDER BY k LIMIT 1
----
2

query
SELECT k FROM sc WHERE k > 1 ORDER BY k LIMIT 2
----
2
3

# A time constant is read in the session's time zone, the one in force
# when the statement runs.
statement ok
SET TimeZone = 'UTC'

query
SELECT k FROM sc WHERE ts < '2024-01-01 08:30:00' ORDER BY k
----
1

statement ok
SET TimeZone = 'Asia/Tokyo'

query
SELECT k FROM sc WHERE ts < '2024-01-01 08:30:01' ORDER BY k
----

statement ok
SET TimeZone = 'UTC'

# DDL invalidates: the same shape after columns change (other constants:
# a client that prepared the very text would get 0A000, as from
# PostgreSQL).
query colnames
SELECT * FROM sc WHERE k = 2
----
k  s  b  n  t  ts  bo
2  2  5  2  5  2024-06-01 12:00:00+00  f

statement ok
ALTER TABLE sc DROP COLUMN t

query colnames
SELECT * FROM sc WHERE k = 1
----
k  s  b  n  ts  bo
1  1  3000000000  1.5  2024-01-01 00:00:00+00  t

statement ok
ALTER TABLE sc ADD COLUMN t TEXT

query colnames
SELECT * FROM sc WHERE k = 3
----
k  s  b  n  ts  bo  t
3  3  7  3.25  2025-01-01 00:00:00+00  NULL  NULL

# The same text after the table is dropped and created again with the
# same result types, and after it is gone.
query
SELECT k, n FROM sc ORDER BY k
----
1  1.5
2  2
3  3.25

statement ok
DROP TABLE sc

query error 42P01
SELECT k, n FROM sc ORDER BY k

query error 42P01
SELECT * FROM sc WHERE k = 2

statement ok
CREATE TABLE sc (k INT, n NUMERIC, PRIMARY KEY (k))

statement count 1
INSERT INTO sc VALUES (7, 0.5)

query
SELECT k, n FROM sc ORDER BY k
----
7  0.5

statement ok
DROP TABLE sc

statement ok
CREATE TABLE sc (k TEXT, v INT, PRIMARY KEY (k))

statement count 1
INSERT INTO sc VALUES ('2', 20)

query
SELECT v FROM sc WHERE k = '2'
----
20

query error 42883
SELECT * FROM sc WHERE k = 2

statement ok
DROP TABLE sc
