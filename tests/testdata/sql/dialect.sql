# The PostgreSQL dialect bridge: operators, clauses and literals that the
# TiDB grammar lacks or reads with a MySQL meaning (issue 4).

statement ok
CREATE TABLE d (id INT, name TEXT, n INT, f DOUBLE PRECISION, j JSON, PRIMARY KEY (id))

statement count 5
INSERT INTO d VALUES
  (1, 'ada', 10, 1.5, '{"a": 1, "b": [1, 2], "c": {"d": "x"}}'),
  (2, 'Bob', NULL, NULL, '{"a": "x"}'),
  (3, 'cy', 30, -2, '[10, 20, 30]'),
  (4, 'dee', 40, 4, NULL),
  (5, 'a.b', NULL, 0, '{"a": null}')

# IS [NOT] DISTINCT FROM is null-safe.
query colnames
SELECT 1 IS DISTINCT FROM 2, NULL IS NOT DISTINCT FROM NULL, 1 IS DISTINCT FROM NULL, NULL IS DISTINCT FROM NULL
----
?column?  ?column?  ?column?  ?column?
t  t  t  f

query
SELECT id FROM d WHERE n IS DISTINCT FROM 10 ORDER BY id
----
2
3
4
5

query
SELECT id FROM d WHERE n IS NOT DISTINCT FROM NULL ORDER BY id
----
2
5

# NOT binds looser than IS DISTINCT FROM.
query
SELECT id FROM d WHERE NOT n IS DISTINCT FROM 30
----
3

# Regular expressions.
query
SELECT id, name ~ '^a', name ~* '^B', name !~ 'b', name !~* 'B' FROM d ORDER BY id
----
1  t  f  t  t
2  f  t  f  f
3  f  f  t  t
4  f  f  t  t
5  t  f  f  f

# '.' matches any character and ^ $ anchor the whole string, as in PostgreSQL.
query
SELECT E'a\nb' ~ '^a.b$', 'abc' ~ 'b', 'abc' ~ '^b', 'a.b' ~ 'a\.b', 'axb' ~ 'a\.b'
----
t  t  f  t  f

statement error 2201B
SELECT 'abc' ~ '('

# psql sends OPERATOR(pg_catalog.~) and COLLATE pg_catalog.default.
query
SELECT id FROM d WHERE name OPERATOR(pg_catalog.~) '^(ada)$' COLLATE pg_catalog.default
----
1

query
SELECT 1 OPERATOR(pg_catalog.+) 2, 3 OPERATOR(pg_catalog.=) 3
----
3  t

# LIKE, ILIKE and their operator spellings.
query
SELECT 'abc' LIKE 'a%', 'abc' ILIKE 'A%', 'abc' NOT ILIKE 'A%', 'abc' ~~ 'a_c', 'abc' ~~* 'A%', 'abc' !~~ 'a%', 'abc' !~~* 'x%'
----
t  t  f  t  t  f  t

# COLLATE "C", "POSIX" and "default" compare bytewise; others are rejected.
query
SELECT 'B' < 'a' COLLATE "C", 'a' COLLATE "POSIX" = 'a', name COLLATE "default" FROM d WHERE id = 1
----
t  t  ada

# widesql-only: PostgreSQL has collations widesql does not
statement error 0A000 en_US
SELECT name COLLATE "en_US" FROM d

# Precedence: ^ binds tighter than * and unary minus tighter than ^;
# || and the other operators share one left-associative level above
# comparison and below + -.
query colnames
SELECT -2 ^ 2 AS a, 2 ^ 3 ^ 2 AS b, 2 * 3 ^ 2 AS c, 'x' || 1 + 2 AS d, 1 | 2 & 3 AS e, 'a' || 'b' ~ '^ab$' AS f, 1 + 1 = 2 AS g
----
a  b  c  d  e  f  g
4  64  18  x3  3  t  t

query
SELECT 2 ^ 0.5 > 1.41, 2 ^ -1, 4 ^ 0.5::float8, 0 ^ 0
----
t  0.5  2  1

statement error 2201F
SELECT 0 ^ -1

