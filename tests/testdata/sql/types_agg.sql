# Aggregates over the PostgreSQL types, with PostgreSQL's result types:
# sum(int2/int4) is bigint, sum(bigint) and sum/avg(numeric) numeric,
# avg(integer) numeric, sum(real) real, avg(real/float8) float8,
# sum/avg(interval) interval. (tests/types_test.go checks the type OIDs.)

statement ok
CREATE TABLE ag (
  id INTEGER PRIMARY KEY,
  g TEXT,
  s SMALLINT,
  i INTEGER,
  b BIGINT,
  r REAL,
  f DOUBLE PRECISION,
  n NUMERIC,
  d DATE,
  tm TIME,
  ts TIMESTAMP,
  tz TIMESTAMPTZ,
  iv INTERVAL,
  c CHAR(3),
  u UUID,
  ia INTEGER[]
)

statement count 5
INSERT INTO ag VALUES
  (1, 'a', 1, 1, 9223372036854775807, 1.5, 0.1, 1.50, '2026-01-01', '10:00', '2026-01-01 10:00', '2026-01-01 10:00+00', '1 day', 'x', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '{1,2}'),
  (2, 'a', 2, 2, 9223372036854775807, 2.25, 0.2, 2.250, '2025-06-30', '23:59:59.5', '2025-06-30 00:00', '2025-06-30 00:00+02', '1 mon 02:00', 'ab', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12', '{1}'),
  (3, 'b', 3, 2147483647, -5, 1e30, 1e100, -0.001, 'infinity', '00:00', '1999-12-31 23:59:59', '-infinity', '-3 days', 'abc', NULL, '{0,5}'),
  (4, 'b', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (5, 'c', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)

query colnames
SELECT sum(s), sum(i), sum(b), sum(r), sum(f), sum(n), sum(iv) FROM ag
----
sum  sum         sum                   sum    sum     sum    sum
6    2147483650  18446744073709551609  1e+30  1e+100  3.749  1 mon -2 days +02:00:00

query
SELECT avg(s), avg(i), avg(b), avg(r), avg(f), avg(n), avg(iv) FROM ag
----
2.0000000000000000  715827883.33333333  6148914691236517203  3.333333383491554e+29  3.333333333333333e+99  1.24966666666666666667  10 days -15:20:00

query
SELECT g, sum(s), avg(i), sum(n), avg(n), avg(iv), count(iv) FROM ag GROUP BY g ORDER BY g
----
a  3     1.5000000000000000   3.750   1.8750000000000000       15 days 13:00:00  2
b  3     2147483647.00000000  -0.001  -0.00100000000000000000  -3 days           1
c  NULL  NULL                 NULL    NULL                     NULL              0

query
SELECT min(s), max(s), min(b), max(b), min(r), max(r), min(n), max(n), min(d), max(d), min(tm), max(tm) FROM ag
----
1  3  -5  9223372036854775807  1.5  1e+30  -0.001  2.250  2025-06-30  infinity  00:00:00  23:59:59.5

query
SELECT min(ts), max(ts), min(tz), max(tz), min(iv), max(iv), min(c)::text, max(c)::text, min(g), max(g), min(ia), max(ia) FROM ag
----
1999-12-31 23:59:59  2026-01-01 10:00:00  -infinity  2026-01-01 10:00:00+00  -3 days  1 mon 02:00:00  ab  x  a  c  {0,5}  {1,2}

# sum(real) rounds to real at each step; avg(real) accumulates in float8.
statement ok
CREATE TABLE agr (id INTEGER PRIMARY KEY, r REAL, i INTEGER)

statement count 3
INSERT INTO agr VALUES (1, 0.1, 1), (2, 0.2, 1), (3, 0.3, 2)

query
SELECT sum(r), avg(r), sum(r * 3), avg(i), sum(i) / 3 FROM agr
----
0.6  0.2000000054637591  1.800000049173832  1.3333333333333333  1

query
SELECT avg(n), sum(n), sum(iv), avg(iv), avg(b) FROM ag WHERE id > 3
----
NULL  NULL  NULL  NULL  NULL

statement error 42883
SELECT min(u) FROM ag

statement error 42883
SELECT sum(d) FROM ag

statement error 42883
SELECT avg(g) FROM ag

query
SELECT sum(DISTINCT i), avg(DISTINCT s), count(DISTINCT n) FROM ag
----
2147483650  2.0000000000000000  3
