package dev.tideway.barrier.progress;

import dev.tideway.common.check.Checks;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The progress reports of one epoch on one node (backfill progress, {@link SinkDelivery} and {@link
 * NodeReport} reports), in report order (a later report of the same actor wins), as parallel
 * primitive arrays: growing it and reading it allocate nothing per report. It travels in {@code
 * BarrierCompleted} and reaches the tracker in {@code CommitEpoch}.
 *
 * <p>Not thread-safe; owned by whoever holds it, handed over by message.
 */
public final class ProgressBatch {
  private int size;
  private int[] actorIds;
  private byte[] codes;
  private long[] as;
  private long[] rows;

  public ProgressBatch(int capacity) {
    int cap = Math.max(4, capacity);
    actorIds = new int[cap];
    codes = new byte[cap];
    as = new long[cap];
    rows = new long[cap];
  }

  /** Appends one report. */
  public void add(int actorId, byte code, long a, long cumulativeRows) {
    if (size == actorIds.length) {
      int cap = size * 2;
      actorIds = Arrays.copyOf(actorIds, cap);
      codes = Arrays.copyOf(codes, cap);
      as = Arrays.copyOf(as, cap);
      rows = Arrays.copyOf(rows, cap);
    }
    actorIds[size] = actorId;
    codes[size] = BackfillState.checkCode(code);
    as[size] = a;
    rows[size] = cumulativeRows;
    size++;
  }

  /** Appends a typed report. */
  public void add(int actorId, BackfillState state) {
    add(actorId, state.code(), state.a(), state.consumedRows());
  }

  public int size() {
    return size;
  }

  public void clear() {
    size = 0;
  }

  public int actorId(int i) {
    Checks.checkIndex(i, size, "progress report");
    return actorIds[i];
  }

  public byte code(int i) {
    return codes[i];
  }

  public long a(int i) {
    return as[i];
  }

  public long rows(int i) {
    return rows[i];
  }

  /** The typed state of report {@code i}. */
  public BackfillState state(int i) {
    return BackfillState.decode(codes[i], as[i], rows[i]);
  }

  /** True when some report finishes a snapshot or a log store (a checkpoint may be wanted). */
  public boolean hasFinishReport() {
    for (int i = 0; i < size; i++) {
      if (codes[i] == BackfillState.DONE || codes[i] == BackfillState.DONE_CONSUMING_LOG_STORE) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code code} is a report kind this release knows. */
  public static boolean isKnownCode(byte code) {
    return BackfillState.isReportable(code);
  }

  /** Whether {@code code} is a backfill state (the tracker's input), not another kind of report. */
  public static boolean isBackfillState(byte code) {
    return code != SinkDelivery.CODE
        && code != BackfillVnodes.CODE
        && !NodeReport.isNodeReport(code);
  }

  /**
   * Gives every {@link NodeReport} of this batch the node id {@code nodeId}: the receiver's id of
   * the node that sent it (a node writes its own id, which only it knows itself by).
   */
  public void restampNodeReports(int nodeId) {
    for (int i = 0; i < size; i++) {
      if (NodeReport.isNodeReport(codes[i])) {
        actorIds[i] = nodeId;
      }
    }
  }

  /** A readable copy, for tests and logs. */
  public List<String> describe() {
    List<String> out = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      boolean backfill = isBackfillState(codes[i]);
      out.add(
          actorIds[i]
              + "="
              + (backfill ? state(i) : "report#" + codes[i] + "(" + as[i] + ", " + rows[i] + ")"));
    }
    return out;
  }

  @Override
  public String toString() {
    return "ProgressBatch" + describe();
  }
}
