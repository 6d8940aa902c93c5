# Date/time functions as PostgreSQL 15 computes them, on fixed values
# (now() only for type and shape checks).

statement ok
SET TIME ZONE 'America/New_York'

statement ok
CREATE TABLE evts (id INTEGER PRIMARY KEY, ts TIMESTAMP, tz TIMESTAMPTZ, d DATE, iv INTERVAL)

statement count 3
INSERT INTO evts VALUES
  (1, '2020-03-05 14:07:09.123456', '2020-03-08 06:30:00+00', '2020-02-29', '1 year 2 mons 3 days 04:05:06.5'),
  (2, '1999-12-31 23:59:59', '2021-11-07 05:30:00+00', '2021-01-03', '-1 day 30:00:00'),
  (3, NULL, NULL, NULL, NULL)

query colnames
SELECT id, date_trunc('year', ts), date_trunc('quarter', ts), date_trunc('month', ts), date_trunc('week', ts), date_trunc('day', ts), date_trunc('hour', ts), date_trunc('minute', ts), date_trunc('second', ts), date_trunc('milliseconds', ts) FROM evts ORDER BY id
----
id  date_trunc           date_trunc           date_trunc           date_trunc           date_trunc           date_trunc           date_trunc           date_trunc           date_trunc
1   2020-01-01 00:00:00  2020-01-01 00:00:00  2020-03-01 00:00:00  2020-03-02 00:00:00  2020-03-05 00:00:00  2020-03-05 14:00:00  2020-03-05 14:07:00  2020-03-05 14:07:09  2020-03-05 14:07:09.123
2   1999-01-01 00:00:00  1999-10-01 00:00:00  1999-12-01 00:00:00  1999-12-27 00:00:00  1999-12-31 00:00:00  1999-12-31 23:00:00  1999-12-31 23:59:00  1999-12-31 23:59:59  1999-12-31 23:59:59
3   NULL                 NULL                 NULL                 NULL                 NULL                 NULL                 NULL                 NULL                 NULL

query
SELECT id, date_trunc('day', tz), date_trunc('hour', tz), date_trunc('month', d), date_trunc('hour', iv), date_trunc('decade', ts), date_trunc('century', ts), date_trunc('day', tz, 'UTC') FROM evts ORDER BY id
----
1  2020-03-08 00:00:00-05  2020-03-08 01:00:00-05  2020-02-01 00:00:00-05  1 year 2 mons 3 days 04:00:00  2020-01-01 00:00:00  2001-01-01 00:00:00  2020-03-07 19:00:00-05
2  2021-11-07 00:00:00-04  2021-11-07 01:00:00-04  2021-01-01 00:00:00-05  -1 days +30:00:00              1990-01-01 00:00:00  1901-01-01 00:00:00  2021-11-06 20:00:00-04
3  NULL                    NULL                    NULL                    NULL                           NULL                 NULL                 NULL

query error 22023 unit "foo" not recognized for type timestamp without time zone
SELECT date_trunc('foo', ts) FROM evts

query colnames
SELECT id, extract(year from ts), extract(month from ts), extract(day from ts), extract(hour from ts), extract(minute from ts), extract(second from ts), extract(milliseconds from ts), extract(microseconds from ts), extract(epoch from ts), extract(dow from ts), extract(isodow from ts), extract(doy from ts), extract(week from ts), extract(quarter from ts), extract(isoyear from d), extract(century from ts), extract(decade from ts), extract(millennium from ts), extract(julian from d) FROM evts ORDER BY id
----
id  extract  extract  extract  extract  extract  extract    extract    extract   extract            extract  extract  extract  extract  extract  extract  extract  extract  extract  extract
1   2020     3        5        14       7        9.123456   9123.456   9123456   1583417229.123456  4        4        65       10       1        2020     21       202      3        2458909
2   1999     12       31       23       59       59.000000  59000.000  59000000  946684799.000000   5        5        365      52       4        2020     20       199      2        2459218
3   NULL     NULL     NULL     NULL     NULL     NULL       NULL       NULL      NULL               NULL     NULL     NULL     NULL     NULL     NULL     NULL     NULL     NULL     NULL

