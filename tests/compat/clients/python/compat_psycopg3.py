"""The compat scenario through psycopg 3 (Debian's python3-psycopg): CRUD with
server-side parameters (psycopg 3 declares parameter types: small ints are
sent as binary int2), binary results, and a server-side (named) cursor.
Run with /usr/bin/python3; prints a transcript (see compat_common)."""

import psycopg

from compat_common import columns, env, out, row, scenario_rows, step

E = env()
conn = psycopg.connect(host=E["COMPAT_HOST"], port=E["COMPAT_PORT"], dbname=E["COMPAT_DB"],
                       user=E["COMPAT_USER"], sslmode="disable", application_name="compat")
out("## connect")
out("ok")


def query(sql, params=None, binary=False):
    with conn.cursor(binary=binary) as cur:
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


def executemany():
    with conn.cursor() as cur:
        cur.executemany("INSERT INTO events (tenant, seq, kind) VALUES (%s, %s, %s)",
                        [("hooli", 1, "a"), ("hooli", 2, "b"), ("hooli", 3, "c")])
        out("rowcount %d" % cur.rowcount)
    conn.commit()
    query("SELECT tenant, seq, kind FROM events WHERE tenant = %s ORDER BY seq", ("hooli",))


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
    # A server-side cursor: DECLARE "c1" CURSOR FOR ... then FETCH.
    with conn.cursor(name="c1") as cur:
        cur.itersize = 2
        cur.execute("SELECT tenant, seq, amount FROM events WHERE seq > %s ORDER BY tenant, seq", (0,))
        for r in cur:
            out(row(r))
        out(columns(cur.description))
    conn.commit()
    with conn.cursor(name="c2", binary=True) as cur:
        cur.execute("SELECT tenant, seq, at FROM events WHERE tenant = %s ORDER BY seq DESC", ("acme",))
        out("fetchone " + row(cur.fetchone()))
        out("fetchmany " + " | ".join(row(r) for r in cur.fetchmany(5)))
    conn.commit()


def transaction():
    with conn.transaction():
        with conn.cursor() as cur:
            cur.execute("UPDATE events SET kind = %s WHERE tenant = %s", ("tx", "initech"))
    try:
        with conn.transaction():
            with conn.cursor() as cur:
                cur.execute("DELETE FROM events")
                raise RuntimeError("roll back")
    except RuntimeError:
        out("rolled back")
    query("SELECT tenant, seq, kind FROM events ORDER BY tenant, seq")


rollback = conn.rollback
step("create", create, rollback)
step("load", load, rollback)
step("by_key", lambda: query("SELECT * FROM events WHERE tenant = %s AND seq = %s", ("acme", 2)), rollback)
step("by_key_binary", lambda: query("SELECT * FROM events WHERE tenant = %s AND seq = %s", ("acme", 2),
                                    binary=True), rollback)
step("by_range", lambda: query("SELECT tenant, seq, kind, amount FROM events WHERE tenant = %s AND seq >= %s "
                               "ORDER BY seq DESC", ("acme", 2)), rollback)
step("by_prefix", lambda: query("SELECT tenant, seq FROM events WHERE tenant >= %s AND tenant < %s "
                                "ORDER BY tenant, seq", ("acme", "h")), rollback)
step("executemany", executemany, rollback)
step("update", update, rollback)
step("delete", delete, rollback)
step("named_cursor", named_cursor, rollback)
step("transaction", transaction, rollback)
conn.close()
out("## done")
