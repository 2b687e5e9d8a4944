package dev.tideway.backfill.logstore;

import dev.tideway.backfill.state.UpstreamTable;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.storage.api.LogEntry;
import dev.tideway.storage.api.StateStore;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * Reads the upstream table's change log ({@code StateStore.iterLog}) for the actor's vnodes and
 * turns it into chunks of the scan's output columns: an insert is {@code +}, a delete {@code -}, an
 * update a {@code U-}/{@code U+} pair (never split across chunks). Entries come in epoch order,
 * then key order, which is a valid order to apply them in.
 *
 * <p>Confined to the backfill's actor thread.
 */
public final class LogStoreReader {
  private final StateStore store;
  private final UpstreamTable table;
  private final BitSet vnodes;
  private final int chunkRows;
  private final List<DataType> outTypes;

  public LogStoreReader(StateStore store, UpstreamTable table, BitSet vnodes, int chunkRows) {
    this.store = store;
    this.table = table;
    this.vnodes = (BitSet) vnodes.clone();
    this.chunkRows = chunkRows;
    this.outTypes = table.outputSchema().types();
  }

  /** The changes of epochs {@code [fromEpoch, toEpoch]} as output chunks. */
  public List<StreamChunk> read(long fromEpoch, long toEpoch) {
    List<LogEntry> entries = store.iterLog(table.tableId(), vnodes, fromEpoch, toEpoch);
    List<StreamChunk> out = new ArrayList<>();
    StreamChunkBuilder b = new StreamChunkBuilder(outTypes, Math.min(chunkRows, entries.size()));
    for (LogEntry e : entries) {
      if (b.size() + 2 > chunkRows && b.size() > 0) {
        out.add(b.build());
        b = new StreamChunkBuilder(outTypes, chunkRows);
      }
      switch (e.kind()) {
        case INSERT -> b.append(Op.INSERT, project(e.newValue()));
        case DELETE -> b.append(Op.DELETE, project(e.oldValue()));
        case UPDATE -> {
          b.append(Op.UPDATE_DELETE, project(e.oldValue()));
          b.append(Op.UPDATE_INSERT, project(e.newValue()));
        }
      }
    }
    if (b.size() > 0) {
      out.add(b.build());
    }
    return out;
  }

  private Row project(byte[] value) {
    return table.project(table.decodeValue(value));
  }
}
