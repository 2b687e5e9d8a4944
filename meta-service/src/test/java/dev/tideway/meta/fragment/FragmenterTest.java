package dev.tideway.meta.fragment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.common.plan.AggCall;
import dev.tideway.common.plan.DispatcherKind;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.meta.metadata.FragmentDistribution;
import dev.tideway.meta.metadata.FragmentGraph.Edge;
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
