# Filters, ordering, paging, aggregates and expressions.

statement ok
CREATE TABLE emp (id INT, name TEXT, dept TEXT, salary BIGINT, rating DOUBLE PRECISION, active BOOLEAN, PRIMARY KEY (id))

statement count 7
INSERT INTO emp VALUES
  (1, 'ada', 'eng', 120, 4.5, true),
  (2, 'bob', 'eng', 100, 3.5, true),
  (3, 'cy', 'ops', 90, NULL, false),
  (4, 'di', 'ops', 95, 4, true),
  (5, 'ed', 'sales', NULL, 2.5, NULL),
  (6, 'flo', 'eng', 130, 5, false),
  (7, 'gus', NULL, 70, 1, true)

# Non-key filters.
query
SELECT id FROM emp WHERE salary > 95 ORDER BY id
----
1
2
6

query
SELECT id FROM emp WHERE dept = 'ops' AND active ORDER BY id
----
4

query
SELECT id FROM emp WHERE NOT active ORDER BY id
----
3
6

query
SELECT id FROM emp WHERE active IS NULL
----
5

query
SELECT id FROM emp WHERE dept IS NULL OR salary IS NULL ORDER BY id
----
5
7

query
SELECT id FROM emp WHERE rating IS NOT NULL AND rating >= 4 ORDER BY id
----
1
4
6

# NULL never satisfies a comparison, in either direction.
query
SELECT count(*) FROM emp WHERE salary < 100 OR salary >= 100
----
6

query
SELECT id FROM emp WHERE dept <> 'eng' ORDER BY id
----
3
4
5

# ORDER BY non-key columns, both directions; NULLs sort last ascending, first descending.
query
SELECT name, salary FROM emp ORDER BY salary, id
----
gus  70
cy   90
di   95
bob  100
ada  120
flo  130
ed   NULL

query
SELECT name, salary FROM emp ORDER BY salary DESC, id
----
ed   NULL
flo  130
ada  120
bob  100
di   95
cy   90
gus  70

query
SELECT dept, name FROM emp ORDER BY dept DESC, name ASC
----
NULL   gus
sales  ed
ops    cy
ops    di
eng    ada
eng    bob
eng    flo

query
SELECT id FROM emp ORDER BY id DESC
----
7
6
5
4
3
2
1

# ORDER BY an output position and an expression.
query
SELECT name, salary / 10 FROM emp WHERE salary IS NOT NULL ORDER BY 2 DESC, 1
----
flo  13
ada  12
bob  10
cy   9
di   9
gus  7

# LIMIT / OFFSET.
query
SELECT id FROM emp ORDER BY id LIMIT 3
----
1
2
3

query
SELECT id FROM emp ORDER BY id LIMIT 2 OFFSET 3
----
4
5

query
SELECT id FROM emp ORDER BY id OFFSET 5
----
6
7

query
SELECT id FROM emp ORDER BY id LIMIT 0
----

query
SELECT id FROM emp ORDER BY id LIMIT 5 OFFSET 10
----

# Aggregates.
query
SELECT count(*), count(salary), count(dept), sum(salary), min(salary), max(salary), min(name), max(name) FROM emp
----
7  6  6  605  70  130  ada  gus

query
SELECT avg(rating), sum(rating), min(rating), max(rating) FROM emp
----
3.4166666666666665  20.5  1  5

# avg of integers is numeric, as in PostgreSQL.
query
SELECT avg(salary) FROM emp WHERE dept = 'eng'
----
116.6666666666666667

query rowsort
SELECT dept, count(*), count(rating), sum(salary), max(rating) FROM emp GROUP BY dept
----
NULL   1  1  70   1
eng    3  3  350  5
ops    2  1  185  4
sales  1  1  NULL  2.5

query
SELECT dept, count(*) AS n FROM emp WHERE active GROUP BY dept ORDER BY n DESC, dept
----
eng   2
ops   1
NULL  1

query
SELECT dept, sum(salary) FROM emp GROUP BY dept HAVING sum(salary) > 100 ORDER BY dept
----
eng  350
ops  185

# Aggregates over no rows.
query
SELECT count(*), count(salary), sum(salary), min(salary), max(name), avg(rating) FROM emp WHERE id > 100
----
0  0  NULL  NULL  NULL  NULL

query
SELECT dept, count(*) FROM emp WHERE id > 100 GROUP BY dept
----

# Arithmetic: integer division truncates toward zero.
query
SELECT 5/2, -5/2, 5%3, -5%3, 2+3*4, (2+3)*4, 7-10, 5.0::DOUBLE PRECISION/2
----
2  -2  2  -2  14  20  -3  2.5

query
SELECT id, salary * 2 + id, salary - rating FROM emp WHERE id <= 3 ORDER BY id
----
1  241   115.5
2  202   96.5
3  183   NULL

query
SELECT 1+1
----
2

query colnames
SELECT 1 AS one, 'two' AS two, NULL AS nothing
----
one  two  nothing
1    two  NULL

query
SELECT -id FROM emp WHERE id = 3
----
-3

# Three-valued logic.
query
SELECT NULL = NULL, NULL <> 1, 1 = 1, 1 < 2, 2 <= 1, 'a' < 'b'
----
NULL  NULL  t  t  f  t

query
SELECT true AND NULL, false AND NULL, true OR NULL, false OR NULL, NOT NULL::BOOLEAN
----
NULL  f  t  NULL  NULL

query
SELECT NULL IS NULL, 1 IS NULL, NULL IS NOT NULL, 1 IS NOT NULL
----
t  f  f  t

query
SELECT 1 IN (1, NULL), 2 IN (1, NULL), 2 NOT IN (1, NULL), 3 NOT IN (1, 2)
----
t  NULL  NULL  t

query
SELECT id, active, active AND salary > 80, active OR salary > 80 FROM emp WHERE id IN (3, 5, 7) ORDER BY id
----
3  f     f     t
5  NULL  NULL  NULL
7  t     f     t

query
SELECT 1 + NULL, NULL::INT * 0, 'a' || NULL
----
NULL  NULL  NULL

# String concatenation.
query
SELECT name || '@' || dept FROM emp WHERE id <= 2 ORDER BY id
----
ada@eng
bob@eng

query
SELECT 'id-' || id, id || '' FROM emp WHERE id = 1
----
id-1  1

query
SELECT '' || '', 'a' || ''
----
(empty)  a

statement ok
DROP TABLE emp

# An empty string as the first value of a result is not NULL (a portal's
# first row used to encode it as NULL in the extended protocol).
query
SELECT '' AS e, NULL::text AS n
----
(empty)  NULL
