// Compat runs the compat scenario through pgjdbc and prints a transcript of
// what the driver returned: "## step" headers, then one line per result row
// or count, or "error SQLSTATE message". The Go test in tests/compat runs it
// against widesql and against PostgreSQL and diffs the two transcripts.
//
// Environment: COMPAT_HOST, COMPAT_PORT, COMPAT_DB, COMPAT_USER, COMPAT_DDL,
// COMPAT_SCENARIO (path of scenario.json).
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.*;
import java.util.ArrayList;
import java.util.List;

public class Compat {
    static Connection conn;

    interface Step { void run() throws Exception; }

    /** step prints a header, runs body, and turns an error into a transcript line. */
    static void step(String name, Step body) {
        System.out.println("## " + name);
        try {
            body.run();
        } catch (SQLException e) {
            System.out.println("error " + e.getSQLState() + " " + firstLine(e.getMessage()));
            try {
                if (!conn.getAutoCommit()) conn.rollback();
            } catch (SQLException ignored) {
            }
        } catch (Exception e) {
            System.out.println("error " + e.getClass().getSimpleName() + " " + firstLine(String.valueOf(e.getMessage())));
        }
        System.out.flush();
    }

    static String firstLine(String s) {
        int i = s.indexOf('\n');
        return i < 0 ? s : s.substring(0, i);
    }

    /** value renders one column as type:text, so a change of Java type shows too. */
    static String value(Object o) {
        if (o == null) return "null";
        if (o instanceof Array) {
            try {
                Object[] a = (Object[]) ((Array) o).getArray();
                List<String> parts = new ArrayList<>();
                for (Object x : a) parts.add(value(x));
                return "Array:" + parts;
            } catch (SQLException e) {
                return "Array:?" + e.getSQLState();
            }
        }
        // One line per row: a newline inside a value is written as \n.
        return o.getClass().getSimpleName() + ":" + o.toString().replace("\n", "\\n");
    }

