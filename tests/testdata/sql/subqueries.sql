# Subqueries: IN and NOT IN (with NULLs), EXISTS and NOT EXISTS, ANY/ALL,
# scalar subqueries (correlated, in the SELECT list, WHERE, HAVING, ORDER
# BY), derived tables with column alias lists, VALUES in FROM, and
# subqueries inside writes. Expected answers were recorded from PostgreSQL 15.

# include: shop_schema.inc

# IN and NOT IN.
query
SELECT name FROM customers WHERE id IN (SELECT customer_id FROM orders) ORDER BY name
----
ann
ben
cat
eve

query
SELECT name FROM customers WHERE id NOT IN (SELECT customer_id FROM orders) ORDER BY name
----
dan
fay

query rowsort
SELECT name FROM products WHERE id IN (SELECT product_id FROM order_items WHERE qty >= 3)
----
book
clip
pen

# NOT IN over a subquery that yields a NULL is never true.
query
SELECT name FROM categories WHERE id NOT IN (SELECT parent_id FROM categories)
----

query rowsort
SELECT name FROM categories WHERE id NOT IN (SELECT parent_id FROM categories WHERE parent_id IS NOT NULL)
----
chairs
ebooks

# IN and NOT IN as values: NULL when no match is found and a NULL is involved.
query
SELECT id, id IN (SELECT parent_id FROM categories), id NOT IN (SELECT parent_id FROM categories) FROM categories ORDER BY id
----
1  t     f
2  t     f
3  t     f
4  NULL  NULL
5  NULL  NULL

query
SELECT id, tier IN (SELECT tier FROM customers WHERE city = 'london') FROM customers ORDER BY id
----
1  f
2  t
3  NULL
4  f
5  f
6  t

# Over an empty subquery IN is false and NOT IN true, even for NULL.
query
SELECT NULL::int IN (SELECT id FROM nothing), NULL::int NOT IN (SELECT id FROM nothing), 1 IN (SELECT id FROM nothing)
----
f  t  f

# Row-valued IN on the composite key.
query rowsort
SELECT customer_id, order_id, status FROM orders WHERE (customer_id, order_id) IN (SELECT customer_id, order_id FROM order_items WHERE qty > 3)
----
1  2  open
2  2  cancelled
5  1  shipped

query rowsort
SELECT customer_id, order_id FROM orders WHERE (customer_id, order_id) NOT IN (SELECT customer_id, order_id FROM order_items)
----
7  1

# Correlated IN.
query rowsort
SELECT c.name, o.order_id FROM customers c JOIN orders o ON o.customer_id = c.id WHERE 100 IN (SELECT i.product_id FROM order_items i WHERE i.customer_id = o.customer_id AND i.order_id = o.order_id)
----
ann  1
ann  3
ben  2

# EXISTS and NOT EXISTS, correlated.
query
SELECT name FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id AND o.status = 'shipped') ORDER BY name
----
ann
ben
eve

query
SELECT name FROM customers c WHERE NOT EXISTS (SELECT * FROM orders o WHERE o.customer_id = c.id) ORDER BY name
----
dan
fay

query rowsort
SELECT o.customer_id, o.order_id FROM orders o WHERE NOT EXISTS (SELECT 1 FROM customers c WHERE c.id = o.customer_id)
----
7  1

# Items whose product has no category or is unknown.
query rowsort
SELECT i.customer_id, i.order_id, i.line FROM order_items i WHERE NOT EXISTS (SELECT 1 FROM products p JOIN categories c ON c.id = p.category_id WHERE p.id = i.product_id)
----
1  3  2
2  1  2
3  1  1

# Uncorrelated EXISTS is all or nothing; its select list is not evaluated.
query
SELECT count(*) FROM customers WHERE EXISTS (SELECT 1 FROM nothing)
----
0

query
SELECT count(*) FROM customers WHERE EXISTS (SELECT 1 / 0 FROM regions)
----
6

query
SELECT EXISTS (SELECT 1 FROM regions LIMIT 0), EXISTS (SELECT NULL), NOT EXISTS (SELECT 1 FROM nothing)
----
f  t  t

# EXISTS as a value in the SELECT list.
query
SELECT c.id, EXISTS (SELECT 1 FROM order_items i WHERE i.customer_id = c.id AND i.qty >= 4) FROM customers c ORDER BY c.id
----
1  t
2  t
3  f
4  f
5  t
6  f

# ANY / SOME / ALL over subqueries.
query rowsort
SELECT name FROM customers WHERE tier = ANY (SELECT tier FROM customers WHERE city = 'paris')
----
ann
dan

query rowsort
SELECT name FROM customers WHERE tier > SOME (SELECT tier FROM customers WHERE city = 'london')
----
eve

