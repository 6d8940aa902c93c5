# Joins: inner, outer, cross and comma joins of several tables, USING and
# NATURAL, non-equality and multi-table ON conditions, self-joins, and
# joins under GROUP BY / ORDER BY / LIMIT, over tables whose rowkeys are
# composite. Expected answers were recorded from PostgreSQL 15.

# include: shop_schema.inc

# Inner join on the full key of the inner side.
query
SELECT c.name, o.order_id, o.status FROM customers c JOIN orders o ON o.customer_id = c.id ORDER BY c.name, o.order_id
----
ann  1  shipped
ann  2  open
ann  3  shipped
ben  1  shipped
ben  2  cancelled
cat  1  open
eve  1  shipped

# INNER is optional; the join is symmetric.
query rowsort
SELECT o.customer_id, o.order_id, c.name FROM orders o INNER JOIN customers c ON c.id = o.customer_id
----
1  1  ann
1  2  ann
1  3  ann
2  1  ben
2  2  ben
3  1  cat
5  1  eve

# Comma join with the condition in WHERE.
query rowsort
SELECT c.name, o.order_id FROM customers c, orders o WHERE c.id = o.customer_id AND o.status = 'shipped'
----
ann  1
ann  3
ben  1
eve  1

# A lookup on a rowkey prefix: the customer's orders, then each order's items by full prefix.
query
SELECT o.order_id, i.line, i.qty FROM customers c JOIN orders o ON o.customer_id = c.id JOIN order_items i ON i.customer_id = o.customer_id AND i.order_id = o.order_id WHERE c.name = 'ann' ORDER BY 1, 2
----
1  1  2
1  2  1
2  1  5
3  1  1
3  2  1

# Joining on only the first key column matches every order of the customer with every item of the customer.
query
SELECT o.order_id, i.order_id, i.line FROM orders o JOIN order_items i ON i.customer_id = o.customer_id WHERE o.customer_id = 2 ORDER BY 1, 2, 3
----
1  1  1
1  1  2
1  2  1
2  1  1
2  1  2
2  2  1

# Composite-key join with USING; the merged columns come first in SELECT *.
query colnames
SELECT * FROM orders JOIN order_items USING (customer_id, order_id) WHERE customer_id = 1 ORDER BY order_id, line
----
customer_id  order_id  placed      status   region_id  line  product_id  qty  price
1            1         2024-01-05  shipped  10         1     100         2    9.50
1            1         2024-01-05  shipped  10         2     101         1    20.00
1            2         2024-02-10  open     20         1     102         5    3.25
1            3         2024-03-01  shipped  NULL       1     100         1    9.50
1            3         2024-03-01  shipped  NULL       2     NULL        1    1.00

query colnames
SELECT * FROM orders NATURAL JOIN order_items WHERE customer_id = 2 ORDER BY order_id, line
----
customer_id  order_id  placed      status     region_id  line  product_id  qty  price
2            1         2024-01-20  shipped    10         1     101         3    20.00
2            1         2024-01-20  shipped    10         2     103         1    15.00
2            2         2024-03-15  cancelled  30         1     100         4    9.50

# NATURAL JOIN of tables sharing no column is a cross join.
query
SELECT count(*) FROM regions NATURAL JOIN (SELECT 1 AS one) s
----
4

# NATURAL JOIN on id and name: only rows equal in both.
query rowsort
SELECT * FROM products NATURAL JOIN (VALUES (100, 'pen'), (101, 'ink'), (103, 'lamp')) AS v(id, name)
----
100  pen   1
103  lamp  NULL

# USING columns may be referenced unqualified and qualified.
query rowsort
SELECT customer_id, o.order_id, order_items.line FROM orders o JOIN order_items USING (customer_id, order_id) WHERE product_id = 100
----
1  1  1
1  3  1
2  2  1

# Four tables: item -> product -> category.
query
SELECT c.name, p.name, cat.name, i.qty FROM customers c JOIN order_items i ON i.customer_id = c.id JOIN products p ON p.id = i.product_id JOIN categories cat ON cat.id = p.category_id ORDER BY c.name, p.name, i.qty
----
ann  book  media   1
ann  clip  office  5
ann  pen   office  1
ann  pen   office  2
ben  book  media   3
ben  pen   office  4
eve  book  media   1
eve  clip  office  10

