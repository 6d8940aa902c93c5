# DISTINCT ON and DISTINCT: the first row of each group in ORDER BY order,
# over single tables, composite rowkeys, joins and subqueries. Expected
# answers were recorded from PostgreSQL 15.

# include: shop_schema.inc

# Each customer's latest order.
query
SELECT DISTINCT ON (customer_id) customer_id, order_id, placed FROM orders ORDER BY customer_id, placed DESC
----
1  3  2024-03-01
2  2  2024-03-15
3  1  2024-02-02
5  1  2024-01-30
7  1  2024-04-01

# Each customer's first order (the rowkey order).
query
SELECT DISTINCT ON (customer_id) customer_id, order_id, status FROM orders ORDER BY customer_id, order_id
----
1  1  shipped
2  1  shipped
3  1  open
5  1  shipped
7  1  open

# On a composite-key prefix: the last line of each order.
query
SELECT DISTINCT ON (customer_id, order_id) customer_id, order_id, line, product_id FROM order_items ORDER BY customer_id, order_id, line DESC
----
1  1  2  101
1  2  1  102
1  3  2  NULL
2  1  2  103
2  2  1  100
3  1  1  104
5  1  2  101

# The biggest line of each customer, ties broken by the key.
query
SELECT DISTINCT ON (customer_id) customer_id, order_id, line, qty * price AS amount FROM order_items ORDER BY customer_id, qty * price DESC, order_id, line
----
1  1  2  20.00
2  1  1  60.00
3  1  1  15.50
5  1  1  32.50

# Descending DISTINCT ON keys.
query
SELECT DISTINCT ON (customer_id) customer_id, order_id FROM orders ORDER BY customer_id DESC, order_id DESC
----
7  1
5  1
3  1
2  2
1  3

# NULL is one group; it sorts last ascending.
query
SELECT DISTINCT ON (city) city, name FROM customers ORDER BY city, name
----
berlin  eve
london  ben
paris   ann
NULL    dan

query
SELECT DISTINCT ON (city) city, name FROM customers ORDER BY city DESC, name DESC
----
NULL    dan
paris   cat
london  fay
berlin  eve

# Several expressions, and expressions that are not columns.
query
SELECT DISTINCT ON (status, region_id) status, region_id, customer_id, order_id FROM orders ORDER BY status, region_id, customer_id, order_id
----
cancelled  30    2  2
open       10    7  1
open       20    1  2
shipped    10    1  1
shipped    40    5  1
shipped    NULL  1  3

query
SELECT DISTINCT ON (tier % 2) tier % 2 AS parity, name FROM customers ORDER BY tier % 2, name
----
0     ben
1     ann
NULL  cat

query
SELECT DISTINCT ON (length(name) > 3, substr(tag, 1, 1)) tag, product_id FROM tags JOIN products ON products.id = tags.product_id ORDER BY length(name) > 3, substr(tag, 1, 1), tag DESC, product_id
----
cheap   100
office  100
paper   100
cheap   102
home    103
office  102
paper   101

# DISTINCT ON by output position and by output alias.
query
SELECT DISTINCT ON (1) city, id FROM customers ORDER BY 1, 2 DESC
----
berlin  5
london  6
paris   3
NULL    4

query
SELECT DISTINCT ON (c) customer_id AS c, order_id FROM orders ORDER BY c, order_id DESC
----
1  3
2  2
3  1
5  1
7  1

# Without ORDER BY only the DISTINCT ON columns are determined.
query rowsort
SELECT DISTINCT ON (status) status FROM orders
----
cancelled
open
shipped

query
SELECT count(*) FROM (SELECT DISTINCT ON (customer_id) * FROM order_items) d
----
4

# The DISTINCT ON expressions need not be selected.
query
SELECT DISTINCT ON (category_id) name FROM products ORDER BY category_id, id
----
pen
book
desk
lamp

# Over a join: each customer's most expensive item, with the product name.
query
SELECT DISTINCT ON (c.id) c.name, p.name, i.price FROM customers c JOIN order_items i ON i.customer_id = c.id JOIN products p ON p.id = i.product_id ORDER BY c.id, i.price DESC, p.name
----
ann  book  20.00
ben  book  20.00
eve  book  19.00

