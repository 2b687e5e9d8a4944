package dev.tideway.frontend.session;

import dev.tideway.common.plan.ColumnDesc;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.frontend.batch.BatchEngine;
import dev.tideway.frontend.batch.CalciteValues;
import dev.tideway.frontend.meta.DmlWriter;
import dev.tideway.frontend.meta.MetaClient;
import dev.tideway.frontend.meta.Relation;
import dev.tideway.frontend.meta.RelationKind;
import dev.tideway.frontend.meta.WriteAck;
import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.PgSession;
import dev.tideway.frontend.pgwire.SqlState;
import dev.tideway.frontend.sql.SqlTypes;
import dev.tideway.frontend.sql.Statement;
import dev.tideway.frontend.sql.StatementParser;
import dev.tideway.frontend.sql.ValuesRows;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * INSERT / UPDATE / DELETE: each is evaluated as a query on the session's batch engine (the
 * INSERT's source; {@code SELECT *, new values FROM t WHERE cond} over all columns for UPDATE;
 * {@code SELECT * ... WHERE cond} for DELETE), then the resulting full rows go to the {@link
 * DmlWriter}. Values are coerced to the column types (numeric rounding, range checks).
 *
 * <p>Thread confinement: the session's connection thread.
 */
final class DmlRunner {
  static final String INTERNAL_SCHEMA = "tideway_internal";

  /** Rows a statement holds back before it starts streaming (see {@link Sink}). */
  static final int STREAM_AFTER = 65_536;

  /** Rows one transaction block may write: they are all held on the frontend until COMMIT. */
  static final int TX_MAX_ROWS = 1_000_000;

  /** The deferred writes of the client's current batch or transaction, by table id. */
  private final Map<Integer, Sink> pending = new LinkedHashMap<>();

  /**
   * Inside a transaction block: every write is held until {@link #finishPending} (COMMIT) or {@link
   * #abortPending} (ROLLBACK), UPDATE and DELETE included.
   */
  private boolean inTransaction;

  private final MetaClient meta;
  private final DmlWriter writer;
  private final BatchEngine engine;

  /**
   * The rows of this session's writes since its last flush by (table, generation, epoch) (keys
   * carry 0 rows), and the tables' names.
   */
  private final Map<WriteAck, Long> unflushed = new LinkedHashMap<>();

  private final Map<Integer, String> tableNames = new HashMap<>();

  DmlRunner(MetaClient meta, DmlWriter writer, BatchEngine engine) {
    this.meta = meta;
    this.writer = writer;
    this.engine = engine;
  }

  private Relation target(String name, String verb) {
    Relation r =
        meta.relation(name)
            .orElseThrow(
                () ->
                    PgException.error(
                        SqlState.UNDEFINED_TABLE, "relation \"" + name + "\" does not exist"));
    if (r.kind() != RelationKind.TABLE) {
      throw PgException.error(
          "42809", "cannot " + verb + " " + r.kind().sqlName() + " \"" + name + "\"");
    }
    return r;
  }

  /** The query whose rows an UPDATE or DELETE rewrites (all columns, then new values). */
  String selectFor(Statement st) {
    if (st instanceof Statement.Update u) {
      Relation r = target(u.table(), "update");
      StringBuilder sb = new StringBuilder("SELECT *");
      for (int i = 0; i < u.exprs().size(); i++) {
        String e = u.exprs().get(i).strip();
        if (e.equals("?")) {
          // a bare parameter takes its column's type (the query engine cannot infer it)
          String column = u.columns().get(i);
          for (ColumnDesc c : r.table().columns()) {
            if (c.name().equals(column)) {
              e = "CAST(? AS " + SqlTypes.calciteName(c.type()) + ")";
            }
          }
        }
        sb.append(", (").append(e).append(')');
      }
      sb.append(" FROM ").append(INTERNAL_SCHEMA).append(".\"").append(u.table()).append('"');
      return u.where() == null ? sb.toString() : sb.append(" WHERE ").append(u.where()).toString();
    }
    Statement.Delete d = (Statement.Delete) st;
    String q = "SELECT * FROM " + INTERNAL_SCHEMA + ".\"" + d.table() + "\"";
    return d.where() == null ? q : q + " WHERE " + d.where();
  }

  /** The INSERT's source with parameters typed by their target columns. */
  String typedSource(Statement.Insert ins) {
    Relation r = target(ins.table(), "insert into");
    List<DataType> types = new ArrayList<>();
    for (int i : targets(ins, r)) {
      types.add(r.table().columns().get(i).type());
    }
    return StatementParser.castValuesParams(ins.source(), types);
  }

