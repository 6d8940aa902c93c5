# Sorts, DISTINCT and set operations larger than work_mem (issue 5): they
# spill to temporary files and still return PostgreSQL's results. 8192 rows
# of about 200 bytes each are far more than 64kB. With widesql.spill off
# the same queries fail with 53200 instead (widesql-only records).

statement ok
CREATE TABLE sp (id INT, g INT, s TEXT, PRIMARY KEY (id))

statement count 1
INSERT INTO sp (id) VALUES (1)

statement count 1
INSERT INTO sp (id) SELECT id + 1 FROM sp

statement count 2
INSERT INTO sp (id) SELECT id + 2 FROM sp

statement count 4
INSERT INTO sp (id) SELECT id + 4 FROM sp

statement count 8
INSERT INTO sp (id) SELECT id + 8 FROM sp

statement count 16
INSERT INTO sp (id) SELECT id + 16 FROM sp

statement count 32
INSERT INTO sp (id) SELECT id + 32 FROM sp

statement count 64
INSERT INTO sp (id) SELECT id + 64 FROM sp

statement count 128
INSERT INTO sp (id) SELECT id + 128 FROM sp

statement count 256
INSERT INTO sp (id) SELECT id + 256 FROM sp

statement count 512
INSERT INTO sp (id) SELECT id + 512 FROM sp

statement count 1024
INSERT INTO sp (id) SELECT id + 1024 FROM sp

statement count 2048
INSERT INTO sp (id) SELECT id + 2048 FROM sp

statement count 4096
INSERT INTO sp (id) SELECT id + 4096 FROM sp

# g: 3001 distinct values, spread; s: NULL for every tenth row.
statement count 8192
UPDATE sp SET g = (id * 7919) % 3001, s = CASE WHEN id % 10 = 0 THEN NULL ELSE 'k' || ((id * 104729) % 8191) END

query
SELECT count(*), count(DISTINCT g), count(s) FROM sp
----
8192  3001  7373

statement ok
SET work_mem = '64kB'

# External sorts: text descending with NULLs last, ties broken by id.
query
SELECT id, s FROM sp ORDER BY s DESC NULLS LAST, id LIMIT 5 OFFSET 3000
----
3462  k5374
3943  k5373
4424  k5372
4905  k5371
5386  k5370

query
SELECT s, id FROM sp ORDER BY s NULLS FIRST, id OFFSET 8186
----
k993  5636
k994  5155
k995  4674
k996  4193
k997  3712
k998  3231

query
SELECT id, g FROM sp ORDER BY g, id DESC LIMIT 6
----
6002  0
3001  0
7090  1
4089  1
1088  1
8178  2

query
SELECT id, g FROM sp ORDER BY g DESC, id LIMIT 4 OFFSET 5000
----
1361  1168
4362  1168
7363  1168
273   1167

# A sort key that is not an output column.
query
SELECT id FROM sp ORDER BY g * 2 + id % 3, id LIMIT 5 OFFSET 4000
----
6391
389
7479
1477
2565

# The whole sorted output, checked through its last rows and their count.
query
SELECT id FROM sp ORDER BY id DESC OFFSET 8189
----
3
2
1

# DISTINCT over more keys than fit.
query
SELECT DISTINCT g FROM sp ORDER BY g LIMIT 5 OFFSET 2000
----
2000
2001
2002
2003
2004

query
SELECT DISTINCT g FROM sp ORDER BY g DESC OFFSET 2997
----
3
2
1
0

query
SELECT DISTINCT s FROM sp ORDER BY s DESC NULLS FIRST LIMIT 4
----
NULL
k998
k997
k996

query
SELECT DISTINCT g % 1000 AS m, s IS NULL AS n FROM sp ORDER BY m DESC, n LIMIT 3 OFFSET 1000
----
438  f
437  f
437  t

# Set operations over tables larger than work_mem.
query
SELECT g FROM sp UNION SELECT id FROM sp ORDER BY 1 DESC LIMIT 3
----
8192
8191
8190

query
SELECT g FROM sp UNION SELECT id + 5000 FROM sp ORDER BY 1 OFFSET 11190
----
13190
13191
13192

query
SELECT s FROM sp UNION SELECT 'k' || g FROM sp ORDER BY 1 LIMIT 3 OFFSET 5000
----
k5743
k5744
k5745

query
SELECT id FROM sp INTERSECT SELECT g FROM sp ORDER BY 1 DESC LIMIT 3
----
3000
2999
2998

query
SELECT id FROM sp INTERSECT SELECT g FROM sp ORDER BY 1 OFFSET 2996
----
2997
2998
2999
3000

query
SELECT id FROM sp EXCEPT SELECT g FROM sp ORDER BY 1 LIMIT 3 OFFSET 100
----
3101
3102
3103

query
SELECT id FROM sp EXCEPT SELECT g FROM sp ORDER BY 1 OFFSET 5188
----
8189
8190
8191
8192

query
SELECT g FROM sp INTERSECT ALL SELECT g FROM sp WHERE id % 2 = 0 ORDER BY 1 LIMIT 5 OFFSET 1000
----
733
734
734
735
735

query
SELECT g FROM sp INTERSECT ALL SELECT g FROM sp WHERE id % 2 = 0 ORDER BY 1 OFFSET 4093
----
2998
2999
3000

query
SELECT g FROM sp EXCEPT ALL SELECT g FROM sp WHERE id % 3 = 0 ORDER BY 1 LIMIT 5 OFFSET 2000
----
1098
1098
1099
1099
1100

query
SELECT g FROM sp EXCEPT ALL SELECT g FROM sp WHERE id % 3 = 0 ORDER BY 1 OFFSET 5458
----
2999
2999
3000
3000

query
SELECT g, s FROM sp UNION ALL SELECT g, s FROM sp ORDER BY g, s NULLS FIRST LIMIT 4 OFFSET 9000
----
1648  k6547
1648  k6547
1649  k3639
1649  k3639

# With spilling off, the same work fails with out_of_memory and names work_mem.
statement ok
SET widesql.spill = off

# widesql-only
query error 53200 work_mem (64kB)
SELECT id, s FROM sp ORDER BY s DESC NULLS LAST, id LIMIT 5 OFFSET 3000

# widesql-only
query error 53200
SELECT DISTINCT g FROM sp ORDER BY g LIMIT 5 OFFSET 2000

# widesql-only
query error 53200
SELECT g FROM sp UNION SELECT id FROM sp

# widesql-only
query error 53200
SELECT id FROM sp INTERSECT SELECT g FROM sp

# widesql-only
query error 53200
SELECT id FROM sp EXCEPT ALL SELECT g FROM sp

# Small inputs still fit.
query
SELECT DISTINCT g FROM sp WHERE id <= 3 ORDER BY g
----
833
1917
2750

query
SELECT id FROM sp WHERE id <= 3 UNION SELECT 2 ORDER BY 1 DESC
----
3
2
1

statement ok
RESET widesql.spill

statement ok
RESET work_mem

query
SELECT id, s FROM sp ORDER BY s DESC NULLS LAST, id LIMIT 2 OFFSET 3000
----
3462  k5374
3943  k5373
