package dev.tideway.barrier.executor;

import dev.tideway.barrier.message.Message;
import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;

/**
 * Within a chunk, every visible {@code U-} is immediately followed by a visible {@code U+}, and
 * every visible {@code U+} immediately follows a {@code U-}. Hidden rows are skipped, as consumers
 * skip them.
 */
final class UpdateCheck {
  private final ExecutorInfo info;

  UpdateCheck(ExecutorInfo info) {
    this.info = info;
  }

  void check(Message m) {
    if (!(m instanceof Message.Chunk c)) {
      return;
    }
    StreamChunk chunk = c.chunk();
    int pendingDelete = -1;
    for (int i = 0; i < chunk.size(); i++) {
      if (!chunk.isVisible(i)) {
        continue;
      }
      Op op = chunk.op(i);
      if (pendingDelete >= 0) {
        Checks.checkState(
            op == Op.UPDATE_INSERT,
            "%s: U- at row %s is followed by %s at row %s, expected U+",
            info,
            pendingDelete,
            op.symbol(),
            i);
        pendingDelete = -1;
      } else if (op == Op.UPDATE_DELETE) {
        pendingDelete = i;
      } else {
        Checks.checkState(op != Op.UPDATE_INSERT, "%s: U+ at row %s does not follow a U-", info, i);
      }
    }
    Checks.checkState(
        pendingDelete < 0,
        "%s: U- at row %s is the last visible row of its chunk",
        info,
        pendingDelete);
  }
}
