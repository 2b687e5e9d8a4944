package dev.tideway.barrier.progress;

import dev.tideway.common.check.Checks;

/**
 * What a backfill actor last reported. Phases only move forward, in code order: {@link Init} (not
 * yet reported) &lt; {@link ConsumingUpstream} &lt; {@link Done} &lt; {@link ConsumingLogStore}
 * &lt; {@link DoneConsumingLogStore}. Row counts are cumulative snapshot rows, absolute (restored
 * from persisted state after recovery), carried in every phase so a re-seeded tracker never drops.
 *
 * <p>On the hot path a state travels as {@code (code, a, rows)} primitives ({@link ProgressBatch});
 * {@link #decode} and {@link #code()} convert.
 */
public sealed interface BackfillState
    permits BackfillState.Init,
        BackfillState.ConsumingUpstream,
        BackfillState.Done,
        BackfillState.ConsumingLogStore,
        BackfillState.DoneConsumingLogStore {
  byte INIT = 0;
  byte CONSUMING_UPSTREAM = 1;
  byte DONE = 2;
  byte CONSUMING_LOG_STORE = 3;
  byte DONE_CONSUMING_LOG_STORE = 4;

  /** The phase code; larger is later. */
  byte code();

  /** Cumulative snapshot rows consumed. */
  long consumedRows();

  /** The phase-specific value: consumed epoch or pending barriers, else 0. */
  default long a() {
    return 0;
  }

  /** Nothing reported yet (tracker side only). */
  record Init() implements BackfillState {
    @Override
    public byte code() {
      return INIT;
    }

    @Override
    public long consumedRows() {
      return 0;
    }
  }

  /** Reading the snapshot (or the source, with {@code consumedEpoch == 0}). */
  record ConsumingUpstream(long consumedEpoch, long consumedRows) implements BackfillState {
    @Override
    public byte code() {
      return CONSUMING_UPSTREAM;
    }

    @Override
    public long a() {
      return consumedEpoch;
    }
  }

  /** The snapshot is exhausted and {@code finished = true} is persisted in this epoch. */
  record Done(long consumedRows) implements BackfillState {
    @Override
    public byte code() {
      return DONE;
    }
  }

  /** Snapshot backfill, phase 2: catching up on the upstream change log. */
  record ConsumingLogStore(long consumedRows, long pendingBarrierNum) implements BackfillState {
    @Override
    public byte code() {
      return CONSUMING_LOG_STORE;
    }

    @Override
    public long a() {
      return pendingBarrierNum;
    }
  }

  /** Snapshot backfill caught up; ready to merge into the upstream graph. */
  record DoneConsumingLogStore(long consumedRows) implements BackfillState {
    @Override
    public byte code() {
      return DONE_CONSUMING_LOG_STORE;
    }
  }

  /** The typed state of a primitive report; fails naming the code. */
  static BackfillState decode(byte code, long a, long rows) {
    return switch (code) {
      case INIT -> new Init();
      case CONSUMING_UPSTREAM -> new ConsumingUpstream(a, rows);
      case DONE -> new Done(rows);
      case CONSUMING_LOG_STORE -> new ConsumingLogStore(rows, a);
      case DONE_CONSUMING_LOG_STORE -> new DoneConsumingLogStore(rows);
      default -> throw new IllegalArgumentException("unknown backfill state code " + code);
    };
  }

  /** Whether a batch may carry {@code code}: a reportable state or another report kind. */
  static boolean isReportable(byte code) {
    return code >= CONSUMING_UPSTREAM && code <= DONE_CONSUMING_LOG_STORE
        || code == SinkDelivery.CODE
        || NodeReport.isNodeReport(code)
        || code == BackfillVnodes.CODE;
  }

  /** Checks a code read from the wire. */
  static byte checkCode(byte code) {
    Checks.checkArgument(
        isReportable(code),
        "progress code %s is not a reportable backfill state, its vnodes, a sink delivery or a node"
            + " report",
        code);
    return code;
  }
}
