package dev.tideway.compute.executor.sink;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.message.Message;
import dev.tideway.barrier.progress.ProgressSink;
import dev.tideway.barrier.progress.SinkDelivery;
import dev.tideway.common.fault.FailPoints;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.Schema;
import dev.tideway.compute.executor.ConnectorStats;
import dev.tideway.connector.kafka.KafkaEpochWriter;
import dev.tideway.storage.api.StateStore;
import dev.tideway.storage.table.StateTable;
import dev.tideway.storage.table.StateTable.CloseableRows;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes its input's changes to Kafka, each change once. The records of an epoch are kept in the
 * sink's log store (a state table {@code (epoch, seq) → records}) written in that epoch, so they
 * are durable exactly when the epoch is (one log row per input chunk, its records packed); once the
 * node's committed epoch reaches an epoch, its records go to Kafka in one transaction that also
 * records the epoch in Kafka ({@link KafkaEpochWriter}), and the log rows are deleted. A recovery
 * finds in the log store every committed epoch not yet deleted and in Kafka the last epoch
 * delivered, and sends the ones after it: nothing is lost, nothing is written twice. With
 * at-least-once delivery the log store is not used: an epoch's records are sent and flushed on its
 * barrier.
 *
 * <p>With every barrier it reports to meta ({@link SinkDelivery}) the newest epoch Kafka holds and
 * the records sent since it started, for the dashboard.
 *
 * <p>Runs as a singleton (the planner puts a SIMPLE exchange before it). Confined to the actor's
 * thread.
 */
public final class SinkExecutor implements Executor, AutoCloseable {
  /**
   * Fires after an epoch reached Kafka and before its log rows are deleted: a recovery here must
   * not send the epoch again.
   */
  public static final String FP_AFTER_DELIVER = FailPoints.declare("sink.after-deliver");

  private final ExecutorInfo info;
  private final Executor input;
  private final ChangeEncoder encoder;
  private final KafkaEpochWriter writer;
  private final boolean exactlyOnce;
  private final StateTable log;
  private final StateStore store;
  private final int sinkId;
  private final ConnectorStats stats;
  private final ProgressSink progress;

  /** Log rows of the epochs closed but not yet delivered, by epoch. */
  private final TreeMap<Long, List<Row>> pending = new TreeMap<>();

  private List<Row> current = new ArrayList<>();
  private long currEpoch;
  private int seq;
  private boolean started;

  /** The newest epoch Kafka holds (0: none yet), and the records this executor sent. */
  private long deliveredEpoch;

  private long deliveredRecords;

  public SinkExecutor(
      ExecutorInfo info,
      Executor input,
      ChangeEncoder encoder,
      KafkaEpochWriter writer,
      boolean exactlyOnce,
      StateTable log,
      StateStore store,
      int sinkId,
      ConnectorStats stats,
      ProgressSink progress) {
    this.progress = progress;
    this.sinkId = sinkId;
    this.stats = stats;
    this.info = info;
    this.input = input;
    this.encoder = encoder;
    this.writer = writer;
    this.exactlyOnce = exactlyOnce;
    this.log = log;
    this.store = store;
  }

  @Override
  public Schema schema() {
    return input.schema();
  }

  @Override
  public ExecutorInfo info() {
    return info;
  }

  @Override
  public Message next() {
    Message m = input.next();
    if (m instanceof Message.Chunk c) {
      List<byte[][]> records = encoder.encode(c.chunk());
      if (!records.isEmpty()) { // one log row per chunk: the state store sees few, large rows
        Row row = Row.of(currEpoch, seq++, pack(records));
        if (exactlyOnce) {
          log.insert(row);
        }
        current.add(row);
      }
    } else if (m instanceof Barrier b) {
      onBarrier(b);
    }
    return m;
  }

  private void onBarrier(Barrier b) {
    boolean first = !started;
    if (first) {
      started = true;
      log.init(b.curr());
      if (exactlyOnce) {
        deliveredEpoch = writer.open();
        recover(deliveredEpoch);
      } else {
        writer.open();
      }
    } else if (b.kind() != BarrierKind.INITIAL && !current.isEmpty()) {
      if (exactlyOnce) {
        pending.put(currEpoch, current);
      } else {
        deliver(currEpoch, records(current));
      }
      current = new ArrayList<>();
    }
    if (exactlyOnce) {
      deliverCommitted();
      if (!first) { // the first barrier only opens the log store's first epoch
        log.commit(b.curr(), b.prev());
      }
    }
    currEpoch = b.curr();
    seq = 0;
    progress.reportProgress(
        b.epoch(), info.actorId(), SinkDelivery.CODE, deliveredEpoch, deliveredRecords);
  }

  /**
   * Loads the log store's epochs (all committed, as a restart reads committed state); those Kafka
   * already holds are deleted, the rest wait for delivery.
   */
  private void recover(long delivered) {
    try (CloseableRows rows = log.iterAll()) {
      while (rows.hasNext()) {
        Row r = rows.next();
        long epoch = (Long) r.get(0);
        if (epoch <= delivered) {
          log.delete(r);
        } else {
          pending.computeIfAbsent(epoch, e -> new ArrayList<>()).add(r);
        }
      }
    }
    for (List<Row> rows : pending.values()) {
      rows.sort((x, y) -> Integer.compare((Integer) x.get(1), (Integer) y.get(1)));
    }
  }

  /** Sends, in epoch order, every pending epoch the node knows committed, and forgets them. */
  private void deliverCommitted() {
    long committed = store.committedEpoch();
    while (!pending.isEmpty() && pending.firstKey() <= committed) {
      Map.Entry<Long, List<Row>> e = pending.pollFirstEntry();
      deliver(e.getKey(), records(e.getValue()));
      FailPoints.hit(FP_AFTER_DELIVER);
      for (Row r : e.getValue()) {
        log.delete(r);
      }
    }
  }

  private void deliver(long epoch, List<byte[][]> records) {
    try {
      writer.deliver(epoch, records);
    } catch (RuntimeException e) {
      stats.deliveryFailed(sinkId, e.toString());
      throw e;
    }
    stats.delivered(sinkId, epoch, records.size());
    deliveredEpoch = epoch;
    deliveredRecords += records.size();
  }

  private static List<byte[][]> records(List<Row> rows) {
    List<byte[][]> out = new ArrayList<>();
    for (Row r : rows) {
      unpack((byte[]) r.get(2), out);
    }
    return out;
  }

  /** Records as one value: per record, key and value each as length (-1: null) and bytes. */
  static byte[] pack(List<byte[][]> records) {
    int size = 4;
    for (byte[][] r : records) {
      size += 8 + (r[0] == null ? 0 : r[0].length) + (r[1] == null ? 0 : r[1].length);
    }
    java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(size);
    b.putInt(records.size());
    for (byte[][] r : records) {
      for (byte[] part : r) {
        b.putInt(part == null ? -1 : part.length);
        if (part != null) {
          b.put(part);
        }
      }
    }
    return b.array();
  }

  /** Appends the records {@link #pack} packed into {@code packed} to {@code out}. */
  static void unpack(byte[] packed, List<byte[][]> out) {
    java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(packed);
    int n = b.getInt();
    for (int i = 0; i < n; i++) {
      byte[][] r = new byte[2][];
      for (int p = 0; p < 2; p++) {
        int len = b.getInt();
        if (len >= 0) {
          r[p] = new byte[len];
          b.get(r[p]);
        }
      }
      out.add(r);
    }
  }

  @Override
  public void close() {
    boolean interrupted = Thread.interrupted(); // the producer refuses to close on an interrupt
    try {
      writer.close();
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
