package dev.tideway.barrier.progress;

/**
 * A compute node's report about itself, in the same {@link ProgressBatch} as backfill progress and
 * {@link SinkDelivery}: added to each checkpoint's batch by the node, kept by meta (latest per
 * node) for the cluster page; the creating-job tracker skips these reports. For these codes the
 * batch's actor id field holds the node's id, in the sender's terms on the wire; meta's compute
 * client restamps it with meta's id of the node ({@link ProgressBatch#restampNodeReports}).
 *
 * <ul>
 *   <li>{@link #HEAP}: {@code a} heap bytes used, {@code rows} the heap's maximum
 *   <li>{@link #COMPACTIONS}: {@code a} compaction tasks finished (succeeded or failed) since the
 *       node started, {@code rows} tasks running now
 *   <li>{@link #COMPACTION_BYTES}: {@code a} SST bytes compaction read, {@code rows} bytes it wrote
 *       since the node started
 *   <li>{@link #LAST_COMPACTION}: {@code a} when the last task finished (ms since 1970, 0: none
 *       yet), {@code rows} tasks that failed since the node started
 * </ul>
 *
 * <p>Codes outside {@link BackfillState}'s and {@link SinkDelivery}'s, never reused.
 */
public final class NodeReport {
  public static final byte HEAP = 17;
  public static final byte COMPACTIONS = 18;
  public static final byte COMPACTION_BYTES = 19;
  public static final byte LAST_COMPACTION = 20;

  private NodeReport() {}

  /** Whether {@code code} is one of a node's reports about itself. */
  public static boolean isNodeReport(byte code) {
    return code >= HEAP && code <= LAST_COMPACTION;
  }
}
