package dev.tideway.frontend.syscatalog;

import dev.tideway.common.time.Clock;
import dev.tideway.frontend.pgwire.PgSession;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The frontend's live client sessions, as {@code pg_stat_activity} lists them and {@code
 * pg_cancel_backend} reaches them. Sessions register when they open and leave when they close; each
 * updates its own entry as statements start and end. Thread-safe: entries are read by other
 * sessions' queries while their owners write them (volatile fields, a snapshot per read).
 */
public final class Backends {
  /** What a session is doing, in PostgreSQL's words. */
  public enum State {
    IDLE("idle"),
    ACTIVE("active"),
    IDLE_IN_TRANSACTION("idle in transaction"),
    IDLE_IN_FAILED_TRANSACTION("idle in transaction (aborted)");

    final String text;

    State(String text) {
      this.text = text;
    }
  }

  /** One session. */
  public static final class Entry {
    private final Backends owner;
    private final PgSession.Client client;
    private final long startedAtMs;
    private volatile State state = State.IDLE;
    private volatile String query = "";
    private volatile long queryStartMs;
    private volatile long stateChangeMs;

    Entry(Backends owner, PgSession.Client client, long nowMs) {
      this.owner = owner;
      this.client = client;
      this.startedAtMs = nowMs;
      this.stateChangeMs = nowMs;
    }

    public int pid() {
      return client.pid();
    }

    public String user() {
      return client.user();
    }

    /** The registry this session is in. */
    public Backends owner() {
      return owner;
    }
  }

  private final Clock clock;
  private final Map<Integer, Entry> live = new ConcurrentSkipListMap<>();

  public Backends(Clock clock) {
    this.clock = clock;
  }

  /** A session opened for {@code client}; its entry, to update and to {@link #leave}. */
  public Entry join(PgSession.Client client) {
    Entry e = new Entry(this, client, clock.currentTimeMillis());
    live.put(client.pid(), e);
    return e;
  }

  public void leave(Entry e) {
    live.remove(e.pid(), e);
  }

  /** Entry {@code e} started running {@code sql}. */
  public void started(Entry e, String sql) {
    long now = clock.currentTimeMillis();
    e.query = sql;
    e.queryStartMs = now;
    e.stateChangeMs = now;
    e.state = State.ACTIVE;
  }

  /** Entry {@code e} finished its statement; {@code txStatus} is its ReadyForQuery status. */
  public void finished(Entry e, char txStatus) {
    e.stateChangeMs = clock.currentTimeMillis();
    e.state =
        switch (txStatus) {
          case 'T' -> State.IDLE_IN_TRANSACTION;
          case 'E' -> State.IDLE_IN_FAILED_TRANSACTION;
          default -> State.IDLE;
        };
  }

  /**
   * {@code pg_cancel_backend(pid)}: asks that session's running statement to stop (57014), as a
   * CancelRequest would. False when no such session is connected to this frontend.
   */
  public boolean cancel(int pid) {
    Entry e = live.get(pid);
    if (e == null) {
      return false;
    }
    e.client.cancel().run();
    return true;
  }

  /** The columns of {@code pg_stat_activity} this frontend fills, in PostgreSQL's order. */
  static final String COLUMNS =
      "datid bigint, datname varchar, pid int, usesysid bigint, usename varchar,"
          + " application_name varchar, client_addr varchar, client_hostname varchar,"
          + " client_port int, backend_start timestamptz, xact_start timestamptz,"
          + " query_start timestamptz, state_change timestamptz, wait_event_type varchar,"
          + " wait_event varchar, state varchar, backend_xid varchar, backend_xmin varchar,"
          + " query_id bigint, query varchar, backend_type varchar";

  /** One row per session, in pid order. */
  List<Object[]> rows() {
    List<Object[]> out = new ArrayList<>();
    for (Entry e : live.values()) {
      PgSession.Client c = e.client;
      State st = e.state;
      out.add(
          new Object[] {
            CatalogIds.DB_DEV,
            c.database(),
            c.pid(),
            CatalogIds.ROLE_ROOT,
            c.user(),
            c.applicationName(),
            c.address().isEmpty() ? null : c.address(),
            null,
            c.port(),
            time(e.startedAtMs),
            st == State.IDLE ? null : time(e.queryStartMs),
            e.queryStartMs == 0 ? null : time(e.queryStartMs),
            time(e.stateChangeMs),
            st == State.ACTIVE ? null : "Client",
            st == State.ACTIVE ? null : "ClientRead",
            st.text,
            null,
            null,
            null,
            e.query,
            "client backend"
          });
    }
    return out;
  }

  private static Instant time(long ms) {
    return Instant.ofEpochMilli(ms);
  }
}
