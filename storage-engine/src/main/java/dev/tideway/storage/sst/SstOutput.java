package dev.tideway.storage.sst;

import dev.tideway.storage.api.SstInfo;
import dev.tideway.storage.iterator.EntryIterator;
import dev.tideway.storage.objectstore.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Writes a sorted stream into one or more SSTs of about {@code targetFileBytes} each, cutting only
 * between different keys so that the versions of a key stay in one file (a sorted run's files never
 * share a key). On failure every SST already written by this call is deleted before rethrowing.
 */
public final class SstOutput {
  private final ObjectStore store;
  private final SstWriterOptions options;
  private final LongSupplier ids;
  private final long targetFileBytes;

  public SstOutput(
      ObjectStore store, SstWriterOptions options, LongSupplier ids, long targetFileBytes) {
    this.store = store;
    this.options = options;
    this.ids = ids;
    this.targetFileBytes = targetFileBytes;
  }

  /** The same output writing a whole stream into one SST (an L0 SST must be one sorted run). */
  public SstOutput unsplit() {
    return new SstOutput(store, options, ids, Long.MAX_VALUE);
  }

  /** Rows between two checks of an output SST's size. */
  static final int SIZE_CHECK_ROWS = 64;

  public List<SstInfo> write(EntryIterator it, long expectedRows) throws IOException {
    List<SstInfo> out = new ArrayList<>();
    SstWriter w = null;
    byte[] lastKey = null;
    long rows = 0;
    try {
      while (it.next()) {
        byte[] k = it.key();
        // the size is asked every SIZE_CHECK_ROWS rows (an SST may overshoot its target by as
        // many): Parquet sums it over every column's buffers, 6 % of compaction when per row
        if (w != null
            && targetFileBytes != Long.MAX_VALUE
            && ++rows % SIZE_CHECK_ROWS == 0
            && w.writtenBytes() >= targetFileBytes
            && !Arrays.equals(k, lastKey)) {
          out.add(w.finish());
          w = null;
        }
        if (w == null) {
          w = SstWriter.create(ids.getAsLong(), store, options, expectedRows);
        }
        w.add(k, it.epoch(), it.isDelete(), it.value());
        lastKey = k;
      }
      if (w != null) {
        out.add(w.finish());
        w = null;
      }
      return out;
    } catch (IOException | RuntimeException e) {
      if (w != null) {
        w.close();
      }
      for (SstInfo s : out) {
        try {
          store.delete(s.objectPath());
        } catch (IOException | RuntimeException ignored) {
          // Left for vacuum: unreferenced files are deleted later.
        }
      }
      throw e;
    }
  }
}
