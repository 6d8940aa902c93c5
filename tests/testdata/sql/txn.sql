# Transactions on one connection: atomic blocks, ROLLBACK, savepoints,
# aborted blocks (25P02), read-only blocks and the errors PostgreSQL gives.
# Isolation between connections is in txn_test.go.

statement ok
CREATE TABLE acct (id INT, owner TEXT, bal BIGINT, PRIMARY KEY (id))

statement ok
INSERT INTO acct VALUES (1, 'ann', 100), (2, 'bob', 50)

# ROLLBACK undoes every write of the block.
statement ok
BEGIN

statement ok
INSERT INTO acct VALUES (3, 'cy', 10)

statement ok
UPDATE acct SET bal = bal - 30 WHERE id = 1

statement ok
DELETE FROM acct WHERE id = 2

# The block sees its own writes.
query
SELECT id, owner, bal FROM acct ORDER BY id
----
1  ann  70
3  cy  10

statement ok
ROLLBACK

query
SELECT id, owner, bal FROM acct ORDER BY id
----
1  ann  100
2  bob  50

# COMMIT applies them.
statement ok
START TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ WRITE

statement ok
UPDATE acct SET bal = bal - 25 WHERE id = 1

statement ok
UPDATE acct SET bal = bal + 25 WHERE id = 2

statement ok
INSERT INTO acct VALUES (3, 'cy', 0)

statement ok
COMMIT

query
SELECT id, owner, bal FROM acct ORDER BY id
----
1  ann  75
2  bob  75
3  cy  0

# An error aborts the block: 25P02 until ROLLBACK, and nothing is applied.
statement ok
BEGIN

statement ok
INSERT INTO acct VALUES (4, 'dee', 1)

statement error 23505
INSERT INTO acct VALUES (1, 'dup', 0)

statement error 25P02
SELECT 1

statement error 25P02
INSERT INTO acct VALUES (5, 'eve', 1)

statement ok
COMMIT

query
SELECT count(*) FROM acct
----
3

# A key inserted and deleted in one block, and reads by key and by range
# over buffered writes.
statement ok
BEGIN

statement ok
INSERT INTO acct VALUES (10, 'x', 1), (11, 'y', 2), (12, 'z', 3)

statement ok
DELETE FROM acct WHERE id = 11

statement ok
UPDATE acct SET owner = 'zz' WHERE id = 12

query
SELECT id, owner FROM acct WHERE id = 12
----
12  zz

query
SELECT id, owner FROM acct WHERE id >= 2 AND id < 12 ORDER BY id DESC
----
10  x
3  cy
2  bob

query
SELECT id FROM acct ORDER BY id LIMIT 2
----
1
2

statement error 23505
INSERT INTO acct VALUES (10, 'again', 0)

statement ok
ROLLBACK

query
SELECT count(*) FROM acct WHERE id >= 10
----
0

# Savepoints: nested, RELEASE keeps, ROLLBACK TO undoes and keeps the
# savepoint, and returns a failed block to normal.
statement ok
BEGIN

statement ok
INSERT INTO acct VALUES (20, 'a', 0)

statement ok
SAVEPOINT s1

statement ok
INSERT INTO acct VALUES (21, 'b', 0)

statement ok
SAVEPOINT s2

statement ok
INSERT INTO acct VALUES (22, 'c', 0)

statement ok
ROLLBACK TO SAVEPOINT s2

query
SELECT id FROM acct WHERE id >= 20 ORDER BY id
----
20
21

statement ok
RELEASE s2

statement error 23505
INSERT INTO acct VALUES (20, 'dup', 0)

statement error 25P02
SELECT 1

statement ok
ROLLBACK TO s1

query
SELECT id FROM acct WHERE id >= 20 ORDER BY id
----
20

statement error 3B001
ROLLBACK TO nosuch

statement ok
ROLLBACK TO s1

statement ok
INSERT INTO acct VALUES (23, 'd', 0)

statement ok
COMMIT

query
SELECT id FROM acct WHERE id >= 20 ORDER BY id
----
20
23

# Outside a block: SAVEPOINT, RELEASE and ROLLBACK TO are errors;
# COMMIT and ROLLBACK only warn.
statement error 25P01
SAVEPOINT s

statement error 25P01
RELEASE s

statement error 25P01
ROLLBACK TO s

statement ok
COMMIT

statement ok
ROLLBACK

statement ok
END

statement ok
ABORT

# BEGIN inside a block warns and keeps the block.
statement ok
BEGIN

statement ok
BEGIN

statement ok
INSERT INTO acct VALUES (30, 'w', 0)

statement ok
ROLLBACK

query
SELECT count(*) FROM acct WHERE id = 30
----
0

# Read-only blocks reject writes with 25006.
statement ok
BEGIN READ ONLY

query
SELECT count(*) FROM acct
----
5

statement error 25006
INSERT INTO acct VALUES (40, 'r', 0)

statement ok
ROLLBACK

statement ok
BEGIN

statement ok
SET TRANSACTION READ ONLY

statement error 25006
UPDATE acct SET bal = 0

statement ok
ROLLBACK

# SET TRANSACTION ISOLATION LEVEL must come before the first query.
statement ok
BEGIN ISOLATION LEVEL SERIALIZABLE

query
SHOW transaction_isolation
----
serializable

query
SELECT 1
----
1

statement error 25001
SET TRANSACTION ISOLATION LEVEL READ COMMITTED

statement ok
ROLLBACK

query
SHOW transaction_isolation
----
read committed

# DISCARD ALL cannot run in a block.
statement ok
BEGIN

statement error 25001
DISCARD ALL

statement ok
ROLLBACK

# DEALLOCATE of an unknown statement.
statement error 26000
DEALLOCATE nosuch

statement ok
DROP TABLE acct
