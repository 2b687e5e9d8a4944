package dev.tideway.protocol.catalog;

import dev.tideway.common.check.Checks;
import java.util.ArrayList;
import java.util.List;

/**
 * The recent recovery generations at {@code barrier/recoveries}: per generation, the committed
 * epoch the nodes were reset to when it began. The leader appends an entry (one fenced write)
 * before it resets any node to that generation, so every generation a node ever acknowledged a
 * write in is either here or older than {@link #entries()}' first.
 *
 * <p>It answers the question FLUSH must answer: did a write the node acknowledged in generation
 * {@code g}, landing in epoch {@code e}, commit? Data of epoch {@code e} commits with the first
 * checkpoint of its generation whose epoch is {@code >= e}; a recovery throws away every epoch
 * above the committed one it resets to. So the write committed iff the highest epoch committed
 * during {@code g} is {@code >= e}: the base of the first generation after {@code g} (nothing of
 * {@code g} commits after it began). Epochs of {@code g} are all above {@code g}'s own base, so a
 * generation that committed nothing answers "lost" for each of its writes. While {@code g} is the
 * newest, a write is committed once the committed epoch reaches {@code e} and pending until then
 * (several checkpoints below {@code e} may still be in flight when it was acknowledged).
 *
 * @param entries ascending by generation, at most {@link #MAX_ENTRIES}
 * @param truncated whether older entries were dropped (a write from before {@code entries[0]} is
 *     then {@link Fate#UNKNOWN})
 */
public record RecoveryLog(List<Entry> entries, boolean truncated) {
  public static final int FORMAT_VERSION = 1;
  public static final int MAX_ENTRIES = 256;
  static final int FIELD_ENTRY = 1;
  static final int FIELD_TRUNCATED = 2;
  static final int FIELD_GENERATION = 1;
  static final int FIELD_BASE_EPOCH = 2;

  public static final RecoveryLog EMPTY = new RecoveryLog(List.of(), false);

  /** Generation {@code generation} began from committed epoch {@code baseEpoch}. */
  public record Entry(long generation, long baseEpoch) {}

  /** What became of an acknowledged write. */
  public enum Fate {
    COMMITTED,
    /** A recovery threw its epoch away: the rows are not in the table. */
    LOST,
    /** Its generation is the newest and no checkpoint has reached its epoch yet: ask again. */
    PENDING,
    /** Too old for the log (more than {@link #MAX_ENTRIES} recoveries ago). */
    UNKNOWN
  }

  public RecoveryLog {
    entries = List.copyOf(entries);
    Checks.checkArgument(
        entries.size() <= MAX_ENTRIES, "recovery log of %s entries", entries.size());
    for (int i = 1; i < entries.size(); i++) {
      Checks.checkArgument(
          entries.get(i).generation() > entries.get(i - 1).generation(),
          "recovery log generations must ascend: %s after %s",
          entries.get(i).generation(),
          entries.get(i - 1).generation());
    }
  }

  /** This log with generation {@code generation} begun at {@code baseEpoch} (the oldest may go). */
  public RecoveryLog append(long generation, long baseEpoch) {
    if (!entries.isEmpty()) {
      Entry last = entries.get(entries.size() - 1);
      Checks.checkArgument(
          generation > last.generation(),
          "recovery generation %s is not above the last logged %s",
          generation,
          last.generation());
    }
    List<Entry> next = new ArrayList<>(entries);
    next.add(new Entry(generation, baseEpoch));
    boolean dropped = truncated;
    while (next.size() > MAX_ENTRIES) {
      next.remove(0);
      dropped = true;
    }
    return new RecoveryLog(next, dropped);
  }

  /**
   * The fate of a write acknowledged in {@code generation} into {@code epoch}, with {@code
   * committedNow} read <em>before</em> this log (so a generation this log does not follow yet had
   * not been reset to when {@code committedNow} was read).
   */
  public Fate fate(long generation, long epoch, long committedNow) {
    if (truncated && (entries.isEmpty() || generation < entries.get(0).generation())) {
      return Fate.UNKNOWN;
    }
    for (Entry e : entries) {
      if (e.generation() > generation) {
        return e.baseEpoch() >= epoch ? Fate.COMMITTED : Fate.LOST;
      }
    }
    return committedNow >= epoch ? Fate.COMMITTED : Fate.PENDING;
  }

  public byte[] encode() {
    TaggedWriter w = TaggedWriter.record(RecordKind.RECOVERY_LOG, FORMAT_VERSION);
    for (Entry e : entries) {
      w.putNested(
          FIELD_ENTRY,
          TaggedWriter.nested()
              .putLong(FIELD_GENERATION, e.generation())
              .putLong(FIELD_BASE_EPOCH, e.baseEpoch()));
    }
    return w.putBoolean(FIELD_TRUNCATED, truncated).toBytes();
  }

  public static RecoveryLog decode(byte[] data) {
    TaggedReader r = TaggedReader.record(data, RecordKind.RECOVERY_LOG, FORMAT_VERSION);
    List<Entry> entries = new ArrayList<>();
    for (TaggedReader e : r.nestedAll(FIELD_ENTRY)) {
      entries.add(new Entry(e.requireLong(FIELD_GENERATION), e.requireLong(FIELD_BASE_EPOCH)));
    }
    return new RecoveryLog(entries, r.getBoolean(FIELD_TRUNCATED, false));
  }
}
