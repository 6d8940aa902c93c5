# RETURNING on INSERT, UPDATE and DELETE: *, expressions, aliases, and the
# rows ON CONFLICT actually wrote.

statement ok
CREATE TABLE items (id INT PRIMARY KEY, name TEXT, qty INT)

query colnames
INSERT INTO items VALUES (1, 'apple', 5), (2, 'pear', 7) RETURNING *
----
id  name  qty
1  apple  5
2  pear  7

query colnames
INSERT INTO items (id, name) VALUES (3, 'fig') RETURNING id, qty, qty IS NULL AS missing, upper(name)
----
id  qty  missing  upper
3  NULL  t  FIG

query colnames
INSERT INTO items AS i VALUES (4, 'kiwi', 1) RETURNING i.id * 10 AS ten, i.name
----
ten  name
40  kiwi

# UPDATE returns the new row.
query colnames rowsort
UPDATE items SET qty = qty + 1 WHERE id <= 2 RETURNING id, qty, qty - 1 AS was
----
id  qty  was
1  6  5
2  8  7

# UPDATE that moves the rowkey returns the moved row.
query
UPDATE items SET id = 40 WHERE id = 4 RETURNING id, name
----
40  kiwi

query
UPDATE items SET qty = 0 WHERE id = 999 RETURNING id
----

# DELETE returns the old row.
query colnames
DELETE FROM items WHERE id = 3 RETURNING *
----
id  name  qty
3  fig  NULL

query rowsort
DELETE FROM items WHERE qty > 5 RETURNING name, qty
----
apple  6
pear  8

query
SELECT id, name, qty FROM items ORDER BY id
----
40  kiwi  1

# ON CONFLICT DO NOTHING returns only the inserted rows.
query
INSERT INTO items VALUES (40, 'dup', 0), (5, 'plum', 2) ON CONFLICT DO NOTHING RETURNING id, name
----
5  plum

# ON CONFLICT DO UPDATE returns inserted and updated rows; WHERE-skipped rows are not returned.
query rowsort
INSERT INTO items VALUES (5, 'plum', 3), (6, 'lime', 1), (40, 'kiwi', 9)
ON CONFLICT (id) DO UPDATE SET qty = items.qty + excluded.qty WHERE excluded.qty < 5
RETURNING id, name, qty
----
5  plum  5
6  lime  1

query
INSERT INTO items VALUES (5, 'x', 1) ON CONFLICT (id) DO NOTHING RETURNING id
----

# Errors inside RETURNING.
statement error 42703
INSERT INTO items VALUES (7, 'a', 1) RETURNING nosuch

statement error 42803
INSERT INTO items VALUES (7, 'a', 1) RETURNING count(*)

statement error 42P01
INSERT INTO items VALUES (7, 'a', 1) RETURNING other.id

# Nothing was written by the failed statements.
query
SELECT count(*) FROM items WHERE id = 7
----
0
