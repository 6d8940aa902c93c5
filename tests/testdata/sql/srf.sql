# Arrays and set-returning functions (issue 7): subscripts, ARRAY(subquery),
# functions in FROM (aliases, WITH ORDINALITY, implicit LATERAL), functions
# in the select list (lock step), VALUES as a query, array functions.

statement ok
CREATE TABLE srf_t (id INT, tags TEXT[], nums INT[], PRIMARY KEY (id))

statement count 3
INSERT INTO srf_t VALUES (1, ARRAY['a', 'b', 'c'], ARRAY[10, 20]), (2, ARRAY[]::text[], ARRAY[5]), (3, NULL, ARRAY[7, NULL, 9])

# Subscripts count from 1; out of range or a NULL index is NULL.
query colnames rowsort
SELECT id, tags[1], nums[2], tags[id], nums[NULL::int] AS n FROM srf_t
----
id  tags  nums  tags  n
1   a     20    a     NULL
2   NULL  NULL  NULL  NULL
3   NULL  NULL  NULL  NULL

query colnames
SELECT (ARRAY[1, 2, 3])[2:3] AS s, (ARRAY[1, 2, 3])[:2] AS l, (ARRAY[1, 2, 3])[3:] AS r, (ARRAY[1, 2, 3])[5:9] AS e, (current_schemas(true))[1]
----
s      l      r    e   current_schemas
{2,3}  {1,2}  {3}  {}  pg_catalog

# ARRAY(subquery): its column as an array, '{}' when empty, in the
# subquery's order; correlated too.
query colnames
SELECT ARRAY(SELECT id FROM srf_t ORDER BY id DESC), ARRAY(SELECT id FROM srf_t WHERE id > 5)
----
array    array
{3,2,1}  {}

query rowsort
SELECT id, array_to_string(ARRAY(SELECT 'x' || t FROM unnest(s.tags) t), ',') FROM srf_t s
----
1  xa,xb,xc
2  (empty)
3  (empty)

# Functions in FROM: the alias names the column; a column alias list.
query colnames
SELECT * FROM generate_series(1, 3) s
----
s
1
2
3

query colnames
SELECT pos.n FROM pg_catalog.generate_series(1, 10, 4) pos(n)
----
n
1
5
9

query colnames
SELECT * FROM generate_series(3, 1, -1) WITH ORDINALITY
----
generate_series  ordinality
3                1
2                2
1                3

query colnames
SELECT a.v, a.n FROM unnest(ARRAY['x', 'y']) WITH ORDINALITY AS a(v, n) ORDER BY a.n DESC
----
v  n
y  2
x  1

query
SELECT * FROM generate_series(1.5, 3, 0.5)
----
1.5
2.0
2.5
3.0

query
SELECT * FROM generate_series('2024-01-30'::timestamp, '2024-04-01', '1 month')
----
2024-01-30 00:00:00
2024-02-29 00:00:00
2024-03-29 00:00:00

query error 22023 step size cannot equal zero
SELECT * FROM generate_series(1, 3, 0)

query
SELECT count(*) FROM generate_series(1, NULL::int)
----
0

# FROM items to the left are visible to a function (implicit LATERAL).
query rowsort
SELECT s.id, u.v, u.n FROM srf_t s, unnest(s.nums) WITH ORDINALITY AS u(v, n) WHERE s.id <> 2
----
1  10    1
1  20    2
3  7     1
3  NULL  2
3  9     3

query rowsort
SELECT s.id, x, n FROM srf_t s, information_schema._pg_expandarray(s.tags) e WHERE n > 1
----
1  b  2
1  c  3

query
SELECT s.id, g FROM srf_t s JOIN generate_subscripts(s.nums, 1) g ON g > 1 ORDER BY 1, 2
----
1  2
3  2
3  3

# In the select list: several run in lock step, shorter ones padded with
# NULL; a row whose functions all return nothing disappears.
query colnames
SELECT unnest(ARRAY[1, 2]), generate_series(1, 3)
----
unnest  generate_series
1       1
2       2
NULL    3

query rowsort
SELECT id, unnest(nums) * 2 AS d, generate_subscripts(nums, 1) AS i FROM srf_t
----
1  20    1
1  40    2
2  10    1
3  14    1
3  NULL  2
3  18    3

query
SELECT generate_series(1, 3) g ORDER BY g DESC LIMIT 2
----
3
2

query colnames
SELECT (information_schema._pg_expandarray(ARRAY[7, 8])).n, information_schema._pg_expandarray(ARRAY[7, 8]) AS k
----
n  k
1  (7,1)
2  (8,2)

query rowsort
SELECT r.id, (r.k).x, (r.k).n FROM (SELECT id, information_schema._pg_expandarray(nums) AS k FROM srf_t) r WHERE (r.k).n = 1
----
1  10  1
2  5   1
3  7   1

query error 0A000
SELECT id FROM srf_t WHERE unnest(nums) > 1

# VALUES as a query and as a set-operation operand.
query colnames
VALUES (1, 'a'), (2, 'b') ORDER BY 1 DESC
----
column1  column2
2        b
1        a

query rowsort
SELECT id FROM srf_t WHERE id < 2 UNION ALL VALUES (7), (8)
----
1
7
8

query
SELECT 1 UNION VALUES (1), (2) ORDER BY 1
----
1
2

# Array functions.
query colnames
SELECT array_to_string(ARRAY['a', NULL, 'b'], ',') AS s, array_to_string(ARRAY['a', NULL, 'b'], ',', '*') AS n, array_upper(ARRAY[1, 2], 1) AS u, array_lower(ARRAY[1, 2], 1) AS l, array_length(ARRAY[1, 2], 1) AS n2, cardinality(ARRAY[1, 2]), array_position(ARRAY['x', 'y'], 'y') AS p
----
s    n      u  l  n2  cardinality  p
a,b  a,*,b  2  1  2   2            2

query rowsort
SELECT id, array_upper(nums, 1), array_length(tags, 1), cardinality(tags), array_upper(nums, 2) FROM srf_t
----
1  2  3     3     NULL
2  1  NULL  0     NULL
3  3  NULL  NULL  NULL

query
SELECT string_agg(t, '-' ORDER BY t DESC) FROM srf_t, unnest(tags) t
----
c-b-a

statement ok
DROP TABLE srf_t
