package dev.tideway.frontend.pgwire;

import dev.tideway.common.types.DataType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A tiny SQL-free session for protocol tests: {@code select N} returns N, {@code echo $1} returns
 * its parameter, {@code rows N} returns N rows, {@code fail} raises 42P01, {@code wait} blocks
 * until cancelled (57014), {@code notice} sends a notice.
 */
final class ScriptedSession implements PgSession {
  private volatile CountDownLatch cancel = new CountDownLatch(1);

  static Factory factory() {
    return (user, db) -> {
      if (db.equals("nosuchdb")) {
        throw PgException.fatal(
            SqlState.INVALID_CATALOG_NAME, "database \"nosuchdb\" does not exist");
      }
      return new ScriptedSession();
    };
  }

  @Override
  public List<String> split(String sql) {
    return Arrays.stream(sql.split(";")).map(String::trim).filter(s -> !s.isEmpty()).toList();
  }

  @Override
  public Prepared prepare(String sql, int[] paramOids) {
    String s = sql.trim().toLowerCase();
    if (s.startsWith("select ")) {
      return new Prepared(sql, List.of(), List.of(new Column("n", DataType.BIGINT)), s);
    }
    if (s.startsWith("echo")) {
      DataType t =
          paramOids.length > 0 && paramOids[0] != 0
              ? PgType.ofOid(paramOids[0]).dataType()
              : DataType.VARCHAR;
      return new Prepared(sql, List.of(t), List.of(new Column("v", t)), s);
    }
    if (s.startsWith("rows ")) {
      return new Prepared(sql, List.of(), List.of(new Column("i", DataType.INT)), s);
    }
    if (s.equals("fail")) {
      throw PgException.error(SqlState.UNDEFINED_TABLE, "relation \"nosuch\" does not exist")
          .withPosition(1);
    }
    return new Prepared(sql, List.of(), null, s);
  }

  @Override
  public Result execute(Prepared p, List<Object> params, NoticeSink notices) {
    String s = (String) p.plan();
    if (s.startsWith("select ")) {
      return Result.rows(
          p.columns(), List.<Object[]>of(new Object[] {Long.parseLong(s.substring(7).trim())}));
    }
    if (s.startsWith("echo")) {
      return Result.rows(p.columns(), List.<Object[]>of(new Object[] {params.get(0)}));
    }
    if (s.startsWith("rows ")) {
      List<Object[]> rows = new ArrayList<>();
      for (int i = 0; i < Integer.parseInt(s.substring(5).trim()); i++) {
        rows.add(new Object[] {i});
      }
      return Result.rows(p.columns(), rows);
    }
    if (s.equals("wait")) {
      try {
        if (!cancel.await(20, TimeUnit.SECONDS)) {
          return Result.command("TIMEOUT");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      cancel = new CountDownLatch(1);
      throw PgException.error(SqlState.QUERY_CANCELED, "canceling statement due to user request");
    }
    if (s.equals("notice")) {
      notices.notice("hello from the server");
    }
    return Result.command(s.toUpperCase());
  }

  @Override
  public void cancel() {
    cancel.countDown();
  }

  @Override
  public void close() {}
}
