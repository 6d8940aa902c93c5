"""The compat scenario through psycopg2 (Debian's python3-psycopg2): CRUD with
client-side parameter interpolation, and a server-side (named) cursor.
Run with /usr/bin/python3; prints a transcript (see compat_common)."""

import psycopg2

from compat_common import columns, env, out, row, scenario_rows, step

E = env()
conn = psycopg2.connect(host=E["COMPAT_HOST"], port=E["COMPAT_PORT"], dbname=E["COMPAT_DB"],
                        user=E["COMPAT_USER"], sslmode="disable", application_name="compat")
out("## connect")
out("ok")


def query(sql, params=None):
    with conn.cursor() as cur:
        cur.execute(sql, params)
        out(columns(cur.description))
        for r in cur.fetchall():
            out(row(r))


def create():
    with conn.cursor() as cur:
        cur.execute(E["COMPAT_DDL"])
        out("status " + cur.statusmessage)
    conn.commit()


def load():
    n = 0
    with conn.cursor() as cur:
        for r in scenario_rows():
            cur.execute("INSERT INTO events (tenant, seq, kind, amount, at, note, score, flag) "
                        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s)", r)
            n += cur.rowcount
    conn.commit()
    out("inserted %d" % n)


def update():
    with conn.cursor() as cur:
        cur.execute("UPDATE events SET note = %s, score = score + 1 WHERE tenant = %s AND seq = %s",
                    ("updated", "acme", 1))
        out("updated %d" % cur.rowcount)
    conn.commit()
    query("SELECT note, score FROM events WHERE tenant = 'acme' AND seq = 1")


def delete():
    with conn.cursor() as cur:
        cur.execute("DELETE FROM events WHERE tenant = %s", ("globex",))
        out("deleted %d" % cur.rowcount)
    conn.commit()
    query("SELECT tenant, seq FROM events ORDER BY tenant, seq")


def named_cursor():
    # psycopg2 declares a named cursor as DECLARE "c1" CURSOR WITHOUT HOLD
    # FOR ... inside the transaction, then reads it with FETCH FORWARD
    # itersize.
    with conn.cursor(name="c1") as cur:
        cur.itersize = 2
        cur.execute("SELECT tenant, seq, amount FROM events ORDER BY tenant, seq")
        for r in cur:
            out(row(r))
        out(columns(cur.description))
    conn.commit()
    with conn.cursor(name="c2") as cur:
        cur.execute("SELECT tenant, seq FROM events WHERE tenant = %s ORDER BY seq DESC", ("acme",))
        out("fetchone " + row(cur.fetchone()))
        out("fetchmany " + " | ".join(row(r) for r in cur.fetchmany(5)))
    conn.commit()


def literals():
    # psycopg2 inlines parameters: quotes, timestamps, dates, intervals,
    # bytea and arrays arrive as literals in the SQL text.
    import datetime
    query("SELECT %s AS s, %s AS ts, %s AS d, %s AS iv, %s AS b, %s AS a",
          ("x'y\\z", datetime.datetime(2024, 1, 2, 3, 4, 5, 600000), datetime.date(2024, 2, 29),
           datetime.timedelta(hours=1, minutes=30), b"\x00\x01", [1, 2]))


rollback = conn.rollback
step("create", create, rollback)
step("load", load, rollback)
step("by_key", lambda: query("SELECT * FROM events WHERE tenant = %s AND seq = %s", ("acme", 2)), rollback)
step("by_range", lambda: query("SELECT tenant, seq, kind, amount FROM events WHERE tenant = %s AND seq >= %s "
                               "ORDER BY seq DESC", ("acme", 2)), rollback)
step("by_prefix", lambda: query("SELECT tenant, seq FROM events WHERE tenant >= %s AND tenant < %s "
                                "ORDER BY tenant, seq", ("acme", "h")), rollback)
step("update", update, rollback)
step("delete", delete, rollback)
step("named_cursor", named_cursor, rollback)
step("literals", literals, rollback)
conn.close()
out("## done")