    static void printRows(ResultSet rs, boolean labels) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        if (labels) {
            StringBuilder h = new StringBuilder("columns");
            for (int i = 1; i <= n; i++) h.append(' ').append(md.getColumnLabel(i)).append(':').append(md.getColumnTypeName(i));
            System.out.println(h);
        }
        while (rs.next()) {
            StringBuilder b = new StringBuilder("row");
            for (int i = 1; i <= n; i++) {
                b.append(labels ? " " : " " + md.getColumnLabel(i) + "=").append(value(rs.getObject(i)));
            }
            System.out.println(b);
        }
        rs.close();
    }

    /** printMeta prints a DatabaseMetaData result set: one line per row, label=value. */
    static void printMeta(ResultSet rs, String... statsColumns) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        int rows = 0;
        while (rs.next()) {
            rows++;
            StringBuilder b = new StringBuilder("row");
            for (int i = 1; i <= n; i++) {
                String label = md.getColumnLabel(i);
                b.append(' ').append(label).append('=').append(value(rs.getObject(i)));
            }
            System.out.println(b);
        }
        System.out.println("rows " + rows);
        rs.close();
    }

    public static void main(String[] args) throws Exception {
        String url = "jdbc:postgresql://" + System.getenv("COMPAT_HOST") + ":" + System.getenv("COMPAT_PORT")
                + "/" + System.getenv("COMPAT_DB") + "?user=" + System.getenv("COMPAT_USER")
                + "&sslmode=disable&ApplicationName=compat";
        String ddl = System.getenv("COMPAT_DDL");
        List<Object> scenario = MiniJSON.rows(Files.readString(Path.of(System.getenv("COMPAT_SCENARIO"))));

        System.out.println("## connect");
        conn = DriverManager.getConnection(url);
        System.out.println("ok");
        DatabaseMetaData meta = conn.getMetaData();

        step("create", () -> {
            try (Statement st = conn.createStatement()) {
                st.execute(ddl);
                System.out.println("update count " + st.getUpdateCount());
            }
        });

        // Six executions of one PreparedStatement: from the fifth on pgjdbc
        // uses a named server-side statement and binary parameters.
        step("load", () -> {
            int total = 0;
            try (PreparedStatement ps = conn.prepareStatement(
                    "INSERT INTO events (tenant, seq, kind, amount, at, note, score, flag) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (Object r : scenario) {
                    List<?> row = (List<?>) r;
                    ps.setString(1, (String) row.get(0));
                    ps.setInt(2, ((Number) row.get(1)).intValue());
                    ps.setString(3, (String) row.get(2));
                    ps.setBigDecimal(4, new BigDecimal((String) row.get(3)));
                    ps.setTimestamp(5, Timestamp.valueOf((String) row.get(4)));
                    if (row.get(5) == null) ps.setNull(6, Types.VARCHAR); else ps.setString(6, (String) row.get(5));
                    if (row.get(6) == null) ps.setNull(7, Types.DOUBLE); else ps.setDouble(7, ((Number) row.get(6)).doubleValue());
                    if (row.get(7) == null) ps.setNull(8, Types.BOOLEAN); else ps.setBoolean(8, (Boolean) row.get(7));
                    total += ps.executeUpdate();
                }
            }
            System.out.println("inserted " + total);
        });

        step("by_key", () -> {
            try (PreparedStatement ps = conn.prepareStatement("SELECT * FROM events WHERE tenant = ? AND seq = ?")) {
                ps.setString(1, "acme");
                ps.setInt(2, 2);
                printRows(ps.executeQuery(), true);
            }
        });

        step("by_range", () -> {
            try (PreparedStatement ps = conn.prepareStatement(
                    "SELECT tenant, seq, kind, amount FROM events WHERE tenant = ? AND seq >= ? ORDER BY seq DESC")) {
                ps.setString(1, "acme");
                ps.setInt(2, 2);
                printRows(ps.executeQuery(), true);
            }
        });

        step("by_prefix", () -> {
            try (PreparedStatement ps = conn.prepareStatement(
                    "SELECT tenant, seq FROM events WHERE tenant >= ? AND tenant < ? ORDER BY tenant, seq")) {
                ps.setString(1, "acme");
                ps.setString(2, "h");
                printRows(ps.executeQuery(), true);
            }
        });

        // Seven executions: the last ones run as a named statement with
        // binary parameters and binary results.
        step("prepared_repeat", () -> {
            try (PreparedStatement ps = conn.prepareStatement(
                    "SELECT seq, amount, at, score, flag FROM events WHERE tenant = ? AND seq = ?")) {
                String[] tenants = {"acme", "acme", "acme", "globex", "globex", "initech", "acme"};
                int[] seqs = {1, 2, 3, 1, 2, 1, 9};
                for (int i = 0; i < tenants.length; i++) {
                    ps.setString(1, tenants[i]);
                    ps.setInt(2, seqs[i]);
                    System.out.println("execution " + (i + 1));
                    printRows(ps.executeQuery(), false);
                }
            }
        });

        // ResultSetMetaData.isNullable/isAutoIncrement make pgjdbc query the
        // catalog for the columns' table, as DBeaver's grid does.
        step("resultset_metadata", () -> {
            try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM events")) {
                ResultSetMetaData md = rs.getMetaData();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    System.out.println("column " + md.getColumnLabel(i) + " type=" + md.getColumnTypeName(i)
                            + " sqltype=" + md.getColumnType(i) + " precision=" + md.getPrecision(i)
                            + " scale=" + md.getScale(i) + " nullable=" + md.isNullable(i)
                            + " autoincrement=" + md.isAutoIncrement(i) + " table=" + md.getTableName(i)
                            + " class=" + md.getColumnClassName(i));
                }
            }
        });

        step("meta_getTables", () -> printMeta(meta.getTables(null, "public", "events", new String[] {"TABLE"})));
        step("meta_getTables_all", () -> printMeta(meta.getTables(null, "public", "%", null)));
        step("meta_getColumns", () -> printMeta(meta.getColumns(null, "public", "events", "%")));
        step("meta_getPrimaryKeys", () -> printMeta(meta.getPrimaryKeys(null, "public", "events")));
        step("meta_getIndexInfo", () -> printMeta(meta.getIndexInfo(null, "public", "events", false, true)));
        step("meta_getSchemas", () -> printMeta(meta.getSchemas()));

        step("update", () -> {
            try (PreparedStatement ps = conn.prepareStatement(
                    "UPDATE events SET note = ?, score = score + 1 WHERE tenant = ? AND seq = ?")) {
                ps.setString(1, "updated");
                ps.setString(2, "acme");
                ps.setInt(3, 1);
                System.out.println("updated " + ps.executeUpdate());
            }
            try (Statement st = conn.createStatement()) {
                printRows(st.executeQuery("SELECT note, score FROM events WHERE tenant = 'acme' AND seq = 1"), true);
            }
        });

        step("delete", () -> {
            try (PreparedStatement ps = conn.prepareStatement("DELETE FROM events WHERE tenant = ?")) {
                ps.setString(1, "globex");
                System.out.println("deleted " + ps.executeUpdate());
            }
        });

        // setFetchSize with autocommit off: a named portal read two rows at
        // a time (Execute with MaxRows, PortalSuspended).
        step("fetch_size", () -> {
            conn.setAutoCommit(false);
            try (PreparedStatement ps = conn.prepareStatement("SELECT tenant, seq, kind FROM events WHERE seq > ? ORDER BY tenant, seq")) {
                ps.setFetchSize(2);
                ps.setInt(1, 0);
                printRows(ps.executeQuery(), true);
            }
            try (Statement st = conn.createStatement()) {
                st.setFetchSize(1);
                printRows(st.executeQuery("SELECT tenant, seq FROM events ORDER BY tenant DESC, seq DESC"), true);
            }
            conn.commit();
            conn.setAutoCommit(true);
        });

        step("transaction_rollback", () -> {
            conn.setAutoCommit(false);
            try (Statement st = conn.createStatement()) {
                st.executeUpdate("DELETE FROM events");
                conn.rollback();
                printRows(st.executeQuery("SELECT count(*) FROM events"), true);
            }
            conn.setAutoCommit(true);
        });

        conn.close();
        System.out.println("## done");
    }
}

