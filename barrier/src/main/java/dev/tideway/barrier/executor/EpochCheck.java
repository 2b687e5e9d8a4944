package dev.tideway.barrier.executor;

import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.check.Checks;

/**
 * The first message is a barrier, and each barrier continues the last: {@code prev == last.curr}
 * (an {@link BarrierKind#INITIAL} barrier after recovery may restart at any {@code prev} below its
 * {@code curr}, but epochs still only rise). Not thread-safe: owned by the wrapper.
 */
final class EpochCheck {
  private final ExecutorInfo info;
  private long lastCurr = -1;

  EpochCheck(ExecutorInfo info) {
    this.info = info;
  }

  void check(Message m) {
    if (m instanceof Barrier b) {
      if (lastCurr >= 0) {
        Checks.checkState(
            b.curr() > lastCurr,
            "%s: barrier epoch %s does not rise after %s",
            info,
            b.curr(),
            lastCurr);
        Checks.checkState(
            b.kind() == BarrierKind.INITIAL || b.prev() == lastCurr,
            "%s: barrier %s has prev %s but the last barrier's curr was %s",
            info,
            b,
            b.prev(),
            lastCurr);
      }
      lastCurr = b.curr();
    } else {
      Checks.checkState(lastCurr >= 0, "%s: first message must be a barrier, got %s", info, m);
    }
  }
}