query colnames
SELECT id, date_part('year', ts), date_part('epoch', ts), date_part('second', ts), date_part('dow', d), date_part('hour', tz), date_part('epoch', tz), extract(timezone from tz), extract(timezone_hour from tz), extract(epoch from d), extract(day from iv), extract(epoch from iv), extract(hour from iv), date_part('month', iv) FROM evts ORDER BY id
----
id  date_part  date_part          date_part  date_part  date_part  date_part   extract  extract  extract     extract  extract          extract  date_part
1   2020       1583417229.123456  9.123456   6          1          1583649000  -18000   -5       1582934400  3        37015506.500000  4        2
2   1999       946684799          59         0          1          1636263000  -14400   -4       1609632000  -1       21600.000000     30       0
3   NULL       NULL               NULL       NULL       NULL       NULL        NULL     NULL     NULL        NULL     NULL             NULL     NULL

query
SELECT extract(epoch from timestamp '2020-01-01 10:11:12.5'), extract('year' from date '2020-03-04'), extract(hour from time '10:11:12'), extract(second from time '10:11:12.25'), extract(year from 'infinity'::timestamp), extract(day from 'infinity'::timestamp), date_part('year', '-infinity'::date)
----
1577873472.500000  2020  10  12.250000  Infinity  NULL  -Infinity

query error 0A000 unit "hour" not supported for type date
SELECT extract(hour from date '2020-01-01')

query error 0A000 unit "timezone" not supported for type timestamp without time zone
SELECT extract(timezone from timestamp '2020-01-01')

query error 22023 unit "foo" not recognized for type date
SELECT extract(foo from date '2020-01-01')

query error 42725 function date_part(unknown, unknown) is not unique
SELECT date_part('year', '2020-01-01')

query colnames
SELECT id, to_char(ts, 'YYYY-MM-DD HH24:MI:SS.MS'), to_char(ts, 'FMMonth DD, YYYY HH12:MI AM'), to_char(ts, 'Dy Mon DD Q WW IW D DDD J'), to_char(tz, 'YYYY-MM-DD HH24:MI TZ OF'), to_char(d, 'YYYY/MM/DD TZ'), to_char(d, 'FMDDth "of" FMMonth') FROM evts ORDER BY id
----
id  to_char                  to_char                     to_char                           to_char                   to_char         to_char
1   2020-03-05 14:07:09.123  March 05, 2020 02:07 PM     Thu Mar 05 1 10 10 5 065 2458914  2020-03-08 01:30 EST -05  2020/02/29 EST  29th of February
2   1999-12-31 23:59:59.000  December 31, 1999 11:59 PM  Fri Dec 31 4 53 52 6 365 2451544  2021-11-07 01:30 EDT -04  2021/01/03 EST  3rd of January
3   NULL                     NULL                        NULL                              NULL                      NULL            NULL

query
SELECT '[' || to_char(timestamp '2020-05-01 00:30:00', 'Month|Day|MON|DY|month|HH12 am|US') || ']'
----
[May      |Friday   |MAY|FRI|may      |12 am|000000]

query
SELECT to_char(interval '1 day 25:03:04', 'DD HH24:MI:SS'), to_char(interval '14 months', 'YYYY MM')
----
01 25:03:04  0001 02

# Numeric templates; blanks shown as _.
query
SELECT replace(to_char(1234.5, '999G990D00'), ' ', '_'), replace(to_char(-1234.5, '999G990D00'), ' ', '_'), replace(to_char(5, '999'), ' ', '_'), replace(to_char(0.5, '9.99'), ' ', '_'), to_char(1.5, 'FM999.99'), to_char(1234567.891, 'FM9,999,999.00'), to_char(12, 'FM0000'), to_char(-12, '0000'), replace(to_char(12345, '999'), ' ', '_'), to_char(-5, 'FMS999'), replace(to_char(5, '999S'), ' ', '_'), replace(to_char(-5, '999MI'), ' ', '_'), to_char(3.14159::float8, 'FM9.999'), to_char(1.5, 'FM999.90'), to_char(-0.1, 'FM90.9'), replace(to_char(-5, 'S999'), ' ', '_'), replace(to_char(12, '9,999'), ' ', '_'), replace(to_char(0, '9999'), ' ', '_'), replace(to_char(123.456::real, '999.99'), ' ', '_'), to_char(10, 'FM9.9')
----
___1,234.50  __-1,234.50  ___5  __.50  1.5  1,234,567.89  0012  -0012  _###  -5  __5+  __5-  3.142  1.50  -0.1  __-5  ____12  ____0  _123.46  #.#

