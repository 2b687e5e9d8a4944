package dev.tideway.common.serde;

import dev.tideway.common.chunk.Chunks;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.plan.AggCall;
import dev.tideway.common.plan.AggKind;
import dev.tideway.common.plan.BackfillKind;
import dev.tideway.common.plan.ColumnDesc;
import dev.tideway.common.plan.ColumnOrder;
import dev.tideway.common.plan.DispatcherKind;
import dev.tideway.common.plan.ExprNode;
import dev.tideway.common.plan.FunctionKind;
import dev.tideway.common.plan.JoinType;
import dev.tideway.common.plan.SourceConnector;
import dev.tideway.common.plan.StreamFragmentGraph;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Field;
import dev.tideway.common.types.Interval;
import dev.tideway.common.types.Schema;
import dev.tideway.common.types.TypeId;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Sample instances of common's registered classes, for the registry round-trip tests. */
final class Samples {
  private Samples() {}

  static final Schema BIDS =
      Schema.of(
          Field.of("auction", DataType.BIGINT),
          Field.of("price", DataType.decimal(10, 2)),
          Field.of("ts", DataType.TIMESTAMP));

  /** A table keyed by auction (desc), distributed by it. */
  static TableDesc table(int id) {
    return new TableDesc(
        id,
        "t" + id,
        List.of(
            new ColumnDesc(0, "auction", DataType.BIGINT),
            new ColumnDesc(1, "price", DataType.decimal(10, 2)),
            new ColumnDesc(2, "ts", DataType.TIMESTAMP)),
        List.of(ColumnOrder.desc(0)),
        List.of(0),
        false,
        true);
  }

  static List<Object> core() {
    ArrayList<Object> list = new ArrayList<>(List.of(1, "x"));
    HashMap<String, Object> map = new HashMap<>(Map.of("k", 1L));
    return List.of(
        new byte[] {1, 2, 3},
        new BigDecimal("-12345678901234567890.0042"),
        LocalDate.of(2024, 2, 29),
        LocalTime.of(23, 59, 59, 999_999_000),
        LocalDateTime.of(1969, 12, 31, 23, 59, 59, 1_000),
        Instant.ofEpochSecond(-1, 999_999_000),
        Duration.ofMillis(1500),
        list,
        map,
        Optional.of("present"),
        List.of(1),
        List.of(1, 2, 3),
        List.of(1, 2, 3, 4).subList(1, 3),
        Set.of("a"),
        Set.of("a", "b", "c"),
        Map.of("k", "v"),
        Map.of("a", 1, "b", 2, "c", 3),
        new int[] {1, -1, Integer.MAX_VALUE},
        new long[] {Long.MIN_VALUE, 0},
        TypeId.INTERVAL,
        DataType.decimal(38, 9),
        Field.of("f", DataType.VARCHAR),
        BIDS,
        new Interval(1, -2, 3_000_000),
        Row.of(
            true,
            (short) 2,
            3,
            4L,
            5.5f,
            6.25,
            new BigDecimal("7.70"),
            "eight",
            new byte[] {9},
            LocalDate.of(2024, 1, 10),
            LocalTime.of(11, 0),
            LocalDateTime.of(2024, 1, 12, 0, 0),
            Instant.EPOCH,
            new Interval(0, 14, 0),
            null),
        Op.UPDATE_INSERT,
        Chunks.parse(
            """
              bigint varchar
            + 1      a
            - 2      .
            U- 3     b  D
            U+ 3     c
            """),
        // added after version 3: no golden record yet
        java.util.BitSet.valueOf(new long[] {5L, 0L, 1L << 63}));
  }

