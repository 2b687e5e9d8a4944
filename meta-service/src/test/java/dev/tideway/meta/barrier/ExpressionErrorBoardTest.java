package dev.tideway.meta.barrier;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.control.InjectBarrier;
import dev.tideway.common.time.ManualClock;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.protocol.compute.ExpressionErrorCount;
import dev.tideway.storage.api.CompactionJob;
import dev.tideway.storage.api.CompactionOutcome;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class ExpressionErrorBoardTest {
  /** Answers each node's ask with the future the test holds for it. */
  static final class AskedNodes implements ComputeClient {
    final Map<String, List<CompletableFuture<List<ExpressionErrorCount>>>> asks = new HashMap<>();

    CompletableFuture<List<ExpressionErrorCount>> last(String node) {
      List<CompletableFuture<List<ExpressionErrorCount>>> l = asks.get(node);
      return l.get(l.size() - 1);
    }

    int asked(String node) {
      return asks.getOrDefault(node, List.of()).size();
    }

    @Override
    public CompletableFuture<List<ExpressionErrorCount>> expressionErrors(String node) {
      CompletableFuture<List<ExpressionErrorCount>> f = new CompletableFuture<>();
      asks.computeIfAbsent(node, n -> new ArrayList<>()).add(f);
      return f;
    }

    @Override
    public void inject(InjectBarrier request) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<Void> build(FragmentGraph graph, CatalogState catalog) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void reset(long generation, long committedEpoch, CatalogState catalog) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void drop(Set<Integer> actorIds) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<CompactionOutcome> compact(String node, CompactionJob job) {
      throw new UnsupportedOperationException();
    }
  }

  static ExpressionErrorCount div0(int job, long count, String msg, long at) {
    return new ExpressionErrorCount(job, 2, "DIVISION_BY_ZERO", count, msg, at);
  }

  @Test
  void countsAreSummedOverNodesWithTheLatestMessageAndCollectedAtMostOncePerInterval() {
    AskedNodes nodes = new AskedNodes();
    ManualClock clock = new ManualClock(1_000_000);
    List<String> live = new ArrayList<>(List.of("a", "b"));
    ExpressionErrorBoard board = new ExpressionErrorBoard(nodes, () -> live, clock);

    assertThat(board.latest()).as("nothing collected yet").isEmpty();
    assertThat(board.latest()).isEmpty();
    assertThat(nodes.asked("a")).as("one ask in flight at a time").isEqualTo(1);
    nodes.last("a").complete(List.of(div0(7, 3, "a: 1 / 0", 10)));
    nodes.last("b").complete(List.of(div0(7, 2, "b: 5 / 0", 20), div0(8, 1, "x / 0", 5)));
    assertThat(board.latest()).containsExactly(div0(7, 5, "b: 5 / 0", 20), div0(8, 1, "x / 0", 5));
    assertThat(nodes.asked("a")).as("within the interval: no new ask").isEqualTo(1);

    // next interval: b does not answer (keeps its counts), a has more
    clock.advanceMillis(ExpressionErrorBoard.REFRESH_MS);
    board.latest();
    nodes.last("a").complete(List.of(div0(7, 4, "a: 2 / 0", 30)));
    nodes.last("b").completeExceptionally(new IllegalStateException("unreachable"));
    assertThat(board.latest()).containsExactly(div0(7, 6, "a: 2 / 0", 30), div0(8, 1, "x / 0", 5));

    // b no longer runs actors: its counts leave
    live.remove("b");
    clock.advanceMillis(ExpressionErrorBoard.REFRESH_MS);
    board.latest();
    nodes.last("a").complete(List.of(div0(7, 4, "a: 2 / 0", 30)));
    assertThat(board.latest()).containsExactly(div0(7, 4, "a: 2 / 0", 30));
  }
}
