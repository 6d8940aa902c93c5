# DEFAULT VALUES, DEFAULT in VALUES, column DEFAULT expressions, omitted
# columns, NOT NULL without a default, and INSERT ... SELECT.

statement ok
CREATE TABLE d (
  k INT PRIMARY KEY DEFAULT 7,
  a INT DEFAULT 1 + 2,
  b TEXT NOT NULL DEFAULT 'none',
  c TEXT DEFAULT NULL,
  e BOOLEAN DEFAULT true NOT NULL,
  f INT
)

statement count 1
INSERT INTO d DEFAULT VALUES

query
SELECT k, a, b, c, e, f FROM d
----
7  3  none  NULL  t  NULL

statement count 1
INSERT INTO d VALUES (1, DEFAULT, DEFAULT, 'x', DEFAULT, DEFAULT)

statement count 1
INSERT INTO d (k, f) VALUES (2, 20)

statement count 1
INSERT INTO d (f, k, b) VALUES (30, 3, DEFAULT)

statement count 2
INSERT INTO d (k, a) VALUES (4, DEFAULT), (5, 50)

query
SELECT k, a, b, c, e, f FROM d ORDER BY k
----
1  3  none  x  t  NULL
2  3  none  NULL  t  20
3  3  none  NULL  t  30
4  3  none  NULL  t  NULL
5  50  none  NULL  t  NULL
7  3  none  NULL  t  NULL

# An explicit NULL is not the default: NOT NULL rejects it.
statement error 23502
INSERT INTO d (k, b) VALUES (8, NULL)

# UPDATE ... SET col = DEFAULT.
statement count 1
UPDATE d SET a = DEFAULT, c = DEFAULT WHERE k = 5

query
SELECT k, a, c FROM d WHERE k = 5
----
5  3  NULL

# NOT NULL without a default and not given: 23502.
statement ok
CREATE TABLE req (k INT PRIMARY KEY, must TEXT NOT NULL, opt TEXT)

statement error 23502 "must"
INSERT INTO req (k, opt) VALUES (1, 'x')

statement error 23502
INSERT INTO req DEFAULT VALUES

# Defaults are evaluated per row at insert time.
statement ok
CREATE TABLE stamped (k INT PRIMARY KEY, at TIMESTAMP DEFAULT now(), at2 TIMESTAMP DEFAULT current_timestamp, note TEXT DEFAULT 'n' || 'ote')

statement count 2
INSERT INTO stamped (k) VALUES (1), (2)

query
SELECT k, at IS NOT NULL, at2 IS NOT NULL, note FROM stamped ORDER BY k
----
1  t  t  note
2  t  t  note

# Bad defaults are refused at CREATE TABLE.
statement error 42804
CREATE TABLE baddef (k INT PRIMARY KEY, a INT DEFAULT true)

statement error 22P02
CREATE TABLE baddef (k INT PRIMARY KEY, a INT DEFAULT 'abc')

statement error 42883
CREATE TABLE baddef (k INT PRIMARY KEY, a INT DEFAULT nosuchfunc())

# Errors in the column list.
statement error 42703
INSERT INTO d (k, nosuch) VALUES (9, 1)

statement error 42701
INSERT INTO d (k, k) VALUES (9, 1)

statement error 42601
INSERT INTO d (k, a) VALUES (9)

statement error 42601
INSERT INTO d (k) VALUES (9, 1)

# INSERT ... SELECT: the rows of a query, with defaults for the other columns.
statement count 3
INSERT INTO req (k, must) SELECT k + 100, b FROM d WHERE k < 4

query
SELECT k, must, opt FROM req ORDER BY k
----
101  none  NULL
102  none  NULL
103  none  NULL

statement count 0
INSERT INTO req SELECT k, must, opt FROM req WHERE k < 0

statement error 23505
INSERT INTO req SELECT k, must, opt FROM req

statement error 42601 more expressions
INSERT INTO req (k) SELECT k, must FROM req

statement error 23502
INSERT INTO req (k, opt) SELECT k + 1000, opt FROM req

query
SELECT count(*) FROM req
----
3

query
INSERT INTO req (k, must) SELECT 1, 'one' RETURNING k, must, opt
----
1  one  NULL

# now() and current_timestamp are timestamptz, as in PostgreSQL, so they
# are valid defaults of a timestamptz column.
statement ok
CREATE TABLE stamped_tz (k INT PRIMARY KEY, at TIMESTAMPTZ DEFAULT now(), at2 TIMESTAMPTZ DEFAULT current_timestamp)

statement count 1
INSERT INTO stamped_tz (k) VALUES (1)

query
SELECT at IS NOT NULL, at = at2, at <= now(), now() = current_timestamp FROM stamped_tz
----
t  t  t  t

statement ok
SET TIME ZONE 'UTC'

query
SELECT localtimestamp = now()::timestamp, localtimestamp::timestamptz = now()
----
t  t

# now() into a timestamp column is the wall-clock time in the session zone.
statement ok
SET TIME ZONE 'America/New_York'

statement ok
CREATE TABLE stamped_local (k INT PRIMARY KEY, at TIMESTAMP DEFAULT now())

statement count 1
INSERT INTO stamped_local (k) VALUES (1)

query
SELECT at <= localtimestamp, at > localtimestamp - interval '1 hour' FROM stamped_local
----
t  t
