package dev.tideway.storage.iterator;

import dev.tideway.storage.api.StateIterator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * The user's view of a merged stream at one epoch: for each key, the newest version whose epoch is
 * at most {@code maxEpoch}; keys whose visible version is a tombstone (or that have none) are
 * skipped. Confined to one thread.
 */
public final class MvccIterator implements StateIterator {
  private final EntryIterator in;
  private final long maxEpoch;
  private final Runnable onClose;
  private byte[] lastKey;
  private byte[] key;
  private byte[] value;

  public MvccIterator(EntryIterator in, long maxEpoch, Runnable onClose) {
    this.in = in;
    this.maxEpoch = maxEpoch;
    this.onClose = onClose;
  }

  @Override
  public boolean next() {
    try {
      while (in.next()) {
        byte[] k = in.key();
        if (lastKey != null && Arrays.equals(k, lastKey)) {
          continue;
        }
        if (in.epoch() > maxEpoch) {
          continue;
        }
        lastKey = k;
        if (in.isDelete()) {
          continue;
        }
        key = k;
        value = in.value();
        return true;
      }
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public byte[] key() {
    return key;
  }

  @Override
  public byte[] value() {
    return value;
  }

  @Override
  public void close() {
    in.close();
    onClose.run();
  }
}