query rowsort
SELECT name FROM customers WHERE tier >= ALL (SELECT tier FROM customers WHERE tier IS NOT NULL)
----
eve

# ALL over a set with a NULL is never true unless false is known; over an empty set it is true.
query
SELECT 5 > ALL (SELECT tier FROM customers), 0 > ALL (SELECT tier FROM customers), 5 > ALL (SELECT id FROM nothing), 5 = ANY (SELECT id FROM nothing)
----
NULL  f  t  f

query
SELECT id, id <> ALL (SELECT region_id / 10 FROM orders) FROM customers ORDER BY id
----
1  f
2  f
3  f
4  f
5  NULL
6  NULL

# Scalar subqueries.
query
SELECT name FROM customers WHERE tier = (SELECT max(tier) FROM customers)
----
eve

query
SELECT (SELECT name FROM customers WHERE id = 99), (SELECT count(*) FROM nothing), (SELECT max(id) FROM nothing)
----
NULL  0  NULL

query
SELECT (SELECT 1) + (SELECT 2), (SELECT 'x' || (SELECT 'y'))
----
3  xy

# Correlated scalar subqueries in the SELECT list.
query
SELECT c.name, (SELECT count(*) FROM orders o WHERE o.customer_id = c.id) AS n, (SELECT max(o.placed) FROM orders o WHERE o.customer_id = c.id) AS last FROM customers c ORDER BY c.id
----
ann  3  2024-03-01
ben  2  2024-03-15
cat  1  2024-02-02
dan  0  NULL
eve  1  2024-01-30
fay  0  NULL

query
SELECT o.customer_id, o.order_id, (SELECT sum(i.qty * i.price) FROM order_items i WHERE i.customer_id = o.customer_id AND i.order_id = o.order_id) FROM orders o ORDER BY 1, 2
----
1  1  39.00
1  2  16.25
1  3  10.50
2  1  75.00
2  2  38.00
3  1  15.50
5  1  51.50
7  1  NULL

query
SELECT p.name, (SELECT c.name FROM categories c WHERE c.id = p.category_id) FROM products p ORDER BY p.id
----
pen   office
book  media
clip  office
lamp  NULL
desk  furniture

# Correlated scalar subqueries in WHERE: each customer's latest order.
query
SELECT o.customer_id, o.order_id FROM orders o WHERE o.placed = (SELECT max(o2.placed) FROM orders o2 WHERE o2.customer_id = o.customer_id) ORDER BY 1
----
1  3
2  2
3  1
5  1
7  1

query rowsort
SELECT i.customer_id, i.order_id, i.line FROM order_items i WHERE i.qty > (SELECT avg(j.qty) FROM order_items j WHERE j.customer_id = i.customer_id)
----
1  2  1
2  1  1
2  2  1
5  1  1

# Two levels of correlation: the innermost subquery sees the outermost row.
query
SELECT c.name FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id AND EXISTS (SELECT 1 FROM order_items i WHERE i.customer_id = c.id AND i.order_id = o.order_id AND i.price > c.tier * 9)) ORDER BY c.name
----
ann
ben

# A subquery in ORDER BY, in CASE and in HAVING.
query
SELECT c.name FROM customers c ORDER BY (SELECT count(*) FROM orders o WHERE o.customer_id = c.id) DESC, c.name
----
ann
ben
cat
eve
dan
fay

query
SELECT c.name, CASE WHEN EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id) THEN 'buyer' ELSE 'prospect' END FROM customers c ORDER BY c.id
----
ann  buyer
ben  buyer
cat  buyer
dan  prospect
eve  buyer
fay  prospect

query
SELECT customer_id, count(*) FROM order_items GROUP BY customer_id HAVING count(*) > (SELECT count(*) FROM regions) / 2 ORDER BY customer_id
----
1  5
2  3

query
SELECT c.city, count(*) FROM customers c GROUP BY c.city HAVING EXISTS (SELECT 1 FROM orders o JOIN customers c2 ON c2.id = o.customer_id WHERE c2.city = c.city AND o.status = 'open') ORDER BY c.city
----
paris  2

# Derived tables, with and without column alias lists.
query rowsort
SELECT d.cid, d.n FROM (SELECT customer_id AS cid, count(*) AS n FROM orders GROUP BY customer_id) d WHERE d.n > 1
----
1  3
2  2

query colnames rowsort
SELECT * FROM (SELECT customer_id, count(*), sum(qty) FROM order_items GROUP BY customer_id) AS d(cust, lines, units)
----
cust  lines  units
1     5      10
2     3      8
3     1      2
5     2      11

# A partial alias list renames the first columns only.
query colnames
SELECT * FROM (SELECT id, name, city FROM customers WHERE id < 3) AS d(key) ORDER BY key
----
key  name  city
1    ann   paris
2    ben   london