# LEFT JOIN keeps customers without orders.
query
SELECT c.name, o.order_id FROM customers c LEFT JOIN orders o ON o.customer_id = c.id ORDER BY c.name, o.order_id
----
ann  1
ann  2
ann  3
ben  1
ben  2
cat  1
dan  NULL
eve  1
fay  NULL

# A condition in ON filters the inner side; the same one in WHERE filters the result.
query
SELECT c.name, o.order_id FROM customers c LEFT JOIN orders o ON o.customer_id = c.id AND o.status = 'open' ORDER BY c.name, o.order_id
----
ann  2
ben  NULL
cat  1
dan  NULL
eve  NULL
fay  NULL

query
SELECT c.name, o.order_id FROM customers c LEFT JOIN orders o ON o.customer_id = c.id WHERE o.status = 'open' ORDER BY c.name, o.order_id
----
ann  2
cat  1

# Anti-join by LEFT JOIN ... IS NULL.
query
SELECT c.name FROM customers c LEFT OUTER JOIN orders o ON o.customer_id = c.id WHERE o.order_id IS NULL ORDER BY c.name
----
dan
fay

# A NULL join key never matches: order (1,3) has no region.
query
SELECT o.customer_id, o.order_id, r.name FROM orders o LEFT JOIN regions r ON r.id = o.region_id ORDER BY 1, 2
----
1  1  north
1  2  south
1  3  NULL
2  1  north
2  2  east
3  1  south
5  1  NULL
7  1  north

query rowsort
SELECT o.customer_id, o.order_id FROM orders o JOIN regions r ON r.id = o.region_id OR o.region_id IS NULL WHERE r.id = 10
----
1  1
1  3
2  1
7  1

# IS NOT DISTINCT FROM does match NULLs.
query rowsort
SELECT p.name, v.c FROM products p JOIN (VALUES (1), (NULL::int), (3)) AS v(c) ON p.category_id IS NOT DISTINCT FROM v.c
----
clip  1
desk  3
lamp  NULL
pen   1

# RIGHT JOIN keeps the orphan order of customer 7.
query
SELECT c.name, o.customer_id, o.order_id FROM customers c RIGHT JOIN orders o ON o.customer_id = c.id ORDER BY o.customer_id, o.order_id
----
ann   1  1
ann   1  2
ann   1  3
ben   2  1
ben   2  2
cat   3  1
eve   5  1
NULL  7  1

# FULL JOIN keeps both sides' unmatched rows.
query
SELECT c.id, c.name, o.customer_id, o.order_id FROM customers c FULL JOIN orders o ON o.customer_id = c.id ORDER BY coalesce(c.id, o.customer_id), o.order_id
----
1     ann   1     1
1     ann   1     2
1     ann   1     3
2     ben   2     1
2     ben   2     2
3     cat   3     1
4     dan   NULL  NULL
5     eve   5     1
6     fay   NULL  NULL
NULL  NULL  7     1

# FULL JOIN ... USING: the merged column is the non-NULL side.
query
SELECT id, c.name AS customer, r.name AS region FROM customers c FULL OUTER JOIN (SELECT id - 9 AS id, name FROM regions) r USING (id) ORDER BY id
----
1   ann   north
2   ben   NULL
3   cat   NULL
4   dan   NULL
5   eve   NULL
6   fay   NULL
11  NULL  south
21  NULL  east
41  NULL  west

query
SELECT r.name, o.customer_id, o.order_id FROM regions r FULL JOIN orders o ON o.region_id = r.id WHERE r.id IS NULL OR o.order_id IS NULL ORDER BY r.name, o.customer_id, o.order_id
----
west  NULL  NULL
NULL  1     3
NULL  5     1

# CROSS JOIN and a comma join of three tables.
query
SELECT count(*) FROM customers CROSS JOIN regions
----
24

query
SELECT count(*), count(DISTINCT c.id), count(DISTINCT r.id), count(DISTINCT t.tag) FROM customers c, regions r, tags t
----
216  6  4  4

query
SELECT r.name, c.name FROM regions r CROSS JOIN categories c WHERE c.parent_id IS NULL ORDER BY r.name, c.name
----
east   media
east   office
north  media
north  office
south  media
south  office
west   media
west   office

