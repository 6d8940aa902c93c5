# The PostgreSQL types of issue 4: real, numeric, date, time, timestamptz,
# interval, uuid, json, jsonb, char(n) and arrays, stored, printed and
# compared as PostgreSQL 15 does (TimeZone UTC, DateStyle ISO).

statement ok
CREATE TABLE pgt (
  id INTEGER PRIMARY KEY,
  r REAL,
  n NUMERIC,
  n2 NUMERIC(10,2),
  d DATE,
  tm TIME,
  tz TIMESTAMPTZ,
  iv INTERVAL,
  u UUID,
  j JSON,
  jb JSONB,
  c CHAR(4),
  ia INTEGER[],
  ta TEXT[]
)

statement count 3
INSERT INTO pgt VALUES
  (1, 1.5, 1.50, 1.505, '2026-11-21', '13:45:06.5', '2026-11-21 13:45:06+02', '1 year 2 mons 3 days 04:05:06', 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', '{"b": 1, "a": [1,2]}', '{"b": 1,  "a": [1,2], "a": 3}', 'ab', '{1,2,NULL}', '{a,"b c",""}'),
  (2, 3.14159265, -0.000, 12345678.995, 'infinity', '24:00:00', '-infinity', '-1 day +02:00', '{a0eebc999c0b4ef8bb6d6bb9bd380a12}', '[]', 'null', 'abcd', '{}', '{NULL}'),
  (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)

query
SELECT id, r, n, n2, d, tm, tz, iv, u, j, jb, ia, ta FROM pgt ORDER BY id
----
1  1.5        1.50   1.51         2026-11-21  13:45:06.5  2026-11-21 11:45:06+00  1 year 2 mons 3 days 04:05:06  a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11  {"b": 1, "a": [1,2]}  {"a": 3, "b": 1}  {1,2,NULL}  {a,"b c",""}
2  3.1415927  0.000  12345679.00  infinity    24:00:00    -infinity               -1 days +02:00:00              a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12  []                    null              {}          {NULL}
3  NULL       NULL   NULL         NULL        NULL        NULL                    NULL                           NULL                                  NULL                  NULL              NULL        NULL

# char(n) pads on output, ignores trailing spaces in comparisons.
query
SELECT c FROM pgt ORDER BY id
----
ab
abcd
NULL

query
SELECT id, c = 'ab', c || 'x', length(c), n2 * 2, n2 + 1, n2 / 3, r * 2, n2 > 1, -n2, n + 1.5 FROM pgt WHERE id < 3 ORDER BY id
----
1  t  abx    2  3.02         2.51         0.50333333333333333333  3                   t  -1.51         3.00
2  f  abcdx  4  24691358.00  12345680.00  4115226.333333333333    6.2831854820251465  t  -12345679.00  1.500

# Numeric arithmetic is exact, with PostgreSQL's result scales.
query
SELECT 0.1 + 0.2, 1.50 * 2.0, 10.0 / 4, 1 / 3.0, 2 / 3.000, 7.5 % 2, -1.5 % 1, 1 + 0.5, 0.1::float8 + 0.2
----
0.3  3.000  2.5000000000000000  0.33333333333333333333  0.66666666666666666667  1.5  -0.5  1.5  0.30000000000000004

statement error 22012
SELECT 1.0 / 0

statement error 22012
SELECT 1.0 % 0

# Key columns of the new types keep SQL order, ASC and DESC.
# widesql-only
statement ok
CREATE TABLE pgk (n NUMERIC, d DATE, u UUID, iv INTERVAL, r REAL, PRIMARY KEY (n, d DESC, u, iv, r))

# postgres-only: PostgreSQL has no DESC in PRIMARY KEY
statement ok
CREATE TABLE pgk (n NUMERIC, d DATE, u UUID, iv INTERVAL, r REAL, PRIMARY KEY (n, d, u, iv, r))

statement count 8
INSERT INTO pgk VALUES
  (1.5, '2026-01-01', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '1 day', 1),
  (-2, '2026-01-01', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '1 day', 1),
  (100, 'infinity', '00000000-0000-0000-0000-000000000000', '1 mon', 1),
  (100, '1999-12-31', '00000000-0000-0000-0000-000000000000', '-1 day', 1),
  (100, '1999-12-31', '00000000-0000-0000-0000-000000000000', '1 year', 1),
  (100, '1999-12-31', 'ffffffff-0000-0000-0000-000000000000', '1 day', -0.5),
  (100, '1999-12-31', 'ffffffff-0000-0000-0000-000000000000', '1 day', 'NaN'),
  ('NaN', '1999-12-31', 'ffffffff-0000-0000-0000-000000000000', '1 day', 2)

statement error 23505
INSERT INTO pgk VALUES (1.50, '2026-01-01', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '24:00:00', 1.0)

query
SELECT n, d, u, iv, r FROM pgk ORDER BY n, d DESC, u, iv, r
----
-2   2026-01-01  a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11  1 day    1
1.5  2026-01-01  a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11  1 day    1
100  infinity    00000000-0000-0000-0000-000000000000  1 mon    1
100  1999-12-31  00000000-0000-0000-0000-000000000000  -1 days  1
100  1999-12-31  00000000-0000-0000-0000-000000000000  1 year   1
100  1999-12-31  ffffffff-0000-0000-0000-000000000000  1 day    -0.5
100  1999-12-31  ffffffff-0000-0000-0000-000000000000  1 day    NaN
NaN  1999-12-31  ffffffff-0000-0000-0000-000000000000  1 day    2

query
SELECT n, d FROM pgk WHERE n = 100 AND d < '2000-01-01' ORDER BY d DESC, u, iv, r
----
100  1999-12-31
100  1999-12-31
100  1999-12-31
100  1999-12-31

query
SELECT n FROM pgk WHERE n > 1 AND n < 1000 ORDER BY n
----
1.5
100
100
100
100
100

statement error 42704
CREATE TABLE badkey (j JSON PRIMARY KEY)

statement ok
CREATE TABLE jk (j JSONB PRIMARY KEY, c CHAR(3))

statement count 7
INSERT INTO jk VALUES ('{"a": 1}', 'x'), ('[1, 2]', 'x'), ('"s"', 'x'), ('null', 'x'), ('1', 'x'), ('{"a": 1, "b": 2}', 'x'), ('[3]', 'x')

query
SELECT j FROM jk ORDER BY j
----
null
"s"
1
[3]
[1, 2]
{"a": 1}
{"a": 1, "b": 2}

statement error 22003
INSERT INTO pgt (id, n2) VALUES (10, 123456789.5)

statement error 22P02
INSERT INTO pgt (id, u) VALUES (10, 'not-a-uuid')

statement error 22P02
INSERT INTO pgt (id, jb) VALUES (10, '{"a":}')

statement error 22001
INSERT INTO pgt (id, c) VALUES (10, 'abcde')

statement error 22007
INSERT INTO pgt (id, d) VALUES (10, 'yesterday-ish')

query
SELECT count(*) FROM pgt
----
3