statement error 2201F
SELECT (-8) ^ 0.5

# Bitwise and shift operators; # is xor, not a comment.
query
SELECT 5 & 3, 5 | 3, 5 # 3, ~5, ~5 + 1, 1 << 3, 16 >> 2, 1 << 33, 1::bigint << 33
----
1  7  6  -6  -7  8  4  2  8589934592

query
SELECT |/ 16, |/ 16 + 9, ||/ 27 BETWEEN 2.999 AND 3.001, @ -5, @ -2.5
----
4  5  t  5  2.5

# Integer division truncates; % is the remainder; || concatenates and casts a
# non-text side; backslashes are plain characters in standard strings.
query
SELECT 7 / 2, -7 / 2, 7 % 3, -7 % 3, 'a' || 1, 1 || 'a', 'a\nb', length('a\nb')
----
3  -3  1  -1  a1  1a  a\nb  4

query
SELECT name || '-' || n FROM d ORDER BY id
----
ada-10
NULL
cy-30
dee-40
NULL

statement error 42883
SELECT 1 || 2

# Postfix ISNULL and NOTNULL.
query
SELECT id, n ISNULL, n NOTNULL FROM d WHERE id < 3 ORDER BY id
----
1  f  t
2  t  f

# JSON operators: -> and ->> take a key or an index, #> and #>> a path.
query
SELECT id, j -> 'a', j ->> 'a', j -> 1, j ->> 1, j #> '{b,1}', j #>> '{c,d}' FROM d ORDER BY id
----
1  1  1  NULL  NULL  2  x
2  "x"  x  NULL  NULL  NULL  NULL
3  NULL  NULL  20  20  NULL  NULL
4  NULL  NULL  NULL  NULL  NULL  NULL
5  null  NULL  NULL  NULL  NULL  NULL

query
SELECT id FROM d WHERE j::jsonb @> '{"a": 1}' OR '[20]' <@ j::jsonb ORDER BY id
----
1
3

# ORDER BY ... NULLS FIRST / NULLS LAST; PostgreSQL's default puts NULLs
# last ascending and first descending.
query
SELECT n FROM d ORDER BY n
----
10
30
40
NULL
NULL

query
SELECT n FROM d ORDER BY n DESC
----
NULL
NULL
40
30
10

query
SELECT n FROM d ORDER BY n NULLS FIRST
----
NULL
NULL
10
30
40

query
SELECT n FROM d ORDER BY n DESC NULLS LAST
----
40
30
10
NULL
NULL

query
SELECT id FROM d ORDER BY f ASC NULLS FIRST, id DESC
----
2
3
5
1
4

# Key order still serves ORDER BY id with any NULLS placement: key columns
# are never NULL.
query
SELECT id FROM d ORDER BY id DESC NULLS LAST LIMIT 2
----
5
4

# Paging: LIMIT 'n' (GORM), OFFSET n ROWS, FETCH FIRST|NEXT, either order.
query
SELECT id FROM d ORDER BY id LIMIT '2'
----
1
2

query
SELECT id FROM d ORDER BY id OFFSET 1 ROWS FETCH FIRST 2 ROWS ONLY
----
2
3

query
SELECT id FROM d ORDER BY id FETCH NEXT ROW ONLY
----
1

query
SELECT id FROM d ORDER BY id OFFSET 3 LIMIT 1
----
4

query
SELECT id FROM d ORDER BY id LIMIT ALL OFFSET 3
----
4
5

query
SELECT id FROM d ORDER BY id LIMIT NULL OFFSET 4
----
5

statement error 2201W
SELECT id FROM d LIMIT -1

statement error 2201X
SELECT id FROM d OFFSET -1

statement error 22P02
SELECT id FROM d LIMIT 'x'

statement error 42601
SELECT id FROM d LIMIT 1, 2

# FILTER works with every aggregate.
query colnames
SELECT count(*) FILTER (WHERE n > 10) AS c, count(n) FILTER (WHERE id < 3), sum(n) FILTER (WHERE name ~ '^[a-c]'), max(id) FILTER (WHERE n IS NULL), avg(f) FILTER (WHERE f > 0), count(DISTINCT n IS NULL) FILTER (WHERE id > 1) FROM d
----
c  count  sum  max  avg  count
2  1  40  5  2.75  2

