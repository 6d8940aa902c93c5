# Math functions as PostgreSQL 15 types and computes them: integer
# arguments resolve to the float8 overload unless only numeric fits;
# numeric results keep PostgreSQL's scales.

statement ok
CREATE TABLE nums (id INTEGER PRIMARY KEY, i INTEGER, n NUMERIC(10,3), f DOUBLE PRECISION, s SMALLINT)

statement count 3
INSERT INTO nums VALUES (1, -7, 2.345, -2.5, 3), (2, 10, -1.005, 0.5, -4), (3, NULL, NULL, NULL, NULL)

query colnames
SELECT id, abs(i), abs(n), abs(f), abs(s), round(n), round(n, 2), round(f), trunc(n, 1), floor(n), ceil(n), ceiling(f), sign(n), sign(f) FROM nums ORDER BY id
----
id  abs   abs    abs   abs   round  round  round  trunc  floor  ceil  ceiling  sign  sign
1   7     2.345  2.5   3     2      2.35   -2     2.3    2      3     -2       1     -1
2   10    1.005  0.5   4     -1     -1.01  0      -1.0   -2     -1    1        -1    1
3   NULL  NULL   NULL  NULL  NULL   NULL   NULL   NULL   NULL   NULL  NULL     NULL  NULL

query
SELECT pg_typeof(round(1)), pg_typeof(round(1.5)), pg_typeof(round(1, 2)), pg_typeof(abs(1::int2)), pg_typeof(mod(7::int2, 3)), pg_typeof(floor(1)), pg_typeof(sqrt(2)), pg_typeof(sqrt(2.0)), pg_typeof(power(2, 3)), pg_typeof(trunc(1.5::real))
----
double precision  numeric  numeric  smallint  integer  double precision  double precision  numeric  double precision  double precision

query
SELECT round(2.5), round(-2.5), round(2.5::float8), round(3.5::float8), round(1234.5678, -2), round(1.005, 2), trunc(-1.99), trunc(1234.5678, -2), floor(-1.5), ceil(-1.5), floor(-1.5::float8), ceil(1.2::float8)
----
3  -3  2  4  1200  1.01  -1  1200  -2  -1  -2  2

query
SELECT mod(7, 3), mod(-7, 3), mod(7.5, 2), mod(7, -3), i % 4, mod(i, 4), mod(s, 3) FROM nums WHERE id = 1
----
1  -1  1.5  1  -3  -3  0

query error 22012 division by zero
SELECT mod(1, 0)

query error 42883 function mod(double precision, integer) does not exist
SELECT mod(1.5::float8, 2)

query
SELECT sqrt(16), sqrt(2.0), sqrt(2::numeric), sqrt(0.0001), exp(1), exp(1.0), ln(10), ln(10.0), log(100), log(1000.0), log(2, 8), log10(1000), power(2, 10), power(2.0, 0.5), power(2, -1), pi(), round(cbrt(27)::numeric, 10), degrees(pi()), radians(180)
----
4  1.414213562373095  1.414213562373095  0.01000000000000000  2.718281828459045  2.7182818284590452  2.302585092994046  2.3025850929940457  2  3.0000000000000000  3.0000000000000000  3  1024  1.4142135623730950  0.5  3.141592653589793  3.0000000000  180  3.141592653589793

query error 2201F cannot take square root of a negative number
SELECT sqrt(-1)

query error 2201E cannot take logarithm of zero
SELECT ln(0)

query error 2201E cannot take logarithm of a negative number
SELECT log(-1.0)

query error 2201F zero raised to a negative power is undefined
SELECT power(0, -1)

query error 22003 value out of range: overflow
SELECT exp(1000)

query
SELECT random() >= 0 AND random() < 1, pg_typeof(random()), pg_typeof(pi())
----
t  double precision  double precision

query
SELECT div(9, 4), div(-9.5, 2), sign(-0.0), sign(0::float8), abs(-0.0)
----
2  -4  0  0  0.0

query error 42883 function abs(text) does not exist
SELECT abs('x'::text)

query error 22P02 invalid input syntax for type double precision
SELECT sqrt('x')

# NULL in, NULL out.
query
SELECT abs(NULL::int), round(NULL::numeric, 2), round(1.5, NULL), power(NULL, 2), sqrt(NULL)
----
NULL  NULL  NULL  NULL  NULL

# CASE, COALESCE, NULLIF, GREATEST and LEAST resolve types as PostgreSQL.
query
SELECT pg_typeof(coalesce(1, 2.5)), pg_typeof(coalesce(1.5, 1::real)), pg_typeof(coalesce(1::int8, 1::real)), pg_typeof(nullif(1, 2.5)), pg_typeof(greatest(1, 2.5, 3::int8)), pg_typeof(least(1::int2, 2)), pg_typeof(case when true then 1 else 2::int8 end), pg_typeof(coalesce('a', 'b')), pg_typeof(coalesce(NULL, NULL))
----
numeric  real  real  numeric  numeric  integer  bigint  text  text

query
SELECT coalesce(NULL, 2, 3), nullif(1, 1), nullif(1, 2), nullif(1, 1.0), greatest(1, 2.5, NULL), least(3, NULL, 1), greatest(NULL, NULL::int), coalesce(i, s, 0) FROM nums ORDER BY id
----
2  NULL  1  NULL  2.5  1  NULL  -7
2  NULL  1  NULL  2.5  1  NULL  10
2  NULL  1  NULL  2.5  1  NULL  0

query error 42804 COALESCE types integer and text cannot be matched
SELECT coalesce(1, 'x'::text)

query error 22P02 invalid input syntax for type integer
SELECT nullif(1, 'x')