  /**
   * The parameter types of an INSERT whose VALUES are constants: each parameter takes its target
   * column's type; empty when the source needs the query engine.
   */
  Optional<List<DataType>> constantParamTypes(Statement.Insert ins) {
    Optional<List<List<ValuesRows.Cell>>> rows = ins.constants();
    if (rows.isEmpty()) {
      return Optional.empty();
    }
    Relation r = target(ins.table(), "insert into");
    List<Integer> targets = targets(ins, r);
    Map<Integer, DataType> byParam = new TreeMap<>();
    for (List<ValuesRows.Cell> row : rows.get()) {
      for (int i = 0; i < row.size() && i < targets.size(); i++) {
        if (row.get(i).isParam()) {
          byParam.put(row.get(i).param(), r.table().columns().get(targets.get(i)).type());
        }
      }
    }
    List<DataType> out = new ArrayList<>();
    for (int p = 0; p < byParam.size(); p++) {
      out.add(byParam.getOrDefault(p, DataType.VARCHAR));
    }
    return Optional.of(out);
  }

  private static List<Integer> targets(Statement.Insert ins, Relation r) {
    List<ColumnDesc> all = r.table().columns();
    List<ColumnDesc> visible = r.visibleColumns();
    List<Integer> targets = new ArrayList<>();
    if (ins.columns().isEmpty()) {
      for (ColumnDesc c : visible) {
        targets.add(all.indexOf(c));
      }
    } else {
      for (String c : ins.columns()) {
        int at = -1;
        for (ColumnDesc v : visible) {
          if (v.name().equals(c)) {
            at = all.indexOf(v);
          }
        }
        if (at < 0) {
          throw PgException.error(
              SqlState.UNDEFINED_COLUMN,
              "column \"" + c + "\" of relation \"" + r.name() + "\" does not exist");
        }
        targets.add(at);
      }
    }
    return targets;
  }

  /**
   * Runs an INSERT whose completion is deferred to {@link #finishPending}: its rows join the open
   * write of its table, which the session finishes at the end of the client's batch (an
   * extended-protocol Sync, or the statement itself under the simple protocol) or before any other
   * statement. A driver's batch of single-row INSERTs is then one streamed write with one wait, not
   * a round trip per row; and like PostgreSQL's implicit transaction, a batch that fails before it
   * held more than {@link #STREAM_AFTER} rows writes nothing.
   *
   * @return the statement's tag, counting its own rows
   */
  String insert(Statement.Insert ins, List<Object> params) {
    Relation r = target(ins.table(), "insert into");
    List<ColumnDesc> all = r.table().columns();
    List<Integer> targets = targets(ins, r);
    int[] at = targets.stream().mapToInt(Integer::intValue).toArray();
    Sink sink = pending.computeIfAbsent(r.id(), id -> new Sink(r));
    long before = sink.rows;
    Optional<List<List<ValuesRows.Cell>>> constants = ins.constants(); // parsed with the statement
    try {
      if (constants.isPresent()) {
        insertConstants(r, all, at, constants.get(), params, sink);
        return "INSERT 0 " + (sink.rows - before);
      }
      engine.stream(
          typedSource(ins),
          params,
          cols -> {
            if (cols.size() > at.length) {
              throw PgException.error(
                  SqlState.SYNTAX_ERROR, "INSERT has more expressions than target columns");
            }
            if (cols.size() < at.length) {
              throw PgException.error(
                  SqlState.SYNTAX_ERROR, "INSERT has more target columns than expressions");
            }
            Coercion[] coerce = new Coercion[at.length];
            for (int i = 0; i < at.length; i++) {
              coerce[i] = Coercion.of(all.get(at[i]), cols.get(i).type());
            }
            return v -> {
              Object[] full = new Object[all.size()];
              for (int i = 0; i < at.length; i++) {
                full[at[i]] = coerce[i].apply(v[i]);
              }
              checkPk(r, full);
              sink.insert(Row.wrap(full));
            };
          });
      return "INSERT 0 " + (sink.rows - before);
    } catch (RuntimeException e) {
      throw abortPending(e);
    }
  }

  /** Enters or leaves a transaction block (the caller finishes or aborts what is pending first). */
  void transaction(boolean open) {
    inTransaction = open;
  }

  /** Whether writes are held, waiting for the end of the batch or transaction. */
  boolean hasPending() {
    return !pending.isEmpty();
  }

  /** The tables the held writes go to. */
  List<String> pendingTableNames() {
    return pending.values().stream().map(k -> k.relation.name()).toList();
  }