query colnames rowsort
SELECT x, y FROM (VALUES (1, 'a'), (2, 'b'), (3, NULL)) AS v(x, y)
----
x  y
1  a
2  b
3  NULL

query rowsort
SELECT v.x, c.name FROM (VALUES (1, 'a'), (2, 'b'), (9, 'z')) AS v(x, y) LEFT JOIN customers c ON c.id = v.x
----
1  ann
2  ben
9  NULL

query colnames
SELECT * FROM (VALUES (1, 'one')) AS v
----
column1  column2
1        one

# Nested derived tables and aggregates over them.
query
SELECT max(total), min(total), count(*) FROM (SELECT customer_id, sum(qty * price) AS total FROM (SELECT * FROM order_items WHERE product_id IS NOT NULL) i GROUP BY customer_id) t
----
113.00  15.50  4

query
SELECT t.status, t.n FROM (SELECT status, count(*) AS n FROM orders GROUP BY status) t ORDER BY t.n DESC, t.status LIMIT 2
----
shipped  4
open     3

# A derived table with ORDER BY and LIMIT inside.
query
SELECT * FROM (SELECT name FROM customers ORDER BY id DESC LIMIT 3) top ORDER BY name
----
dan
eve
fay

# Subqueries in writes.
statement ok
CREATE TABLE buyers (id INT, name TEXT, orders INT, PRIMARY KEY (id))

statement count 5
INSERT INTO buyers SELECT c.id, c.name, (SELECT count(*) FROM orders o WHERE o.customer_id = c.id) FROM customers c WHERE c.id IN (SELECT customer_id FROM orders) OR c.city IS NULL

query
SELECT id, name, orders FROM buyers ORDER BY id
----
1  ann  3
2  ben  2
3  cat  1
4  dan  0
5  eve  1

statement count 2
UPDATE buyers SET orders = orders + 100 WHERE id IN (SELECT customer_id FROM orders WHERE status = 'open')

statement count 5
UPDATE buyers SET name = (SELECT upper(c.name) FROM customers c WHERE c.id = buyers.id)

statement count 1
INSERT INTO buyers VALUES ((SELECT max(id) FROM customers), (SELECT name FROM customers WHERE id = 6), (SELECT count(*) FROM nothing))

statement count 2
DELETE FROM buyers WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = buyers.id)

query
SELECT id, name, orders FROM buyers ORDER BY id
----
1  ANN  103
2  BEN  2
3  CAT  101
5  EVE  1

# A write whose subquery fails part way leaves nothing written.
statement error 21000 more than one row returned by a subquery
INSERT INTO buyers SELECT c.id + 10, c.name, (SELECT o.order_id FROM orders o WHERE o.customer_id = 7 - c.id) FROM customers c

statement error 21000
UPDATE buyers SET orders = (SELECT o.order_id FROM orders o WHERE o.customer_id = 6 - buyers.id)

statement error 22012
DELETE FROM buyers WHERE id = (SELECT 1 / (id - 3) FROM customers WHERE id = buyers.id)

query
SELECT id, name, orders FROM buyers ORDER BY id
----
1  ANN  103
2  BEN  2
3  CAT  101
5  EVE  1

# Errors.
query error 21000 more than one row returned by a subquery used as an expression
SELECT (SELECT id FROM customers)

query error 21000
SELECT c.name FROM customers c WHERE c.id = (SELECT o.customer_id FROM orders o WHERE o.status = 'shipped')

query error 42601 subquery has too many columns
SELECT name FROM customers WHERE id IN (SELECT customer_id, order_id FROM orders)

query error 42601 subquery must return only one column
SELECT (SELECT id, name FROM customers WHERE id = 1)

query error 42601 subquery has too few columns
SELECT 1 FROM orders WHERE (customer_id, order_id) IN (SELECT customer_id FROM orders)

query error 42703
SELECT d.z FROM (SELECT 1 AS a) d

query error 42P10
SELECT * FROM (SELECT 1) AS d(a, b)

query error 42601 VALUES lists must all be the same length
SELECT * FROM (VALUES (1, 2), (3)) AS v(a, b)

query error 42803
SELECT (SELECT c.name) FROM customers c GROUP BY c.city

query error 42P01
SELECT 1 FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = d.id)

query error 42883
SELECT 1 FROM customers WHERE name IN (SELECT id FROM regions)

# IN compares as the common type of both sides: integer against numeric.
query
SELECT 1 IN (SELECT 1.0), 2 IN (SELECT 1.5 UNION ALL SELECT 2.00), 1.0 NOT IN (SELECT 1), (1, 2.0) IN (SELECT 1.0, 2)
----
t  t  f  t
