package dev.tideway.compute.node;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Message;
import dev.tideway.barrier.progress.CreateMviewProgressReporter;
import dev.tideway.common.plan.ColumnDesc;
import dev.tideway.common.plan.ColumnOrder;
import dev.tideway.common.plan.DispatcherKind;
import dev.tideway.common.plan.SourceConnector;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Schema;
import dev.tideway.common.vnode.VirtualNode;
import dev.tideway.compute.actor.ExecutorBuildContext;
import dev.tideway.compute.actor.ExecutorBuilder;
import dev.tideway.compute.actor.ExecutorBuilders;
import dev.tideway.compute.actor.TestSource;
import dev.tideway.compute.executor.build.DmlBuilder;
import dev.tideway.compute.executor.build.StatefulBuilder;
import dev.tideway.protocol.compute.ActorSpec;
import dev.tideway.protocol.compute.DispatchSpec;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A two-fragment job for node tests: fragment 1 is a source ({@link TestSource}) whose actors
 * hash-dispatch on column 0 to fragment 2, a merge into a collecting "materialize" sink. Source
 * actor {@code i} emits keys {@code i - 1, i - 1 + sources, ...}; properties {@code chunks} and
 * {@code rows} set chunks per epoch and rows per chunk.
 */
final class TestJob {
  static final Schema SCHEMA = TestSource.SCHEMA;
  static final int SOURCE_FRAGMENT = 1;
  static final int SINK_FRAGMENT = 2;

  /** Tables with at least this id are materialized for real (in the node's state store). */
  static final int REAL_TABLES = 600;

  /** Rows each sink actor received, by actor id. */
  static final Map<Integer, List<Row>> SINK_ROWS = new ConcurrentHashMap<>();

  /** The number of barriers a sink had passed when each row reached it. */
  static final Map<Row, Integer> ROW_EPOCH = new ConcurrentHashMap<>();

  /** The first message each sink actor received: the barrier's curr epoch, or -1 for data. */
  static final Map<Integer, Long> FIRST_MESSAGE = new ConcurrentHashMap<>();

  /** Milliseconds a sink sleeps per chunk (a slow consumer); 0 = none. */
  static volatile int sinkSleepMsPerChunk;

  /** Built sources, by actor id (to crash one). */
  static final Map<Integer, TestSource> SOURCES = new ConcurrentHashMap<>();

  private TestJob() {}

  static ExecutorBuilders builders() {
    return ExecutorBuilders.of(new SourceBuilder(), new SinkBuilder(), new DmlBuilder());
  }

  static TableDesc table(int id) {
    return new TableDesc(
        id,
        "t" + id,
        List.of(new ColumnDesc(0, "k", DataType.BIGINT), new ColumnDesc(1, "v", DataType.BIGINT)),
        List.of(ColumnOrder.asc(0)),
        List.of(0),
        false,
        false);
  }

  static StreamPlanNode sourcePlan(int chunks, int rows) {
    return StreamPlanNode.leaf(
        1,
        new StreamNode.Source(
            SourceConnector.DATAGEN,
            Map.of("chunks", "" + chunks, "rows", "" + rows),
            SCHEMA,
            table(100)),
        SCHEMA);
  }

  static StreamPlanNode sinkPlan() {
    StreamPlanNode merge =
        StreamPlanNode.leaf(2, new StreamNode.Merge(SOURCE_FRAGMENT, DispatcherKind.HASH), SCHEMA);
    return StreamPlanNode.unary(3, new StreamNode.Materialize(table(200)), merge, SCHEMA);
  }

  static BitSet allVnodes() {
    BitSet b = new BitSet(VirtualNode.COUNT);
    b.set(0, VirtualNode.COUNT);
    return b;
  }