query
SELECT n IS NULL, count(*) FILTER (WHERE id > 2) FROM d GROUP BY n IS NULL ORDER BY 1
----
f  2
t  1

# Arrays and ANY / ALL.
query colnames
SELECT ARRAY[1, 2, 3], ARRAY['a', 'b'], ARRAY[]::int[], '{1,2}'::int[]
----
array  array  array  int4
{1,2,3}  {a,b}  {}  {1,2}

query
SELECT 1 = ANY(ARRAY[1, NULL]), 3 = ANY(ARRAY[1, NULL]), 3 <> ALL(ARRAY[1, 2]), 1 < ALL(ARRAY[]::int[]), 1 = ANY(ARRAY[]::int[]), 2 > SOME(ARRAY[1, 5])
----
t  NULL  t  t  f  t

query
SELECT id FROM d WHERE id = ANY(ARRAY[1, 3, 3, 9]) ORDER BY id
----
1
3

query
SELECT id FROM d WHERE id = ANY('{2,4}') ORDER BY id
----
2
4

query
SELECT id FROM d WHERE id <> ALL(ARRAY[1, 2, 3]) ORDER BY id
----
4
5

query
SELECT id FROM d WHERE n = ANY(ARRAY[10, 40]) ORDER BY id
----
1
4

query
SELECT id FROM d WHERE id > ANY('{3,4}'::int[]) ORDER BY id
----
4
5

# Interval literals.
query colnames
SELECT interval '1 day', INTERVAL '2 hours', '1 day'::interval, interval '3' day, interval '1.5' hour, interval '1.5' second
----
interval  interval  interval  interval  interval  interval
1 day  02:00:00  1 day  3 days  01:00:00  00:00:01.5

# Result column names are PostgreSQL's.
query colnames
SELECT 1::int, 1::bigint, 'a'::text, 1::numeric, coalesce(n, 0), CASE WHEN true THEN 1 END, n + 1, name, d.id, (n), -n, n::text, CAST(n AS bigint) FROM d WHERE id = 1
----
int4  int8  text  numeric  coalesce  case  ?column?  name  id  n  ?column?  n  n
1  1  a  1  10  1  11  ada  1  10  -10  10  10

query colnames
SELECT count(*), sum(n), max(name), count(*) FILTER (WHERE n > 0) FROM d
----
count  sum  max  count
5  80  dee  3

# Unsupported constructs say so (0A000), naming the construct.
# widesql-only: PostgreSQL supports it
statement error 0A000 LATERAL
SELECT * FROM d, LATERAL (SELECT 1) x

# widesql-only: PostgreSQL supports it
statement error 0A000 FOR UPDATE
SELECT * FROM d FOR UPDATE

query rowsort
SELECT id FROM d WHERE (ARRAY[1, 2])[2] = id
----
2

# widesql-only: PostgreSQL supports it
statement error 0A000 ROLLUP
SELECT n, count(*) FROM d GROUP BY ROLLUP (n)

# widesql-only: PostgreSQL supports it
statement error 0A000 SIMILAR TO
SELECT 'a' SIMILAR TO 'a'

# widesql-only: PostgreSQL supports it
statement error 0A000 WITH TIES
SELECT id FROM d ORDER BY id FETCH FIRST 1 ROWS WITH TIES

# widesql-only: PostgreSQL supports it
statement error 0A000 LIMIT
SELECT id FROM d LIMIT 1 + 1

# widesql-only: PostgreSQL supports it
statement error 0A000 multidimensional
SELECT ARRAY[[1, 2], [3, 4]]

# MySQL syntax is a syntax error, as in PostgreSQL, not a MySQL meaning.
statement error 42601
SELECT `id` FROM d

statement error 42601
SELECT id FROM d WHERE name REGEXP 'a'

statement error 42601
SELECT 7 DIV 2

statement error 42601
SELECT interval 1 day

# The session is still usable.
query
SELECT count(*) FROM d
----
5
