package dev.tideway.frontend.session;

import dev.tideway.common.types.DataType;
import dev.tideway.frontend.batch.BatchEngine;
import dev.tideway.frontend.graph.PlanPrinter;
import dev.tideway.frontend.meta.BatchReader;
import dev.tideway.frontend.meta.DdlCommand;
import dev.tideway.frontend.meta.DdlJob;
import dev.tideway.frontend.meta.DmlWriter;
import dev.tideway.frontend.meta.MetaClient;
import dev.tideway.frontend.meta.RelationKind;
import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.PgSession;
import dev.tideway.frontend.pgwire.SqlState;
import dev.tideway.frontend.plan.StreamPlanBuilder;
import dev.tideway.frontend.sql.Statement;
import dev.tideway.frontend.sql.StatementParser;
import dev.tideway.frontend.syscatalog.PgFunctions;
import dev.tideway.frontend.syscatalog.ShowCommands;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One connection's SQL session. {@link #prepare} parses and describes (result columns, parameter
 * types inferred by Calcite where the client sent none); {@link #execute} dispatches on the {@link
 * Statement}: queries to the batch engine, DML to {@link DmlRunner}, DDL to {@link DdlRunner},
 * SHOW/SET/FLUSH/CANCEL to the catalog and meta.
 *
 * <p>Reads see the session's own writes: DML is committed by the next checkpoint, so a statement
 * that reads tables (a query, UPDATE, DELETE, INSERT ... SELECT) after this session wrote first
 * waits for that checkpoint, as an explicit FLUSH would. Other sessions read the committed epoch
 * and may not see those writes yet; writes with no read in between never wait.
 *
 * <p>Thread confinement: the connection's thread, except {@link #cancel()} (any thread), which
 * cancels the running batch query and, for a foreground CREATE MATERIALIZED VIEW, its job.
 */
public final class Session implements PgSession {
  /** The job a foreground CREATE MATERIALIZED VIEW is waiting for, so that cancel can reach it. */
  static final class JobSlot {
    private volatile long id = -1;

    void set(long jobId) {
      id = jobId;
    }

    void clear() {
      id = -1;
    }

    long get() {
      return id;
    }
  }

  private final MetaClient meta;
  private final BatchEngine engine;
  private final DdlRunner ddl;
  private final DmlRunner dml;
  private final SessionVars vars = new SessionVars();
  private final JobSlot job = new JobSlot();
  private final Cursors cursors = new Cursors();

  /** This session wrote since its last flush: its next read must wait for a checkpoint. */
  private boolean unflushedWrites;

  /** Where the session is in a transaction block (PostgreSQL's ReadyForQuery status). */
  private enum Tx {
    IDLE('I'),
    OPEN('T'),
    FAILED('E');

    final char status;

    Tx(char status) {
      this.status = status;
    }
  }

  private Tx tx = Tx.IDLE;

  /** Set by {@link #cancel()} (any thread) while a foreground create waits. */
  private volatile boolean cancelRequested;

  /** The user this session connected as. */
  private final String user;

  public Session(
      String user, MetaClient meta, BatchReader reader, DmlWriter writer, BatchEngine engine) {
    this.user = user;
    this.meta = meta;
    this.engine = engine;
    this.ddl = new DdlRunner(meta, reader);
    this.dml = new DmlRunner(meta, writer, engine);
  }

  @Override
  public List<String> split(String sql) {
    return StatementParser.split(sql);
  }

