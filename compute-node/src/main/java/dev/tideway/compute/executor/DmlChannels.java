package dev.tideway.compute.executor;

import dev.tideway.common.check.Checks;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.vnode.VirtualNode;
import dev.tideway.common.vnode.VnodeBitmap;
import dev.tideway.protocol.compute.DmlRouter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The node's DML actors by table: each table actor registers its {@link DmlChannel} when it is
 * built (through the {@code Dml} executor builder) and is forgotten when it exits or is dropped.
 * {@link #write} routes a write to the channels of the actors owning its rows' vnodes.
 *
 * <p>Thread-safe (a concurrent map); in the node, builds, writes and removals all run on the
 * control loop, which is what makes {@link #write}'s capacity check exact (one writer per channel).
 */
public final class DmlChannels {
  /** Batches a DML actor's channel holds before writes to it are refused. */
  public static final int CHANNEL_CAPACITY = 256;

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
   */
  public record Target(
      int actorId,
      int tableId,
      VnodeBitmap vnodes,
      DmlChannel channel,
      List<DataType> types,
      int[] distributionKey,
      int rowIdIndex) {
    public Target {
      types = List.copyOf(types);
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
   * @param epoch completes with the highest epoch any of its batches joined, or fails with {@link
   *     DmlChannel.DiscardedWriteException} when an actor went away before taking its batch
   */
  public record Written(long rows, CompletableFuture<Long> epoch) {}

  /** The DML actors of {@code tableId} on this node, by actor id. */
  public List<Target> ofTable(int tableId) {
    return byActor.values().stream()
        .filter(t -> t.tableId() == tableId)
        .sorted(Comparator.comparingInt(Target::actorId))
        .toList();
  }

  /** A write's {@code actorId} for any of the node's DML actors of the table. */
  public static final int ANY_ACTOR = -1;

  /**
   * Routes the write to this node's DML actors of {@code tableId} by vnode and enqueues one batch
   * per actor, all or nothing. They join the epoch of the next barrier injected into those actors,
   * which the returned future tells once every actor took its batch. With {@code actorId} other
   * than {@link #ANY_ACTOR} every row must go to that actor: one batch, taken or discarded whole.
   *
   * @throws IllegalStateException when the table (or {@code actorId}) has no DML actor here (retry:
   *     it is being rebuilt, or failed) or a channel is full (retry later)
   * @throws IllegalArgumentException when a row does not fit the table or belongs to a vnode no
   *     actor here owns (the message names the row and the vnode)
   */
  public Written write(int tableId, int actorId, List<Row> deletes, List<Row> inserts) {
    List<Target> targets = ofTable(tableId);
    if (actorId != ANY_ACTOR) {
      targets = targets.stream().filter(t -> t.actorId() == actorId).toList();
      Checks.checkState(
          !targets.isEmpty(), "table %s has no DML actor %s on this node", tableId, actorId);
    }
    Checks.checkState(!targets.isEmpty(), "table %s has no DML actor on this node", tableId);
    int[] actorByVnode = new int[VirtualNode.COUNT];
    Arrays.fill(actorByVnode, -1);
    Map<Integer, Target> byId = new java.util.HashMap<>();
    for (Target t : targets) {
      byId.put(t.actorId(), t);
      t.vnodes().forEach(v -> actorByVnode[v] = t.actorId());
    }
    Target first = targets.get(0);
    Map<Integer, DmlRouter.Part> parts;
    try {
      parts =
          DmlRouter.split(
              first.types(),
              first.distributionKey(),
              first.rowIdIndex(),
              actorByVnode,
              deletes,
              inserts);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "table "
              + tableId
              + ": "
              + e.getMessage()
              + " (DML actors here: "
              + byId.keySet()
              + "; route rows by vnode with DmlRouter.split)",
          e);
    }
    for (int actor : parts.keySet()) {
      DmlChannel c = byId.get(actor).channel();
      Checks.checkState(
          c.remainingCapacity() > 0,
          "table %s: the DML channel of actor %s is full (%s batches); retry later",
          tableId,
          actor,
          CHANNEL_CAPACITY);
    }
    long rows = 0;
    List<CompletableFuture<Long>> joined = new ArrayList<>();
    for (Map.Entry<Integer, DmlRouter.Part> e : parts.entrySet()) {
      CompletableFuture<Long> epoch = new CompletableFuture<>();
      boolean queued = byId.get(e.getKey()).channel().offer(e.getValue().toBatch(tableId), epoch);
      Checks.checkState(queued, "actor %s: DML channel filled up during a write", e.getKey());
      joined.add(epoch);
      rows += e.getValue().size();
    }
    CompletableFuture<Long> max =
        CompletableFuture.allOf(joined.toArray(new CompletableFuture<?>[0]))
            .thenApply(v -> joined.stream().mapToLong(CompletableFuture::join).max().orElse(0));
    return new Written(rows, max);
  }
}
