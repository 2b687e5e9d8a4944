package dev.tideway.compute.executor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.plan.JoinType;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Schema;
import dev.tideway.compute.actor.Doorbell;
import dev.tideway.compute.actor.TestBarriers;
import dev.tideway.compute.exchange.ChannelId;
import dev.tideway.compute.exchange.LocalChannel;
import dev.tideway.compute.exchange.MergeExecutor;
import dev.tideway.compute.expr.ExprErrorSink;
import dev.tideway.storage.api.StateStores;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.StorageOptions;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A join whose two merges are fed by one upstream thread, as a table joined with an aggregate of
 * itself is: the upstream writes an epoch's rows to the left channel and only then the barrier to
 * both, the right side (the aggregate) having nothing to send before its barrier. The channels hold
 * two messages. A join blocked on the empty right merge would stop the upstream on the full left
 * channel before the barrier, for good; over merges sharing the actor's doorbell it must pass every
 * epoch and join every row.
 */
class JoinOverMergesTest {
  private static final Schema KV = Schema.ofTypes(DataType.BIGINT, DataType.BIGINT);
  private static final int EPOCHS = 5;
  private static final int CHUNKS_PER_EPOCH = 50;

  @Test
  void oneUpstreamFeedingBothSidesOfAJoinDoesNotDeadlockIt() throws Exception {
    LocalChannel left = new LocalChannel(ChannelId.of(1, 2), 2);
    LocalChannel right = new LocalChannel(ChannelId.of(1, 3), 2);
    Doorbell bell = new Doorbell();
    Executor l = new MergeExecutor(new ExecutorInfo(2, 1, "Merge"), KV, List.of(left), bell);
    Executor r = new MergeExecutor(new ExecutorInfo(2, 2, "Merge"), KV, List.of(right), bell);
    CompletableFuture<Void> upstream =
        CompletableFuture.runAsync(
            () -> {
              left.send(TestBarriers.barrier(1));
              right.send(TestBarriers.barrier(1));
              for (int e = 2; e <= EPOCHS + 1; e++) {
                for (int c = 0; c < CHUNKS_PER_EPOCH; c++) {
                  left.send(Message.of(rows(Op.INSERT, e * 1000 + c, 1)));
                }
                // the right side's one row per epoch (an aggregate's result), then the barrier
                right.send(Message.of(rows(Op.INSERT, e * 1000 + 7, 2)));
                left.send(TestBarriers.barrier(e));
                right.send(TestBarriers.barrier(e));
              }
            });
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      HashJoinExecutor join =
          new HashJoinExecutor(
              new ExecutorInfo(2, 3, "HashJoin"),
              l,
              r,
              HashJoinExecutorTest.plan(false),
              store,
              HashJoinExecutor.DEFAULT_CACHE_UNITS,
              HashJoinExecutor.DEFAULT_FILTER_BITS,
              ExprErrorSink.STRICT);
      CompletableFuture<long[]> consumer =
          CompletableFuture.supplyAsync(
              () -> {
                long barriers = 0;
                long joined = 0;
                while (barriers < EPOCHS + 1) {
                  Message m = join.next();
                  if (m == null) {
                    bell.await(Doorbell.WAIT_MS); // as the actor does (StreamActor)
                  } else if (m instanceof Barrier) {
                    barriers++;
                  } else if (m instanceof Message.Chunk c) {
                    joined += c.chunk().cardinality();
                  }
                }
                return new long[] {barriers, joined};
              });
      long[] out = consumer.get(20, TimeUnit.SECONDS);
      upstream.get(5, TimeUnit.SECONDS);
      assertThat(out[0]).isEqualTo(EPOCHS + 1);
      assertThat(out[1]).as("each epoch's right row joins its one left row").isEqualTo(EPOCHS);
    }
  }

  @Test
  void anOuterJoinReadsItsOtherInputWhileTheInnerJoinHasNothing() throws Exception {
    // join2(join1(a, u), g): the upstream fills g with an epoch's rows before it sends the
    // barriers; a and u stay empty. join1 returns null ("nothing now") and join2 reads g; a join
    // that waited for its own inputs instead would never let join2 drain g, and the upstream would
    // block on g before the barriers
    LocalChannel a = new LocalChannel(ChannelId.of(1, 2), 2);
    LocalChannel u = new LocalChannel(ChannelId.of(3, 2), 2);
    LocalChannel g = new LocalChannel(ChannelId.of(4, 2), 2);
    Doorbell bell = new Doorbell();
    Executor ma = new MergeExecutor(new ExecutorInfo(2, 1, "Merge"), KV, List.of(a), bell);
    Executor mu = new MergeExecutor(new ExecutorInfo(2, 2, "Merge"), KV, List.of(u), bell);
    Executor mg = new MergeExecutor(new ExecutorInfo(2, 3, "Merge"), KV, List.of(g), bell);
    CompletableFuture<Void> upstream =
        CompletableFuture.runAsync(
            () -> {
              for (int e = 1; e <= EPOCHS + 1; e++) {
                for (int c = 0; e > 1 && c < CHUNKS_PER_EPOCH; c++) {
                  g.send(Message.of(rows(Op.INSERT, e * 1000 + c, 3)));
                }
                a.send(TestBarriers.barrier(e));
                u.send(TestBarriers.barrier(e));
                g.send(TestBarriers.barrier(e));
              }
            });
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      HashJoinExecutor join1 =
          new HashJoinExecutor(
              new ExecutorInfo(2, 4, "HashJoin"), ma, mu, HashJoinExecutorTest.plan(false), store);
      HashJoinExecutor join2 =
          new HashJoinExecutor(
              new ExecutorInfo(2, 5, "HashJoin"),
              join1,
              mg,
              new StreamNode.HashJoin(
                  JoinType.INNER,
                  List.of(0),
                  List.of(0),
                  Optional.empty(),
                  HashAggExecutorTest.table(22),
                  HashAggExecutorTest.table(23)),
              store);
      CompletableFuture<Long> consumer =
          CompletableFuture.supplyAsync(
              () -> {
                long barriers = 0;
                while (barriers < EPOCHS + 1) {
                  Message m = join2.next();
                  if (m == null) {
                    bell.await(Doorbell.WAIT_MS); // as the actor does (StreamActor)
                  } else if (m instanceof Barrier) {
                    barriers++;
                  }
                }
                return barriers;
              });
      assertThat(consumer.get(20, TimeUnit.SECONDS)).isEqualTo(EPOCHS + 1);
      upstream.get(5, TimeUnit.SECONDS);
    }
  }

  /** One chunk of a single row {@code (key, value)}. */
  private static dev.tideway.common.chunk.StreamChunk rows(Op op, long key, long value) {
    StreamChunkBuilder b = new StreamChunkBuilder(KV.types(), 1);
    b.append(op, Row.of(key, value));
    return b.build();
  }
}