  @Override
  public Prepared prepare(String sql, int[] paramOids) {
    PgFunctions.CURRENT.set(meta);
    PgFunctions.USER.set(user);
    try {
      StatementParser.Parsed parsed = StatementParser.parse(sql);
      Statement s = parsed.statement();
      List<DataType> calciteParams = List.of();
      List<Column> columns = null;
      if (s instanceof Statement.Query q) {
        Coercion.Typed typed = Coercion.describe(engine, parsed, q, paramOids);
        parsed = typed.parsed();
        BatchEngine.Described d = typed.described();
        columns = d.columns().stream().map(c -> new Column(c.name(), c.type())).toList();
        calciteParams = d.paramTypes();
      } else if (s instanceof Statement.Insert ins) {
        calciteParams =
            dml.constantParamTypes(ins)
                .orElseGet(() -> engine.describe(dml.typedSource(ins)).paramTypes());
      } else if (s instanceof Statement.Update || s instanceof Statement.Delete) {
        calciteParams = engine.describe(dml.selectFor(s)).paramTypes();
      } else if (s instanceof Statement.EmptyCatalogQuery e) {
        columns = emptyColumns(e);
      } else if (s instanceof Statement.PrimaryKeys) {
        columns = primaryKeyColumns();
      } else if (s instanceof Statement.Cursor c) {
        columns = cursors.columns(c);
      } else if (s instanceof Statement.Show sh) {
        columns = ShowCommands.columns(sh.what());
      } else if (s instanceof Statement.Explain) {
        columns = List.of(new Column("QUERY PLAN", DataType.VARCHAR));
      } else if (s instanceof Statement.CancelJobs) {
        columns = List.of(new Column("Id", DataType.BIGINT));
      }
      return new Prepared(
          sql, Coercion.paramTypes(parsed.paramOrder(), calciteParams, paramOids), columns, parsed);
    } finally {
      PgFunctions.CURRENT.remove();
      PgFunctions.USER.remove();
    }
  }

  private static List<Column> primaryKeyColumns() {
    return Statement.PrimaryKeys.COLUMNS.stream()
        .map(n -> new Column(n, n.equals("KEY_SEQ") ? DataType.INT : DataType.VARCHAR))
        .toList();
  }

  /**
   * pgjdbc's getPrimaryKeys: the visible pk columns of tables in schema {@code public} (a table
   * without a declared key has only the hidden {@code _row_id}, so no row, as PostgreSQL shows a
   * table without a primary key); views have none, as in PostgreSQL.
   */
  private List<Object[]> primaryKeys(Statement.PrimaryKeys pk, List<Object> params) {
    String schema = pk.schema().map(a -> argValue(a, params)).orElse(null);
    String table = pk.table().map(a -> argValue(a, params)).orElse(null);
    List<Object[]> out = new ArrayList<>();
    if (schema != null && !schema.equals("public")) {
      return out;
    }
    for (dev.tideway.frontend.meta.Relation r : meta.relations()) {
      if (r.kind() != RelationKind.TABLE || (table != null && !table.equals(r.name()))) {
        continue;
      }
      List<dev.tideway.common.plan.ColumnOrder> key = r.table().pk();
      int[] visible = r.visibleIndices();
      List<Object[]> rows = new ArrayList<>();
      for (int i = 0; i < key.size(); i++) {
        int col = key.get(i).index();
        if (java.util.Arrays.stream(visible).noneMatch(v -> v == col)) {
          rows.clear();
          break;
        }
        rows.add(
            new Object[] {
              DATABASE,
              "public",
              r.name(),
              r.table().columns().get(col).name(),
              i + 1,
              r.name() + "_pkey"
            });
      }
      out.addAll(rows);
    }
    out.sort(
        java.util.Comparator.comparing((Object[] r) -> (String) r[2])
            .thenComparing(r -> (Integer) r[4]));
    return out;
  }

  /** The one database (as {@code current_database()} answers). */
  private static final String DATABASE = "dev";

  private static String argValue(Statement.Arg a, List<Object> params) {
    return a.param() >= 0 ? String.valueOf(params.get(a.param())) : a.literal();
  }

  private static List<Column> emptyColumns(Statement.EmptyCatalogQuery e) {
    return e.columns().stream().map(n -> new Column(n, DataType.VARCHAR)).toList();
  }

  @Override
  public List<Column> cursorColumns(String name) {
    return cursors.columnsOf(name);
  }

  @Override
  public Result execute(Prepared prepared, List<Object> params, NoticeSink notices) {
    PgFunctions.CURRENT.set(meta);
    PgFunctions.USER.set(user);
    try {
      StatementParser.Parsed parsed = (StatementParser.Parsed) prepared.plan();
      List<Object> bound = new ArrayList<>();
      for (int pgParam : parsed.paramOrder()) {
        bound.add(params.get(pgParam - 1));
      }
      return inTransactionBlock(parsed.statement(), prepared.sql(), bound, notices);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failTransaction();
      throw PgException.error(SqlState.QUERY_CANCELED, "canceling statement due to user request");
    } catch (RuntimeException e) {
      failTransaction();
      throw e;
    } finally {
      PgFunctions.CURRENT.remove();
      PgFunctions.USER.remove();
    }
  }