# Joins with an empty table.
query
SELECT count(*) FROM customers c JOIN nothing n ON n.id = c.id
----
0

query
SELECT c.name, n.v FROM customers c LEFT JOIN nothing n ON n.id = c.id ORDER BY c.name
----
ann  NULL
ben  NULL
cat  NULL
dan  NULL
eve  NULL
fay  NULL

query
SELECT count(*) FROM customers, nothing
----
0

query
SELECT n.id, c.name FROM nothing n FULL JOIN customers c ON c.id = n.id ORDER BY c.name
----
NULL  ann
NULL  ben
NULL  cat
NULL  dan
NULL  eve
NULL  fay

query
SELECT count(*) FROM nothing n RIGHT JOIN nothing m ON m.id = n.id
----
0

# Duplicate join keys multiply: customers of the same city.
query rowsort
SELECT a.name, b.name FROM customers a JOIN customers b ON a.city = b.city AND a.id < b.id
----
ann  cat
ben  fay

query
SELECT a.city, count(*) FROM customers a JOIN customers b ON a.city = b.city GROUP BY a.city ORDER BY a.city
----
berlin  1
london  4
paris   4

# Many-to-many: product pairs that share a tag, with how many tags they share.
query
SELECT p.name, q.name, count(*) FROM tags a JOIN tags b ON a.tag = b.tag AND a.product_id < b.product_id JOIN products p ON p.id = a.product_id JOIN products q ON q.id = b.product_id GROUP BY p.name, q.name ORDER BY p.name, q.name
----
clip  lamp  1
lamp  desk  1
pen   book  1
pen   clip  2
pen   lamp  1

# Self-join of a hierarchy with aliases, three levels.
query
SELECT c.name, p.name, g.name FROM categories c LEFT JOIN categories p ON p.id = c.parent_id LEFT JOIN categories g ON g.id = p.parent_id ORDER BY c.id
----
office     NULL       NULL
media      NULL       NULL
furniture  office     NULL
chairs     furniture  office
ebooks     media      NULL

# Non-equality join conditions.
query rowsort
SELECT a.order_id, a.customer_id, b.customer_id FROM orders a JOIN orders b ON a.order_id = b.order_id AND a.placed < b.placed AND b.placed < a.placed + 20
----
1  1  2
1  2  3
1  2  5
1  5  3

query rowsort
SELECT c.name, r.name FROM customers c JOIN regions r ON r.id BETWEEN c.tier * 10 AND c.tier * 10 + 10
----
ann  north
ann  south
ben  east
ben  south
dan  north
dan  south
eve  east
fay  east
fay  south

query
SELECT count(*) FROM customers a JOIN customers b ON a.id <> b.id
----
30

query rowsort
SELECT i.customer_id, i.order_id, i.line FROM order_items i JOIN order_items j ON j.price > i.price * 5
----
1  2  1
1  2  1
1  2  1
1  3  2
1  3  2
1  3  2
1  3  2
1  3  2
1  3  2
1  3  2
1  3  2
5  1  1
5  1  1
5  1  1

# An ON clause that references every table joined so far.
query rowsort
SELECT c.name, o.order_id, r.name FROM customers c JOIN orders o ON o.customer_id = c.id JOIN regions r ON r.id = o.region_id AND (c.tier = 1 OR r.name = 'east')
----
ann  1  north
ann  2  south
ben  2  east

# Join conditions on expressions and with OR.
query rowsort
SELECT p.name, c.name FROM products p JOIN categories c ON c.id = p.category_id OR c.parent_id = p.category_id
----
book  ebooks
book  media
clip  furniture
clip  office
desk  chairs
desk  furniture
pen   furniture
pen   office

query rowsort
SELECT p.name, t.tag FROM products p JOIN tags t ON substr(t.tag, 1, 1) = substr(p.name, 1, 1) OR t.product_id + 1 = p.id
----
book  cheap
book  office
book  paper
clip  cheap
clip  cheap
clip  paper
lamp  cheap
lamp  office
pen   paper
pen   paper

# ON true and ON false.
query
SELECT count(*) FROM regions a JOIN regions b ON true
----
16

query
SELECT a.name, b.name FROM regions a LEFT JOIN regions b ON false ORDER BY a.name
----
east   NULL
north  NULL
south  NULL
west   NULL