  /** The sink an UPDATE or DELETE writes through: the transaction's, or its own. */
  private Sink statementSink(Relation r) {
    return inTransaction ? pending.computeIfAbsent(r.id(), id -> new Sink(r)) : new Sink(r);
  }

  /**
   * Rows the statement wrote through {@code sink} since {@code before}; outside a transaction,
   * sent.
   */
  private long complete(Sink sink, long before) {
    return inTransaction ? sink.rows - before : sink.finish();
  }

  /** A failed UPDATE or DELETE: inside a transaction, the transaction's writes go too. */
  private RuntimeException failed(Sink sink, RuntimeException e) {
    return inTransaction ? abortPending(e) : sink.failed(e);
  }

  /**
   * {@code COPY ... FROM STDIN}: the rows the client streams, parsed as they come and held or sent
   * like an INSERT's (they complete with the batch or the transaction block), each field read as
   * its column reads text. A bad row fails the COPY whole when it comes before more than {@link
   * #STREAM_AFTER} rows were sent; its error names the line.
   */
  PgSession.CopyIn copyIn(Statement.CopyFrom copy) {
    Relation r = target(copy.table(), "copy into");
    List<ColumnDesc> all = r.table().columns();
    Statement.Insert shape = new Statement.Insert(copy.table(), copy.columns(), "");
    int[] at = targets(shape, r).stream().mapToInt(Integer::intValue).toArray();
    Coercion[] coerce = new Coercion[at.length];
    for (int i = 0; i < at.length; i++) {
      coerce[i] = Coercion.of(all.get(at[i]), DataType.VARCHAR);
    }
    Sink sink = pending.computeIfAbsent(r.id(), id -> new Sink(r));
    long before = sink.rows;
    CopyDecoder[] decoder = new CopyDecoder[1];
    decoder[0] =
        new CopyDecoder(
            copy.csv(),
            copy.delimiter(),
            copy.nullString(),
            copy.header(),
            fields -> {
              if (fields.length != at.length) {
                throw PgException.error(
                    "22P04",
                    (fields.length < at.length ? "missing data" : "extra data")
                        + " for COPY into \""
                        + r.name()
                        + "\" at line "
                        + decoder[0].line()
                        + ": "
                        + at.length
                        + " column(s) expected, "
                        + fields.length
                        + " given");
              }
              Object[] full = new Object[all.size()];
              try {
                for (int i = 0; i < at.length; i++) {
                  full[at[i]] = fields[i] == null ? null : coerce[i].apply(fields[i]);
                }
                checkPk(r, full);
              } catch (PgException e) {
                throw e.withDetail("COPY " + r.name() + ", line " + decoder[0].line());
              }
              sink.insert(Row.wrap(full));
            });
    return new PgSession.CopyIn() {
      @Override
      public int columns() {
        return at.length;
      }

      @Override
      public void data(byte[] bytes) {
        decoder[0].data(bytes);
      }

      @Override
      public String done() {
        decoder[0].finish();
        return "COPY " + (sink.rows - before);
      }

      @Override
      public void abort() {
        abortPending(new IllegalStateException("COPY failed"));
      }
    };
  }

  /**
   * Finishes the deferred INSERTs: sends what they hold and waits for every acknowledgement. On a
   * failure the rest are given up and the error says what was already written.
   */
  void finishPending() {
    if (pending.isEmpty()) {
      return;
    }
    try {
      while (!pending.isEmpty()) {
        Sink sink = pending.values().iterator().next();
        sink.finish();
        pending.remove(sink.relation.id());
      }
    } catch (RuntimeException e) {
      throw abortPending(e);
    }
  }

  /** Gives up every deferred INSERT (a statement of the batch failed); {@code e} with detail. */
  RuntimeException abortPending(RuntimeException e) {
    RuntimeException out = e;
    for (Sink sink : pending.values()) {
      out = sink.failed(out);
    }
    pending.clear();
    return out;
  }

