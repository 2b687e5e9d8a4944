package dev.tideway.frontend.session;

import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.PgSession.Column;
import dev.tideway.frontend.pgwire.PgSession.Result;
import dev.tideway.frontend.pgwire.SqlState;
import dev.tideway.frontend.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A session's open cursors ({@code DECLARE} / {@code FETCH} / {@code MOVE} / {@code CLOSE}). A
 * cursor's query runs at {@code DECLARE} against the snapshot of that moment, and its rows are held
 * until they are fetched or the cursor closes: a cursor without {@code HOLD} closes at the end of
 * its transaction block, as in PostgreSQL, and may only be declared inside one (25P01).
 *
 * <p>Thread confinement: the session's connection thread.
 */
final class Cursors {
  /** The query a DECLARE runs. */
  interface Query {
    Result run(String sql) throws InterruptedException;
  }

  private static final class Open {
    final List<Column> columns;
    final List<Object[]> rows;
    final boolean hold;
    int next;

    Open(List<Column> columns, List<Object[]> rows, boolean hold) {
      this.columns = columns;
      this.rows = rows;
      this.hold = hold;
    }
  }

  private final Map<String, Open> open = new HashMap<>();

  /** The columns {@code c} answers with: a FETCH's are its cursor's; others answer none. */
  List<Column> columns(Statement.Cursor c) {
    return c.kind() == Statement.Cursor.Kind.FETCH ? cursor(c.name()).columns : null;
  }

  /** The columns of the open cursor {@code name}, or null. */
  List<Column> columnsOf(String name) {
    Open o = open.get(name);
    return o == null ? null : o.columns;
  }

  Result run(Statement.Cursor c, boolean inBlock, Query query) throws InterruptedException {
    switch (c.kind()) {
      case DECLARE -> {
        if (!inBlock && !c.hold()) {
          throw PgException.error(
              SqlState.NO_ACTIVE_SQL_TRANSACTION,
              "DECLARE CURSOR can only be used in transaction blocks");
        }
        if (open.containsKey(c.name())) {
          throw PgException.error(
              SqlState.DUPLICATE_CURSOR, "cursor \"" + c.name() + "\" already exists");
        }
        Result r = query.run(c.query());
        open.put(c.name(), new Open(r.columns(), new ArrayList<>(r.rows()), c.hold()));
        return Result.command("DECLARE CURSOR");
      }
      case FETCH, MOVE -> {
        Open o = cursor(c.name());
        int from = o.next;
        int to = (int) Math.min(o.rows.size(), from + Math.min(c.count(), Integer.MAX_VALUE));
        o.next = to;
        List<Object[]> rows = new ArrayList<>(o.rows.subList(from, to));
        for (int i = from; i < to; i++) {
          o.rows.set(i, null); // passed rows are not held any longer
        }
        String tag = c.kind().name() + " " + (to - from);
        return c.kind() == Statement.Cursor.Kind.MOVE
            ? Result.command(tag)
            : new Result(o.columns, rows, tag);
      }
      default -> {
        if (c.name() == null) {
          open.clear();
        } else if (open.remove(c.name()) == null) {
          throw missing(c.name());
        }
        return Result.command("CLOSE CURSOR");
      }
    }
  }

  /** The transaction block ended: its cursors without HOLD close. */
  void endOfBlock() {
    open.values().removeIf(o -> !o.hold);
  }

  private Open cursor(String name) {
    Open o = open.get(name);
    if (o == null) {
      throw missing(name);
    }
    return o;
  }

  private static PgException missing(String name) {
    return PgException.error(
        SqlState.INVALID_CURSOR_NAME, "cursor \"" + name + "\" does not exist");
  }
}
