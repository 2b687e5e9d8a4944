package dev.tideway.cli.chaos;

import dev.tideway.common.random.RandomSource;
import dev.tideway.common.time.Clock;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One client session of the chaos workload: INSERTs, UPDATEs and DELETEs of its own keys of table
 * {@code kv} (key {@code k} belongs to session {@code k % sessions}), a FLUSH every few statements.
 * A write enters the {@link Ledger} only once its statement returned OK and a later FLUSH
 * succeeded. A write whose fate is unknown (its statement or its FLUSH failed: a recovery may have
 * discarded it, or it may still apply) makes its key uncertain; the session then deletes that key
 * again and flushes, which makes it certain (deleted) once that FLUSH succeeds.
 *
 * <p>The controller parks writers ({@link #park}) to judge the cluster: a parked writer has nothing
 * pending and nothing uncertain, so the tables hold exactly what the ledger says.
 *
 * <p>Runs on its own thread; {@link #park}, {@link #resume} and {@link #stop} from the controller.
 */
final class Writer implements Runnable {
  static final int GROUPS = 20;

  private final int session;
  private final int sessions;
  private final int keys;
  private final String url;
  private final Ledger ledger;
  private final RandomSource random;
  private final Clock clock;
  private final Map<Integer, Long> pending = new LinkedHashMap<>();
  private final Set<Integer> uncertain = new LinkedHashSet<>();
  private Connection conn;
  private int sinceFlush;

  private volatile boolean parkRequested;
  private volatile boolean parked;
  private volatile boolean stopped;
  final AtomicLong statements = new AtomicLong();

  /** Each key's recent operations and outcomes, for the judge's report of a lost write. */
  final Map<Integer, java.util.Deque<String>> history =
      new java.util.concurrent.ConcurrentHashMap<>();

  void note(int k, String what) {
    java.util.Deque<String> h =
        history.computeIfAbsent(k, x -> new java.util.concurrent.ConcurrentLinkedDeque<>());
    h.addLast(String.format("%tT.%<tL %s", clock.currentTimeMillis(), what));
    while (h.size() > 8) {
      h.pollFirst();
    }
  }

  /** What the tables answered that the ledger contradicts (reported by the judge). */
  final java.util.Queue<String> anomalies = new java.util.concurrent.ConcurrentLinkedQueue<>();

  final AtomicLong failures = new AtomicLong();

  Writer(
      int session,
      int sessions,
      int keys,
      String url,
      Ledger ledger,
      RandomSource random,
      Clock clock) {
    this.session = session;
    this.sessions = sessions;
    this.keys = keys;
    this.url = url;
    this.ledger = ledger;
    this.random = random;
    this.clock = clock;
  }

  @Override
  public void run() {
    while (!stopped) {
      try {
        if (parkRequested) {
          settle();
          if (pending.isEmpty() && uncertain.isEmpty()) {
            parked = true;
            while (parkRequested && !stopped) {
              clock.sleepMillis(20);
            }
            parked = false;
          }
          continue;
        }
        step();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        failures.incrementAndGet();
      }
    }
    close();
  }

  /** Asks the writer to settle and park; {@link #isParked} tells when it did. */
  void park() {
    parkRequested = true;
  }

  boolean isParked() {
    return parked;
  }

  void resume() {
    parkRequested = false;
  }

  void stop() {
    stopped = true;
  }

  private void step() throws InterruptedException {
    try {
      connect();
      if (!uncertain.isEmpty()) {
        resolve();
        return;
      }
      write();
      if (++sinceFlush >= 8) {
        flush();
      }
    } catch (SQLException e) {
      failures.incrementAndGet();
      dropConnection();
      clock.sleepMillis(200);
    }
  }

  /** Flushes and resolves until nothing is pending or uncertain (or the writer is stopped). */
  private void settle() throws InterruptedException {
    try {
      connect();
      if (!uncertain.isEmpty()) {
        resolve();
      }
      if (!pending.isEmpty()) {
        flush();
      }
    } catch (SQLException e) {
      failures.incrementAndGet();
      dropConnection();
      clock.sleepMillis(300);
    }
  }

  private void write() throws SQLException {
    int k = random.nextInt(keys / sessions) * sessions + session;
    if (pending.containsKey(k)) {
      // DML reads the committed tables (as RisingWave's does): a key written since the last
      // FLUSH is flushed before it is written again, as a user of read-after-write would
      flush();
    }
    Long current = ledger.get(k);
    long v = random.nextLong(1_000_000);
    String sql;
    Long after;
    if (current == null) {
      sql = "INSERT INTO kv VALUES (?, ?, " + (k % GROUPS) + ")";
      after = v;
    } else if (random.chance(0.65)) {
      sql = "UPDATE kv SET v = ? WHERE k = ?";
      after = v;
    } else {
      sql = "DELETE FROM kv WHERE k = ?";
      after = null;
    }
    try (PreparedStatement ps = conn.prepareStatement(sql)) {
      if (sql.startsWith("INSERT")) {
        ps.setInt(1, k);
        ps.setLong(2, v);
      } else if (sql.startsWith("UPDATE")) {
        ps.setLong(1, v);
        ps.setInt(2, k);
      } else {
        ps.setInt(1, k);
      }
      statements.incrementAndGet();
      int n = ps.executeUpdate();
      note(k, sql.substring(0, 6) + " v=" + v + " -> " + n);
      if (n != 1) {
        // the ledger says the key holds a row (or none, for an insert): the table disagrees
        anomalies.add(
            "session "
                + session
                + ": '"
                + sql
                + "' of key "
                + k
                + " (ledger "
                + current
                + ") changed "
                + n
                + " rows");
      }
    } catch (SQLException e) {
      note(k, sql.substring(0, 6) + " v=" + v + " failed: " + e.getMessage());
      uncertain.add(k);
      throw e;
    }
    pending.put(k, after);
  }

  private void flush() throws SQLException {
    try (Statement st = conn.createStatement()) {
      statements.incrementAndGet();
      st.execute("FLUSH");
    } catch (SQLException e) {
      // a recovery may have discarded any of them, or they may still be committed
      pending.keySet().forEach(k -> note(k, "FLUSH failed: " + e.getMessage()));
      uncertain.addAll(pending.keySet());
      pending.clear();
      sinceFlush = 0;
      throw e;
    }
    pending.forEach((k, v) -> note(k, "FLUSH ok: ledger " + v));
    ledger.commit(pending);
    pending.clear();
    sinceFlush = 0;
  }

  /** Deletes every uncertain key again, then flushes: once that succeeds they are known gone. */
  private void resolve() throws SQLException {
    try (PreparedStatement ps = conn.prepareStatement("DELETE FROM kv WHERE k = ?")) {
      for (int k : Set.copyOf(uncertain)) {
        ps.setInt(1, k);
        statements.incrementAndGet();
        ps.executeUpdate();
      }
    }
    Map<Integer, Long> deleted = new LinkedHashMap<>();
    uncertain.forEach(k -> deleted.put(k, null));
    try (Statement st = conn.createStatement()) {
      statements.incrementAndGet();
      st.execute("FLUSH");
    }
    deleted.keySet().forEach(k -> note(k, "resolved: deleted and flushed"));
    ledger.commit(deleted);
    uncertain.clear();
  }

  private void connect() throws SQLException {
    if (conn == null) {
      conn = DriverManager.getConnection(url);
    }
  }

  /**
   * Closes the session. Its writes since its last FLUSH become uncertain: only a FLUSH of the
   * session that wrote them tells their fate, and that session is gone.
   */
  private void dropConnection() {
    pending.keySet().forEach(k -> note(k, "session closed before a FLUSH"));
    uncertain.addAll(pending.keySet());
    pending.clear();
    sinceFlush = 0;
    close();
    conn = null;
  }

  private void close() {
    if (conn != null) {
      try {
        conn.close();
      } catch (SQLException ignored) {
        // gone anyway
      }
    }
  }
}
