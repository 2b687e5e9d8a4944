package dev.tideway.compute.executor.build;

import static dev.tideway.compute.testing.Drain.chunk;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.plan.AggCall;
import dev.tideway.common.plan.AggKind;
import dev.tideway.common.plan.ColumnDesc;
import dev.tideway.common.plan.ColumnOrder;
import dev.tideway.common.plan.ExprNode;
import dev.tideway.common.plan.FunctionKind;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.time.ManualClock;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Schema;
import dev.tideway.compute.actor.BarrierInbox;
import dev.tideway.compute.actor.ExecutorBuildContext;
import dev.tideway.compute.actor.ExecutorBuilder;
import dev.tideway.compute.actor.ExecutorBuilders;
import dev.tideway.compute.actor.StateCaches;
import dev.tideway.compute.executor.HashAggExecutor;
import dev.tideway.compute.testing.Drain;
import dev.tideway.compute.testing.MockSource;
import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.StateStores;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.StorageOptions;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A Project → Filter → HashAgg → Materialize plan built from plan records through the registry the
 * service loader finds gives the rows the query means.
 */
class ExecutorBuildersChainTest {
  static final DataType BIG = DataType.BIGINT;

  static ExecutorBuildContext ctx(Storage store) {
    BitSet all = new BitSet();
    all.set(0, 256);
    return new ExecutorBuildContext(
        7,
        1,
        all,
        new BarrierInbox(7),
        List.of(),
        new ManualClock(0),
        store,
        (e, a, c, x, r) -> {});
  }

  static TableDesc table(int id, List<DataType> types) {
    List<ColumnDesc> cols = new java.util.ArrayList<>();
    for (int i = 0; i < types.size(); i++) {
      cols.add(new ColumnDesc(i, "c" + i, types.get(i)));
    }
    return new TableDesc(id, "t" + id, cols, List.of(ColumnOrder.asc(0)), List.of(0), false, false);
  }

  /** select k, count(*), sum(v + 1) from (leaf) where v + 1 > 10 group by k. */
  static StreamPlanNode plan() {
    ExprNode k = new ExprNode.InputRef(0, BIG);
    ExprNode.InputRef v = new ExprNode.InputRef(1, BIG);
    Schema kv = Schema.ofTypes(BIG, BIG);
    StreamPlanNode leaf = StreamPlanNode.leaf(0, new StreamNode.Dml(1, kv), kv);
    ExprNode plusOne =
        ExprNode.FunctionCall.of(FunctionKind.ADD, BIG, v, new ExprNode.Literal(1L, BIG));
    StreamPlanNode project =
        StreamPlanNode.unary(1, new StreamNode.Project(List.of(k, plusOne)), leaf, kv);
    ExprNode pred =
        ExprNode.FunctionCall.of(
            FunctionKind.GREATER_THAN, DataType.BOOLEAN, v, new ExprNode.Literal(10L, BIG));
    StreamPlanNode filter = StreamPlanNode.unary(2, new StreamNode.Filter(pred), project, kv);
    List<DataType> out = List.of(BIG, BIG, DataType.DECIMAL);
    StreamPlanNode agg =
        StreamPlanNode.unary(
            3,
            new StreamNode.HashAgg(
                List.of(0),
                List.of(AggCall.countStar(), AggCall.of(AggKind.SUM, v, DataType.DECIMAL)),
                table(10, List.of(BIG)),
                Map.of()),
            filter,
            Schema.ofTypes(out));
    return StreamPlanNode.unary(
        4, new StreamNode.Materialize(table(20, out)), agg, Schema.ofTypes(out));
  }

  /** The operator builders plus one that serves the plan's (Dml) leaf from {@code src}. */
  static ExecutorBuilders builders(MockSource src) {
    ExecutorBuilder leaf =
        new ExecutorBuilder() {
          @Override
          public Set<Class<? extends StreamNode>> nodeKinds() {
            return Set.of(StreamNode.Dml.class);
          }

          @Override
          public Executor build(ExecutorBuildContext c, StreamPlanNode n, List<Executor> in) {
            return src;
          }
        };
    return ExecutorBuilders.of(new StatelessBuilder(), new StatefulBuilder(), leaf);
  }

  @Test
  void projectFilterAggMaterializeChainEmitsTheQuerysChanges() {
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      MockSource src = MockSource.of("bigint", "bigint");
      src.pushBarrier(Epochs.of(1))
          .pushChunk(
              """
              + 1 10
              + 1 3
              + 2 20
              + 1 30
              """)
          .pushBarrier(Epochs.of(2))
          .pushChunk(
              """
              - 1 10
              + 2 10
              """)
          .pushBarrier(Epochs.of(3));
      Executor root = ExecutorChains.build(builders(src), ctx(store), plan());
      assertThat(root.schema().types()).containsExactly(BIG, BIG, DataType.DECIMAL);
      List<String> out =
          Drain.pretty(Drain.all(root)).stream().filter(s -> !s.startsWith("B")).toList();
      assertThat(out)
          .containsExactly(
              chunk(
                  """
                  bigint bigint numeric
                  + 1 2 42
                  + 2 1 21
                  """),
              chunk(
                  """
                  bigint bigint numeric
                  U- 1 2 42
                  U+ 1 1 31
                  U- 2 1 21
                  U+ 2 2 32
                  """));
    }
  }

  @Test
  void aHashAggKeepsNoMoreGroupsThanTheNodesConfiguredBound() {
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      MockSource src = MockSource.of("bigint", "bigint");
      StringBuilder rows = new StringBuilder();
      for (int k = 0; k < 100; k++) {
        rows.append("+ ").append(k).append(" 50\n");
      }
      src.pushBarrier(Epochs.of(1)).pushChunk(rows.toString()).pushBarrier(Epochs.of(2));
      ExecutorBuildContext base = ctx(store);
      ExecutorBuildContext bounded =
          new ExecutorBuildContext(
              base.actorId(),
              base.fragmentId(),
              base.vnodes(),
              base.barrierInbox(),
              base.splits(),
              base.clock(),
              base.stateStore(),
              base.progressSink(),
              null,
              base.dmlChannels(),
              null,
              new StateCaches(8, 100),
              base.exprErrors(),
              dev.tideway.compute.executor.ConnectorStats.NONE,
              true);
      StreamPlanNode agg = plan().inputs().get(0);
      HashAggExecutor e = (HashAggExecutor) new StatefulBuilder().build(bounded, agg, List.of(src));
      long emitted =
          Drain.all(e).stream()
              .filter(m -> m instanceof Message.Chunk)
              .mapToLong(m -> ((Message.Chunk) m).chunk().cardinality())
              .sum();
      assertThat(emitted).as("all 100 groups are emitted").isEqualTo(100);
      assertThat(e.cachedGroups()).isLessThanOrEqualTo(8);
    }
  }

  @Test
  void aPlanKindWithoutBuilderIsNamed() {
    ExecutorBuilders none = ExecutorBuilders.of(new StatelessBuilder());
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      assertThatThrownBy(() -> ExecutorChains.build(none, ctx(store), plan()))
          .hasMessageContaining("no executor builder for plan node Dml");
    }
  }
}
