package dev.tideway.meta.fragment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.common.plan.AggCall;
import dev.tideway.common.plan.DispatcherKind;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.protocol.catalog.FragmentDistribution;
import dev.tideway.protocol.catalog.FragmentGraph.Edge;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FragmenterTest {
  @Test
  void cutsAtTheExchangeAndReplacesItWithAMerge() {
    List<StreamFragment> fs = Fragmenter.fragment(Plans.countByK(1, 2, 3), new IdAllocator(100));

    assertThat(fs).hasSize(2);
    StreamFragment source = fs.get(0);
    StreamFragment agg = fs.get(1);
    assertThat(source.root().node()).isInstanceOf(StreamNode.Source.class);
    assertThat(source.upstreams()).isEmpty();
    assertThat(source.stateTableIds()).containsExactly(1);
    assertThat(agg.root().node()).isInstanceOf(StreamNode.Materialize.class);
    StreamPlanNode aggOp = agg.root().inputs().get(0);
    StreamPlanNode merge = aggOp.inputs().get(0);
    assertThat(merge.node())
        .isEqualTo(new StreamNode.Merge(source.fragmentId(), DispatcherKind.HASH));
    assertThat(merge.operatorId()).as("the merge keeps the exchange's operator id").isEqualTo(2);
    assertThat(agg.upstreams())
        .containsExactly(new Edge(source.fragmentId(), DispatcherKind.HASH, List.of(0), false));
    assertThat(agg.stateTableIds()).containsExactly(3, 2);
    assertThat(agg.distribution()).isEqualTo(FragmentDistribution.HASH);
    assertThat(source.fragmentId()).isLessThan(agg.fragmentId());
  }

  @Test
  void simpleExchangeOrGlobalAggregationMakesASingletonFragment() {
    StreamPlanNode ex =
        StreamPlanNode.unary(
            2,
            new StreamNode.Exchange(DispatcherKind.SIMPLE, List.of()),
            Plans.source(1),
            Plans.KV);
    StreamPlanNode agg =
        StreamPlanNode.unary(
            3,
            new StreamNode.HashAgg(
                List.of(),
                List.of(AggCall.countStar()),
                Plans.table(2, "a", Plans.K_CNT, false),
                Map.of()),
            ex,
            dev.tideway.common.types.Schema.ofTypes(dev.tideway.common.types.DataType.BIGINT));
    List<StreamFragment> fs = Fragmenter.fragment(agg, new IdAllocator(1));
    assertThat(fs.get(0).distribution()).isEqualTo(FragmentDistribution.HASH);
    assertThat(fs.get(1).distribution()).isEqualTo(FragmentDistribution.SINGLETON);
  }

  @Test
  void scansRecordTheTableTheyRead() {
    List<StreamFragment> fs = Fragmenter.fragment(Plans.mvOnMv(3, 4, 5), new IdAllocator(10));
    assertThat(fs).hasSize(1);
    assertThat(fs.get(0).upstreamTableIds()).containsExactly(3);
    assertThat(fs.get(0).stateTableIds()).containsExactly(5, 4);
  }

  /**
   * A pane count's state table is owned by its fragment and listed with the job's tables (else a
   * new meta leader drops its data as an orphan, and DROP leaves it behind).
   */
  @Test
  void aPaneCountOwnsItsStateTable() {
    dev.tideway.common.types.DataType ts = dev.tideway.common.types.DataType.TIMESTAMP;
    dev.tideway.common.types.DataType big = dev.tideway.common.types.DataType.BIGINT;
    dev.tideway.common.types.Schema partials =
        dev.tideway.common.types.Schema.ofTypes(big, ts, big);
    StreamPlanNode src =
        StreamPlanNode.leaf(
            1,
            new StreamNode.Source(
                dev.tideway.common.plan.SourceConnector.DATAGEN,
                Map.of("rows.per.second", "10"),
                partials,
                Plans.table(9, "src_state", Plans.KV, true)),
            partials);
    StreamPlanNode pane =
        StreamPlanNode.unary(
            2,
            new StreamNode.PaneHopAgg(
                List.of(0),
                1,
                2,
                dev.tideway.common.types.Interval.ofMicros(2_000_000),
                dev.tideway.common.types.Interval.ofMicros(10_000_000),
                Plans.table(7, "pane_count", Plans.K_CNT, true)),
            src,
            dev.tideway.common.types.Schema.ofTypes(big, ts, ts, big));
    assertThat(Fragmenter.stateTables(pane))
        .extracting(dev.tideway.common.plan.TableDesc::tableId)
        .containsExactly(7, 9);
    assertThat(Fragmenter.fragment(pane, new IdAllocator(1)).get(0).stateTableIds())
        .containsExactly(7, 9);
  }

  /**
   * The plan node kinds holding a table desc are the ones {@link Fragmenter} knows: a new stateful
   * kind fails here until its tables are collected there.
   */
  @Test
  void everyPlanNodeKindWithAStateTableIsKnown() {
    java.util.Set<String> withTables = new java.util.TreeSet<>();
    for (Class<?> kind : StreamNode.class.getPermittedSubclasses()) {
      for (java.lang.reflect.RecordComponent c : kind.getRecordComponents()) {
        if (c.getGenericType().getTypeName().contains("TableDesc")) {
          withTables.add(kind.getSimpleName());
        }
      }
    }
    assertThat(withTables)
        .containsExactlyInAnyOrder(
            "Source",
            "StreamScan",
            "HashAgg",
            "HashJoin",
            "Materialize",
            "PaneHopAgg",
            "SinkNode",
            "SourceBackfillNode");
  }

  @Test
  void aPlanEndingInAnExchangeIsRefused() {
    StreamPlanNode ex =
        StreamPlanNode.unary(
            2,
            new StreamNode.Exchange(DispatcherKind.SIMPLE, List.of()),
            Plans.source(1),
            Plans.KV);
    assertThatThrownBy(() -> Fragmenter.fragment(ex, new IdAllocator(1)))
        .hasMessageContaining("operator 2 is an Exchange");
  }
}
