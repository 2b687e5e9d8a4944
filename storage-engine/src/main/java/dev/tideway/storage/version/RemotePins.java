package dev.tideway.storage.version;

import dev.tideway.common.time.Clock;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reader pins across processes of one shared store. A follower (a compute node's backfill, a
 * frontend's batch query) pins versions in its own {@link VersionPins}; the version owner in
 * another process cannot see them, so the follower publishes the oldest pinned version id and read
 * epoch as a small object {@code pins/<space>/<seq>} (a new object per publish, since objects are
 * never rewritten; the previous one is deleted), and the owner honours every live one: compaction's
 * safe epoch stays at or below the oldest pinned epoch, and vacuum keeps every SST that left the
 * version after the oldest pinned version (it may still be read).
 *
 * <p>A publication is a lease: the follower publishes again every {@link #PUBLISH_MS} while it
 * holds pins (with a rising {@code seq}) and deletes its object when it holds none; the owner
 * forgets a pin whose {@code seq} did not change for {@link #LEASE_MS} of its own clock (the
 * follower died), so clocks of different machines are never compared.
 *
 * <p>What pins cannot cover: a pin taken and released between two publications, or one taken after
 * the owner already deleted a file of that version (a follower far behind). The vacuum grace period
 * must exceed {@link #PUBLISH_MS} plus the followers' refresh lag.
 *
 * <p>Thread confinement: a {@link Publisher} runs on its engine's pin thread; an {@link Observer}
 * on the owner's version thread.
 */
public final class RemotePins {
  public static final String PREFIX = "pins/";
  public static final long PUBLISH_MS = 1_000;
  public static final long LEASE_MS = 30_000;
  private static final int MAGIC = 0x54575049; // "TWPI"

  private RemotePins() {}

  /** The oldest pinned version and read epoch of one process. */
  public record Held(long versionId, long epoch) {}

  /** The object store calls the pins need (a view of {@code ObjectStore}). */
  public interface Objects {
    void put(String path, byte[] bytes) throws IOException;

    byte[] read(String path) throws IOException;

    List<String> list(String prefix) throws IOException;

    void delete(String path) throws IOException;
  }

  static String path(int space, long seq) {
    return String.format("%s%05d/%020d", PREFIX, space, seq);
  }

  static byte[] encode(long seq, Held h) {
    return ByteBuffer.allocate(28)
        .putInt(MAGIC)
        .putLong(seq)
        .putLong(h.versionId())
        .putLong(h.epoch())
        .array();
  }

  /** The oldest version and epoch {@code pins} hold, if any. */
  public static Optional<Held> oldest(VersionPins pins) {
    long v = pins.minPinnedVersionId(-1);
    long e = pins.minPinnedEpoch(-1);
    return v < 0 ? Optional.empty() : Optional.of(new Held(v, e));
  }

  /** A follower's side: publishes its oldest pin. */
  public static final class Publisher {
    private final Objects store;
    private final int space;
    private long seq;
    private String published;

    public Publisher(Objects store, int space) {
      this.store = store;
      this.space = space;
    }

    /** Publishes {@code held} (a new object), or removes the publication when nothing is held. */
    public void publish(Optional<Held> held) throws IOException {
      String previous = published;
      if (held.isPresent()) {
        seq++;
        String p = path(space, seq);
        store.put(p, encode(seq, held.get()));
        published = p;
      } else {
        published = null;
      }
      if (previous != null) {
        store.delete(previous);
      }
    }
  }

  /** The owner's side: the live pins of every follower. */
  public static final class Observer {
    private record Seen(long seq, long sinceMs) {}

    private final Objects store;
    private final Clock clock;
    private final Map<String, Seen> seen = new HashMap<>();

    public Observer(Objects store, Clock clock) {
      this.store = store;
      this.clock = clock;
    }

    /**
     * The oldest live pin over every follower, or empty. A follower's newest object counts; one
     * whose seq stayed the same for {@link #LEASE_MS} is expired (and deleted).
     */
    public Optional<Held> oldest() throws IOException {
      Map<String, String> newest = new TreeMap<>();
      for (String p : store.list(PREFIX)) {
        int slash = p.indexOf('/', PREFIX.length());
        if (slash > 0) {
          newest.merge(p.substring(0, slash), p, (a, b) -> a.compareTo(b) >= 0 ? a : b);
        }
      }
      seen.keySet().retainAll(newest.keySet());
      long now = clock.currentTimeMillis();
      Held oldest = null;
      for (Map.Entry<String, String> e : newest.entrySet()) {
        ByteBuffer b;
        try {
          b = ByteBuffer.wrap(store.read(e.getValue()));
        } catch (java.io.FileNotFoundException gone) {
          // replaced by a newer publication meanwhile, unread: hold everything this round
          return Optional.of(new Held(0, 0));
        }
        if (b.remaining() < 28 || b.getInt() != MAGIC) {
          continue;
        }
        long seq = b.getLong();
        Held h = new Held(b.getLong(), b.getLong());
        Seen s = seen.get(e.getKey());
        if (s == null || s.seq() != seq) {
          seen.put(e.getKey(), new Seen(seq, now));
        } else if (now - s.sinceMs() >= LEASE_MS) {
          store.delete(e.getValue()); // its process stopped renewing: the pin is gone
          continue;
        }
        oldest =
            oldest == null
                ? h
                : new Held(
                    Math.min(h.versionId(), oldest.versionId()),
                    Math.min(h.epoch(), oldest.epoch()));
      }
      return Optional.ofNullable(oldest);
    }
  }
}