# Over an outer join: customers without orders are their own group.
query
SELECT DISTINCT ON (c.id) c.id, o.order_id FROM customers c LEFT JOIN orders o ON o.customer_id = c.id ORDER BY c.id, o.order_id DESC
----
1  3
2  2
3  1
4  NULL
5  1
6  NULL

# With LIMIT and OFFSET after the distinct step.
query
SELECT DISTINCT ON (customer_id) customer_id, order_id FROM orders ORDER BY customer_id, order_id LIMIT 2 OFFSET 1
----
2  1
3  1

# Over grouped rows: each city's tier with the most customers.
query
SELECT DISTINCT ON (city) city, tier, count(*) FROM customers WHERE city IS NOT NULL GROUP BY city, tier ORDER BY city, count(*) DESC, tier
----
berlin  3  1
london  2  2
paris   1  1

# In a subquery, re-sorted outside; and in a CTE.
query
SELECT * FROM (SELECT DISTINCT ON (customer_id) customer_id, placed FROM orders ORDER BY customer_id, placed) firsts ORDER BY placed, customer_id
----
1  2024-01-05
2  2024-01-20
5  2024-01-30
3  2024-02-02
7  2024-04-01

query
WITH latest AS (SELECT DISTINCT ON (customer_id) customer_id, order_id, status FROM orders ORDER BY customer_id, order_id DESC) SELECT status, count(*) FROM latest GROUP BY status ORDER BY status
----
cancelled  1
open       2
shipped    2

# Values that compare equal fall in one group, whatever their spelling.
query
SELECT DISTINCT ON (v) v, w FROM (VALUES (1.0, 'a'), (1.00, 'b'), (2, 'c'), (NULL, 'd'), (NULL, 'e')) AS t(v, w) ORDER BY v, w
----
1.0   a
2     c
NULL  d

# The empty string and NULL are different groups.
query
SELECT DISTINCT ON (s) s, n FROM (VALUES ('', 1), (NULL, 2), ('', 3), (NULL, 4)) AS t(s, n) ORDER BY s, n
----
(empty)  1
NULL     2

# Empty input.
query
SELECT DISTINCT ON (id) id, v FROM nothing ORDER BY id
----

# Plain DISTINCT: over several columns, with NULLs, with ORDER BY.
query
SELECT DISTINCT city FROM customers ORDER BY city
----
berlin
london
paris
NULL

query
SELECT DISTINCT city, tier FROM customers ORDER BY city, tier
----
berlin  3
london  2
paris   1
paris   NULL
NULL    1

query rowsort
SELECT DISTINCT status, region_id IS NULL FROM orders
----
cancelled  f
open       f
shipped    f
shipped    t

query
SELECT DISTINCT tier * 0 FROM customers ORDER BY 1
----
0
NULL

query
SELECT DISTINCT customer_id FROM order_items ORDER BY customer_id DESC LIMIT 3
----
5
3
2

query
SELECT count(*) FROM (SELECT DISTINCT product_id FROM order_items) d
----
6

query rowsort
SELECT DISTINCT p.category_id FROM products p JOIN tags t ON t.product_id = p.id
----
1
2
3
NULL

query
SELECT ALL region_id FROM orders ORDER BY region_id
----
10
10
10
20
20
30
40
NULL

# Errors.
query error 42P10 SELECT DISTINCT ON expressions must match initial ORDER BY expressions
SELECT DISTINCT ON (customer_id) customer_id, order_id FROM orders ORDER BY order_id

query error 42P10
SELECT DISTINCT ON (customer_id, order_id) customer_id FROM orders ORDER BY order_id, placed

query error 42P10 for SELECT DISTINCT, ORDER BY expressions must appear in select list
SELECT DISTINCT name FROM customers ORDER BY id

query error 42703
SELECT DISTINCT ON (nosuch) id FROM customers

query error 42P10
SELECT DISTINCT ON (3) id, name FROM customers
