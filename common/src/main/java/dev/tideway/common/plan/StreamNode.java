package dev.tideway.common.plan;

import static dev.tideway.common.plan.PlanChecks.checkSameTypes;

import dev.tideway.common.check.Checks;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Interval;
import dev.tideway.common.types.Schema;
import dev.tideway.common.types.TypeId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The body of one stream operator: what kind of executor to build and its parameters (RisingWave's
 * {@code StreamNode.node_body}). A {@link StreamPlanNode} wraps a body with its operator id, inputs
 * and output schema.
 *
 * <p>Each body states how many inputs it takes and checks its parameters against the input and
 * output schemas in {@link #checkSchemas}, so a malformed plan fails when it is built (or decoded),
 * naming the operator, not when an executor first sees a chunk.
 */
public sealed interface StreamNode
    permits StreamNode.Source,
        StreamNode.Dml,
        StreamNode.StreamScan,
        StreamNode.Project,
        StreamNode.Filter,
        StreamNode.HashAgg,
        StreamNode.HashJoin,
        StreamNode.Materialize,
        StreamNode.Exchange,
        StreamNode.Merge,
        StreamNode.TumbleWindow,
        StreamNode.HopWindow,
        StreamNode.LocalAgg,
        StreamNode.PaneHopAgg,
        SinkNode,
        SourceBackfillNode {

  /** Inputs this body takes: 0 for leaves, 1 for unary operators, 2 for joins. */
  int inputCount();

  /** Fails naming the offending parameter when the body does not fit its inputs and output. */
  void checkSchemas(List<Schema> inputs, Schema output);

  /** The operator name for plans and logs ({@code HashAgg}). */
  default String kindName() {
    return getClass().getSimpleName();
  }

  /**
   * Reads a connector and emits its rows as inserts.
   *
   * @param connector which connector
   * @param properties the {@code WITH (...)} options ({@code datagen.rows.per.second}, ...)
   * @param schema the source's columns
   * @param stateTable where the source keeps its split offsets (recovered on restart)
   */
  record Source(
      SourceConnector connector,
      Map<String, String> properties,
      Schema schema,
      TableDesc stateTable)
      implements StreamNode {
    public Source {
      Checks.checkNotNull(connector, "source connector");
      Checks.checkNotNull(schema, "source schema");
      Checks.checkNotNull(stateTable, "source state table");
      properties = Map.copyOf(properties);
    }

    @Override
    public int inputCount() {
      return 0;
    }

    @Override
    public void checkSchemas(List<Schema> inputs, Schema output) {
      checkSameTypes("Source output", schema.types(), output.types());
    }
  }

  /**
   * Turns {@code INSERT}/{@code UPDATE}/{@code DELETE} batches sent to a table into chunks.
   *
   * @param tableId the table written to
   * @param schema the table's columns (hidden ones included)
   */
  record Dml(int tableId, Schema schema) implements StreamNode {
    public Dml {
      Checks.checkArgument(tableId > 0, "dml table id must be > 0, got %s", tableId);
      Checks.checkNotNull(schema, "dml schema");
    }

    @Override
    public int inputCount() {
      return 0;
    }

    @Override
    public void checkSchemas(List<Schema> inputs, Schema output) {
      checkSameTypes("Dml output", schema.types(), output.types());
    }
  }

  /**
   * Reads an upstream table (a table or a materialized view): first its existing rows through a
   * backfill, then its live changes.
   *
   * @param upstreamTableId the table read
   * @param outputColumns indices of the upstream table's columns emitted, in order
   * @param backfillKind how the existing rows are caught up with
   * @param backfillStateTable where the backfill persists its position and row count (progress
   *     survives recovery through it)
   * @param upstreamTable the upstream table's storage layout, which the snapshot read decodes; null
   *     in a plan as the frontend writes it, filled in from the catalog before actors are built
   * @param rateLimit snapshot rows per second per backfill actor ({@code SET backfill_rate_limit});
   *     {@link #UNLIMITED} for none, 0 pauses the snapshot read
   */
  record StreamScan(
      int upstreamTableId,
      List<Integer> outputColumns,
      BackfillKind backfillKind,
      TableDesc backfillStateTable,
      TableDesc upstreamTable,
      long rateLimit)
      implements StreamNode {
    /** No rate limit. */
    public static final long UNLIMITED = -1;

    public StreamScan {
      Checks.checkArgument(
          upstreamTableId > 0, "scan upstream table id must be > 0, got %s", upstreamTableId);
      Checks.checkNotNull(backfillKind, "backfill kind");
      Checks.checkNotNull(backfillStateTable, "backfill state table");
      outputColumns = List.copyOf(outputColumns);
      PlanChecks.checkIndices(outputColumns, Integer.MAX_VALUE, "scan output columns");
      Checks.checkArgument(
          upstreamTable == null || upstreamTable.tableId() == upstreamTableId,
          "scan of table %s carries the layout of table %s",
          upstreamTableId,
          upstreamTable == null ? 0 : upstreamTable.tableId());
      Checks.checkArgument(
          rateLimit >= UNLIMITED, "scan rate limit must be >= 0 or UNLIMITED, got %s", rateLimit);
    }

    /** A scan whose upstream layout is not known yet (the planner's form). */
    public StreamScan(
        int upstreamTableId,
        List<Integer> outputColumns,
        BackfillKind backfillKind,
        TableDesc backfillStateTable) {
      this(upstreamTableId, outputColumns, backfillKind, backfillStateTable, null, UNLIMITED);
    }

    /** This scan with the upstream table's layout. */
    public StreamScan withUpstreamTable(TableDesc t) {
      return new StreamScan(
          upstreamTableId, outputColumns, backfillKind, backfillStateTable, t, rateLimit);
    }

    /** This scan with a snapshot rate limit (rows/s per actor; {@link #UNLIMITED} for none). */
    public StreamScan withRateLimit(long rowsPerSecond) {
      return new StreamScan(
          upstreamTableId,
          outputColumns,
          backfillKind,
          backfillStateTable,
          upstreamTable,
          rowsPerSecond);
    }

    @Override
    public int inputCount() {
      return 0;
    }

    @Override
    public void checkSchemas(List<Schema> inputs, Schema output) {
      Checks.checkArgument(
          output.size() == outputColumns.size(),
          "StreamScan of table %s emits %s columns %s but its output schema has %s",
          upstreamTableId,
          outputColumns.size(),
          outputColumns,
          output.size());
    }
  }

  /**
   * Computes one output column per expression.
   *
   * @param exprs the output expressions over the input columns
   */
  record Project(List<ExprNode> exprs) implements StreamNode {
    public Project {
      exprs = List.copyOf(exprs);
      Checks.checkArgument(!exprs.isEmpty(), "Project needs at least one expression");
    }

    @Override
    public int inputCount() {
      return 1;
    }

    @Override
    public void checkSchemas(List<Schema> inputs, Schema output) {
      for (ExprNode e : exprs) {
        e.checkAgainst(inputs.get(0));
      }
      checkSameTypes(
          "Project output", exprs.stream().map(ExprNode::returnType).toList(), output.types());
    }
  }

  /**
   * Keeps the rows for which {@code predicate} is true (hides the others).
   *
   * @param predicate a boolean expression over the input columns
   */
  record Filter(ExprNode predicate) implements StreamNode {
    public Filter {
      Checks.checkNotNull(predicate, "filter predicate");
      ExprNode.checkPredicate(predicate, "Filter predicate");
    }

    @Override
    public int inputCount() {
      return 1;
    }

    @Override
    public void checkSchemas(List<Schema> inputs, Schema output) {
      predicate.checkAgainst(inputs.get(0));
      checkSameTypes("Filter output", inputs.get(0).types(), output.types());
    }
  }

  /**
   * Grouped aggregation keyed by the hash of the group key. Output: the group key columns, then one
   * column per call.
   *
   * @param groupKeys input columns grouped by (empty = one global group)
   * @param aggCalls the aggregates, in output order
   * @param intermediateStateTable group key to the calls' current results (and row count)
   * @param callStateTables for call {@code i} (the map key) that cannot retract from its result
   *     alone (MIN/MAX over a non-append-only input, DISTINCT dedup): its input values
   */
  record HashAgg(
      List<Integer> groupKeys,
      List<AggCall> aggCalls,
      TableDesc intermediateStateTable,
      Map<Integer, TableDesc> callStateTables)
      implements StreamNode {
    public HashAgg {
      groupKeys = List.copyOf(groupKeys);
      aggCalls = List.copyOf(aggCalls);
      callStateTables = Map.copyOf(callStateTables);
      Checks.checkNotNull(intermediateStateTable, "HashAgg intermediate state table");
      Checks.checkArgument(
          !groupKeys.isEmpty() || !aggCalls.isEmpty(), "HashAgg needs group keys or calls");
      PlanChecks.checkIndices(groupKeys, Integer.MAX_VALUE, "HashAgg group keys");
      PlanChecks.checkIndices(
          List.copyOf(callStateTables.keySet()), aggCalls.size(), "HashAgg call state tables");
    }

    @Override
    public int inputCount() {
      return 1;
    }

    @Override
    public void checkSchemas(List<Schema> inputs, Schema output) {
      checkAggOutput("HashAgg", inputs.get(0), groupKeys, aggCalls, AggCall::returnType, output);
    }
  }

  /**
   * Equi-join of two inputs, each side's rows kept in its state table keyed by the join key.
   * Output: the left columns, then the right columns.
   *
   * @param joinType the join type
   * @param leftKeys join key columns of the left input
   * @param rightKeys join key columns of the right input, pairwise equal to {@code leftKeys}
   * @param condition an extra non-equi predicate over the concatenated row, if any
   * @param leftTable the left side's state
   * @param rightTable the right side's state
   * @param growing columns of the joined row (left columns, then right) whose input promises that
   *     they only grow: a row is never deleted, and each update of it is a {@code U-}/{@code U+}
   *     pair, adjacent in one chunk, whose new value is at least the old one. A side bounded from
   *     below by such a column of the other side (one row per join key there) keeps only the rows
   *     that may still match (see the executor)
   */
  record HashJoin(
      JoinType joinType,
      List<Integer> leftKeys,
      List<Integer> rightKeys,
      Optional<ExprNode> condition,
      TableDesc leftTable,
      TableDesc rightTable,
      List<Integer> growing)
      implements StreamNode {
    public HashJoin {
      Checks.checkNotNull(joinType, "join type");
      Checks.checkNotNull(leftTable, "join left table");
      Checks.checkNotNull(rightTable, "join right table");
      leftKeys = List.copyOf(leftKeys);
      rightKeys = List.copyOf(rightKeys);
      growing = List.copyOf(growing);
      Checks.checkNotNull(condition, "join condition (use Optional.empty())");
      condition.ifPresent(c -> ExprNode.checkPredicate(c, "join condition"));
      Checks.checkArgument(
          !leftKeys.isEmpty() && leftKeys.size() == rightKeys.size(),
          "HashJoin needs equally many (>= 1) left and right keys, got %s and %s",
          leftKeys,
          rightKeys);
    }

    /** A join whose inputs promise no growing column. */
    public HashJoin(
        JoinType joinType,
        List<Integer> leftKeys,
        List<Integer> rightKeys,
        Optional<ExprNode> condition,
        TableDesc leftTable,
        TableDesc rightTable) {
      this(joinType, leftKeys, rightKeys, condition, leftTable, rightTable, List.of());
    }

    @Override
    public int inputCount() {
      return 2;
    }

    @Override
    public void checkSchemas(List<Schema> inputs, Schema output) {
      Schema l = inputs.get(0);
      Schema r = inputs.get(1);
      PlanChecks.checkInRange(leftKeys, l.size(), "HashJoin left keys");
      PlanChecks.checkInRange(rightKeys, r.size(), "HashJoin right keys");
      PlanChecks.checkInRange(growing, l.size() + r.size(), "HashJoin growing columns");
      for (int i = 0; i < leftKeys.size(); i++) {
        DataType lt = l.type(leftKeys.get(i));
        DataType rt = r.type(rightKeys.get(i));
        Checks.checkArgument(
            lt.id() == rt.id(),
            "HashJoin key %s: left $%s is %s but right $%s is %s",
            i,
            leftKeys.get(i),
            lt,
            rightKeys.get(i),
            rt);
      }
      List<DataType> both = new ArrayList<>(l.types());
      both.addAll(r.types());
      condition.ifPresent(c -> c.checkAgainst(Schema.ofTypes(both)));
      checkSameTypes("HashJoin output", both, output.types());
    }
  }

  /**
   * Writes its input into a table (a materialized view or a table), keyed by the table's pk.
   *
   * @param table the table written
   */
  record Materialize(TableDesc table) implements StreamNode {
    public Materialize {
      Checks.checkNotNull(table, "materialized table");
    }

    @Override
    public int inputCount() {
      return 1;
    }

    @Override
    public void checkSchemas(List<Schema> inputs, Schema output) {
      checkSameTypes(
          "Materialize input of table " + table.tableId(), table.types(), inputs.get(0).types());
      checkSameTypes("Materialize output", inputs.get(0).types(), output.types());
    }
  }

  /**
   * A fragment boundary as the planner emits it: the fragmenter cuts here, the upstream side gets a
   * dispatcher of this kind and the downstream side a {@link Merge}.
   *
   * @param kind how rows are routed
   * @param distKeys for {@link DispatcherKind#HASH}, the input columns hashed to a vnode; empty
   *     otherwise
   */
  record Exchange(DispatcherKind kind, List<Integer> distKeys) implements StreamNode {
    public Exchange {
      Checks.checkNotNull(kind, "dispatcher kind");
      distKeys = List.copyOf(distKeys);
      Checks.checkArgument(
          (kind == DispatcherKind.HASH) != distKeys.isEmpty(),
          "%s exchange: distribution keys %s (HASH needs some, the others none)",
          kind,
          distKeys);
      PlanChecks.checkIndices(distKeys, Integer.MAX_VALUE, "exchange distribution keys");
    }

    @Override
    public int inputCount() {
      return 1;
    }

    @Override
    public void checkSchemas(List<Schema> inputs, Schema output) {
      PlanChecks.checkIndices(distKeys, inputs.get(0).size(), "exchange distribution keys");
      checkSameTypes("Exchange output", inputs.get(0).types(), output.types());
    }
  }

  /**
   * The receiving side of an exchange inside a fragment: merges the streams of the upstream
   * fragment's actors, aligning barriers.
   *
   * @param upstreamFragmentId the fragment whose dispatchers feed this merge
   * @param kind the upstream dispatcher kind
   */
  record Merge(int upstreamFragmentId, DispatcherKind kind) implements StreamNode {
    public Merge {
      Checks.checkArgument(
          upstreamFragmentId >= 0,
          "merge upstream fragment id must be >= 0, got %s",
          upstreamFragmentId);
      Checks.checkNotNull(kind, "merge dispatcher kind");
    }

    @Override
    public int inputCount() {
      return 0;
    }

    @Override
    public void checkSchemas(List<Schema> inputs, Schema output) {}
  }

  /**
   * {@code TUMBLE(input, timeColumn, size)}: appends {@code window_start} and {@code window_end}
   * (same type as the time column) to each row.
   *
   * @param timeColumn the input column assigned to windows (TIMESTAMP or TIMESTAMPTZ)
   * @param size the window length; positive, without months
   */
  record TumbleWindow(int timeColumn, Interval size) implements StreamNode {
    public TumbleWindow {
      Checks.checkArgument(timeColumn >= 0, "tumble time column must be >= 0, got %s", timeColumn);
      checkWindowLength("tumble size", size);
    }

    @Override
    public int inputCount() {
      return 1;
    }

    @Override
    public void checkSchemas(List<Schema> inputs, Schema output) {
      checkWindowOutput("TumbleWindow", timeColumn, inputs.get(0), output);
    }
  }

  /**
   * {@code HOP(input, timeColumn, slide, size)}: each row is emitted once per window it falls in
   * ({@code size / slide} times), with {@code window_start} and {@code window_end} appended.
   *
   * @param timeColumn the input column assigned to windows (TIMESTAMP or TIMESTAMPTZ)
   * @param slide how far consecutive windows start apart; positive, without months
   * @param size the window length; a positive multiple of {@code slide}, without months
   */
  record HopWindow(int timeColumn, Interval slide, Interval size) implements StreamNode {
    public HopWindow {
      Checks.checkArgument(timeColumn >= 0, "hop time column must be >= 0, got %s", timeColumn);
      long slideMicros = checkWindowLength("hop slide", slide);
      long sizeMicros = checkWindowLength("hop size", size);
      Checks.checkArgument(
          sizeMicros % slideMicros == 0,
          "hop size %s must be a multiple of the slide %s",
          size,
          slide);
    }

    @Override
    public int inputCount() {
      return 1;
    }

    @Override
    public void checkSchemas(List<Schema> inputs, Schema output) {
      checkWindowOutput("HopWindow", timeColumn, inputs.get(0), output);
    }
  }

  /**
   * The first phase of a two-phase grouped aggregation over an append-only input (Flink's local
   * aggregation, RisingWave's two-phase agg): partial results per group of the rows seen since the
   * last flush, emitted as inserts before each barrier and whenever the partial groups reach a
   * bound, and kept in no state table. The second phase is a {@link HashAgg} over the partials with
   * {@link #globalCall} per call, so the exchange between the two carries one row per group and
   * flush instead of one per input row. Output: the group key columns, then one partial per call
   * ({@link #partialType}).
   *
   * @param groupKeys the input columns to group by
   * @param aggCalls count, count(*), sum, min or max; none DISTINCT (their partials cannot merge)
   */
  record LocalAgg(List<Integer> groupKeys, List<AggCall> aggCalls) implements StreamNode {
    public LocalAgg {
      groupKeys = List.copyOf(groupKeys);
      aggCalls = List.copyOf(aggCalls);
      Checks.checkArgument(!aggCalls.isEmpty(), "LocalAgg needs at least one call");
      // a global aggregation's empty-input row needs count 0, which a sum of partials cannot give
      Checks.checkArgument(!groupKeys.isEmpty(), "LocalAgg needs group keys");
      PlanChecks.checkIndices(groupKeys, Integer.MAX_VALUE, "LocalAgg group keys");
      for (AggCall c : aggCalls) {
        Checks.checkArgument(
            !c.distinct() && c.kind() != AggKind.AVG,
            "LocalAgg cannot split %s: only count, count(*), sum, min and max without DISTINCT",
            c);
      }
    }

    /** The type of a call's partial column: BIGINT for the counts, else the call's result. */
    public static DataType partialType(AggCall call) {
      return call.kind() == AggKind.COUNT || call.kind() == AggKind.COUNT_STAR
          ? DataType.BIGINT
          : call.returnType();
    }

    /**
     * The second-phase call merging the partials of {@code call} found in column {@code column}: a
     * count becomes the sum of the partial counts, sum/min/max stay themselves.
     */
    public static AggCall globalCall(AggCall call, int column) {
      AggKind kind =
          call.kind() == AggKind.COUNT || call.kind() == AggKind.COUNT_STAR
              ? AggKind.SUM
              : call.kind();
      return AggCall.of(kind, new ExprNode.InputRef(column, partialType(call)), call.returnType());
    }

    @Override
    public int inputCount() {
      return 1;
    }

    @Override
    public void checkSchemas(List<Schema> inputs, Schema output) {
      checkAggOutput("LocalAgg", inputs.get(0), groupKeys, aggCalls, LocalAgg::partialType, output);
    }
  }

  /**
   * The global phase of a count over HOP windows, kept per pane (the slicing of Flink's window
   * aggregation): the input holds partial counts per (group, pane) of an append-only stream, a pane
   * being a slide-long tumbling window ({@code LocalAgg} of {@code count(*)} grouped by the group
   * columns and {@code TUMBLE(time, slide)}'s start). The state keeps one count per (group, pane),
   * {@code size / slide} times fewer rows than a count per (group, window); the output is what a
   * {@code HashAgg(sum(partial))} over the partials expanded to their windows would emit: the group
   * columns, {@code window_start}, {@code window_end}, the count, one row per window that holds a
   * changed pane, each change an insert or a {@code U-}/{@code U+} pair to a higher count.
   *
   * @param groupKeys the input's group columns
   * @param paneColumn the input's pane start (TIMESTAMP, a multiple of {@code slide})
   * @param partialColumn the input's partial count (BIGINT, positive)
   * @param slide the HOP slide (the pane length)
   * @param size the HOP size, a multiple of the slide
   * @param table the state: group columns, pane start, count; pk = group columns, pane start
   */
  record PaneHopAgg(
      List<Integer> groupKeys,
      int paneColumn,
      int partialColumn,
      Interval slide,
      Interval size,
      TableDesc table)
      implements StreamNode {
    public PaneHopAgg {
      groupKeys = List.copyOf(groupKeys);
      Checks.checkArgument(!groupKeys.isEmpty(), "PaneHopAgg needs group keys");
      PlanChecks.checkIndices(groupKeys, Integer.MAX_VALUE, "PaneHopAgg group keys");
      Checks.checkArgument(
          paneColumn >= 0, "PaneHopAgg pane column must be >= 0, got %s", paneColumn);
      Checks.checkArgument(
          partialColumn >= 0, "PaneHopAgg partial column must be >= 0, got %s", partialColumn);
      long slideMicros = checkWindowLength("pane hop slide", slide);
      long sizeMicros = checkWindowLength("pane hop size", size);
      Checks.checkArgument(
          sizeMicros % slideMicros == 0,
          "pane hop size %s must be a multiple of the slide %s",
          size,
          slide);
      Checks.checkNotNull(table, "PaneHopAgg state table");
    }

    @Override
    public int inputCount() {
      return 1;
    }

    @Override
    public void checkSchemas(List<Schema> inputs, Schema output) {
      Schema in = inputs.get(0);
      PlanChecks.checkInRange(groupKeys, in.size(), "PaneHopAgg group keys");
      PlanChecks.checkInRange(List.of(paneColumn, partialColumn), in.size(), "PaneHopAgg columns");
      Checks.checkArgument(
          in.type(paneColumn).id() == TypeId.TIMESTAMP,
          "PaneHopAgg pane column $%s must be a timestamp, got %s",
          paneColumn,
          in.type(paneColumn));
      Checks.checkArgument(
          in.type(partialColumn).id() == TypeId.BIGINT,
          "PaneHopAgg partial column $%s must be a bigint, got %s",
          partialColumn,
          in.type(partialColumn));
      List<DataType> want = new ArrayList<>();
      for (int k : groupKeys) {
        want.add(in.type(k));
      }
      want.add(DataType.TIMESTAMP);
      want.add(DataType.TIMESTAMP);
      want.add(DataType.BIGINT);
      checkSameTypes("PaneHopAgg output", want, output.types());
    }
  }

  /** Checks an aggregation's output: its group key columns, then one column per call. */
  private static void checkAggOutput(
      String op,
      Schema in,
      List<Integer> groupKeys,
      List<AggCall> calls,
      Function<AggCall, DataType> callType,
      Schema output) {
    PlanChecks.checkIndices(groupKeys, in.size(), op + " group keys");
    List<DataType> expected = new ArrayList<>();
    for (int k : groupKeys) {
      expected.add(in.type(k));
    }
    for (AggCall c : calls) {
      c.checkAgainst(in);
      expected.add(callType.apply(c));
    }
    checkSameTypes(op + " output", expected, output.types());
  }

  private static long checkWindowLength(String what, Interval len) {
    Checks.checkNotNull(len, what);
    Checks.checkArgument(len.months() == 0, "%s must not use months, got %s", what, len);
    long micros =
        Math.addExact(Math.multiplyExact((long) len.days(), Interval.MICROS_PER_DAY), len.micros());
    Checks.checkArgument(micros > 0, "%s must be positive, got %s", what, len);
    return micros;
  }

  private static void checkWindowOutput(String op, int timeColumn, Schema in, Schema output) {
    Checks.checkArgument(
        timeColumn < in.size(), "%s time column %s out of [0, %s)", op, timeColumn, in.size());
    DataType t = in.type(timeColumn);
    Checks.checkArgument(
        t.equals(DataType.TIMESTAMP) || t.equals(DataType.TIMESTAMPTZ),
        "%s time column $%s must be a timestamp, got %s",
        op,
        timeColumn,
        t);
    List<DataType> expected = new ArrayList<>(in.types());
    expected.add(t);
    expected.add(t);
    checkSameTypes(op + " output", expected, output.types());
  }
}
