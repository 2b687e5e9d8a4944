package dev.tideway.common.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Field;
import dev.tideway.common.types.Interval;
import dev.tideway.common.types.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Plan records refuse malformed shapes when built, naming the operator, field and value. */
class PlanRecordsTest {
  private static final Schema BIDS =
      Schema.of(
          Field.of("auction", DataType.BIGINT),
          Field.of("price", DataType.INT),
          Field.of("ts", DataType.TIMESTAMP));

  private static TableDesc table(int id, List<ColumnOrder> pk, List<Integer> dist) {
    return new TableDesc(
        id,
        "t" + id,
        List.of(
            new ColumnDesc(0, "auction", DataType.BIGINT),
            new ColumnDesc(1, "price", DataType.INT),
            new ColumnDesc(2, "ts", DataType.TIMESTAMP)),
        pk,
        dist,
        false,
        false);
  }

  private static StreamPlanNode scan() {
    return StreamPlanNode.leaf(
        1,
        new StreamNode.StreamScan(
            7,
            List.of(0, 1, 2),
            BackfillKind.ARRANGEMENT,
            table(8, List.of(ColumnOrder.asc(0)), List.of(0))),
        BIDS);
  }

  private static ExprNode.InputRef ref(int i, DataType t) {
    return new ExprNode.InputRef(i, t);
  }

  @Test
  void tableDescChecksKeys() {
    assertThatThrownBy(() -> table(5, List.of(ColumnOrder.asc(3)), List.of()))
        .hasMessageContaining("table 5: pk column 3 out of [0, 3)");
    assertThatThrownBy(() -> table(5, List.of(ColumnOrder.asc(0), ColumnOrder.desc(0)), List.of()))
        .hasMessageContaining("table 5: pk names column 0 twice");
    assertThatThrownBy(() -> table(5, List.of(ColumnOrder.asc(0)), List.of(1)))
        .hasMessageContaining("table 5: distribution key [1] is not a subset of the pk");
    assertThatThrownBy(() -> table(0, List.of(), List.of()))
        .hasMessageContaining("table id must be > 0, got 0");
    TableDesc ok = table(5, List.of(ColumnOrder.desc(2), ColumnOrder.asc(0)), List.of(0));
    assertThat(ok.pkIndices()).containsExactly(2, 0);
    assertThat(ok.schema().types())
        .containsExactly(DataType.BIGINT, DataType.INT, DataType.TIMESTAMP);
  }

  @Test
  void tableDescCopiesItsLists() {
    List<Integer> dist = new ArrayList<>(List.of(0));
    TableDesc t = table(5, List.of(ColumnOrder.asc(0)), dist);
    dist.add(2);
    assertThat(t.distributionKey()).containsExactly(0);
  }

  @Test
  void expressionsCheckArityTypesAndReferences() {
    assertThatThrownBy(
            () ->
                ExprNode.FunctionCall.of(
                    FunctionKind.ADD, DataType.BIGINT, ref(0, DataType.BIGINT)))
        .hasMessageContaining("ADD takes 2..2 args, got 1");
    assertThatThrownBy(() -> new ExprNode.Literal("x", DataType.INT))
        .hasMessageContaining("literal x (String) is not a integer");
    assertThat(new ExprNode.Literal(new byte[] {1}, DataType.BYTEA))
        .isEqualTo(new ExprNode.Literal(new byte[] {1}, DataType.BYTEA));
    assertThatThrownBy(() -> ref(3, DataType.BIGINT).checkAgainst(BIDS))
        .hasMessageContaining("input ref $3 out of [0, 3)");
    assertThatThrownBy(() -> ref(1, DataType.BIGINT).checkAgainst(BIDS))
        .hasMessageContaining("input ref $1 has type bigint but the input column is integer");
  }

  @Test
  void aggCallsCheckArgs() {
    assertThatThrownBy(() -> new AggCall(AggKind.SUM, List.of(), DataType.BIGINT, false))
        .hasMessageContaining("SUM takes 1 args, got 0");
    assertThatThrownBy(() -> new AggCall(AggKind.COUNT_STAR, List.of(), DataType.BIGINT, true))
        .hasMessageContaining("count(DISTINCT *) is invalid");
    assertThat(
            new AggCall(AggKind.COUNT, List.of(ref(0, DataType.BIGINT)), DataType.BIGINT, true)
                .distinct())
        .isTrue();
  }

  @Test
  void operatorsCheckTheirSchemas() {
    StreamPlanNode scan = scan();
    ExprNode notBoolean = ref(1, DataType.INT);
    assertThatThrownBy(() -> new StreamNode.Filter(notBoolean))
        .hasMessageContaining("Filter predicate must return boolean, got integer");
    assertThatThrownBy(
            () ->
                StreamPlanNode.unary(
                    2, new StreamNode.Project(List.of(ref(0, DataType.BIGINT))), scan, BIDS))
        .hasMessageContaining(
            "operator 2 (Project): Project output: expected types [bigint], got [bigint, integer, timestamp without time zone]");
    assertThatThrownBy(
            () ->
                new StreamPlanNode(
                    3, new StreamNode.Project(List.of(ref(0, DataType.BIGINT))), List.of(), BIDS))
        .hasMessageContaining("operator 3 (Project) takes 1 inputs, got 0");
    Schema aggOut = Schema.of(Field.of("auction", DataType.BIGINT), Field.of("n", DataType.BIGINT));
    StreamNode.HashAgg agg =
        new StreamNode.HashAgg(
            List.of(0),
            List.of(AggCall.countStar()),
            table(9, List.of(ColumnOrder.asc(0)), List.of(0)),
            Map.of());
    assertThat(StreamPlanNode.unary(4, agg, scan, aggOut).outputSchema()).isEqualTo(aggOut);
    assertThatThrownBy(
            () ->
                new StreamNode.HashAgg(
                    List.of(0),
                    List.of(AggCall.countStar()),
                    table(9, List.of(), List.of()),
                    Map.of(1, table(10, List.of(), List.of()))))
        .hasMessageContaining("HashAgg call state tables: index 1 out of [0, 1)");
  }