  /**
   * A statement under the transaction block's rules. Inside {@code BEGIN … COMMIT} every write is
   * held on the frontend and sent at COMMIT (ROLLBACK drops it); DDL is refused (25001), and so is
   * a read after the block wrote (0A000: its writes are not visible before COMMIT, and a read that
   * silently missed them would be wrong). After an error the block only takes COMMIT or ROLLBACK
   * (25P02), and both end it without writing anything.
   */
  private Result inTransactionBlock(
      Statement s, String sql, List<Object> params, NoticeSink notices)
      throws InterruptedException {
    if (s instanceof Statement.Transaction t) {
      return transaction(t, notices);
    }
    if (tx == Tx.FAILED) {
      throw PgException.error(
          SqlState.IN_FAILED_SQL_TRANSACTION,
          "current transaction is aborted, commands ignored until end of transaction block");
    }
    if (tx == Tx.OPEN) {
      if (!TransactionRules.allowed(s)) {
        throw PgException.error(
            SqlState.ACTIVE_SQL_TRANSACTION,
            TransactionRules.commandName(sql) + " cannot run inside a transaction block");
      }
      Optional<String> written =
          TransactionRules.readsWritten(s, readsTables(s), sql, dml.pendingTableNames());
      if (written.isPresent()) {
        throw PgException.error(
                SqlState.FEATURE_NOT_SUPPORTED,
                "this transaction block wrote \""
                    + written.get()
                    + "\" and cannot read it before COMMIT: its writes are applied at COMMIT")
            .withHint("COMMIT first, or read before writing");
      }
    }
    return run(s, sql, params, notices);
  }

  private Result transaction(Statement.Transaction t, NoticeSink notices) {
    switch (t.kind()) {
      case BEGIN -> {
        if (tx != Tx.IDLE) {
          notices.notice("there is already a transaction in progress");
          return Result.command(t.tag());
        }
        dml.finishPending(); // a batch's INSERTs before BEGIN are not part of the block
        tx = Tx.OPEN;
        dml.transaction(true);
        return Result.command(t.tag());
      }
      case COMMIT -> {
        Tx was = tx;
        tx = Tx.IDLE;
        dml.transaction(false);
        cursors.endOfBlock();
        if (was == Tx.IDLE) {
          notices.notice("there is no transaction in progress");
          return Result.command("COMMIT");
        }
        if (was == Tx.FAILED) {
          dml.abortPending(new IllegalStateException("the transaction failed"));
          return Result.command("ROLLBACK");
        }
        boolean wrote = dml.hasPending();
        dml.finishPending();
        return wrote ? afterDml("COMMIT") : Result.command("COMMIT");
      }
      case ROLLBACK -> {
        if (tx == Tx.IDLE) {
          notices.notice("there is no transaction in progress");
        }
        tx = Tx.IDLE;
        dml.transaction(false);
        cursors.endOfBlock();
        dml.abortPending(new IllegalStateException("rolled back"));
        return Result.command("ROLLBACK");
      }
      default -> throw new IllegalStateException("unknown transaction statement " + t);
    }
  }

  /** After an error inside a transaction block: the block only takes COMMIT or ROLLBACK now. */
  private void failTransaction() {
    if (tx == Tx.OPEN) {
      tx = Tx.FAILED;
      dml.abortPending(new IllegalStateException("the transaction failed"));
    }
  }

