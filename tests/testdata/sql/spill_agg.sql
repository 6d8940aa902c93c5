# Hash aggregation beyond work_mem: with work_mem at 64kB these queries
# hold more groups (and longer array_agg, string_agg, DISTINCT and
# percentile states) than fit, so widesql writes partial states to
# partition files and merges them (exec/aggregate.go). The results must not
# change.

statement ok
CREATE TABLE big (id INTEGER PRIMARY KEY, g INTEGER, v INTEGER, t TEXT)

statement count 1
INSERT INTO big VALUES (0, 0, 0, 'x')

statement count 1
INSERT INTO big SELECT id + 1, 0, 0, 'x' FROM big

statement count 2
INSERT INTO big SELECT id + 2, 0, 0, 'x' FROM big

statement count 4
INSERT INTO big SELECT id + 4, 0, 0, 'x' FROM big

statement count 8
INSERT INTO big SELECT id + 8, 0, 0, 'x' FROM big

statement count 16
INSERT INTO big SELECT id + 16, 0, 0, 'x' FROM big

statement count 32
INSERT INTO big SELECT id + 32, 0, 0, 'x' FROM big

statement count 64
INSERT INTO big SELECT id + 64, 0, 0, 'x' FROM big

statement count 128
INSERT INTO big SELECT id + 128, 0, 0, 'x' FROM big

statement count 256
INSERT INTO big SELECT id + 256, 0, 0, 'x' FROM big

statement count 512
INSERT INTO big SELECT id + 512, 0, 0, 'x' FROM big

statement count 1024
INSERT INTO big SELECT id + 1024, 0, 0, 'x' FROM big

statement count 2048
INSERT INTO big SELECT id + 2048, 0, 0, 'x' FROM big

statement count 4096
INSERT INTO big SELECT id + 4096, 0, 0, 'x' FROM big

statement count 8192
UPDATE big SET g = id % 1500, v = (id * 7919) % 1013, t = 'w' || (id % 37)

statement ok
SET work_mem = '64kB'

query
SELECT count(*), sum(v), min(t), max(t), stddev(v) FROM big
----
8192  4145103  w0  w9  292.456405642252

query
SELECT g, count(*), sum(v), avg(v), min(t), max(v), bool_and(v > 3), stddev(v) FROM big GROUP BY g HAVING g % 150 = 7 ORDER BY g
----
7     6  4303  717.1666666666666667  w10  979   t  348.821109835209
157   6  2922  487.0000000000000000  w12  642   t  115.991378989992
307   6  2554  425.6666666666666667  w0   1008  t  431.983178684850
457   6  4212  702.0000000000000000  w13  857   t  115.991378989992
607   6  1818  303.0000000000000000  w1   458   t  115.991378989992
757   5  4430  886.0000000000000000  w0   1010  t  98.0306074652197593
907   5  2435  487.0000000000000000  w19  611   t  98.0306074652197593
1057  5  1453  290.6000000000000000  w21  977   t  389.920248255973
1207  5  3510  702.0000000000000000  w23  826   t  98.0306074652197593
1357  5  1515  303.0000000000000000  w11  427   t  98.0306074652197593

query
SELECT g, string_agg(t, ',' ORDER BY v DESC, id), array_agg(v ORDER BY id) FROM big GROUP BY g HAVING g IN (0, 999, 1499) ORDER BY g
----
0     w26,w6,w23,w3,w20,w0  {0,62,124,186,248,310}
999   w6,w23,w3,w20,w0      {564,626,688,750,812}
1499  w25,w5,w22,w2,w19     {247,309,371,433,495}

query
SELECT g, count(DISTINCT t), percentile_cont(0.5) WITHIN GROUP (ORDER BY v), percentile_disc(0.9) WITHIN GROUP (ORDER BY id), mode() WITHIN GROUP (ORDER BY t) FROM big GROUP BY g HAVING g % 300 = 11 ORDER BY g
----
11    6  208  7511  w0
311   6  361  7811  w1
611   6  576  8111  w19
911   5  760  6911  w23
1211  5  851  7211  w10

query
SELECT t, count(*), sum(DISTINCT v), variance(v), array_agg(DISTINCT g % 3) FROM big GROUP BY t HAVING t < 'w12' ORDER BY t
----
w0   222  113641  86078.346683787860  {0,1,2}
w1   222  110052  86141.754677754678  {0,1,2}
w10  222  111180  85372.434633728751  {0,1,2}
w11  222  112656  86007.959887489299  {0,1,2}

query
SELECT count(*) FROM big GROUP BY v % 2, g HAVING count(*) > 5 ORDER BY 1 DESC LIMIT 3
----
6
6
6

# Without spilling, the query fails with 53200 naming work_mem.
# widesql-only: the widesql.spill setting
statement ok
SET widesql.spill = off

# widesql-only: PostgreSQL exceeds work_mem in hash aggregation
statement error 53200 work_mem (64kB)
SELECT g, count(*) FROM big GROUP BY g

# widesql-only: the widesql.spill setting
statement ok
RESET widesql.spill

# One group larger than work_mem cannot be split.
# widesql-only: PostgreSQL lets one group's state grow past work_mem
statement error 53200 work_mem (64kB)
SELECT array_agg(t) FROM big

# widesql-only: PostgreSQL sorts DISTINCT input on disk
statement error 53200 work_mem (64kB)
SELECT count(DISTINCT g) FROM big

query
SELECT count(*), sum(v) FROM big
----
8192  4145103