query colnames
SELECT to_date('2020-03-05', 'YYYY-MM-DD'), to_date('05 Mar 2020', 'DD Mon YYYY'), to_date('20200305', 'YYYYMMDD'), to_date('March 5, 2020', 'Month DD, YYYY'), to_timestamp('2020-03-05 14:07:09.5', 'YYYY-MM-DD HH24:MI:SS.MS'), to_timestamp('03/05/2020 02:07 PM', 'MM/DD/YYYY HH:MI AM'), to_timestamp(1583417229.5), to_timestamp(0)
----
to_date     to_date     to_date     to_date     to_timestamp              to_timestamp            to_timestamp              to_timestamp
2020-03-05  2020-03-05  2020-03-05  2020-03-05  2020-03-05 14:07:09.5-05  2020-03-05 14:07:00-05  2020-03-05 09:07:09.5-05  1969-12-31 19:00:00-05

query error 22008 date/time field value out of range
SELECT to_date('2020-13-05', 'YYYY-MM-DD')

query error 22007 invalid value "xx" for "MM"
SELECT to_date('2020-xx-05', 'YYYY-MM-DD')

query error 22008 date/time field value out of range
SELECT to_date('2020-02-30', 'YYYY-MM-DD')

query colnames
SELECT make_date(2020, 2, 29), make_timestamp(2020, 1, 2, 3, 4, 5.5), age(timestamp '2020-03-05', timestamp '2019-01-31'), age(timestamp '2019-01-31', timestamp '2020-03-05 10:00'), age(timestamptz '2021-01-01 00:00+00', timestamptz '2020-06-15 12:00+00'), isfinite(date 'infinity'), isfinite(ts) FROM evts WHERE id = 1
----
make_date   make_timestamp         age                  age                                 age                      isfinite  isfinite
2020-02-29  2020-01-02 03:04:05.5  1 year 1 mon 5 days  -1 years -1 mons -5 days -10:00:00  6 mons 16 days 11:00:00  f         t

query error 22008 date field value out of range: 2021-02-29
SELECT make_date(2021, 2, 29)

# Date arithmetic BI tools generate.
query
SELECT id, d + 7, d - 1, d + interval '1 month', ts - interval '1 day', d - date '2020-01-01', date_trunc('month', d) + interval '1 month' - interval '1 day', (date_trunc('week', ts) + interval '6 days')::date FROM evts ORDER BY id
----
1  2020-03-07  2020-02-28  2020-03-29 00:00:00  2020-03-04 14:07:09.123456  59    2020-02-29 00:00:00-05  2020-03-08
2  2021-01-10  2021-01-02  2021-02-03 00:00:00  1999-12-30 23:59:59         368   2021-01-31 00:00:00-05  2000-01-02
3  NULL        NULL        NULL                 NULL                        NULL  NULL                    NULL

# now(), current_date, localtime: types and consistency only.
query
SELECT pg_typeof(now()), pg_typeof(current_date), pg_typeof(current_timestamp), pg_typeof(localtimestamp), pg_typeof(localtime), current_date = now()::date, now() = current_timestamp, localtimestamp = now()::timestamp, pg_typeof(current_timestamp(2)), date_trunc('day', now()) <= now()
----
timestamp with time zone  date  timestamp with time zone  timestamp without time zone  time without time zone  t  t  t  timestamp with time zone  t

query colnames
SELECT current_date IS NOT NULL, localtime(0) IS NOT NULL
----
?column?  ?column?
t         t

query error 42601 syntax error at or near "("
SELECT current_date()
