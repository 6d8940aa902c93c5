# The session TimeZone and date/time arithmetic, as PostgreSQL 15 computes
# them (DateStyle ISO, IntervalStyle postgres).

# timestamptz prints in the session zone; input without a zone is read in it.
statement ok
SET TIME ZONE 'America/New_York'

query
SELECT '2026-01-01 12:00:00+00'::timestamptz, '2026-07-01 12:00:00+00'::timestamptz, '2026-01-01 12:00'::timestamptz
----
2026-01-01 07:00:00-05  2026-07-01 08:00:00-04  2026-01-01 12:00:00-05

statement ok
CREATE TABLE tzt (id INTEGER PRIMARY KEY, ts TIMESTAMP, tz TIMESTAMPTZ, d DATE)

statement count 3
INSERT INTO tzt VALUES
  (1, '2026-03-08 01:30:00', '2026-03-08 01:30:00', '2026-03-08'),
  (2, '2026-11-01 12:00:00', '2026-11-01 06:00:00+00', '2026-11-01'),
  (3, NULL, 'infinity', 'infinity')

query
SELECT id, tz, tz::timestamp, tz::date, tz::text, ts::timestamptz, d::timestamptz, tz::time FROM tzt WHERE id < 3 ORDER BY id
----
1  2026-03-08 01:30:00-05  2026-03-08 01:30:00  2026-03-08  2026-03-08 01:30:00-05  2026-03-08 01:30:00-05  2026-03-08 00:00:00-05  01:30:00
2  2026-11-01 01:00:00-05  2026-11-01 01:00:00  2026-11-01  2026-11-01 01:00:00-05  2026-11-01 12:00:00-05  2026-11-01 00:00:00-04  01:00:00

query
SELECT id, tz, tz::date, ts::timestamptz FROM tzt WHERE id = 3
----
3  infinity  infinity  NULL

# Comparisons across date, timestamp and timestamptz go through the zone.
query
SELECT id, d < ts, d = tz::date, ts < tz, '2026-03-08'::date < tz, ts = '2026-03-08 01:30:00-05'::timestamptz FROM tzt ORDER BY id
----
1  t     t  f     t  t
2  t     t  f     t  f
3  NULL  t  NULL  t  NULL

statement ok
SET TIME ZONE 'Asia/Kolkata'

query
SELECT tz FROM tzt ORDER BY id
----
2026-03-08 12:00:00+05:30
2026-11-01 11:30:00+05:30
infinity

statement ok
SET TIME ZONE -5

query
SELECT '2026-01-01 12:00:00+00'::timestamptz
----
2026-01-01 07:00:00-05

statement ok
SET TimeZone = 'UTC+3'

query
SELECT '2026-01-01 12:00:00+00'::timestamptz
----
2026-01-01 09:00:00-03

statement error 22023
SET TIME ZONE 'Foo/Bar'

statement ok
SET TIME ZONE 'Australia/Adelaide'

query
SELECT '2026-01-01 12:00:00+00'::timestamptz, '2026-01-01 12:00:00+00'::timestamptz::timestamp
----
2026-01-01 22:30:00+10:30  2026-01-01 22:30:00

statement ok
RESET TimeZone

query
SELECT '2026-01-01 12:00:00+00'::timestamptz
----
2026-01-01 12:00:00+00

# Date arithmetic.
query
SELECT '2026-01-31'::date + 1, 1 + '2026-12-31'::date, '2026-03-01'::date - 1, '2026-03-01'::date - '2026-01-01'::date, '2026-01-01'::date - '2026-03-01'::date, '2026-01-05'::date - '2026-01-01', 'infinity'::date + 1, '2026-01-05'::date + 1::int2
----
2026-02-01  2027-01-01  2026-02-28  59  -59  4  infinity  2026-01-06

query
SELECT '2026-01-31'::date + '1 month'::interval, '2026-01-31'::date - '1 day'::interval, '2026-01-31'::date + '10:30'::time, '10:30'::time + '2026-01-31'::date, '1 day'::interval + '2026-01-31'::date
----
2026-02-28 00:00:00  2026-01-30 00:00:00  2026-01-31 10:30:00  2026-01-31 10:30:00  2026-02-01 00:00:00

statement error 22008
SELECT 'infinity'::date - '2026-01-01'::date

statement error 42883
SELECT '2026-01-05'::date + 1::int8

statement error 42725
SELECT '2026-01-05'::date + '1 day'

