# Each supported type round-trips and prints as PostgreSQL's text output.

statement ok
CREATE TABLE types (
  id INTEGER,
  s SMALLINT,
  i INTEGER,
  b BIGINT,
  d DOUBLE PRECISION,
  ok BOOLEAN,
  v VARCHAR(10),
  t TEXT,
  raw BYTEA,
  ts TIMESTAMP,
  PRIMARY KEY (id)
)

statement count 4
INSERT INTO types VALUES
  (1, 32767, 2147483647, 9223372036854775807, 1.5, true, 'varchar', 'text', '\xdeadbeef', '2026-01-02 03:04:05'),
  (2, -32768, -2147483648, -9223372036854775808, -0.25, false, '', '', '\x', '1999-12-31 23:59:59.5'),
  (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (4, 0, 0, 0, 1e20, 't', 'ab', 'it''s', 'abc', '2026-06-30 12:00:00.123456')

query
SELECT id, s, i, b, d, ok, v, t, raw, ts FROM types ORDER BY id
----
1  32767   2147483647   9223372036854775807   1.5    t     varchar  text     \xdeadbeef  2026-01-02 03:04:05
2  -32768  -2147483648  -9223372036854775808  -0.25  f     (empty)  (empty)  \x          1999-12-31 23:59:59.5
3  NULL    NULL         NULL                  NULL   NULL  NULL     NULL     NULL        NULL
4  0       0            0                     1e+20  t     ab       it's     \x616263    2026-06-30 12:00:00.123456

# Doubles print with the shortest exact digits.
query
SELECT 0.1::DOUBLE PRECISION, 1.0::DOUBLE PRECISION / 3, 100000000000000::DOUBLE PRECISION, 1e15::DOUBLE PRECISION, 0.0001::DOUBLE PRECISION, 0.00001::DOUBLE PRECISION
----
0.1  0.3333333333333333  100000000000000  1e+15  0.0001  1e-05

# Casts with :: and CAST.
query
SELECT '42'::INTEGER, CAST('42' AS BIGINT), 7::TEXT, CAST(3 AS DOUBLE PRECISION), 'true'::BOOLEAN, 'no'::BOOLEAN, ' 12 '::SMALLINT
----
42  42  7  3  t  f  12

query
SELECT 1.9::DOUBLE PRECISION::INTEGER, 2.5::DOUBLE PRECISION::INTEGER, (-2.5)::DOUBLE PRECISION::INTEGER, true::TEXT, 'abc'::BYTEA, '2026-01-02'::TIMESTAMP
----
2  2  -2  true  \x616263  2026-01-02 00:00:00

query
SELECT CAST(ts AS TEXT), CAST(b AS TEXT), CAST(ok AS TEXT) FROM types WHERE id = 1
----
2026-01-02 03:04:05  9223372036854775807  true

query
SELECT 'abcdef'::VARCHAR(3), CAST('abcdef' AS VARCHAR(4))
----
abc  abcd

# Integer literals are int4 unless they do not fit.
query
SELECT 2147483647 + 0, 2147483648, -9223372036854775808
----
2147483647  2147483648  -9223372036854775808

statement ok
DROP TABLE types