  @Test
  void joinsNeedMatchingKeys() {
    TableDesc t = table(11, List.of(ColumnOrder.asc(0)), List.of(0));
    assertThatThrownBy(
            () ->
                new StreamNode.HashJoin(
                    JoinType.INNER, List.of(0, 1), List.of(0), Optional.empty(), t, t))
        .hasMessageContaining("equally many (>= 1) left and right keys, got [0, 1] and [0]");
    StreamNode.HashJoin join =
        new StreamNode.HashJoin(JoinType.INNER, List.of(1), List.of(0), Optional.empty(), t, t);
    List<Field> both = new ArrayList<>(BIDS.fields());
    both.addAll(BIDS.fields());
    assertThatThrownBy(() -> new StreamPlanNode(5, join, List.of(scan(), scan()), new Schema(both)))
        .hasMessageContaining("HashJoin key 0: left $1 is integer but right $0 is bigint");
  }

  @Test
  void windowsAndExchanges() {
    assertThatThrownBy(
            () -> new StreamNode.HopWindow(2, Interval.ofMicros(3), Interval.ofMicros(10)))
        .hasMessageContaining("must be a multiple of the slide");
    assertThatThrownBy(() -> new StreamNode.TumbleWindow(2, new Interval(1, 0, 0)))
        .hasMessageContaining("tumble size must not use months");
    assertThatThrownBy(() -> new StreamNode.Exchange(DispatcherKind.HASH, List.of()))
        .hasMessageContaining("HASH exchange: distribution keys []");
    assertThatThrownBy(() -> new StreamNode.Exchange(DispatcherKind.BROADCAST, List.of(0)))
        .hasMessageContaining("BROADCAST exchange: distribution keys [0]");
    List<Field> withWindow = new ArrayList<>(BIDS.fields());
    withWindow.add(Field.of("window_start", DataType.TIMESTAMP));
    withWindow.add(Field.of("window_end", DataType.TIMESTAMP));
    StreamPlanNode tumble =
        StreamPlanNode.unary(
            6,
            new StreamNode.TumbleWindow(2, Interval.ofMicros(1_000_000)),
            scan(),
            new Schema(withWindow));
    assertThat(tumble.outputSchema().size()).isEqualTo(5);
    assertThatThrownBy(
            () ->
                StreamPlanNode.unary(
                    6,
                    new StreamNode.TumbleWindow(1, Interval.ofMicros(1)),
                    scan(),
                    new Schema(withWindow)))
        .hasMessageContaining("time column $1 must be a timestamp, got integer");
  }

  @Test
  void fragmentGraphsMustBeAcyclic() {
    StreamFragmentGraph.Fragment a = new StreamFragmentGraph.Fragment(1, scan(), false);
    StreamFragmentGraph.Fragment b = new StreamFragmentGraph.Fragment(2, scan(), false);
    StreamFragmentGraph.Edge ab =
        new StreamFragmentGraph.Edge(1, 2, DispatcherKind.NO_SHUFFLE, List.of());
    StreamFragmentGraph.Edge ba =
        new StreamFragmentGraph.Edge(2, 1, DispatcherKind.HASH, List.of(0));
    assertThat(new StreamFragmentGraph(List.of(a, b), List.of(ab)).fragment(2)).isEqualTo(b);
    assertThatThrownBy(() -> new StreamFragmentGraph(List.of(a, b), List.of(ab, ba)))
        .hasMessageContaining("fragment edges form a cycle");
    assertThatThrownBy(() -> new StreamFragmentGraph(List.of(a, a), List.of()))
        .hasMessageContaining("fragment id 1 used twice");
    assertThatThrownBy(() -> new StreamFragmentGraph(List.of(a), List.of(ab)))
        .hasMessageContaining("edge 1 -> 2 names a fragment not in [1]");
  }

  @Test
  void enumCodesAreStableAndRoundTrip() {
    for (FunctionKind k : FunctionKind.values()) {
      assertThat(FunctionKind.fromCode(k.code())).isEqualTo(k);
    }
    for (AggKind k : AggKind.values()) {
      assertThat(AggKind.fromCode(k.code())).isEqualTo(k);
    }
    // Spot-check a few codes: they are on the wire and must never change.
    assertThat(FunctionKind.ADD.code()).isEqualTo((byte) 10);
    assertThat(AggKind.AVG.code()).isEqualTo((byte) 6);
    assertThat(DispatcherKind.NO_SHUFFLE.code()).isEqualTo((byte) 4);
    assertThat(BackfillKind.SNAPSHOT.code()).isEqualTo((byte) 3);
    assertThatThrownBy(() -> FunctionKind.fromCode(99))
        .hasMessageContaining("unknown function kind code 99");
  }
}