  /** An INSERT whose VALUES are constants and parameters: its rows, without the query engine. */
  private void insertConstants(
      Relation r,
      List<ColumnDesc> all,
      int[] at,
      List<List<ValuesRows.Cell>> rows,
      List<Object> params,
      Sink sink) {
    int width = rows.get(0).size();
    if (width > at.length) {
      throw PgException.error(
          SqlState.SYNTAX_ERROR, "INSERT has more expressions than target columns");
    }
    if (width < at.length) {
      throw PgException.error(
          SqlState.SYNTAX_ERROR, "INSERT has more target columns than expressions");
    }
    Coercion[] coercions = new Coercion[at.length];
    DataType[] coercedFrom = new DataType[at.length];
    for (List<ValuesRows.Cell> row : rows) {
      Object[] full = new Object[all.size()];
      for (int i = 0; i < at.length; i++) {
        ValuesRows.Cell c = row.get(i);
        Object v = c.isParam() ? params.get(c.param()) : c.value();
        if (v == null) {
          continue;
        }
        DataType from = Coercion.typeOf(v);
        if (!from.equals(coercedFrom[i])) {
          coercions[i] = Coercion.of(all.get(at[i]), from);
          coercedFrom[i] = from;
        }
        full[at[i]] = coercions[i].apply(v);
      }
      checkPk(r, full);
      sink.insert(Row.wrap(full));
    }
  }

  String update(Statement.Update up, List<Object> params) {
    Relation r = target(up.table(), "update");
    List<ColumnDesc> all = r.table().columns();
    int[] cols = new int[up.columns().size()];
    boolean keyChanges = false;
    for (int i = 0; i < cols.length; i++) {
      cols[i] = -1;
      for (int j = 0; j < all.size(); j++) {
        if (all.get(j).name().equals(up.columns().get(i))
            && !r.hiddenColumns().contains(all.get(j).name())) {
          cols[i] = j;
        }
      }
      if (cols[i] < 0) {
        throw PgException.error(
            SqlState.UNDEFINED_COLUMN,
            "column \""
                + up.columns().get(i)
                + "\" of relation \""
                + r.name()
                + "\" does not exist");
      }
      int col = cols[i];
      keyChanges |= r.table().pk().stream().anyMatch(o -> o.index() == col);
    }
    // An update that may change a key deletes every old row before it inserts a new one (an old
    // row may hold a key a new row takes); otherwise each row is an update pair, streamed.
    boolean pairs = !keyChanges;
    List<Row> olds = new ArrayList<>();
    List<Row> news = new ArrayList<>();
    Sink sink = statementSink(r);
    long before = sink.rows;
    try {
      engine.stream(
          selectFor(up),
          params,
          res -> {
            Coercion[] coerce = new Coercion[cols.length];
            for (int i = 0; i < cols.length; i++) {
              coerce[i] = Coercion.of(all.get(cols[i]), res.get(all.size() + i).type());
            }
            return v -> {
              Object[] old = new Object[all.size()];
              for (int i = 0; i < all.size(); i++) {
                old[i] = CalciteValues.coerce(all.get(i).type(), v[i]);
              }
              Object[] nw = old.clone();
              for (int i = 0; i < cols.length; i++) {
                nw[cols[i]] = coerce[i].apply(v[all.size() + i]);
              }
              checkPk(r, nw);
              if (pairs) {
                sink.update(Row.wrap(old), Row.wrap(nw));
              } else {
                olds.add(Row.wrap(old));
                news.add(Row.wrap(nw));
              }
            };
          });
      olds.forEach(sink::delete);
      news.forEach(sink::insert);
      long n = complete(sink, before);
      return "UPDATE " + (pairs ? n : n / 2);
    } catch (RuntimeException e) {
      throw failed(sink, e);
    }
  }

  String delete(Statement.Delete del, List<Object> params) {
    Relation r = target(del.table(), "delete from");
    List<ColumnDesc> all = r.table().columns();
    Sink sink = statementSink(r);
    long before = sink.rows;
    try {
      engine.stream(
          selectFor(del),
          params,
          res ->
              v -> {
                Object[] old = new Object[all.size()];
                for (int i = 0; i < all.size(); i++) {
                  old[i] = CalciteValues.coerce(all.get(i).type(), v[i]);
                }
                sink.delete(Row.wrap(old));
              });
      return "DELETE " + complete(sink, before);
    } catch (RuntimeException e) {
      throw failed(sink, e);
    }
  }

  /**
   * One statement's rows on their way to the {@link DmlWriter}. The first {@link #STREAM_AFTER}
   * rows are held back, so a statement of that size that fails (a value out of range, a NULL key)
   * writes nothing; a larger one streams from then on, and a failure after that point says how many
   * of its rows were already sent.
   */
  private final class Sink {
    private final Relation relation;
    private final List<Object[]> held = new ArrayList<>();
    private DmlWriter.Write write;
    private long rows;

    Sink(Relation relation) {
      this.relation = relation;
    }

    void insert(Row row) {
      add(new Object[] {row, null});
    }

    void delete(Row row) {
      add(new Object[] {null, row});
    }

    void update(Row before, Row after) {
      add(new Object[] {after, before});
    }