# Month arithmetic clamps to the month's end; years keep Feb 29 when they can.
query
SELECT '2026-01-31 10:00'::timestamp + '1 mon'::interval, '2024-02-29'::timestamp + '1 year'::interval, '2026-03-31'::timestamp - '1 mon'::interval, '2026-01-31'::timestamp + '1 mon 1 day 01:00'::interval, '2026-01-05'::timestamp + '1 day', '2026-01-05 10:00'::timestamp - '-1 year -2 mons'::interval
----
2026-02-28 10:00:00  2025-02-28 00:00:00  2026-02-28 00:00:00  2026-03-01 01:00:00  2026-01-06 00:00:00  2027-03-05 10:00:00

query
SELECT '2026-01-05 10:00'::timestamp - '2026-01-01 08:00'::timestamp, '2026-01-05 10:00'::timestamp - '2026-01-06 08:00'::timestamp, '2026-01-05'::timestamp - '2026-01-01', '2026-03-01'::timestamp - '2025-03-01'::timestamp, '2026-01-01 00:00:00.5'::timestamp - '2026-01-01'::date
----
4 days 02:00:00  -22:00:00  4 days  365 days  00:00:00.5

statement error 22008
SELECT 'infinity'::timestamp - '2026-01-01'::timestamp

query
SELECT 'infinity'::timestamp + '1 day'::interval, '-infinity'::timestamptz - '1 year'::interval
----
infinity  -infinity

statement error 22008
SELECT '294240-12-31'::timestamp + '100 years'::interval

statement error 22008
SELECT '2026-01-01'::date + 2147483647

# Timestamptz arithmetic steps days and months on the session zone's wall
# clock, so '1 day' across a DST change is 23 or 25 hours.
statement ok
SET TIME ZONE 'America/New_York'

query
SELECT '2026-03-07 12:00'::timestamptz + '1 day'::interval, '2026-03-07 12:00'::timestamptz + '24 hours'::interval, '2026-11-01 00:30'::timestamptz + '1 day', '2026-02-08 12:00'::timestamptz + '1 mon', '2026-03-09 12:00'::timestamptz - '2026-03-08 00:00'::timestamptz, '2026-03-09'::date - '2026-03-08 00:00'::timestamptz
----
2026-03-08 12:00:00-04  2026-03-08 13:00:00-04  2026-11-02 00:30:00-05  2026-03-08 12:00:00-04  1 day 11:00:00  23:00:00

query
SELECT id, tz + '1 day'::interval, tz - '1 mon'::interval, tz - ts FROM tzt ORDER BY id
----
1  2026-03-09 01:30:00-04  2026-02-08 01:30:00-05  00:00:00
2  2026-11-02 01:00:00-05  2026-10-01 01:00:00-04  -11:00:00
3  infinity                infinity                NULL

statement ok
SET TIME ZONE 'UTC'

query
SELECT '2026-03-07 12:00-05'::timestamptz + '1 day'::interval
----
2026-03-08 17:00:00+00

# Interval arithmetic.
query
SELECT '1 day'::interval + '1 hour', '1 mon'::interval - '1 day'::interval, -'1 day 02:00'::interval, '1 day'::interval * 2.5, 2 * '1 mon 1 day'::interval, '1 mon'::interval / 3, '1 mon'::interval * 1.5::real, '1 day'::interval * '2', '3 days 01:00'::interval / 2, '1 year'::interval / 7
----
1 day 01:00:00  1 mon -1 days  -1 days -02:00:00  2 days 12:00:00  2 mons 2 days  10 days  1 mon 15 days  2 days  1 day 12:30:00  1 mon 21 days 10:17:08.5344

statement error 22012
SELECT '1 day'::interval / 0

statement error 22008
SELECT '178000000 years'::interval * 100

# Time arithmetic wraps around midnight.
query
SELECT '10:00'::time + '1 hour', '23:30'::time + '1 hour'::interval, '00:30'::time - '1 hour'::interval, '10:00'::time - '09:00', '09:00'::time - '10:30'::time, '1 hour'::interval + '10:00'::time, '10:00'::time + '1 day 02:00'::interval
----
11:00:00  00:30:00  23:30:00  01:00:00  -01:30:00  11:00:00  12:00:00

statement error 42725
SELECT '10:00'::time + '10:00'::time

statement error 42883
SELECT '2026-01-01'::timestamp + '2026-01-01'::timestamp

# Columns and ORDER BY over arithmetic.
query
SELECT id, d + 7, d - '2026-01-01'::date, ts + '1 mon'::interval, d < ts + '1 day' FROM tzt WHERE id < 3 ORDER BY d + 7 DESC
----
2  2026-11-08  304  2026-12-01 12:00:00  t
1  2026-03-15  66   2026-04-08 01:30:00  t
