package dev.tideway.frontend.session;

import dev.tideway.common.plan.ColumnDesc;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Datums;
import dev.tideway.common.types.TypeId;
import dev.tideway.frontend.batch.BatchEngine;
import dev.tideway.frontend.batch.CalciteValues;
import dev.tideway.frontend.meta.DmlWriter;
import dev.tideway.frontend.meta.MetaClient;
import dev.tideway.frontend.meta.Relation;
import dev.tideway.frontend.meta.RelationKind;
import dev.tideway.frontend.meta.WriteAck;
import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.SqlState;
import dev.tideway.frontend.sql.Statement;
import dev.tideway.frontend.sql.StatementParser;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
  static String selectFor(Statement st) {
    if (st instanceof Statement.Update u) {
      StringBuilder sb = new StringBuilder("SELECT *");
      for (String e : u.exprs()) {
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

  String insert(Statement.Insert ins, List<Object> params) {
    Relation r = target(ins.table(), "insert into");
    List<ColumnDesc> all = r.table().columns();
    List<Integer> targets = targets(ins, r);
    BatchEngine.Result src = engine.query(typedSource(ins), params);
    if (src.columns().size() > targets.size()) {
      throw PgException.error(
          SqlState.SYNTAX_ERROR, "INSERT has more expressions than target columns");
    }
    if (src.columns().size() < targets.size()) {
      throw PgException.error(
          SqlState.SYNTAX_ERROR, "INSERT has more target columns than expressions");
    }
    List<Row> rows = new ArrayList<>();
    for (Object[] v : src.rows()) {
      Object[] full = new Object[all.size()];
      for (int i = 0; i < targets.size(); i++) {
        full[targets.get(i)] = coerce(all.get(targets.get(i)), v[i], src.columns().get(i).type());
      }
      checkPk(r, full);
      rows.add(Row.wrap(full));
    }
    write(r, List.of(), rows);
    return "INSERT 0 " + rows.size();
  }

  String update(Statement.Update up, List<Object> params) {
    Relation r = target(up.table(), "update");
    List<ColumnDesc> all = r.table().columns();
    int[] cols = new int[up.columns().size()];
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
    }
    BatchEngine.Result res = engine.query(selectFor(up), params);
    List<Row> olds = new ArrayList<>();
    List<Row> news = new ArrayList<>();
    for (Object[] v : res.rows()) {
      Object[] old = new Object[all.size()];
      for (int i = 0; i < all.size(); i++) {
        old[i] = CalciteValues.coerce(all.get(i).type(), v[i]);
      }
      Object[] nw = old.clone();
      for (int i = 0; i < cols.length; i++) {
        nw[cols[i]] =
            coerce(all.get(cols[i]), v[all.size() + i], res.columns().get(all.size() + i).type());
      }
      checkPk(r, nw);
      olds.add(Row.wrap(old));
      news.add(Row.wrap(nw));
    }
    write(r, olds, news);
    return "UPDATE " + olds.size();
  }

  String delete(Statement.Delete del, List<Object> params) {
    Relation r = target(del.table(), "delete from");
    List<ColumnDesc> all = r.table().columns();
    BatchEngine.Result res = engine.query(selectFor(del), params);
    List<Row> olds = new ArrayList<>();
    for (Object[] v : res.rows()) {
      Object[] old = new Object[all.size()];
      for (int i = 0; i < all.size(); i++) {
        old[i] = CalciteValues.coerce(all.get(i).type(), v[i]);
      }
      olds.add(Row.wrap(old));
    }
    write(r, olds, List.of());
    return "DELETE " + olds.size();
  }

  private void write(Relation r, List<Row> deletes, List<Row> inserts) {
    if (deletes.isEmpty() && inserts.isEmpty()) {
      return;
    }
    for (WriteAck a : writer.write(r.id(), deletes, inserts)) {
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

  /** A value of type {@code from} stored into column {@code c} (assignment cast). */
  private static Object coerce(ColumnDesc c, Object v, DataType from) {
    if (v == null) {
      return null;
    }
    DataType t = c.type();
    try {
      if (from.id() == TypeId.VARCHAR && t.id() != TypeId.VARCHAR) {
        return Datums.fromText(t, (String) v);
      }
      if (t.id() == TypeId.VARCHAR) {
        return from.id() == TypeId.VARCHAR ? v : Datums.toText(from, v);
      }
      if (t.id() == TypeId.DECIMAL) {
        BigDecimal b = v instanceof BigDecimal d ? d : new BigDecimal(v.toString());
        return Datums.decimal(t, b);
      }
      if (t.id() == TypeId.SMALLINT || t.id() == TypeId.INT || t.id() == TypeId.BIGINT) {
        BigDecimal b = new BigDecimal(v.toString()).setScale(0, java.math.RoundingMode.HALF_UP);
        long l = b.longValueExact();
        if ((t.id() == TypeId.INT && (int) l != l)
            || (t.id() == TypeId.SMALLINT && (short) l != l)) {
          throw new ArithmeticException();
        }
        return CalciteValues.coerce(t, l);
      }
      return CalciteValues.coerce(t, v);
    } catch (ArithmeticException | NumberFormatException e) {
      throw PgException.error(
          SqlState.NUMERIC_VALUE_OUT_OF_RANGE,
          t.sqlName().toLowerCase() + " out of range for column \"" + c.name() + "\"");
    } catch (IllegalArgumentException | ClassCastException e) {
      throw PgException.error(
          SqlState.DATATYPE_MISMATCH,
          "column \""
              + c.name()
              + "\" is of type "
              + t.sqlName().toLowerCase()
              + " but expression is of type "
              + from.sqlName().toLowerCase());
    }
  }
}
