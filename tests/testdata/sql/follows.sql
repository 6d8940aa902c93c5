# The follow graph from seeds/000 (HBase schema design): a "tall" table with
# one row per relationship, keyed (follower, followed), so that
#   whom does A follow?   is a prefix scan,
#   does A follow B?      is a point get,
#   who follows A?        is a full scan here, or a prefix scan of the
#                         reverse table followed_by (the seed's second table).

# widesql-only
statement ok
CREATE TABLE follows (follower VARCHAR(64), followed VARCHAR(64), info.since TIMESTAMP, info.weight DOUBLE PRECISION, PRIMARY KEY (follower, followed))

# postgres-only
statement ok
CREATE TABLE follows (follower VARCHAR(64), followed VARCHAR(64), since TIMESTAMP, weight DOUBLE PRECISION, PRIMARY KEY (follower, followed))

# widesql-only
statement ok
CREATE TABLE followed_by (followed VARCHAR(64), follower VARCHAR(64), info.since TIMESTAMP, PRIMARY KEY (followed, follower))

# postgres-only
statement ok
CREATE TABLE followed_by (followed VARCHAR(64), follower VARCHAR(64), since TIMESTAMP, PRIMARY KEY (followed, follower))

statement count 8
INSERT INTO follows VALUES
  ('alice', 'bob',   '2026-01-01 09:00:00', 1),
  ('alice', 'carol', '2026-01-02 10:30:00', 0.5),
  ('alice', 'dave',  '2026-01-03 11:00:00', 0.25),
  ('bob',   'alice', '2026-01-04 12:00:00', 1),
  ('bob',   'carol', '2026-01-05 13:00:00', 2),
  ('carol', 'alice', '2026-01-06 14:00:00', 1),
  ('dave',  'alice', '2026-01-07 15:00:00', NULL),
  ('alicia', 'bob',  '2026-01-08 16:00:00', 3)

statement count 8
INSERT INTO followed_by VALUES
  ('bob',   'alice',  '2026-01-01 09:00:00'),
  ('carol', 'alice',  '2026-01-02 10:30:00'),
  ('dave',  'alice',  '2026-01-03 11:00:00'),
  ('alice', 'bob',    '2026-01-04 12:00:00'),
  ('carol', 'bob',    '2026-01-05 13:00:00'),
  ('alice', 'carol',  '2026-01-06 14:00:00'),
  ('alice', 'dave',   '2026-01-07 15:00:00'),
  ('bob',   'alicia', '2026-01-08 16:00:00')

# Whom does alice follow? (prefix scan on follower = 'alice'; 'alicia' is not a match)
query
SELECT followed FROM follows WHERE follower = 'alice' ORDER BY followed
----
bob
carol
dave

query
SELECT followed, since, weight FROM follows WHERE follower = 'alice' ORDER BY since DESC LIMIT 2
----
dave   2026-01-03 11:00:00  0.25
carol  2026-01-02 10:30:00  0.5

query
SELECT count(*) FROM follows WHERE follower = 'alice'
----
3

# Does alice follow bob? Does bob follow dave? (point gets)
query
SELECT since FROM follows WHERE follower = 'alice' AND followed = 'bob'
----
2026-01-01 09:00:00

query
SELECT since FROM follows WHERE follower = 'bob' AND followed = 'dave'
----

query
SELECT count(*) > 0 FROM follows WHERE follower = 'bob' AND followed = 'dave'
----
f

# Who follows alice? Via the non-key column ...
query
SELECT follower FROM follows WHERE followed = 'alice' ORDER BY follower
----
bob
carol
dave

# ... and via the reverse table's key prefix.
query
SELECT follower, since FROM followed_by WHERE followed = 'alice' ORDER BY follower
----
bob    2026-01-04 12:00:00
carol  2026-01-06 14:00:00
dave   2026-01-07 15:00:00

query
SELECT follower FROM followed_by WHERE followed = 'bob' ORDER BY follower
----
alice
alicia

# Follow counts per user.
query
SELECT follower, count(*), sum(weight) FROM follows GROUP BY follower ORDER BY follower
----
alice   3  1.75
alicia  1  3
bob     2  3
carol   1  1
dave    1  NULL

# Unfollow: delete by full key from both tables.
statement count 1
DELETE FROM follows WHERE follower = 'alice' AND followed = 'carol'

statement count 1
DELETE FROM followed_by WHERE followed = 'carol' AND follower = 'alice'

query
SELECT followed FROM follows WHERE follower = 'alice' ORDER BY followed
----
bob
dave

query
SELECT follower FROM followed_by WHERE followed = 'carol'
----
bob

# Following twice is a duplicate key; re-following with ON CONFLICT refreshes the time.
statement error 23505
INSERT INTO follows VALUES ('alice', 'bob', '2026-02-01 00:00:00', 1)

statement count 1
INSERT INTO follows VALUES ('alice', 'bob', '2026-02-01 00:00:00', 1) ON CONFLICT (follower, followed) DO UPDATE SET since = EXCLUDED.since

query
SELECT since FROM follows WHERE follower = 'alice' AND followed = 'bob'
----
2026-02-01 00:00:00

# Range over the follower key: users whose names start with "ali".
query
SELECT follower, followed FROM follows WHERE follower LIKE 'ali%' ORDER BY follower, followed
----
alice   bob
alice   dave
alicia  bob

statement ok
DROP TABLE follows

statement ok
DROP TABLE followed_by