    private void add(Object[] change) {
      rows++;
      if (inTransaction) {
        if (held.size() >= TX_MAX_ROWS) {
          throw PgException.error(
                  SqlState.PROGRAM_LIMIT_EXCEEDED,
                  "a transaction block may write at most " + TX_MAX_ROWS + " row changes")
              .withHint("commit in parts, or write outside a transaction block (streamed)");
        }
        held.add(change);
        return;
      }
      if (write == null) {
        held.add(change);
        if (held.size() <= STREAM_AFTER) {
          return;
        }
        write = writer.begin(relation.id());
        held.forEach(this::send);
        held.clear();
        return;
      }
      send(change);
    }

    private void send(Object[] c) {
      Row after = (Row) c[0];
      Row before = (Row) c[1];
      if (after != null && before != null) {
        write.update(before, after);
      } else if (after != null) {
        write.insert(after);
      } else {
        write.delete(before);
      }
    }

    /** Sends what is held, waits for every row, and records the acknowledgements; the row count. */
    long finish() {
      if (rows == 0) {
        return 0;
      }
      if (write == null) {
        write = writer.begin(relation.id());
        held.forEach(this::send);
        held.clear();
      }
      record(relation, write.finish());
      return rows;
    }

    /** {@code e}, after giving up the write, with how many rows were already sent. */
    RuntimeException failed(RuntimeException e) {
      if (write == null) {
        return e;
      }
      long sent = write.rowsSent();
      write.abort();
      if (sent == 0 || !(e instanceof PgException pe)) {
        return e;
      }
      return pe.withDetail(
          sent
              + " row change(s) were already written before the failure (a statement, or a batch"
              + " of statements, of more than "
              + STREAM_AFTER
              + " rows is applied as it streams)");
    }
  }

  private void record(Relation r, List<WriteAck> acks) {
    for (WriteAck a : acks) {
      // one entry per (table, generation, epoch): a session writing for hours between FLUSHes
      // keeps one per epoch, not one per statement
      unflushed.merge(new WriteAck(a.tableId(), 0, a.generation(), a.epoch()), a.rows(), Long::sum);
    }
    tableNames.put(r.id(), r.name());
  }

  /**
   * After a flush: fails with {@code 40000} when a recovery threw away writes of this session that
   * the flush did not commit, naming the tables and row counts. Either way the session starts over
   * with no unflushed writes (the lost rows are reported once; the rest are committed).
   */
  void checkFlushed(String what) {
    if (unflushed.isEmpty()) {
      return;
    }
    List<WriteAck> acks = new ArrayList<>();
    unflushed.forEach(
        (k, rows) -> acks.add(new WriteAck(k.tableId(), rows, k.generation(), k.epoch())));
    List<WriteAck> lost;
    try {
      lost = meta.lostWrites(acks);
    } catch (PgException e) {
      if (SqlState.TRANSACTION_ROLLBACK.equals(e.sqlState())) {
        unflushed.clear(); // a verdict (their fate can no longer be told): reported once
      }
      throw e;
    }
    unflushed.clear();
    if (lost.isEmpty()) {
      return;
    }
    Map<String, Long> rowsByTable = new TreeMap<>();
    for (WriteAck a : lost) {
      rowsByTable.merge(
          tableNames.getOrDefault(a.tableId(), "table " + a.tableId()), a.rows(), Long::sum);
    }
    long rows = rowsByTable.values().stream().mapToLong(Long::longValue).sum();
    StringBuilder detail = new StringBuilder();
    rowsByTable.forEach(
        (t, n) ->
            detail.append(detail.length() == 0 ? "" : ", ").append(n).append(" in ").append(t));
    throw PgException.error(
            SqlState.TRANSACTION_ROLLBACK,
            what
                + ": a recovery discarded "
                + rows
                + " row change(s) this session wrote since its last FLUSH, before a checkpoint"
                + " committed them ("
                + detail
                + "); they are not in the tables: run those statements again")
        .withDetail(
            "Writes are acknowledged when they join an epoch and committed with its checkpoint;"
                + " every other write of this session since its last FLUSH is committed.");
  }

  private static void checkPk(Relation r, Object[] row) {
    for (var o : r.table().pk()) {
      ColumnDesc c = r.table().columns().get(o.index());
      if (row[o.index()] == null && !c.name().equals(Relation.ROW_ID)) {
        throw PgException.error(
            SqlState.NOT_NULL_VIOLATION,
            "null value in column \""
                + c.name()
                + "\" of relation \""
                + r.name()
                + "\" violates not-null constraint");
      }
    }
  }
}
