package dev.tideway.backfill.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.backfill.sim.TableWriter;
import dev.tideway.backfill.state.UpstreamTable;
import dev.tideway.backfill.state.VnodeProgress;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.chunk.StreamChunkBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Upstream rows are visible exactly when the snapshot already covered them, pairs stay paired. */
class ChunkMarkerTest {
  private final UpstreamTable table = new UpstreamTable(TableWriter.TABLE, List.of(0, 1, 2));

  private StreamChunk chunk(Object... opsAndIds) {
    StreamChunkBuilder b = new StreamChunkBuilder(TableWriter.TABLE.types(), 4);
    for (int i = 0; i < opsAndIds.length; i += 2) {
      b.append((Op) opsAndIds[i], TableWriter.row((Long) opsAndIds[i + 1], 1));
    }
    return b.build();
  }

  private int vnode(long id) {
    return table.vnode(chunk(Op.INSERT, id), 0);
  }

  @Test
  void rowsBeyondThePositionAreHiddenAndOrphanedUpdateHalvesBecomePlain() {
    long a = 5;
    long b = 6;
    SnapshotScan scan = new SnapshotScan(table, new int[] {vnode(a), vnode(b)});
    scan.restore(vnode(a), new VnodeProgress.Completed(null, 0));
    // vnode(b) not started: every row of it is hidden
    StreamChunk c = chunk(Op.INSERT, a, Op.UPDATE_DELETE, a, Op.UPDATE_INSERT, b);
    StreamChunk marked = new ChunkMarker(table).mark(c, scan);
    assertThat(marked.visibleRows())
        .extracting(StreamChunk.OpRow::op)
        .containsExactly(Op.INSERT, Op.DELETE);
  }

  @Test
  void inProgressVnodeShowsRowsAtOrBeforeItsPosition() {
    long id = 40;
    int v = vnode(id);
    SnapshotScan scan = new SnapshotScan(table, new int[] {v});
    scan.restore(v, new VnodeProgress.InProgress(table.pk(TableWriter.row(id, 0)), 3));
    ChunkMarker m = new ChunkMarker(table);
    assertThat(m.mark(chunk(Op.INSERT, id), scan).cardinality()).isEqualTo(1);
    long later = findIdInVnodeAbove(v, id);
    assertThat(m.mark(chunk(Op.INSERT, later), scan)).isNull();
  }

  private long findIdInVnodeAbove(int v, long id) {
    for (long x = id + 1; ; x++) {
      if (vnode(x) == v) {
        return x;
      }
    }
  }
}