  private Result run(Statement s, String sql, List<Object> params, NoticeSink notices)
      throws InterruptedException {
    if (tx == Tx.IDLE && !(s instanceof Statement.Insert || s instanceof Statement.CopyFrom)) {
      dml.finishPending(); // a batch's INSERTs are done before anything else runs
    }
    if (unflushedWrites && readsTables(s)) {
      meta.flush();
      unflushedWrites = false;
      dml.checkFlushed("this statement reads tables this session wrote, but");
    }
    if (s instanceof Statement.Query q) {
      BatchEngine.Result r = engine.query(q.sql(), params);
      return Result.rows(
          r.columns().stream().map(c -> new Column(c.name(), c.type())).toList(), r.rows());
    }
    if (s instanceof Statement.EmptyCatalogQuery e) {
      return Result.rows(emptyColumns(e), List.of());
    }
    if (s instanceof Statement.Cursor c) {
      return cursors.run(
          c, tx != Tx.IDLE, q -> inTransactionBlock(new Statement.Query(q), q, params, notices));
    }
    if (s instanceof Statement.PrimaryKeys pk) {
      return Result.rows(primaryKeyColumns(), primaryKeys(pk, params));
    }
    if (s instanceof Statement.Insert i) {
      String tag = dml.insert(i, params);
      if (tx != Tx.IDLE) {
        return Result.command(tag); // applied at COMMIT
      }
      if (vars.implicitFlush()) {
        dml.finishPending();
      }
      return afterDml(tag);
    }
    if (s instanceof Statement.CopyTo copy) {
      BatchEngine.Result r = engine.query(copy.query(), params);
      return Result.copyOut(
          r.columns().stream().map(c -> new Column(c.name(), c.type())).toList(),
          r.rows(),
          new PgSession.CopyOut(copy.csv(), copy.delimiter(), copy.nullString(), copy.header()));
    }
    if (s instanceof Statement.CopyFrom copy) {
      PgSession.CopyIn in = dml.copyIn(copy);
      unflushedWrites = true;
      return Result.copyIn(in);
    }
    if (tx != Tx.IDLE && s instanceof Statement.Update u) {
      return Result.command(dml.update(u, params));
    }
    if (tx != Tx.IDLE && s instanceof Statement.Delete d) {
      return Result.command(dml.delete(d, params));
    }
    if (s instanceof Statement.Update u) {
      return afterDml(dml.update(u, params));
    }
    if (s instanceof Statement.Delete d) {
      return afterDml(dml.delete(d, params));
    }
    if (s instanceof Statement.CreateTable
        || s instanceof Statement.CreateSource
        || s instanceof Statement.CreateSink) {
      return Result.command(ddl.create(s, sql, notices));
    }
    if (s instanceof Statement.CreateMaterializedView mv) {
      cancelRequested = false;
      try {
        return Result.command(
            ddl.createView(mv, sql, vars.backgroundDdl(), vars.backfillRateLimit(), notices, job));
      } catch (PgException e) {
        if (cancelRequested
            && SqlState.QUERY_CANCELED.equals(e.sqlState())
            && !e.getMessage().equals("canceling statement due to user request")) {
          // the client's CancelRequest (psql's Ctrl-C) ended it: say so as PostgreSQL does
          throw PgException.error(
                  SqlState.QUERY_CANCELED, "canceling statement due to user request")
              .withDetail(e.getMessage());
        }
        throw e;
      }
    }
    if (s instanceof Statement.Drop d) {
      if (d.kind() == RelationKind.MATERIALIZED_VIEW && meta.relation(d.name()).isEmpty()) {
        // a view still being created (a background backfill): dropping it cancels its job
        Optional<Long> job = creatingJob(d.name());
        if (job.isPresent()) {
          meta.submit(
              new DdlCommand.CancelJobs(List.of(job.get())), MetaClient.ProgressListener.NONE);
          return Result.command("DROP MATERIALIZED VIEW");
        }
      }
      return Result.command(ddl.drop(d, notices));
    }
    return s instanceof Statement.UserDdl u ? Result.command(ddl.users(u)) : runCommand(s);
  }

  /** With {@code SET RW_IMPLICIT_FLUSH = true}, a write is committed before the statement ends. */
  private Result afterDml(String tag) {
    unflushedWrites = true;
    if (vars.implicitFlush()) {
      meta.flush();
      unflushedWrites = false;
      dml.checkFlushed("RW_IMPLICIT_FLUSH");
    }
    return Result.command(tag);
  }

  /** Whether {@code s} reads table data, and so must see this session's earlier writes. */
  private static boolean readsTables(Statement s) {
    return s instanceof Statement.Query
        || s instanceof Statement.CopyTo
        || s instanceof Statement.Update
        || s instanceof Statement.Delete
        || (s instanceof Statement.Insert i
            && !i.source().stripLeading().regionMatches(true, 0, "VALUES", 0, 6));
  }