  static List<Object> plan() {
    ExprNode.InputRef auction = new ExprNode.InputRef(0, DataType.BIGINT);
    ExprNode.Literal ten = new ExprNode.Literal(10L, DataType.BIGINT);
    ExprNode.FunctionCall gt =
        ExprNode.FunctionCall.of(FunctionKind.GREATER_THAN, DataType.BOOLEAN, auction, ten);
    ExprNode.Cast cast = new ExprNode.Cast(auction, DataType.DOUBLE);
    AggCall maxPrice =
        AggCall.of(
            AggKind.MAX,
            new ExprNode.InputRef(1, DataType.decimal(10, 2)),
            DataType.decimal(10, 2));

    StreamPlanNode scan =
        StreamPlanNode.leaf(
            1,
            new StreamNode.StreamScan(7, List.of(0, 1, 2), BackfillKind.NO_SHUFFLE, table(8)),
            BIDS);
    StreamPlanNode filter = StreamPlanNode.unary(2, new StreamNode.Filter(gt), scan, BIDS);
    StreamPlanNode exchange =
        StreamPlanNode.unary(
            3, new StreamNode.Exchange(DispatcherKind.HASH, List.of(0)), filter, BIDS);
    Schema aggOut =
        Schema.of(Field.of("auction", DataType.BIGINT), Field.of("max", DataType.decimal(10, 2)));
    StreamPlanNode agg =
        StreamPlanNode.unary(
            4,
            new StreamNode.HashAgg(List.of(0), List.of(maxPrice), table(9), Map.of(0, table(10))),
            exchange,
            aggOut);
    Schema source = Schema.of(Field.of("id", DataType.BIGINT), Field.of("name", DataType.VARCHAR));
    StreamPlanNode left =
        StreamPlanNode.leaf(5, new StreamNode.Merge(1, DispatcherKind.HASH), BIDS);
    List<Field> joined = new ArrayList<>(BIDS.fields());
    joined.addAll(source.fields());
    StreamPlanNode join =
        new StreamPlanNode(
            6,
            new StreamNode.HashJoin(
                JoinType.INNER,
                List.of(0),
                List.of(0),
                Optional.of(
                    ExprNode.FunctionCall.of(
                        FunctionKind.IS_NOT_NULL,
                        DataType.BOOLEAN,
                        new ExprNode.InputRef(4, DataType.VARCHAR))),
                table(11),
                table(12)),
            List.of(left, StreamPlanNode.leaf(7, new StreamNode.Dml(13, source), source)),
            new Schema(joined));
    StreamFragmentGraph graph =
        new StreamFragmentGraph(
            List.of(
                new StreamFragmentGraph.Fragment(1, filter, false),
                new StreamFragmentGraph.Fragment(2, agg, true)),
            List.of(new StreamFragmentGraph.Edge(1, 2, DispatcherKind.SIMPLE, List.of())));
    return List.of(
        ColumnOrder.asc(2),
        new ColumnDesc(3, "c", DataType.INTERVAL),
        table(5),
        FunctionKind.EXTRACT,
        auction,
        ten,
        new ExprNode.Literal(new byte[] {1, 2}, DataType.BYTEA),
        gt,
        cast,
        AggKind.COUNT_STAR,
        maxPrice,
        DispatcherKind.NO_SHUFFLE,
        BackfillKind.SNAPSHOT,
        JoinType.INNER,
        SourceConnector.NEXMARK,
        new StreamNode.Source(
            SourceConnector.DATAGEN, Map.of("datagen.rows.per.second", "10"), source, table(14)),
        new StreamNode.Dml(13, source),
        scan.node(),
        new StreamNode.Project(List.of(cast, new ExprNode.Literal(null, DataType.DATE))),
        filter.node(),
        agg.node(),
        join.node(),
        new StreamNode.Materialize(table(15)),
        exchange.node(),
        left.node(),
        new StreamNode.TumbleWindow(2, Interval.ofMicros(5_000_000)),
        new StreamNode.HopWindow(2, Interval.ofMicros(1_000_000), new Interval(0, 1, 0)),
        join,
        graph,
        graph.fragments().get(1),
        graph.edges().get(0),
        // version 2
        new StreamNode.StreamScan(7, List.of(0, 2), BackfillKind.ARRANGEMENT, table(8))
            .withUpstreamTable(table(7))
            .withRateLimit(500),
        // a new class in version 2 (new ids need no new format version); recorded from version 3
        new StreamNode.LocalAgg(List.of(0, 2), List.of(AggCall.countStar(), maxPrice)),
        // version 3
        new StreamNode.HashJoin(
            JoinType.INNER,
            List.of(0),
            List.of(0),
            Optional.empty(),
            table(11),
            table(12),
            List.of(1, 3)),
        new StreamNode.PaneHopAgg(
            List.of(0),
            2,
            3,
            Interval.ofMicros(2_000_000),
            Interval.ofMicros(10_000_000),
            table(16)));
  }
}
