package dev.tideway.compute.node;

import static dev.tideway.compute.actor.TestBarriers.epoch;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.protocol.compute.ComputeEvent;
import dev.tideway.protocol.compute.ComputeRequest;
import dev.tideway.storage.api.CompactionJob;
import dev.tideway.storage.api.CompactionOutcome;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.api.LocalStateStore;
import dev.tideway.storage.api.SstInfo;
import dev.tideway.storage.api.SyncResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Meta asks node B (over Artery) to run a compaction of two L0 SSTs of B's store, in which one key
 * was written and then overwritten; the node answers with the outcome meta would commit.
 */
@ExtendWith(TwoNodeCluster.Shared.class)
class CompactNodeTest {
  private static TwoNodeCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    cluster = TwoNodeCluster.Shared.cluster();
    cluster.reset();
  }

  @Test
  void aCompactionRunsOnTheNodeAndAnswersWithTheLevelEditsAndWhatItDropped() throws Exception {
    int table = 77;
    long e1 = epoch(cluster.epochBase + 1);
    long e2 = epoch(cluster.epochBase + 2);
    byte[] key = Keys.key(table, 3, new byte[] {1, 2, 3});
    List<SstInfo> l0 = new ArrayList<>();
    try (LocalStateStore l = cluster.storageB.newLocal(table)) {
      l.init(e1);
      l.insert(key, new byte[] {10});
      l.sealCurrentEpoch(e2);
      l0.addAll(syncAndCommit(e1));
      l.update(key, new byte[] {10}, new byte[] {20});
      l.sealCurrentEpoch(epoch(cluster.epochBase + 3));
      l0.addAll(syncAndCommit(e2));
    }
    assertThat(l0).hasSize(2);

    String versionBefore = cluster.storageB.describeVersion();
    CompactionJob job = new CompactionJob(Map.of(0, l0), 1, true, e2, Map.of());
    long req = cluster.nextRequestId();
    cluster.controlB.tell(new ComputeRequest.Compact(req, job, cluster.meta));
    ComputeEvent e = cluster.take();
    assertThat(e).isInstanceOf(ComputeEvent.Compacted.class);
    ComputeEvent.Compacted done = (ComputeEvent.Compacted) e;
    assertThat(done.nodeId()).isEqualTo(2);
    assertThat(done.requestId()).isEqualTo(req);
    CompactionOutcome out = done.outcome();
    assertThat(out.droppedKeys()).as("the overwritten version").isEqualTo(1);
    assertThat(out.rowsRead()).isEqualTo(2);
    assertThat(out.statsDelta().get(table).totalKeyCount()).isEqualTo(-1);
    CompactionOutcome.LevelEdit fromL0 =
        out.changes().stream().filter(c -> c.level() == 0).findFirst().orElseThrow();
    assertThat(fromL0.removed()).containsExactlyInAnyOrder(l0.get(0).id(), l0.get(1).id());
    CompactionOutcome.LevelEdit toL1 =
        out.changes().stream().filter(c -> c.level() == 1).findFirst().orElseThrow();
    assertThat(toL1.added()).hasSize(1);
    assertThat(toL1.added().get(0).rowCount()).isEqualTo(1);

    // the node decides nothing: its version is the one it had before the compaction ran
    assertThat(cluster.storageB.describeVersion()).isEqualTo(versionBefore);
  }

  private static List<SstInfo> syncAndCommit(long epoch) throws Exception {
    SyncResult r = cluster.storageB.sync(epoch).get();
    cluster.storageB.commitEpoch(epoch, r.ssts(), r.statsDelta());
    return r.ssts();
  }
}