  private Result runCommand(Statement s) throws InterruptedException {
    if (s instanceof Statement.Show sh) {
      return Result.rows(
          ShowCommands.columns(sh.what()), ShowCommands.rows(sh.what(), meta, vars.all()));
    }
    if (s instanceof Statement.SetVar sv) {
      vars.set(sv.name(), sv.value());
      return Result.command("SET");
    }
    if (s instanceof Statement.Flush) {
      meta.flush();
      unflushedWrites = false;
      dml.checkFlushed("FLUSH");
      return Result.command("FLUSH");
    }
    if (s instanceof Statement.CancelJobs c) {
      List<Long> done =
          meta.submit(new DdlCommand.CancelJobs(c.ids()), MetaClient.ProgressListener.NONE);
      List<Object[]> rows = done.stream().map(id -> new Object[] {id}).toList();
      return new Result(
          List.of(new Column("Id", DataType.BIGINT)), rows, "CANCEL_JOBS " + rows.size());
    }
    if (s instanceof Statement.AlterBackfillRateLimit a) {
      return Result.command(alterRateLimit(a));
    }
    if (s instanceof Statement.Explain e) {
      return Result.rows(List.of(new Column("QUERY PLAN", DataType.VARCHAR)), explain(e.inner()));
    }
    if (s instanceof Statement.NoOp n) {
      return Result.command(n.tag());
    }
    throw PgException.unsupported(s.getClass().getSimpleName());
  }

  /** The creating job of view {@code name}: jobs carry their DDL text, which names the view. */
  private Optional<Long> creatingJob(String name) {
    for (DdlJob j : meta.jobs().stream().filter(x -> !x.paused()).toList()) {
      try {
        if (StatementParser.parse(j.statement()).statement()
                instanceof Statement.CreateMaterializedView mv
            && mv.name().equals(name)) {
          return Optional.of(j.ddlId());
        }
      } catch (PgException e) {
        // a job whose text we cannot parse is not the one named
      }
    }
    return Optional.empty();
  }

  private String alterRateLimit(Statement.AlterBackfillRateLimit a) {
    Optional<Long> job = creatingJob(a.name());
    if (job.isPresent() && meta.setBackfillRateLimit(job.get(), a.rowsPerSecond())) {
      return "ALTER MATERIALIZED VIEW";
    }
    Optional<dev.tideway.frontend.meta.Relation> r = meta.relation(a.name());
    if (r.isEmpty()) {
      throw PgException.error(
          SqlState.UNDEFINED_TABLE, "materialized view \"" + a.name() + "\" does not exist");
    }
    if (r.get().kind() != RelationKind.MATERIALIZED_VIEW) {
      throw PgException.error("42809", "\"" + a.name() + "\" is not a materialized view");
    }
    throw PgException.error(
        SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
        "materialized view \"" + a.name() + "\" is already created: no backfill to throttle");
  }

  private List<Object[]> explain(Statement inner) {
    List<String> lines = new ArrayList<>();
    if (inner instanceof Statement.CreateMaterializedView mv) {
      StreamPlanBuilder.Planned p = ddl.planView(mv, meta.allocateId());
      lines.addAll(PlanPrinter.explain(p.root()));
    } else {
      Statement.Query q = (Statement.Query) inner;
      lines.addAll(engine.explain(q.sql()));
    }
    return lines.stream().map(l -> new Object[] {l}).toList();
  }

  @Override
  public void cancel() {
    cancelRequested = true;
    engine.cancel();
    long id = job.get();
    if (id >= 0) {
      try {
        meta.submit(new DdlCommand.CancelJobs(List.of(id)), MetaClient.ProgressListener.NONE);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public void sync(boolean failed) {
    if (tx != Tx.IDLE) {
      if (failed) {
        failTransaction(); // an error ends nothing but the block's hopes: COMMIT will roll back
      }
      return; // the block's writes wait for COMMIT
    }
    if (failed) {
      dml.abortPending(new IllegalStateException("the batch failed"));
    } else {
      dml.finishPending();
    }
  }

  @Override
  public char transactionStatus() {
    return tx.status;
  }

  @Override
  public void close() {
    dml.abortPending(new IllegalStateException("the connection closed"));
    engine.close();
  }
}