# Parenthesized joins change which rows are kept.
query
SELECT c.name, o.order_id, i.line FROM customers c LEFT JOIN (orders o JOIN order_items i ON i.customer_id = o.customer_id AND i.order_id = o.order_id AND i.qty > 3) ON o.customer_id = c.id ORDER BY c.name, o.order_id, i.line
----
ann  2     1
ben  2     1
cat  NULL  NULL
dan  NULL  NULL
eve  1     1
fay  NULL  NULL

query
SELECT c.name, o.order_id, i.line FROM customers c LEFT JOIN orders o ON o.customer_id = c.id JOIN order_items i ON i.customer_id = o.customer_id AND i.order_id = o.order_id AND i.qty > 3 ORDER BY c.name, o.order_id, i.line
----
ann  2  1
ben  2  1
eve  1  1

# Mixed key types: int against bigint and numeric compare by value.
statement ok
CREATE TABLE ledger (account BIGINT, amount NUMERIC(6,1), PRIMARY KEY (account))

statement count 4
INSERT INTO ledger VALUES (1, 1.0), (2, 2.5), (5, 3.0), (9000000000, 1)

query rowsort
SELECT c.name, l.amount FROM customers c JOIN ledger l ON l.account = c.id
----
ann  1.0
ben  2.5
eve  3.0

query rowsort
SELECT c.name, l.account FROM customers c JOIN ledger l ON l.amount = c.tier
----
ann  1
ann  9000000000
dan  1
dan  9000000000
eve  5

# GROUP BY, HAVING, ORDER BY and LIMIT on top of joins.
query
SELECT c.name, count(i.line) AS lines, sum(i.qty * i.price) AS total FROM customers c JOIN order_items i ON i.customer_id = c.id GROUP BY c.name ORDER BY total DESC
----
ben  3  113.00
ann  5  65.75
eve  2  51.50
cat  1  15.50

query
SELECT c.name, count(o.order_id) FROM customers c LEFT JOIN orders o ON o.customer_id = c.id GROUP BY c.id, c.name ORDER BY c.id
----
ann  3
ben  2
cat  1
dan  0
eve  1
fay  0

query
SELECT cat.name, sum(i.qty) FROM order_items i JOIN products p ON p.id = i.product_id JOIN categories cat ON cat.id = p.category_id GROUP BY cat.name HAVING sum(i.qty) > 5 ORDER BY cat.name
----
office  22

query
SELECT c.name, o.order_id, o.placed FROM customers c JOIN orders o ON o.customer_id = c.id ORDER BY o.placed DESC, c.name LIMIT 3
----
ben  2  2024-03-15
ann  3  2024-03-01
ann  2  2024-02-10

query
SELECT c.name, o.order_id FROM customers c JOIN orders o ON o.customer_id = c.id ORDER BY c.id, o.order_id LIMIT 2 OFFSET 3
----
ben  1
ben  2

query
SELECT r.name, count(DISTINCT o.customer_id) FROM regions r LEFT JOIN orders o ON o.region_id = r.id GROUP BY r.name ORDER BY 2 DESC, 1
----
north  3
south  2
east   1
west   0

# DISTINCT over a join.
query
SELECT DISTINCT c.city FROM customers c JOIN orders o ON o.customer_id = c.id ORDER BY c.city
----
berlin
london
paris

# Qualified stars and SELECT * over a comma join.
query colnames
SELECT c.*, o.order_id FROM customers c JOIN orders o ON o.customer_id = c.id WHERE o.status = 'cancelled'
----
id  name  city    tier  order_id
2   ben   london  2     2

query colnames
SELECT * FROM regions r, categories c WHERE r.id = 10 AND c.parent_id = 2
----
id  name   id  name    parent_id
10  north  5   ebooks  2

# A table joined with itself three times.
query rowsort
SELECT a.id, b.id, c.id FROM regions a, regions b, regions c WHERE b.id = a.id + 10 AND c.id = b.id + 10
----
10  20  30

# Join over derived tables.
query rowsort
SELECT t.customer_id, t.n, c.name FROM (SELECT customer_id, count(*) AS n FROM orders GROUP BY customer_id) t LEFT JOIN customers c ON c.id = t.customer_id
----
1  3  ann
2  2  ben
3  1  cat
5  1  eve
7  1  NULL

