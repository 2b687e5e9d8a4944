package dev.tideway.compute.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.common.plan.AggKind;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * q5's plan shares its per-auction count: across the three fragments one PaneHopAgg sums the source
 * fragment's partial counts per pane, and the query actor's two merges both read its output (the
 * view itself is checked against the raw loop in {@link NexmarkBenchmarkTest}).
 */
class ThreeFragmentJobTest {
  private static final Map<String, String> SOURCE =
      Map.of("nexmark.table.type", "Bid", "nexmark.event.num", "100", "nexmark.split.num", "2");

  @Test
  void theCountIsComputedOnceAndReadByBothConsumers() {
    ThreeFragmentJob job = new ThreeFragmentJob(2);
    List<StreamPlanNode> all = new ArrayList<>();
    collect(NexmarkQuery.Q5.plan(SOURCE), all);
    for (LocalJob.Fragment f : job.downstream()) {
      collect(f.plan(), all);
    }
    // the count in two phases: partial counts in the source fragment, summed once per group
    List<StreamNode.LocalAgg> partials =
        all.stream()
            .map(StreamPlanNode::node)
            .filter(StreamNode.LocalAgg.class::isInstance)
            .map(StreamNode.LocalAgg.class::cast)
            .toList();
    assertThat(partials).hasSize(1);
    assertThat(partials.get(0).aggCalls())
        .extracting(c -> c.kind())
        .containsExactly(AggKind.COUNT_STAR);
    // per (auction, pane), the count's second phase keeping one row per pane, not per window
    assertThat(partials.get(0).groupKeys()).hasSize(2);
    List<StreamNode.PaneHopAgg> sums =
        all.stream()
            .map(StreamPlanNode::node)
            .filter(StreamNode.PaneHopAgg.class::isInstance)
            .map(StreamNode.PaneHopAgg.class::cast)
            .toList();
    assertThat(sums).hasSize(1);
    assertThat(all).noneMatch(n -> n.node() instanceof StreamNode.HopWindow);

    List<StreamPlanNode> query = new ArrayList<>();
    collect(job.viewPlan(), query);
    assertThat(query)
        .filteredOn(
            n ->
                n.node() instanceof StreamNode.Merge m
                    && m.upstreamFragmentId() == ThreeFragmentJob.COUNT_FRAGMENT)
        .hasSize(2);
  }

  @Test
  void everyFragmentHasPActorsAndAnActorOutsideTheJobIsNamed() {
    ThreeFragmentJob job = new ThreeFragmentJob(3);
    assertThat(job.downstream())
        .extracting(LocalJob.Fragment::actorIds)
        .containsExactly(List.of(200, 201, 202), List.of(300, 301, 302));
    assertThatThrownBy(() -> job.output(303, null))
        .hasMessageContaining("q5 with P=3 has no actor 303");
  }

  private static void collect(StreamPlanNode n, List<StreamPlanNode> out) {
    out.add(n);
    n.inputs().forEach(i -> collect(i, out));
  }
}
