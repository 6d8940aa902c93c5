"""The compat scenario through SQLAlchemy 1.4 (Debian's python3-sqlalchemy) on
psycopg2: engine connect (its first-connect probes: version(), current_schema(),
SHOW ...), Core CRUD, inspect() reflection, and ORM session CRUD whose INSERT
uses RETURNING for a serial key. Run with /usr/bin/python3."""

import sqlalchemy as sa
from sqlalchemy import orm

from compat_common import columns, env, out, row, scenario_rows, step

E = env()
engine = sa.create_engine("postgresql+psycopg2://%s@%s:%s/%s?sslmode=disable" % (
    E["COMPAT_USER"], E["COMPAT_HOST"], E["COMPAT_PORT"], E["COMPAT_DB"]), future=True)


def query(sql, **params):
    with engine.connect() as c:
        res = c.execute(sa.text(sql), params)
        out("columns " + " ".join(res.keys()))
        for r in res:
            out(row(r))


def connect():
    with engine.connect() as c:
        out("server_version_info major %r" % (engine.dialect.server_version_info[0],))
        out("default_schema_name %r" % engine.dialect.default_schema_name)
        out("select 1 -> %r" % c.execute(sa.text("SELECT 1")).scalar())


def create():
    with engine.begin() as c:
        c.execute(sa.text(E["COMPAT_DDL"]))
    out("ok")


def load():
    keys = ("tenant", "seq", "kind", "amount", "at", "note", "score", "flag")
    with engine.begin() as c:
        res = c.execute(sa.text("INSERT INTO events (tenant, seq, kind, amount, at, note, score, flag) "
                                "VALUES (:tenant, :seq, :kind, :amount, :at, :note, :score, :flag)"),
                        [dict(zip(keys, r)) for r in scenario_rows()])
        out("inserted %d" % res.rowcount)


def reflect():
    insp = sa.inspect(engine)
    out("has_table events %r" % insp.has_table("events"))
    out("has_table nosuch %r" % insp.has_table("nosuch"))
    out("table_names %r" % insp.get_table_names())
    for c in insp.get_columns("events"):
        out("column %s type=%s nullable=%r default=%r autoincrement=%r comment=%r" % (
            c["name"], c["type"], c["nullable"], c["default"], c.get("autoincrement"), c.get("comment")))
    pk = insp.get_pk_constraint("events")
    out("pk name=%r columns=%r" % (pk.get("name"), pk.get("constrained_columns")))
    out("indexes %r" % insp.get_indexes("events"))
    out("foreign_keys %r" % insp.get_foreign_keys("events"))
    out("unique_constraints %r" % insp.get_unique_constraints("events"))


def reflect_table():
    md = sa.MetaData()
    t = sa.Table("events", md, autoload_with=engine)
    out("columns " + " ".join("%s:%s" % (c.name, c.type) for c in t.columns))
    out("primary_key " + " ".join(c.name for c in t.primary_key.columns))
    with engine.connect() as c:
        for r in c.execute(sa.select(t.c.tenant, t.c.seq, t.c.amount)
                           .where(t.c.tenant == "acme").order_by(t.c.seq.desc())):
            out(row(r))


def update():
    with engine.begin() as c:
        res = c.execute(sa.text("UPDATE events SET note = :note, score = score + 1 "
                                "WHERE tenant = :t AND seq = :s"), dict(note="updated", t="acme", s=1))
        out("updated %d" % res.rowcount)
    query("SELECT note, score FROM events WHERE tenant = 'acme' AND seq = 1")


def delete():
    with engine.begin() as c:
        res = c.execute(sa.text("DELETE FROM events WHERE tenant = :t"), dict(t="globex"))
        out("deleted %d" % res.rowcount)
    query("SELECT tenant, seq FROM events ORDER BY tenant, seq")


Base = orm.declarative_base()


class Note(Base):
    __tablename__ = "notes"
    id = sa.Column(sa.Integer, primary_key=True)  # SERIAL: the INSERT uses RETURNING notes.id
    body = sa.Column(sa.String(50), nullable=False)
    tenant = sa.Column(sa.Text)


def orm_crud():
    Base.metadata.create_all(engine)
    out("has_table notes %r" % sa.inspect(engine).has_table("notes"))
    with orm.Session(engine) as s:
        a, b = Note(body="first", tenant="acme"), Note(body="second", tenant="initech")
        s.add_all([a, b])
        s.commit()
        out("ids %r %r" % (a.id, b.id))
        a.body = "first, edited"
        s.commit()
        s.delete(b)
        s.commit()
        for n in s.execute(sa.select(Note).order_by(Note.id)).scalars():
            out("note %r %r %r" % (n.id, n.body, n.tenant))
        got = s.get(Note, a.id)
        out("get %r" % (got.body,))
    insp = sa.inspect(engine)
    for c in insp.get_columns("notes"):
        out("column %s type=%s nullable=%r default=%r autoincrement=%r" % (
            c["name"], c["type"], c["nullable"], c["default"], c.get("autoincrement")))
    out("pk %r" % (insp.get_pk_constraint("notes"),))


def orm_composite():
    md = sa.MetaData()
    t = sa.Table("events", md, autoload_with=engine)

    class Event:
        pass

    orm.registry().map_imperatively(Event, t)
    with orm.Session(engine) as s:
        e = s.get(Event, ("acme", 2))
        out("get %r %r %r" % (e.tenant, e.seq, e.note))
        e.note = "via orm"
        s.commit()
        n = s.execute(sa.select(sa.func.count()).select_from(t).where(t.c.note == "via orm")).scalar()
        out("count %r" % n)


step("connect", connect)
step("create", create)
step("load", load)
step("by_key", lambda: query("SELECT * FROM events WHERE tenant = :t AND seq = :s", t="acme", s=2))
step("by_range", lambda: query("SELECT tenant, seq, kind, amount FROM events WHERE tenant = :t AND seq >= :s "
                               "ORDER BY seq DESC", t="acme", s=2))
step("by_prefix", lambda: query("SELECT tenant, seq FROM events WHERE tenant >= :lo AND tenant < :hi "
                                "ORDER BY tenant, seq", lo="acme", hi="h"))
step("reflect", reflect)
step("reflect_table", reflect_table)
step("update", update)
step("delete", delete)
step("orm_crud", orm_crud)
step("orm_composite", orm_composite)
engine.dispose()
out("## done")
