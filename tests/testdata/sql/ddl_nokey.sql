# Tables without a PRIMARY KEY get a hidden, sharded row id: duplicates are
# allowed, SELECT * does not show it, UPDATE and DELETE scan.

statement ok
CREATE TABLE logs (level TEXT, msg TEXT, n INT)

statement count 3
INSERT INTO logs VALUES ('info', 'start', 1), ('warn', 'disk', 2), ('info', 'start', 1)

query colnames rowsort
SELECT * FROM logs
----
level  msg    n
info   start  1
info   start  1
warn   disk   2

statement count 2
INSERT INTO logs (msg) VALUES ('no level'), ('no level')

query rowsort
SELECT level, msg, n FROM logs WHERE msg = 'no level'
----
NULL  no level  NULL
NULL  no level  NULL

query
SELECT count(*), count(DISTINCT msg) FROM logs
----
5  3

statement count 2
UPDATE logs SET n = 10 WHERE level = 'info'

query rowsort
SELECT level, n FROM logs WHERE n IS NOT NULL
----
info  10
info  10
warn  2

statement count 2
DELETE FROM logs WHERE level IS NULL

query
SELECT count(*) FROM logs
----
3

# The hidden column cannot be named.
statement error 42703
SELECT _rowid FROM logs

statement error 42703
INSERT INTO logs (_rowid, msg) VALUES (1, 'x')

# RETURNING * shows the visible columns only.
query colnames
INSERT INTO logs VALUES ('debug', 'x', 0) RETURNING *
----
level  msg  n
debug  x    0

# ON CONFLICT without a target never fires; with a target it has no constraint to match.
statement count 1
INSERT INTO logs VALUES ('debug', 'x', 0) ON CONFLICT DO NOTHING

statement error 42P10
INSERT INTO logs VALUES ('debug', 'x', 0) ON CONFLICT (msg) DO NOTHING

# INSERT ... SELECT from the table itself doubles it.
statement count 5
INSERT INTO logs SELECT * FROM logs

query
SELECT count(*) FROM logs
----
10

statement count 10
DELETE FROM logs

query
SELECT count(*) FROM logs
----
0

# Many rows spread over the shards and all come back.
statement ok
CREATE TABLE many (v INT)

statement count 40
INSERT INTO many VALUES (1), (2), (3), (4), (5), (6), (7), (8), (9), (10), (11), (12), (13), (14), (15), (16), (17), (18), (19), (20), (21), (22), (23), (24), (25), (26), (27), (28), (29), (30), (31), (32), (33), (34), (35), (36), (37), (38), (39), (40)

statement count 40
INSERT INTO many SELECT v + 40 FROM many

query
SELECT count(*), sum(v), min(v), max(v) FROM many
----
80  3240  1  80

# widesql-only
query
EXPLAIN UPDATE logs SET n = 1 WHERE level = 'x'
----
UPDATE logs SET n
  FULL SCAN ON logs ROWKEY 8 BYTES FAMILIES (d) FILTER (level = 'x') (full scan: the table has no primary key)

# widesql-only
query
EXPLAIN DELETE FROM logs WHERE n = 1
----
DELETE FROM logs
  FULL SCAN ON logs ROWKEY 8 BYTES FAMILIES (d) FILTER (n = 1) (full scan: the table has no primary key)
