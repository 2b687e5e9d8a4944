package dev.tideway.compute.bench;

import dev.tideway.common.plan.ColumnDesc;
import dev.tideway.common.plan.ColumnOrder;
import dev.tideway.common.plan.ExprNode;
import dev.tideway.common.plan.FunctionKind;
import dev.tideway.common.plan.SourceConnector;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Schema;
import dev.tideway.compute.executor.source.NexmarkConfig.TableType;
import dev.tideway.compute.executor.source.NexmarkGenerator;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The Nexmark queries the benchmark runs, as stream plans over one actor's bid source
 * (nexmark-flink semantics):
 *
 * <ul>
 *   <li>q0: {@code SELECT auction, bidder, price, date_time, extra FROM bid} into a blackhole
 *   <li>q1: the same with {@code 0.908 * price} (DECIMAL) into a blackhole
 *   <li>q2: {@code SELECT auction, price FROM bid WHERE MOD(auction, 123) = 0} materialized with pk
 *       (auction, price) (a repeated pair upserts)
 *   <li>q5: auctions with the most bids per 2 s-sliding 10 s window ({@link ThreeFragmentJob})
 *   <li>q7: highest bid per 10 s tumbling window joined back to the bids ({@link TwoFragmentJob})
 * </ul>
 *
 * Bid columns: 0 auction, 1 bidder, 2 price, 3 channel, 4 url, 5 date_time, 6 extra. Immutable.
 */
enum NexmarkQuery {
  Q0(false),
  Q1(false),
  Q2(true),
  /** Three fragments over local channels, the count shared: see {@link ThreeFragmentJob}. */
  Q5(true),
  /** Two fragments over local channels: see {@link TwoFragmentJob}. */
  Q7(true);

  /** The bid table's columns. */
  static final Schema BID = NexmarkGenerator.schema(TableType.BID);

  /** The source's offsets table. */
  static final int SOURCE_STATE_TABLE = 1;

  /** The materialized view's table. */
  static final int MV_TABLE = 2;

  /** q1's dollar-to-euro rate. */
  static final BigDecimal RATE = new BigDecimal("0.908");

  /** q2's auction modulus. */
  static final long Q2_MOD = 123;

  private final boolean materialized;

  NexmarkQuery(boolean materialized) {
    this.materialized = materialized;
  }

  /**
   * The later fragments of a query that needs a repartition ({@link ThreeFragmentJob}, {@link
   * TwoFragmentJob}), or empty when each source actor runs the whole query over its split.
   */
  Optional<LocalJob> localJob(int parallelism) {
    return switch (this) {
      case Q5 -> Optional.of(new ThreeFragmentJob(parallelism));
      case Q7 -> Optional.of(new TwoFragmentJob());
      default -> Optional.empty();
    };
  }

  /** Whether the result goes into a Materialize (else the actor drops it: a blackhole sink). */
  boolean materialized() {
    return materialized;
  }

  /** {@code q0} → {@link #Q0}; fails naming the supported queries. */
  static NexmarkQuery parse(String s) {
    try {
      return valueOf(s.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "--query must be one of q0, q1, q2, q5, q7, got '" + s + "'", e);
    }
  }

  /** The bid source leaf. */
  static StreamPlanNode source(Map<String, String> sourceOptions) {
    return StreamPlanNode.leaf(
        0,
        new StreamNode.Source(
            SourceConnector.NEXMARK,
            sourceOptions,
            BID,
            table(SOURCE_STATE_TABLE, List.of(DataType.VARCHAR, DataType.BIGINT), 1)),
        BID);
  }

  /**
   * The plan of one actor over a bid source with {@code sourceOptions}; for q5 and q7 the source
   * fragment's plan ({@link #localJob} has the rest).
   */
  StreamPlanNode plan(Map<String, String> sourceOptions) {
    StreamPlanNode src = source(sourceOptions);
    return switch (this) {
      case Q0 -> project(1, src, List.of(ref(0), ref(1), ref(2), ref(5), ref(6)));
      case Q1 ->
          project(
              1,
              src,
              List.of(
                  ref(0),
                  ref(1),
                  ExprNode.FunctionCall.of(
                      FunctionKind.MULTIPLY,
                      DataType.DECIMAL,
                      new ExprNode.Literal(RATE, DataType.DECIMAL),
                      ref(2)),
                  ref(5),
                  ref(6)));
      case Q2 -> q2(src);
      case Q5 -> ThreeFragmentJob.sourcePlan(src);
      case Q7 -> TwoFragmentJob.sourcePlan(src);
    };
  }

  private static StreamPlanNode q2(StreamPlanNode src) {
    ExprNode mod =
        ExprNode.FunctionCall.of(
            FunctionKind.MODULUS,
            DataType.BIGINT,
            ref(0),
            new ExprNode.Literal(Q2_MOD, DataType.BIGINT));
    ExprNode pred =
        ExprNode.FunctionCall.of(
            FunctionKind.EQUAL, DataType.BOOLEAN, mod, new ExprNode.Literal(0L, DataType.BIGINT));
    StreamPlanNode filter = StreamPlanNode.unary(1, new StreamNode.Filter(pred), src, BID);
    StreamPlanNode proj = project(2, filter, List.of(ref(0), ref(2)));
    List<DataType> types = proj.outputSchema().types();
    return StreamPlanNode.unary(
        3, new StreamNode.Materialize(table(MV_TABLE, types, 2)), proj, proj.outputSchema());
  }

  private static ExprNode ref(int column) {
    return new ExprNode.InputRef(column, BID.type(column));
  }

  private static StreamPlanNode project(int id, StreamPlanNode in, List<ExprNode> exprs) {
    Schema out = Schema.ofTypes(exprs.stream().map(ExprNode::returnType).toList());
    return StreamPlanNode.unary(id, new StreamNode.Project(exprs), in, out);
  }

  /**
   * A table of {@code types} keyed by its first {@code pkLen} columns, distributed by the first.
   */
  static TableDesc table(int id, List<DataType> types, int pkLen) {
    return table(id, types, pkLen, false);
  }

  /** {@link #table(int, List, int)}, declared append-only when {@code appendOnly}. */
  static TableDesc table(int id, List<DataType> types, int pkLen, boolean appendOnly) {
    List<ColumnDesc> cols = new ArrayList<>();
    List<ColumnOrder> pk = new ArrayList<>();
    for (int i = 0; i < types.size(); i++) {
      cols.add(new ColumnDesc(i, "c" + i, types.get(i)));
      if (i < pkLen) {
        pk.add(ColumnOrder.asc(i));
      }
    }
    return new TableDesc(id, "nexmark_" + id, cols, pk, List.of(0), appendOnly, false);
  }
}
