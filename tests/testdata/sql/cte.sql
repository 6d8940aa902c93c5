# Common table expressions: WITH, several CTEs referring to earlier ones,
# a CTE used twice, column alias lists, CTEs in subqueries and writes, and
# WITH RECURSIVE (counting, tree and graph walks, UNION versus UNION ALL in
# the recursive term). Expected answers were recorded from PostgreSQL 15.

# include: shop_schema.inc

# A directed graph with a cycle 2 -> 4 -> 5 -> 2 and two paths from 1 to 4.
statement ok
CREATE TABLE edges (src INT, dst INT, weight INT, PRIMARY KEY (src, dst))

statement count 7
INSERT INTO edges VALUES (1, 2, 1), (1, 3, 4), (2, 4, 2), (3, 4, 1), (4, 5, 3), (5, 2, 1), (6, 7, 1)

# Plain WITH.
query
WITH paris AS (SELECT id, name FROM customers WHERE city = 'paris') SELECT name FROM paris ORDER BY name
----
ann
cat

# Several CTEs, each using the ones before it.
query
WITH totals AS (
  SELECT customer_id, sum(qty * price) AS total FROM order_items GROUP BY customer_id
), ranked AS (
  SELECT t.customer_id, t.total, c.name FROM totals t JOIN customers c ON c.id = t.customer_id
), best AS (
  SELECT max(total) AS top FROM ranked
)
SELECT r.name, r.total, r.total = b.top AS is_top FROM ranked r, best b ORDER BY r.total DESC
----
ben  113.00  t
ann  65.75   f
eve  51.50   f
cat  15.50   f

# A CTE used twice: orders compared with the same customer's other orders.
query
WITH o AS (SELECT customer_id, order_id, placed FROM orders)
SELECT a.customer_id, a.order_id, count(b.order_id) AS earlier FROM o a LEFT JOIN o b ON b.customer_id = a.customer_id AND b.placed < a.placed GROUP BY a.customer_id, a.order_id ORDER BY 1, 2
----
1  1  0
1  2  1
1  3  2
2  1  0
2  2  1
3  1  0
5  1  0
7  1  0

query
WITH n AS (SELECT count(*) AS c FROM orders) SELECT (SELECT c FROM n) + (SELECT c FROM n)
----
16

# A column alias list renames the CTE's columns.
query colnames
WITH t(cust, n) AS (SELECT customer_id, count(*) FROM orders GROUP BY customer_id) SELECT * FROM t WHERE n > 1 ORDER BY cust
----
cust  n
1     3
2     2

query colnames
WITH t(a) AS (SELECT id, name FROM regions WHERE id < 30) SELECT * FROM t ORDER BY a
----
a   name
10  north
20  south

# A CTE shadows a table of the same name.
query
WITH regions AS (SELECT 1 AS id, 'nowhere' AS name) SELECT id, name FROM regions
----
1  nowhere

# CTEs referenced from subqueries, and a WITH nested in a subquery.
query rowsort
WITH buyers AS (SELECT DISTINCT customer_id FROM orders) SELECT name FROM customers WHERE id IN (SELECT customer_id FROM buyers) AND EXISTS (SELECT 1 FROM buyers WHERE customer_id > customers.id)
----
ann
ben
cat
eve

query
SELECT name, (WITH mine AS (SELECT * FROM orders o WHERE o.customer_id = c.id) SELECT count(*) FROM mine) FROM customers c ORDER BY id
----
ann  3
ben  2
cat  1
dan  0
eve  1
fay  0

query rowsort
SELECT * FROM (WITH x AS (SELECT id FROM regions) SELECT id * 2 FROM x) AS d(doubled)
----
100
20
40
60

# An inner WITH shadows an outer one.
query
WITH x AS (SELECT 1 AS v) SELECT (WITH x AS (SELECT 2 AS v) SELECT v FROM x), v FROM x
----
2  1

# A CTE nobody reads, MATERIALIZED and NOT MATERIALIZED.
query
WITH unused AS (SELECT 1 / 0), r AS MATERIALIZED (SELECT id FROM regions), s AS NOT MATERIALIZED (SELECT id FROM r WHERE id > 10) SELECT count(*) FROM s
----
3

# Joins, grouping and ordering over CTEs.
query
WITH items AS (
  SELECT i.customer_id, p.category_id, i.qty FROM order_items i JOIN products p ON p.id = i.product_id
)
SELECT c.name, sum(items.qty) FROM items JOIN categories c ON c.id = items.category_id GROUP BY c.name ORDER BY c.name
----
media   5
office  22

