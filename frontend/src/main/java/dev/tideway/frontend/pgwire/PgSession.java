package dev.tideway.frontend.pgwire;

import dev.tideway.common.types.DataType;
import java.util.List;

/**
 * What the protocol needs from the SQL layer for one connection. Calls come from the connection's
 * thread only, except {@link #cancel()}, which a CancelRequest on another connection makes.
 */
public interface PgSession {

  /** A result column as RowDescription describes it. */
  record Column(String name, DataType type) {}

  /**
   * A parsed, described statement.
   *
   * @param sql the statement text
   * @param paramTypes one type per {@code $n} placeholder (inferred where the client sent OID 0)
   * @param columns the result columns, or null when the statement returns no rows
   * @param plan the session's own parsed form, opaque to the protocol
   */
  record Prepared(String sql, List<DataType> paramTypes, List<Column> columns, Object plan) {}

  /**
   * The outcome of running a statement.
   *
   * @param columns the result columns, or null for a command without rows
   * @param rows the rows (Java values per column type), empty for commands
   * @param tag the command tag ({@code SELECT} gets its row count appended by the protocol)
   */
  record Result(
      List<Column> columns, List<Object[]> rows, String tag, CopyIn copyIn, CopyOut copyOut) {
    public Result(List<Column> columns, List<Object[]> rows, String tag) {
      this(columns, rows, tag, null, null);
    }

    /** {@code COPY ... TO STDOUT}: {@code rows} go out as CopyData in {@code format}. */
    public static Result copyOut(List<Column> columns, List<Object[]> rows, CopyOut format) {
      return new Result(columns, rows, "COPY", null, format);
    }

    /** {@code COPY ... FROM STDIN}: the client's data goes to {@code in}. */
    public static Result copyIn(CopyIn in) {
      return new Result(null, List.of(), "COPY", in, null);
    }

    /** A command without rows. */
    public static Result command(String tag) {
      return new Result(null, List.of(), tag);
    }

    /** Rows answering a query. */
    public static Result rows(List<Column> columns, List<Object[]> rows) {
      return new Result(columns, rows, "SELECT");
    }
  }

  /** Where a {@code COPY ... FROM STDIN}'s data goes, CopyData by CopyData. */
  interface CopyIn {
    /** The number of columns the client sends. */
    int columns();

    /** The next CopyData message's bytes (rows may be cut anywhere). */
    void data(byte[] bytes);

    /** CopyDone: the rest is applied; the command tag ({@code COPY n}). */
    String done();

    /** CopyFail, an error, or a lost connection: nothing more comes. */
    void abort();
  }

  /** How {@code COPY ... TO STDOUT} writes its rows: text or CSV, the delimiter, NULL, a header. */
  record CopyOut(boolean csv, char delimiter, String nullString, boolean header) {}

  /** Receives notices while a statement runs (sent to the client as NoticeResponse). */
  interface NoticeSink {
    void notice(String message);
  }

  /** Splits a simple-query string into statements (string literals and comments respected). */
  List<String> split(String sql);

  /**
   * Parses and describes one statement.
   *
   * @param paramOids parameter type OIDs the client gave; 0 (or missing) means infer
   */
  Prepared prepare(String sql, int[] paramOids);

  /** Runs a prepared statement with its bound parameter values. */
  Result execute(Prepared prepared, List<Object> params, NoticeSink notices);

  /**
   * The end of the client's batch: an extended-protocol Sync, or one statement of a simple query.
   * Work a statement deferred (a batch's INSERTs wait for their acknowledgements together) is
   * completed here; a {@link PgException} thrown here is the batch's error, sent before
   * ReadyForQuery. When a message of the batch already failed ({@code failed}), that work is given
   * up instead, as PostgreSQL rolls back the batch's implicit transaction.
   */
  default void sync(boolean failed) {}

  /** PostgreSQL's transaction status for ReadyForQuery: 'I' idle, 'T' in a block, 'E' failed. */
  default char transactionStatus() {
    return 'I';
  }

  /**
   * The columns of the session's cursor {@code name} ({@code DECLARE name CURSOR FOR …}), or null:
   * clients describe a cursor as a portal of that name (psycopg's server-side cursors do).
   */
  default List<Column> cursorColumns(String name) {
    return null;
  }

  /** Asks the running statement to stop with {@code 57014}; callable from any thread. */
  void cancel();

  /** The connection closed. */
  void close();

  /**
   * Who is on the other end of a connection, as {@code pg_stat_activity} shows it.
   *
   * @param pid the backend id the client got in BackendKeyData (what {@code pg_backend_pid()} and
   *     {@code pg_cancel_backend} name)
   * @param address the client's IP address, or empty
   * @param port the client's TCP port, or -1
   */
  record Client(
      int pid,
      String user,
      String database,
      String applicationName,
      String address,
      int port,
      Runnable cancel) {}

  /** Opens sessions for authenticated connections. */
  interface Factory {
    /** A new session for {@code client}; by default {@link #open(String, String)}. */
    default PgSession open(Client client) {
      return open(client.user(), client.database());
    }

    /**
     * A new session for {@code user} on {@code database}; a {@link PgException} (FATAL 3D000 for an
     * unknown database) refuses the connection.
     */
    PgSession open(String user, String database);
  }
}
