package dev.tideway.frontend.session;

import dev.tideway.frontend.pgwire.PgSession;
import dev.tideway.frontend.syscatalog.Backends;
import dev.tideway.frontend.syscatalog.PgFunctions;
import java.util.List;

/**
 * A session as {@code pg_stat_activity} sees it: marks its {@link Backends} entry active around
 * every statement (with its text), idle (or idle in transaction) after, and gone when the
 * connection closes; {@code pg_backend_pid()} reads the pid it sets on the connection's thread.
 */
public final class TrackedSession implements PgSession {
  private final PgSession inner;
  private final Backends backends;
  private final Backends.Entry entry;

  public TrackedSession(PgSession inner, Backends backends, Client client) {
    this.inner = inner;
    this.backends = backends;
    this.entry = backends.join(client);
  }

  @Override
  public List<String> split(String sql) {
    return inner.split(sql);
  }

  @Override
  public Prepared prepare(String sql, int[] paramOids) {
    // planning may fold pg_backend_pid() into a constant: it must see this session then too
    PgFunctions.BACKEND.set(entry);
    try {
      return inner.prepare(sql, paramOids);
    } finally {
      PgFunctions.BACKEND.remove();
    }
  }

  @Override
  public Result execute(Prepared prepared, List<Object> params, NoticeSink notices) {
    backends.started(entry, prepared.sql());
    PgFunctions.BACKEND.set(entry);
    try {
      return inner.execute(prepared, params, notices);
    } finally {
      PgFunctions.BACKEND.remove();
      backends.finished(entry, inner.transactionStatus());
    }
  }

  @Override
  public void sync(boolean failed) {
    inner.sync(failed);
  }

  @Override
  public char transactionStatus() {
    return inner.transactionStatus();
  }

  @Override
  public List<Column> cursorColumns(String name) {
    return inner.cursorColumns(name);
  }

  @Override
  public void cancel() {
    inner.cancel();
  }

  @Override
  public void close() {
    backends.leave(entry);
    inner.close();
  }
}