# Errors.
query error 42702 ambiguous
SELECT name FROM customers c JOIN products p ON p.id = c.id

query error 42702
SELECT id FROM customers, regions

query error 42P01 missing FROM-clause entry
SELECT x.id FROM customers c

query error 42P01 invalid reference to FROM-clause entry
SELECT customers.id FROM customers c

query error 42P01
SELECT 1 FROM customers c JOIN orders o ON o.region_id = r.id JOIN regions r ON r.id = o.region_id

query error 42712 specified more than once
SELECT 1 FROM customers c JOIN orders c ON true

query error 42712
SELECT 1 FROM regions, regions

query error 42703
SELECT 1 FROM customers JOIN orders USING (order_id)

query error 42804
SELECT 1 FROM customers c JOIN orders o ON o.customer_id

# Ten small tables joined with comma syntax and WHERE equalities, in chain
# and star shapes. Table jK holds ids 1..12 except the one with
# (id + K) % 11 = 0, nxt = (id * (2K + 1) + K) % 12 + 1, and tag = the K-th
# letter and the id; tests/join_bench_test.go builds the same data for
# BenchmarkJoin10Tables.

statement ok
CREATE TABLE j0 (id INT, nxt INT, tag TEXT, PRIMARY KEY (id))

statement count 11
INSERT INTO j0 VALUES (1, 2, 'a1'), (2, 3, 'a2'), (3, 4, 'a3'), (4, 5, 'a4'), (5, 6, 'a5'), (6, 7, 'a6'), (7, 8, 'a7'), (8, 9, 'a8'), (9, 10, 'a9'), (10, 11, 'a10'), (12, 1, 'a12')

statement ok
CREATE TABLE j1 (id INT, nxt INT, tag TEXT, PRIMARY KEY (id))

statement count 11
INSERT INTO j1 VALUES (1, 5, 'b1'), (2, 8, 'b2'), (3, 11, 'b3'), (4, 2, 'b4'), (5, 5, 'b5'), (6, 8, 'b6'), (7, 11, 'b7'), (8, 2, 'b8'), (9, 5, 'b9'), (11, 11, 'b11'), (12, 2, 'b12')

statement ok
CREATE TABLE j2 (id INT, nxt INT, tag TEXT, PRIMARY KEY (id))

statement count 11
INSERT INTO j2 VALUES (1, 8, 'c1'), (2, 1, 'c2'), (3, 6, 'c3'), (4, 11, 'c4'), (5, 4, 'c5'), (6, 9, 'c6'), (7, 2, 'c7'), (8, 7, 'c8'), (10, 5, 'c10'), (11, 10, 'c11'), (12, 3, 'c12')

statement ok
CREATE TABLE j3 (id INT, nxt INT, tag TEXT, PRIMARY KEY (id))

statement count 11
INSERT INTO j3 VALUES (1, 11, 'd1'), (2, 6, 'd2'), (3, 1, 'd3'), (4, 8, 'd4'), (5, 3, 'd5'), (6, 10, 'd6'), (7, 5, 'd7'), (9, 7, 'd9'), (10, 2, 'd10'), (11, 9, 'd11'), (12, 4, 'd12')

statement ok
CREATE TABLE j4 (id INT, nxt INT, tag TEXT, PRIMARY KEY (id))

statement count 11
INSERT INTO j4 VALUES (1, 2, 'e1'), (2, 11, 'e2'), (3, 8, 'e3'), (4, 5, 'e4'), (5, 2, 'e5'), (6, 11, 'e6'), (8, 5, 'e8'), (9, 2, 'e9'), (10, 11, 'e10'), (11, 8, 'e11'), (12, 5, 'e12')

statement ok
CREATE TABLE j5 (id INT, nxt INT, tag TEXT, PRIMARY KEY (id))

statement count 11
INSERT INTO j5 VALUES (1, 5, 'f1'), (2, 4, 'f2'), (3, 3, 'f3'), (4, 2, 'f4'), (5, 1, 'f5'), (7, 11, 'f7'), (8, 10, 'f8'), (9, 9, 'f9'), (10, 8, 'f10'), (11, 7, 'f11'), (12, 6, 'f12')

