# The wide layout (seed 000's "wide table"): WITH (layout = 'wide') stores
# one kv row per value of the leading key columns and the last key column
# as a qualifier prefix inside it, one group of cells per SQL row (a
# follower's row holds a column per followed user). SQL sees the same rows
# as with the tall layout: every statement here runs unchanged against
# PostgreSQL's plain tables.

# widesql-only
statement ok
CREATE TABLE follows (follower text, followed text, since date, PRIMARY KEY (follower, followed)) WITH (layout = 'wide')

# postgres-only
statement ok
CREATE TABLE follows (follower text, followed text, since date, PRIMARY KEY (follower, followed))

statement ok
CREATE TABLE users (name text PRIMARY KEY, city text)

statement count 4
INSERT INTO users VALUES ('alice', 'Paris'), ('bob', 'Oslo'), ('carol', 'Lima'), ('dave', 'Rome')

# Written out of order, several SQL rows per kv row, in one statement.
statement count 8
INSERT INTO follows VALUES
  ('alice', 'dave',  '2026-01-03'),
  ('bob',   'alice', '2026-01-04'),
  ('alice', 'bob',   '2026-01-01'),
  ('alicia', 'bob',  '2026-01-08'),
  ('carol', 'alice', '2026-01-06'),
  ('alice', 'carol', '2026-01-02'),
  ('bob',   'carol', '2026-01-05'),
  ('dave',  'alice', NULL)

# A full scan returns rows in rowkey order across kv rows.
# widesql-only: rows come in rowkey order
query
SELECT follower, followed, since FROM follows
----
alice   bob    2026-01-01
alice   carol  2026-01-02
alice   dave   2026-01-03
alicia  bob    2026-01-08
bob     alice  2026-01-04
bob     carol  2026-01-05
carol   alice  2026-01-06
dave    alice  NULL

# Point gets: one SQL row out of a kv row; a missing one.
query
SELECT since FROM follows WHERE follower = 'alice' AND followed = 'carol'
----
2026-01-02

query
SELECT since FROM follows WHERE follower = 'bob' AND followed = 'dave'
----

# widesql-only: rows come in rowkey order
query
SELECT followed FROM follows WHERE follower IN ('carol', 'alice', 'bob') AND followed IN ('zed', 'dave', 'alice')
----
dave
alice
alice

# Whom does alice follow? One kv row; 'alicia' is another.
# widesql-only: rows come in rowkey order
query
SELECT followed FROM follows WHERE follower = 'alice'
----
bob
carol
dave

query
SELECT followed, since FROM follows WHERE follower = 'alice' ORDER BY followed DESC
----
dave   2026-01-03
carol  2026-01-02
bob    2026-01-01

query
SELECT followed FROM follows WHERE follower = 'alice' ORDER BY followed DESC LIMIT 2
----
dave
carol

# A range inside one kv row, and ranges over the follower key.
# widesql-only: rows come in rowkey order
query
SELECT followed FROM follows WHERE follower = 'alice' AND followed > 'bob' AND followed <= 'dave'
----
carol
dave

query
SELECT follower, followed FROM follows WHERE follower LIKE 'ali%' ORDER BY follower DESC, followed DESC
----
alicia  bob
alice   dave
alice   carol
alice   bob

query
SELECT follower, followed FROM follows WHERE follower >= 'alicia' AND follower < 'carol' ORDER BY follower, followed LIMIT 3
----
alicia  bob
bob     alice
bob     carol

query
SELECT follower, count(*), min(since) FROM follows GROUP BY follower ORDER BY follower
----
alice   3  2026-01-01
alicia  1  2026-01-08
bob     2  2026-01-04
carol   1  2026-01-06
dave    1  NULL

# Following twice is a duplicate key, within a kv row that has other rows,
# and within one statement.
statement error 23505 duplicate key value violates unique constraint "follows_pkey"
INSERT INTO follows VALUES ('alice', 'bob', '2026-02-01')

statement error 23505
INSERT INTO follows VALUES ('erin', 'bob', '2026-02-01'), ('erin', 'bob', '2026-02-02')

# A new followed user in an existing kv row is not a duplicate.
statement count 2
INSERT INTO follows VALUES ('alice', 'erin', '2026-02-01'), ('erin', 'alice', '2026-02-02')

statement count 1
INSERT INTO follows VALUES ('alice', 'bob', '2026-02-03'), ('alice', 'frank', '2026-02-03') ON CONFLICT DO NOTHING

query
SELECT followed, since FROM follows WHERE follower = 'alice' ORDER BY followed
----
bob    2026-01-01
carol  2026-01-02
dave   2026-01-03
erin   2026-02-01
frank  2026-02-03

statement count 2
INSERT INTO follows VALUES ('alice', 'bob', '2026-02-04'), ('bob', 'dave', '2026-02-04') ON CONFLICT (follower, followed) DO UPDATE SET since = EXCLUDED.since

query
SELECT follower, followed, since FROM follows WHERE since >= '2026-02-04' ORDER BY follower
----
alice  bob   2026-02-04
bob    dave  2026-02-04

# Update a non-key column; update the qualifier-prefix column (the row
# moves inside its kv row) and the leading column (to another kv row).
statement count 2
UPDATE follows SET since = NULL WHERE follower = 'bob' AND followed < 'd'

statement count 1
UPDATE follows SET followed = 'zoe' WHERE follower = 'alice' AND followed = 'carol'