query
WITH per_city AS (SELECT city, count(*) AS n FROM customers GROUP BY city) SELECT city, n FROM per_city ORDER BY n DESC, city LIMIT 2
----
london  2
paris   2

# WITH RECURSIVE: counting.
query
WITH RECURSIVE cnt(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM cnt WHERE n < 10) SELECT n FROM cnt ORDER BY n
----
1
2
3
4
5
6
7
8
9
10

query
WITH RECURSIVE cnt(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM cnt WHERE n < 1000) SELECT count(*), sum(n), min(n), max(n) FROM cnt
----
1000  500500  1  1000

# Two columns: Fibonacci numbers.
query
WITH RECURSIVE fib(i, a, b) AS (SELECT 1, 0::bigint, 1::bigint UNION ALL SELECT i + 1, b, a + b FROM fib WHERE i < 15) SELECT i, a FROM fib ORDER BY i
----
1   0
2   1
3   1
4   2
5   3
6   5
7   8
8   13
9   21
10  34
11  55
12  89
13  144
14  233
15  377

# A recursive term that yields nothing stops at once; so does an empty seed.
query
WITH RECURSIVE t(n) AS (SELECT 5 UNION ALL SELECT n + 1 FROM t WHERE n < 0) SELECT n FROM t
----
5

query
WITH RECURSIVE t(n) AS (SELECT id FROM nothing UNION ALL SELECT n + 1 FROM t) SELECT count(*) FROM t
----
0

# Dates: weekly steps.
query
WITH RECURSIVE w(d) AS (SELECT DATE '2024-01-01' UNION ALL SELECT d + 7 FROM w WHERE d + 7 < DATE '2024-02-01') SELECT d FROM w ORDER BY d
----
2024-01-01
2024-01-08
2024-01-15
2024-01-22
2024-01-29

# Tree walk down: the subtree under 'office' with depth and path.
query
WITH RECURSIVE sub(id, name, depth, path) AS (
  SELECT id, name, 0, name FROM categories WHERE name = 'office'
  UNION ALL
  SELECT c.id, c.name, s.depth + 1, s.path || '/' || c.name FROM categories c JOIN sub s ON c.parent_id = s.id
)
SELECT id, depth, path FROM sub ORDER BY path
----
1  0  office
3  1  office/furniture
4  2  office/furniture/chairs

# Every category with its root, walking up.
query
WITH RECURSIVE up(id, ancestor, hops) AS (
  SELECT id, id, 0 FROM categories
  UNION ALL
  SELECT up.id, c.parent_id, up.hops + 1 FROM up JOIN categories c ON c.id = up.ancestor WHERE c.parent_id IS NOT NULL
)
SELECT up.id, up.ancestor, up.hops FROM up WHERE NOT EXISTS (SELECT 1 FROM categories c WHERE c.id = up.ancestor AND c.parent_id IS NOT NULL) ORDER BY up.id
----
1  1  0
2  2  0
3  1  1
4  1  2
5  2  1

# Graph walk: UNION discards rows already produced, so the cycle ends.
query
WITH RECURSIVE reach(node) AS (SELECT 1 UNION SELECT e.dst FROM edges e JOIN reach r ON e.src = r.node) SELECT node FROM reach ORDER BY node
----
1
2
3
4
5

# UNION ALL keeps every path: 4 is reached twice from 1; a depth bound ends the cycle.
query
WITH RECURSIVE walk(node, depth) AS (SELECT 1, 0 UNION ALL SELECT e.dst, w.depth + 1 FROM edges e JOIN walk w ON e.src = w.node WHERE w.depth < 5) SELECT node, depth FROM walk ORDER BY depth, node
----
1  0
2  1
3  1
4  2
4  2
5  3
5  3
2  4
2  4
4  5
4  5

query
WITH RECURSIVE walk(node, depth) AS (SELECT 1, 0 UNION ALL SELECT e.dst, w.depth + 1 FROM edges e JOIN walk w ON e.src = w.node WHERE w.depth < 3) SELECT node, count(*) FROM walk GROUP BY node ORDER BY node
----
1  1
2  1
3  1
4  2
5  2

# UNION dedupes whole rows: 4 is reached twice at depth 2 but kept once.
query
WITH RECURSIVE walk(node, depth) AS (SELECT 1, 0 UNION SELECT e.dst, w.depth + 1 FROM edges e JOIN walk w ON e.src = w.node WHERE w.depth < 3) SELECT node, depth FROM walk ORDER BY depth, node
----
1  0
2  1
3  1
4  2
5  3