statement ok
CREATE TABLE j6 (id INT, nxt INT, tag TEXT, PRIMARY KEY (id))

statement count 11
INSERT INTO j6 VALUES (1, 8, 'g1'), (2, 9, 'g2'), (3, 10, 'g3'), (4, 11, 'g4'), (6, 1, 'g6'), (7, 2, 'g7'), (8, 3, 'g8'), (9, 4, 'g9'), (10, 5, 'g10'), (11, 6, 'g11'), (12, 7, 'g12')

statement ok
CREATE TABLE j7 (id INT, nxt INT, tag TEXT, PRIMARY KEY (id))

statement count 11
INSERT INTO j7 VALUES (1, 11, 'h1'), (2, 2, 'h2'), (3, 5, 'h3'), (5, 11, 'h5'), (6, 2, 'h6'), (7, 5, 'h7'), (8, 8, 'h8'), (9, 11, 'h9'), (10, 2, 'h10'), (11, 5, 'h11'), (12, 8, 'h12')

statement ok
CREATE TABLE j8 (id INT, nxt INT, tag TEXT, PRIMARY KEY (id))

statement count 11
INSERT INTO j8 VALUES (1, 2, 'i1'), (2, 7, 'i2'), (4, 5, 'i4'), (5, 10, 'i5'), (6, 3, 'i6'), (7, 8, 'i7'), (8, 1, 'i8'), (9, 6, 'i9'), (10, 11, 'i10'), (11, 4, 'i11'), (12, 9, 'i12')

statement ok
CREATE TABLE j9 (id INT, nxt INT, tag TEXT, PRIMARY KEY (id))

statement count 11
INSERT INTO j9 VALUES (1, 5, 'j1'), (3, 7, 'j3'), (4, 2, 'j4'), (5, 9, 'j5'), (6, 4, 'j6'), (7, 11, 'j7'), (8, 6, 'j8'), (9, 1, 'j9'), (10, 8, 'j10'), (11, 3, 'j11'), (12, 10, 'j12')

# Chain: each table's nxt is the next table's key.
query
SELECT j0.id, j5.id, j9.id, j0.tag || j3.tag || j6.tag || j9.tag FROM j0, j1, j2, j3, j4, j5, j6, j7, j8, j9 WHERE j0.nxt = j1.id AND j1.nxt = j2.id AND j2.nxt = j3.id AND j3.nxt = j4.id AND j4.nxt = j5.id AND j5.nxt = j6.id AND j6.nxt = j7.id AND j7.nxt = j8.id AND j8.nxt = j9.id ORDER BY j0.id
----
1   2   10  a1d7g4j10
2   11  7   a2d10g7j7
3   8   4   a3d1g10j4
4   5   1   a4d4g1j1
5   2   10  a5d7g4j10
6   11  7   a6d10g7j7
7   8   4   a7d1g10j4
8   5   1   a8d4g1j1
10  11  7   a10d10g7j7
12  5   1   a12d4g1j1

# Star: every table joins the hub j0, on its id or its nxt.
query
SELECT j0.id, j1.tag, j8.tag, j9.tag FROM j0, j1, j2, j3, j4, j5, j6, j7, j8, j9 WHERE j1.id = j0.nxt AND j2.id = j0.id AND j3.id = j0.nxt AND j4.id = j0.id AND j5.id = j0.nxt AND j6.id = j0.id AND j7.id = j0.nxt AND j8.id = j0.id AND j9.id = j0.nxt ORDER BY j0.id
----
2   b3   i2   j3
4   b5   i4   j5
6   b7   i6   j7
8   b9   i8   j9
10  b11  i10  j11
12  b1   i12  j1

# Star on a non-key column: matches multiply.
query
SELECT count(*), sum(j0.id), count(DISTINCT j5.id) FROM j0, j1, j2, j3, j4, j5, j6, j7, j8, j9 WHERE j1.nxt = j0.nxt AND j2.nxt = j0.nxt AND j3.nxt = j0.nxt AND j4.nxt = j0.nxt AND j5.nxt = j0.nxt AND j6.nxt = j0.nxt AND j7.nxt = j0.nxt AND j8.nxt = j0.nxt AND j9.nxt = j0.nxt
----
89  461  4
