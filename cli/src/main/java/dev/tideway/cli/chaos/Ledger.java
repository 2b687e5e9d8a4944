package dev.tideway.cli.chaos;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the chaos workload's clients were told succeeded: a key's value once the statement that
 * wrote it returned OK and a later FLUSH of the same session succeeded (so its checkpoint
 * committed). A deleted key is absent. Each writer owns its own keys, so a key's entries come from
 * one thread; the judge reads a snapshot while the writers are parked.
 *
 * <p>Thread-safe.
 */
final class Ledger {
  private final Map<Integer, Long> values = new ConcurrentHashMap<>();
  private volatile long writes;

  /** Records committed writes: a value, or null for a delete. */
  void commit(Map<Integer, Long> changes) {
    changes.forEach(
        (k, v) -> {
          if (v == null) {
            values.remove(k);
          } else {
            values.put(k, v);
          }
        });
    synchronized (this) {
      writes += changes.size();
    }
  }

  /** The value the clients were told {@code key} has, or null when it has none. */
  Long get(int key) {
    return values.get(key);
  }

  /** Every key and its value. */
  Map<Integer, Long> snapshot() {
    return new HashMap<>(values);
  }

  /** Writes ledgered so far. */
  long writes() {
    return writes;
  }
}