/** MiniJSON reads the "rows" array of scenario.json: arrays of strings, numbers, booleans and nulls. */
class MiniJSON {
    private final String s;
    private int i;

    private MiniJSON(String s) { this.s = s; }

    @SuppressWarnings("unchecked")
    static List<Object> rows(String text) {
        int at = text.indexOf("\"rows\"");
        MiniJSON p = new MiniJSON(text);
        p.i = text.indexOf('[', at);
        return (List<Object>) p.value();
    }

    private void ws() { while (Character.isWhitespace(s.charAt(i))) i++; }

    private Object value() {
        ws();
        char c = s.charAt(i);
        if (c == '[') {
            List<Object> out = new ArrayList<>();
            i++;
            ws();
            if (s.charAt(i) == ']') { i++; return out; }
            while (true) {
                out.add(value());
                ws();
                if (s.charAt(i++) == ']') return out;
            }
        }
        if (c == '"') {
            StringBuilder b = new StringBuilder();
            i++;
            while (s.charAt(i) != '"') {
                if (s.charAt(i) == '\\') i++;
                b.append(s.charAt(i++));
            }
            i++;
            return b.toString();
        }
        if (s.startsWith("null", i)) { i += 4; return null; }
        if (s.startsWith("true", i)) { i += 4; return Boolean.TRUE; }
        if (s.startsWith("false", i)) { i += 5; return Boolean.FALSE; }
        int start = i;
        while (i < s.length() && "+-.0123456789eE".indexOf(s.charAt(i)) >= 0) i++;
        return Double.valueOf(s.substring(start, i));
    }
}
