package dev.tideway.storage.engine;

import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.KeyRange;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.api.LogEntry;
import dev.tideway.storage.api.StorageException;
import dev.tideway.storage.iterator.Entry;
import dev.tideway.storage.iterator.EntryIterator;
import dev.tideway.storage.iterator.MergeIterator;
import dev.tideway.storage.sst.SstReaders;
import dev.tideway.storage.version.Version;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;

/**
 * Derives a change-log table's per-epoch changes from the versions its keys keep: compaction
 * retains every version from the table's retained start on, plus the newest one before it, so each
 * version in {@code [from, to]} can be compared with its predecessor. Materializes the result
 * (sorted by epoch, then key): meant for one barrier interval of a log store at a time.
 */
final class ChangeLogReader {
  private ChangeLogReader() {}

  static List<LogEntry> read(
      Version v, SstReaders readers, int table, BitSet vnodes, long from, long to) {
    Long retained = v.changeLogs().get(table);
    if (retained == null || from < retained || to > v.maxCommittedEpoch() || from > to) {
      throw new StorageException(
          StorageException.Reason.EPOCH_OUT_OF_RANGE,
          "change log of table "
              + table
              + " for epochs ["
              + Epochs.format(from)
              + ", "
              + Epochs.format(to)
              + "] not readable: retained from "
              + (retained == null ? "never" : Epochs.format(retained))
              + ", committed "
              + Epochs.format(v.maxCommittedEpoch()));
    }
    List<LogEntry> out = new ArrayList<>();
    KeyRange range = KeyRange.table(table);
    try (EntryIterator it =
        new MergeIterator(VersionReads.sources(v, readers, range, Long.MAX_VALUE))) {
      List<Entry> versions = new ArrayList<>();
      while (it.next()) {
        Entry e = new Entry(it.key(), it.epoch(), it.isDelete(), it.value());
        if (!versions.isEmpty() && !Arrays.equals(versions.get(0).key(), e.key())) {
          emit(versions, vnodes, from, to, out);
          versions.clear();
        }
        versions.add(e);
      }
      emit(versions, vnodes, from, to, out);
    } catch (IOException e) {
      throw new StorageException(
          StorageException.Reason.OBJECT_STORE, "cannot read change log of table " + table, e);
    }
    out.sort(Comparator.comparingLong(LogEntry::epoch).thenComparing(LogEntry::key, Keys.ORDER));
    return out;
  }

  /** {@code versions} of one key, newest first. */
  private static void emit(
      List<Entry> versions, BitSet vnodes, long from, long to, List<LogEntry> out) {
    if (versions.isEmpty() || (vnodes != null && !vnodes.get(Keys.vnode(versions.get(0).key())))) {
      return;
    }
    byte[] prev = null;
    for (int i = versions.size() - 1; i >= 0; i--) {
      Entry e = versions.get(i);
      long base = Epochs.base(e.epoch());
      byte[] now = e.delete() ? null : e.value();
      if (base >= from && base <= to) {
        if (prev == null && now != null) {
          out.add(new LogEntry(base, LogEntry.Kind.INSERT, e.key(), null, now));
        } else if (prev != null && now == null) {
          out.add(new LogEntry(base, LogEntry.Kind.DELETE, e.key(), prev, null));
        } else if (prev != null) {
          out.add(new LogEntry(base, LogEntry.Kind.UPDATE, e.key(), prev, now));
        }
      }
      prev = now;
    }
  }
}
