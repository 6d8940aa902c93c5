# file: widesql-only
# Salting (seed 002): WITH (salt_buckets = N) prefixes each rowkey with a
# bucket byte so increasing keys spread over N regions; reads merge the
# buckets back into key order.

statement ok
CREATE TABLE s_events (id BIGINT, kind TEXT, body TEXT, PRIMARY KEY (id, kind)) WITH (salt_buckets = 4)

statement ok
INSERT INTO s_events WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s WHERE g < 40) SELECT g, CASE WHEN g % 2 = 0 THEN 'even' ELSE 'odd' END, 'b' || g::text FROM s

query
SELECT count(*) FROM s_events
----
40

query
SELECT body FROM s_events WHERE id = 17 AND kind = 'odd'
----
b17

query
SELECT body FROM s_events WHERE id = 17
----
b17

query
SELECT id FROM s_events WHERE id BETWEEN 10 AND 15 ORDER BY id
----
10
11
12
13
14
15

query
SELECT id FROM s_events ORDER BY id LIMIT 5
----
1
2
3
4
5

query
SELECT id FROM s_events ORDER BY id DESC LIMIT 3
----
40
39
38

query
SELECT id, kind FROM s_events WHERE id IN (3, 30, 33) AND kind IN ('odd', 'even') ORDER BY id
----
3   odd
30  even
33  odd

query
SELECT id FROM s_events WHERE id > 36
----
37
38
39
40

statement error 23505 duplicate key
INSERT INTO s_events VALUES (5, 'odd', 'again')

statement count 0
INSERT INTO s_events VALUES (5, 'odd', 'again') ON CONFLICT DO NOTHING

statement count 1
INSERT INTO s_events VALUES (5, 'odd', 'upserted') ON CONFLICT (id, kind) DO UPDATE SET body = excluded.body

query
SELECT body FROM s_events WHERE id = 5 AND kind = 'odd'
----
upserted

statement count 1
UPDATE s_events SET id = 105 WHERE id = 5 AND kind = 'odd'

query
SELECT id, body FROM s_events WHERE id > 39 ORDER BY id
----
40   b40
105  upserted

statement count 20
DELETE FROM s_events WHERE kind = 'even'

query
SELECT count(*), min(id), max(id) FROM s_events
----
20  1  105

statement ok
BEGIN

statement ok
INSERT INTO s_events VALUES (200, 'odd', 'in txn')

query
SELECT id FROM s_events WHERE id >= 105 ORDER BY id
----
105
200

statement ok
ROLLBACK

query
SELECT id FROM s_events WHERE id >= 105 ORDER BY id
----
105

query
EXPLAIN SELECT id FROM s_events WHERE id BETWEEN 10 AND 15 ORDER BY id
----
4-WAY RANGE SCAN ON s_events ROWKEY 11+ BYTES [/10 - /15] FAMILIES (d)

query
EXPLAIN SELECT body FROM s_events WHERE id = 17 AND kind = 'odd'
----
POINT GET ON s_events ROWKEY 11+ BYTES KEY (17, 'odd') FAMILIES (d)

statement error 22023
CREATE TABLE s_bad (a INT PRIMARY KEY) WITH (salt_buckets = 0)

statement error 22023
CREATE TABLE s_bad (a INT PRIMARY KEY) WITH (salt_buckets = 300)
