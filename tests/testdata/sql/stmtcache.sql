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

# Single-row INSERT, UPDATE and DELETE with other constants share a
# statement too. A value is assigned to its column with the same
# assignment cast, constant or not: an integer into a text column is
# converted ('0012' is 12), out of range or too long fails as PostgreSQL
# fails, and an integer into a boolean, jsonb or timestamp column is the
# plan-time 42804.
statement ok
CREATE TABLE sci (k INT, s SMALLINT, t TEXT, v VARCHAR(2), n NUMERIC(5,2), bo BOOLEAN, f FLOAT8, j JSONB, ts TIMESTAMP, c CHAR(3), i8 BIGINT, PRIMARY KEY (k))

statement count 1
INSERT INTO sci (k, t) VALUES (1, 12)

statement count 1
INSERT INTO sci (k, t) VALUES (2, 0012)

statement error 22003 smallint out of range
INSERT INTO sci (k, s) VALUES (3, 70000)

statement error 22001 value too long for type character varying(2)
INSERT INTO sci (k, v) VALUES (4, 123)

statement error 22003 numeric field overflow
INSERT INTO sci (k, n) VALUES (5, 1000)

statement error 42804 column "bo" is of type boolean but expression is of type integer
INSERT INTO sci (k, bo) VALUES (6, 1)

statement count 1
INSERT INTO sci (k, f) VALUES (7, 3000000000)

statement error 42804 column "j" is of type jsonb but expression is of type integer
INSERT INTO sci (k, j) VALUES (8, 5)

statement error 42804 column "ts" is of type timestamp without time zone but expression is of type integer
INSERT INTO sci (k, ts) VALUES (9, 5)

statement count 1
INSERT INTO sci (k, c) VALUES (10, 12)

statement error 22001 value too long for type character(3)
INSERT INTO sci (k, c) VALUES (11, 12345)

statement count 1
INSERT INTO sci (k, j) VALUES (12, '5')

statement count 1
INSERT INTO sci (k, bo) VALUES (13, '1')

statement count 1
INSERT INTO sci (k, i8) VALUES ('14', 3000000000)

statement error 22001 value too long for type character varying(2)
INSERT INTO sci (k, v) VALUES (15, 'abc')

statement error 22001 value too long for type character(3)
INSERT INTO sci (k, c) VALUES (16, 'abcd')

statement count 1
INSERT INTO sci (k, c) VALUES (17, 'ab   ')

statement error 22P02 invalid input syntax for type integer: "x"
INSERT INTO sci (k, t) VALUES ('x', 'y')

statement error 23505
INSERT INTO sci (k, t) VALUES (1, 'dup')

statement error 22003 integer out of range
INSERT INTO sci (k, i8) VALUES (18, 2147483647 + 1)

statement error 22012 division by zero
INSERT INTO sci (k, i8) VALUES (18, 5 / 0)

# Integer arithmetic keeps its types: int4 + int4 is int4, with int8 it is int8.
query
INSERT INTO sci (k, i8, v, s) VALUES (3 + 15, 3000000000 + 7, 7 % 4, 7 / 2) RETURNING k, i8, v, s, pg_typeof(k)
----
18  3000000007  3  3  integer

query
INSERT INTO sci (k, t, n, s) VALUES (19, 'it''s', 2, '7') RETURNING t, n, s
----
it's  2.00  7

query
SELECT k, s, t, v, n, bo, f, j, i8 FROM sci ORDER BY k
----
1  NULL  12  NULL  NULL  NULL  NULL  NULL  NULL
2  NULL  12  NULL  NULL  NULL  NULL  NULL  NULL
7  NULL  NULL  NULL  NULL  NULL  3000000000  NULL  NULL
10  NULL  NULL  NULL  NULL  NULL  NULL  NULL  NULL
12  NULL  NULL  NULL  NULL  NULL  NULL  5  NULL
13  NULL  NULL  NULL  NULL  t  NULL  NULL  NULL
14  NULL  NULL  NULL  NULL  NULL  NULL  NULL  3000000000
17  NULL  NULL  NULL  NULL  NULL  NULL  NULL  NULL
18  3  NULL  3  NULL  NULL  NULL  NULL  3000000007
19  7  it's  NULL  2.00  NULL  NULL  NULL  NULL

query
SELECT k, c || '|', octet_length(c) FROM sci WHERE c IS NOT NULL ORDER BY k
----
10  12|  3
17  ab|  3

statement error 22003 smallint out of range
UPDATE sci SET s = 70000 WHERE k = 1

statement error 22001 value too long for type character varying(2)
UPDATE sci SET t = 5, v = 123 WHERE k = 1

query
UPDATE sci SET t = 5, v = 12 WHERE k = '1' RETURNING t, v
----
5  12

statement error 42804 column "bo" is of type boolean but expression is of type integer
UPDATE sci SET bo = 1 WHERE k = 1

statement count 1
UPDATE sci SET s = s + 1, i8 = 10 * 3 WHERE k = 18

statement count 0
UPDATE sci SET t = 'z' WHERE k = 99

statement count 2
UPDATE sci SET t = 'z' WHERE k IN (1, 2)

statement error 22P02
UPDATE sci SET t = 'z' WHERE k = 'one'

query
SELECT k, s, t, i8 FROM sci WHERE k IN (1, 2, 18) ORDER BY k
----
1  NULL  z  NULL
2  NULL  z  NULL
18  4  NULL  30

statement count 1
DELETE FROM sci WHERE k = 1

query
DELETE FROM sci WHERE k = 2 RETURNING t
----
z

statement count 0
DELETE FROM sci WHERE k = 2

# DDL between two executions of the same INSERT shape is seen at once.
statement ok
ALTER TABLE sci ADD COLUMN extra TEXT

query
INSERT INTO sci (k, t) VALUES (20, 'a') RETURNING k, t, extra
----
20  a  NULL

statement ok
ALTER TABLE sci DROP COLUMN t

statement error 42703
INSERT INTO sci (k, t) VALUES (21, 'a')

statement ok
DROP TABLE sci
