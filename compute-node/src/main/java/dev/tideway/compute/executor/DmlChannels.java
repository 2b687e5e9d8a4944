package dev.tideway.compute.executor;

import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.types.DataType;
import dev.tideway.common.vnode.VnodeBitmap;
import dev.tideway.common.vnode.VnodeHasher;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The node's DML actors by table: each table actor registers its {@link DmlChannel} when it is
 * built (through the {@code Dml} executor builder) and is forgotten when it exits or is dropped.
 * {@link #write} hands a chunk, routed by its writer, to the channel of the actor it names.
 *
 * <p>Thread-safe (a concurrent map); in the node, builds, writes and removals all run on the
 * control loop.
 */
public final class DmlChannels {
  /**
   * One DML actor of a table.
   *
   * @param actorId the actor
   * @param tableId the table it writes
   * @param vnodes the vnodes it owns
   * @param channel where its batches go
   * @param types the table's column types
   * @param distributionKey the table's distribution key columns
   * @param rowIdIndex the hidden {@code _row_id} column, or -1 when the table has a primary key
   * @param hasher the vnodes of rows (over the distribution key; made by the constructor)
   */
  public record Target(
      int actorId,
      int tableId,
      VnodeBitmap vnodes,
      DmlChannel channel,
      List<DataType> types,
      int[] distributionKey,
      int rowIdIndex,
      VnodeHasher hasher) {
    public Target(
        int actorId,
        int tableId,
        VnodeBitmap vnodes,
        DmlChannel channel,
        List<DataType> types,
        int[] distributionKey,
        int rowIdIndex) {
      this(actorId, tableId, vnodes, channel, types, distributionKey, rowIdIndex, null);
    }

    public Target {
      types = List.copyOf(types);
      hasher = new VnodeHasher(types, distributionKey);
      distributionKey = distributionKey.clone();
      Checks.checkArgument(
          channel.tableId() == tableId,
          "actor %s: channel of table %s registered for table %s",
          actorId,
          channel.tableId(),
          tableId);
    }
  }

  private final Map<Integer, Target> byActor = new ConcurrentHashMap<>();

  /** Registers a DML actor; an actor registers once. */
  public void register(Target target) {
    Target old = byActor.putIfAbsent(target.actorId(), target);
    Checks.checkState(old == null, "actor %s: DML channel registered twice", target.actorId());
  }

  /**
   * Forgets the channel of {@code actorId} (exited or dropped), if it had one, failing the writes
   * it had not taken yet.
   */
  public void removeActor(int actorId) {
    Target t = byActor.remove(actorId);
    if (t != null) {
      t.channel().discard("actor " + actorId + " stopped before it took the write");
    }
  }

  /** Forgets every channel (recovery), failing the writes their actors had not taken yet. */
  public void clear() {
    List<Target> all = List.copyOf(byActor.values());
    byActor.clear();
    all.forEach(t -> t.channel().discard("the node reset for a recovery before the write joined"));
  }

  /**
   * An accepted write.
   *
   * @param rows the rows queued
   * @param epoch completes with the epoch the chunk joined, or fails with {@link
   *     DmlChannel.DiscardedWriteException} when its actor went away before taking it
   */
  public record Written(long rows, CompletableFuture<Long> epoch) {}

  /** The DML actors of {@code tableId} on this node, by actor id. */
  public List<Target> ofTable(int tableId) {
    return byActor.values().stream()
        .filter(t -> t.tableId() == tableId)
        .sorted(Comparator.comparingInt(Target::actorId))
        .toList();
  }

  /**
   * Enqueues {@code chunk} for DML actor {@code actorId} of {@code tableId}: taken or discarded
   * whole, in the epoch of the next barrier injected into the actor, which the returned future
   * tells. The actor checks that every row is in one of its vnodes.
   *
   * @throws IllegalStateException when the table has no such DML actor here (retry: it is being
   *     built or rebuilt)
   * @throws IllegalArgumentException when the chunk's columns are not the table's
   */
  public Written write(int tableId, int actorId, StreamChunk chunk) {
    Target t = byActor.get(actorId);
    Checks.checkState(
        t != null && t.tableId() == tableId,
        "table %s has no DML actor %s on this node",
        tableId,
        actorId);
    Checks.checkArgument(
        chunk.types().equals(t.types()),
        "table %s: a chunk of columns %s, the table's are %s",
        tableId,
        chunk.types(),
        t.types());
    int[] vnodes = new int[chunk.size()];
    t.hasher().vnodes(chunk, vnodes);
    for (int i = 0; i < vnodes.length; i++) {
      boolean idToCome =
          t.rowIdIndex() >= 0
              && chunk.column(t.rowIdIndex()).isNull(i)
              && (chunk.op(i) == Op.INSERT || chunk.op(i) == Op.UPDATE_INSERT);
      if (!idToCome && !t.vnodes().contains(vnodes[i])) {
        throw new IllegalArgumentException(
            "table "
                + tableId
                + ": row "
                + chunk.row(i)
                + " hashes to vnode "
                + vnodes[i]
                + ", which actor "
                + actorId
                + " does not own (route rows with DmlRouter)");
      }
    }
    CompletableFuture<Long> epoch = new CompletableFuture<>();
    t.channel().offer(chunk, epoch);
    return new Written(chunk.cardinality(), epoch);
  }
}