  /** The spec of source actor {@code id} dispatching by hash to {@code sinks}. */
  static ActorSpec source(int id, List<Integer> sinks, int chunks, int rows) {
    return new ActorSpec(
        id,
        SOURCE_FRAGMENT,
        sourcePlan(chunks, rows),
        allVnodes(),
        Map.of(),
        List.of(DispatchSpec.hashRoundRobin(List.of(0), sinks)),
        List.of("split-" + id));
  }

  /** The spec of sink actor {@code id} merging {@code sources}. */
  static ActorSpec sink(int id, List<Integer> sources) {
    return new ActorSpec(
        id,
        SINK_FRAGMENT,
        sinkPlan(),
        allVnodes(),
        Map.of(SOURCE_FRAGMENT, sources),
        List.of(),
        List.of());
  }

  static final class SourceBuilder implements ExecutorBuilder {
    @Override
    public Set<Class<? extends StreamNode>> nodeKinds() {
      return Set.of(StreamNode.Source.class);
    }

    @Override
    public Executor build(ExecutorBuildContext ctx, StreamPlanNode node, List<Executor> inputs) {
      var props = ((StreamNode.Source) node.node()).properties();
      int sourceIndex = ctx.actorId(); // actors 1..n
      TestSource s =
          new TestSource(
              ctx.infoOf(node),
              ctx.barrierInbox(),
              Integer.parseInt(props.get("chunks")),
              Integer.parseInt(props.get("rows")),
              sourceIndex - 1,
              2);
      SOURCES.put(ctx.actorId(), s);
      // Reports its cumulative rows before yielding each barrier, as a backfill executor would.
      CreateMviewProgressReporter reporter =
          new CreateMviewProgressReporter(ctx.actorId(), ctx.progressSink());
      return new Executor() {
        @Override
        public Schema schema() {
          return s.schema();
        }

        @Override
        public ExecutorInfo info() {
          return s.info();
        }

        @Override
        public Message next() {
          Message m = s.next();
          if (m instanceof dev.tideway.barrier.message.Barrier b) {
            reporter.update(b.epoch(), b.prev(), s.emittedRows());
          }
          return m;
        }
      };
    }
  }

  static final class SinkBuilder implements ExecutorBuilder {
    @Override
    public Set<Class<? extends StreamNode>> nodeKinds() {
      return Set.of(StreamNode.Materialize.class);
    }

    @Override
    public Executor build(ExecutorBuildContext ctx, StreamPlanNode node, List<Executor> inputs) {
      if (((StreamNode.Materialize) node.node()).table().tableId() >= REAL_TABLES) {
        return new StatefulBuilder().build(ctx, node, inputs);
      }
      List<Row> rows = SINK_ROWS.computeIfAbsent(ctx.actorId(), a -> new CopyOnWriteArrayList<>());
      Executor in = inputs.get(0);
      ExecutorInfo info = ctx.infoOf(node);
      return new Executor() {
        @Override
        public Schema schema() {
          return in.schema();
        }

        @Override
        public ExecutorInfo info() {
          return info;
        }

        private int barriersSeen;

        @Override
        public Message next() {
          Message m = in.next();
          if (m != null) {
            FIRST_MESSAGE.putIfAbsent(
                ctx.actorId(), m instanceof dev.tideway.barrier.message.Barrier b ? b.curr() : -1L);
          }
          if (m instanceof Message.Chunk c) {
            c.chunk()
                .visibleRows()
                .forEach(
                    r -> {
                      rows.add(r.row());
                      ROW_EPOCH.put(r.row(), barriersSeen);
                    });
            sleep();
          } else if (m instanceof dev.tideway.barrier.message.Barrier) {
            barriersSeen++;
          }
          return m;
        }

        private void sleep() {
          int ms = sinkSleepMsPerChunk;
          if (ms > 0) {
            try {
              dev.tideway.common.time.Clock.system().sleepMillis(ms);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              throw new dev.tideway.compute.actor.ActorInterrupted("sink interrupted", e);
            }
          }
        }
      };
    }
  }
}
