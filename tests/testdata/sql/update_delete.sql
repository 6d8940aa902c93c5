# UPDATE and DELETE by full key, key prefix and non-key predicates.

statement ok
CREATE TABLE m (a TEXT, b INT, v INT, note TEXT, PRIMARY KEY (a, b))

statement count 6
INSERT INTO m VALUES ('x', 1, 10, 'p'), ('x', 2, 20, 'q'), ('x', 3, 30, NULL), ('y', 1, 40, 'p'), ('y', 2, 50, 'q'), ('z', 1, 60, 'p')

# Full key.
statement count 1
UPDATE m SET v = v + 1 WHERE a = 'x' AND b = 2

statement count 0
UPDATE m SET v = 0 WHERE a = 'x' AND b = 99

# Key prefix.
statement count 3
UPDATE m SET note = 'X' WHERE a = 'x'

# Non-key column.
statement count 2
UPDATE m SET v = v * 10 WHERE note = 'p'

query
SELECT a, b, v, note FROM m ORDER BY a, b
----
x  1  10   X
x  2  21   X
x  3  30   X
y  1  400  p
y  2  50   q
z  1  600  p

# SET may refer to the old values of several columns; NULL is a value to set.
statement count 1
UPDATE m SET v = b, note = NULL WHERE a = 'y' AND b = 2

query
SELECT a, b, v, note FROM m WHERE a = 'y' ORDER BY b
----
y  1  400  p
y  2  2    NULL

# Updating a key column moves the row.
statement count 1
UPDATE m SET b = 9 WHERE a = 'z' AND b = 1

query
SELECT a, b, v FROM m WHERE a = 'z'
----
z  9  600

# ... and may not collide with another row.
statement error 23505
UPDATE m SET b = 1 WHERE a = 'x' AND b = 2

statement error 23502
UPDATE m SET a = NULL WHERE a = 'x' AND b = 1

# Delete by full key, prefix + range, non-key.
statement count 1
DELETE FROM m WHERE a = 'x' AND b = 1

statement count 0
DELETE FROM m WHERE a = 'x' AND b = 1

statement count 1
DELETE FROM m WHERE a = 'x' AND b > 2

statement count 1
DELETE FROM m WHERE note IS NULL

query
SELECT a, b FROM m ORDER BY a, b
----
x  2
y  1
z  9

statement count 3
DELETE FROM m

query
SELECT count(*) FROM m
----
0

statement ok
DROP TABLE m
