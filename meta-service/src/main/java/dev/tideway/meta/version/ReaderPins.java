package dev.tideway.meta.version;

import dev.tideway.common.check.Checks;
import dev.tideway.common.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The epochs readers in other processes (frontend batch queries, backfill snapshot reads) hold:
 * compaction must not collapse key versions they may still read, so the safe epoch is at most the
 * oldest pinned epoch. A pin is a lease: a reader renews it while reading; a pin whose lease ran
 * out (its process died) no longer holds the safe epoch back. Thread-safe.
 */
public final class ReaderPins {
  private record Pin(long epoch, long expiresAtMs) {}

  private final Clock clock;
  private final Map<String, Pin> pins = new ConcurrentHashMap<>();

  public ReaderPins(Clock clock) {
    this.clock = clock;
  }

  /** Pins (or re-pins) {@code epoch} for {@code readerId} for {@code leaseMs}. */
  public void pin(String readerId, long epoch, long leaseMs) {
    Checks.checkArgument(leaseMs > 0, "reader %s: lease must be > 0 ms, got %s", readerId, leaseMs);
    pins.put(readerId, new Pin(epoch, clock.currentTimeMillis() + leaseMs));
  }

  public void unpin(String readerId) {
    pins.remove(readerId);
  }

  /** The oldest epoch a live pin holds, or {@code ifNone}; drops expired pins. */
  public long minPinnedEpoch(long ifNone) {
    long now = clock.currentTimeMillis();
    pins.values().removeIf(p -> p.expiresAtMs() <= now);
    return pins.values().stream().mapToLong(Pin::epoch).min().orElse(ifNone);
  }

  public int count() {
    return pins.size();
  }
}
