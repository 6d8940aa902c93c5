# file: widesql-only
# Column families: a column defined as fam.col TYPE is stored in family fam
# and referred to in SQL by its plain name.

statement ok
CREATE TABLE users (id BIGINT, name TEXT, profile.bio TEXT, profile.born TIMESTAMP, stats.posts INT, stats.score DOUBLE PRECISION, PRIMARY KEY (id))

statement count 3
INSERT INTO users VALUES (1, 'ann', 'hi', '1990-05-01 00:00:00', 3, 0.5), (2, 'bob', NULL, NULL, 0, NULL), (3, 'cy', 'yo', NULL, NULL, 2)

statement count 1
INSERT INTO users (id, posts) VALUES (4, 9)

query
SELECT id, name, bio, born, posts, score FROM users ORDER BY id
----
1  ann   hi    1990-05-01 00:00:00  3     0.5
2  bob   NULL  NULL                 0     NULL
3  cy    yo    NULL                 NULL  2
4  NULL  NULL  NULL                 9     NULL

query colnames
SELECT * FROM users WHERE id = 1
----
id  name  bio  born                 posts  score
1   ann   hi   1990-05-01 00:00:00  3      0.5

query
SELECT id FROM users WHERE posts > 1 ORDER BY id
----
1
4

statement count 1
UPDATE users SET bio = 'hello', posts = posts + 1 WHERE id = 1

query
SELECT bio, posts FROM users WHERE id = 1
----
hello  4

# Setting every column of a family to NULL leaves the row in place.
statement count 1
UPDATE users SET posts = NULL, score = NULL WHERE id = 4

query
SELECT id, name, posts, score FROM users WHERE id = 4
----
4  NULL  NULL  NULL

statement count 2
DELETE FROM users WHERE bio IS NULL

query
SELECT id FROM users ORDER BY id
----
1
3

# Columns are named without their family, so names must differ across families.
statement error 42701
CREATE TABLE dupfam (id INT, a.x INT, b.x INT, PRIMARY KEY (id))

statement ok
DROP TABLE users