# Shortest distance by weight, pruning with a path array to avoid cycles.
# postgres-only: array concatenation (||) is not implemented yet
query
WITH RECURSIVE paths(node, dist, seen) AS (
  SELECT 1, 0, ARRAY[1]
  UNION ALL
  SELECT e.dst, p.dist + e.weight, p.seen || ARRAY[e.dst] FROM paths p JOIN edges e ON e.src = p.node WHERE NOT e.dst = ANY (p.seen)
)
SELECT node, min(dist) FROM paths GROUP BY node ORDER BY node
----
1  0
2  1
3  4
4  3
5  6

# A recursive walk along the composite rowkey: each customer's orders 1, 2, 3, ... while they are consecutive.
query
WITH RECURSIVE seq(customer_id, order_id, n) AS (
  SELECT customer_id, order_id, 1 FROM orders WHERE order_id = 1
  UNION ALL
  SELECT o.customer_id, o.order_id, s.n + 1 FROM seq s JOIN orders o ON o.customer_id = s.customer_id AND o.order_id = s.order_id + 1
)
SELECT customer_id, max(n) FROM seq GROUP BY customer_id ORDER BY customer_id
----
1  3
2  2
3  1
5  1
7  1

# A LIMIT on the outer query stops an unbounded recursion.
query
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t) SELECT n FROM t LIMIT 5
----
1
2
3
4
5

# A recursive CTE next to plain ones; the plain one is used in the recursive term.
query
WITH RECURSIVE lim AS (SELECT 4 AS m), t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t, lim WHERE n < lim.m) SELECT sum(n) FROM t
----
10

# CTEs in writes.
statement ok
CREATE TABLE reached (node INT, depth INT, PRIMARY KEY (node))

# WITH before INSERT, UPDATE or DELETE is not supported yet (the TiDB
# parser does not take it); INSERT ... WITH ... SELECT is.
# widesql-only: PostgreSQL supports it
statement error 0A000 WITH before INSERT
WITH far AS (SELECT node FROM reached) UPDATE reached SET depth = 0 WHERE node IN (SELECT node FROM far)

statement count 5
INSERT INTO reached WITH RECURSIVE walk(node, depth) AS (SELECT 1, 0 UNION ALL SELECT e.dst, w.depth + 1 FROM edges e JOIN walk w ON e.src = w.node WHERE w.depth < 4)
SELECT node, min(depth) FROM walk GROUP BY node

statement count 2
INSERT INTO reached WITH more(node) AS (VALUES (6), (7)) SELECT node, -1 FROM more

statement count 2
UPDATE reached SET depth = depth * 10 WHERE node IN (WITH far AS (SELECT node FROM reached WHERE depth >= 2) SELECT node FROM far)

statement count 2
DELETE FROM reached WHERE node IN (WITH neg AS (SELECT node FROM reached WHERE depth < 0) SELECT node FROM neg)

query
SELECT node, depth FROM reached ORDER BY node
----
1  0
2  1
3  1
4  20
5  30

# Errors.
query error 42P19 must not appear within a subquery
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n IN (SELECT n FROM t)) SELECT * FROM t

query error 42P19 must not appear within its non-recursive term
WITH RECURSIVE t(n) AS (SELECT n FROM t UNION ALL SELECT 1) SELECT * FROM t

query error 42P19 must not appear within an outer join
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT t.n + 1 FROM regions r LEFT JOIN t ON true WHERE t.n < 3) SELECT * FROM t

query error 42P19 must not appear more than once
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT t.n + 1 FROM t, t AS u WHERE t.n < 3) SELECT * FROM t

query error 42P19 aggregate functions are not allowed
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT max(n) + 1 FROM t) SELECT * FROM t

query error 42P19 does not have the form
WITH RECURSIVE t AS (SELECT 1 FROM t) SELECT * FROM t

query error 42804
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT (n + 1)::bigint FROM t WHERE n < 3) SELECT * FROM t

query error 42P01
WITH t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t) SELECT * FROM t

query error 42P01
WITH a AS (SELECT * FROM b), b AS (SELECT 1) SELECT * FROM a

query error 42712 specified more than once
WITH a AS (SELECT 1), a AS (SELECT 2) SELECT * FROM a

query error 42P10
WITH t(a, b) AS (SELECT 1) SELECT * FROM t