statement count 1
UPDATE follows SET follower = 'zoe' WHERE follower = 'alice' AND followed = 'frank'

statement error 23505
UPDATE follows SET followed = 'bob' WHERE follower = 'alice' AND followed = 'dave'

query
SELECT follower, followed, since FROM follows WHERE follower IN ('alice', 'bob', 'zoe') ORDER BY follower, followed
----
alice  bob    2026-02-04
alice  dave   2026-01-03
alice  erin   2026-02-01
alice  zoe    2026-01-02
bob    alice  NULL
bob    carol  NULL
bob    dave   2026-02-04
zoe    frank  2026-02-03

# Delete one SQL row: its neighbours in the kv row stay.
statement count 1
DELETE FROM follows WHERE follower = 'alice' AND followed = 'dave'

query
SELECT followed FROM follows WHERE follower = 'alice' ORDER BY followed
----
bob
erin
zoe

statement count 3
DELETE FROM follows WHERE follower = 'bob' RETURNING followed

query
SELECT count(*) FROM follows WHERE follower = 'bob'
----
0

# Joins: a lookup into the wide table from a tall one, and back.
query
SELECT u.name, u.city, f.followed FROM users u JOIN follows f ON f.follower = u.name AND f.followed = 'alice' ORDER BY u.name
----
carol  Lima  alice
dave   Rome  alice

query
SELECT f.follower, f.followed, u.city FROM follows f LEFT JOIN users u ON u.name = f.followed WHERE f.follower = 'alice' ORDER BY f.followed
----
alice  bob   Oslo
alice  erin  NULL
alice  zoe   NULL

# A transaction sees its own writes to a kv row shared with committed
# rows, and ROLLBACK undoes them.
statement ok
BEGIN

statement count 2
INSERT INTO follows VALUES ('alice', 'carol', '2026-03-01'), ('alice', 'dave', '2026-03-01')

statement error 23505
INSERT INTO follows VALUES ('alice', 'carol', '2026-03-02')

statement ok
ROLLBACK

statement ok
BEGIN

statement count 2
INSERT INTO follows VALUES ('alice', 'carol', '2026-03-01'), ('alice', 'dave', '2026-03-01')

statement count 1
DELETE FROM follows WHERE follower = 'alice' AND followed = 'bob'

query
SELECT followed, since FROM follows WHERE follower = 'alice' ORDER BY followed DESC
----
zoe    2026-01-02
erin   2026-02-01
dave   2026-03-01
carol  2026-03-01

statement ok
ROLLBACK

query
SELECT followed, since FROM follows WHERE follower = 'alice' ORDER BY followed
----
bob   2026-02-04
erin  2026-02-01
zoe   2026-01-02

statement ok
BEGIN

statement count 1
INSERT INTO follows VALUES ('alice', 'carol', '2026-03-05')

statement ok
COMMIT

query
SELECT followed FROM follows WHERE follower = 'alice' AND followed >= 'c' ORDER BY followed
----
carol
erin
zoe

# A DESC qualifier prefix, several families and an integer leading key:
# the newest events of a device come first.
# widesql-only
statement ok
CREATE TABLE events (dev int, ts timestamp, e.kind text, m.val float8, PRIMARY KEY (dev, ts DESC)) WITH (layout = 'wide')

# postgres-only
statement ok
CREATE TABLE events (dev int, ts timestamp, kind text, val float8, PRIMARY KEY (dev, ts))

statement count 6
INSERT INTO events VALUES
  (2, '2026-01-01 10:00', 'boot', 1),
  (1, '2026-01-01 10:00', 'boot', NULL),
  (1, '2026-01-01 12:00', 'temp', 21.5),
  (1, '2026-01-01 11:00', NULL, 20),
  (-1, '2026-01-01 09:00', 'boot', 0),
  (2, '2026-01-02 08:00', 'temp', 19)

query
SELECT dev, ts, kind, val FROM events WHERE dev = 1 ORDER BY ts DESC
----
1  2026-01-01 12:00:00  temp  21.5
1  2026-01-01 11:00:00  NULL  20
1  2026-01-01 10:00:00  boot  NULL

query
SELECT dev, ts FROM events WHERE dev = 1 AND ts > '2026-01-01 10:00' ORDER BY ts
----
1  2026-01-01 11:00:00
1  2026-01-01 12:00:00

query
SELECT dev, kind FROM events WHERE dev >= 1 ORDER BY dev DESC, ts DESC LIMIT 3
----
2  temp
2  boot
1  temp

query
SELECT dev, count(*), count(kind), sum(val) FROM events GROUP BY dev ORDER BY dev
----
-1  1  1  0
1   3  2  41.5
2   2  2  20

statement count 1
UPDATE events SET val = val + 1 WHERE dev = 2 AND ts = '2026-01-02 08:00'

statement count 1
DELETE FROM events WHERE dev = 1 AND ts = '2026-01-01 11:00'

query
SELECT dev, ts, kind, val FROM events ORDER BY dev, ts
----
-1  2026-01-01 09:00:00  boot  0
1   2026-01-01 10:00:00  boot  NULL
1   2026-01-01 12:00:00  temp  21.5
2   2026-01-01 10:00:00  boot  1
2   2026-01-02 08:00:00  temp  20

statement ok
DROP TABLE events

statement ok
DROP TABLE follows

statement ok
DROP TABLE users
