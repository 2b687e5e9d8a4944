package dev.tideway.storage.version;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The versions readers hold. A reader pins before it reads anything (so vacuum keeps every file the
 * pinned version references, and compaction keeps every key version visible at the pinned epoch)
 * and unpins by closing the {@link Pin}. Thread-safe.
 */
public final class VersionPins {
  private final ConcurrentHashMap<Long, Pin> pins = new ConcurrentHashMap<>();
  private final AtomicLong nextPin = new AtomicLong();

  /** A held version and the epoch read at it. */
  public final class Pin implements AutoCloseable {
    private final long pinId;
    private final Version version;
    private final long epoch;

    private Pin(long pinId, Version version, long epoch) {
      this.pinId = pinId;
      this.version = version;
      this.epoch = epoch;
    }

    public Version version() {
      return version;
    }

    public long epoch() {
      return epoch;
    }

    @Override
    public void close() {
      pins.remove(pinId);
    }
  }

  public Pin pin(Version v, long readEpoch) {
    long id = nextPin.incrementAndGet();
    Pin p = new Pin(id, v, readEpoch);
    pins.put(id, p);
    return p;
  }

  /** The smallest pinned read epoch, or {@code ifNone}. */
  public long minPinnedEpoch(long ifNone) {
    return pins.values().stream().mapToLong(Pin::epoch).min().orElse(ifNone);
  }

  /** The id of the oldest pinned version, or {@code ifNone}. */
  public long minPinnedVersionId(long ifNone) {
    return pins.values().stream().mapToLong(p -> p.version().id()).min().orElse(ifNone);
  }

  /** Every SST id referenced by a pinned version. */
  public Set<Long> pinnedSstIds() {
    Set<Long> ids = new HashSet<>();
    pins.values().forEach(p -> ids.addAll(p.version().sstIds()));
    return ids;
  }

  public int count() {
    return pins.size();
  }
}
