package dev.tideway.meta.barrier;

import static dev.tideway.meta.cluster.ZkFixture.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.meta.fragment.KryoPlanCodec;
import dev.tideway.meta.metadata.RecoveryLog;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The storage commit of a checkpoint fails (an object-store error whose outcome may be unknown):
 * the leader must not go on as if the epoch were committed (later checkpoints would commit around a
 * hole), nor reset the nodes on a guess. Its barrier loop halts: no further barrier, commit or
 * reset, and the recovery log keeps no base above the durable version.
 */
class CheckpointCommitFailureTest {
  @Test
  void aFailedStorageCommitHaltsTheLoopInsteadOfCommittingAroundIt() throws Exception {
    FakeCompute compute = new FakeCompute(1, 300);
    FakeVersions versions = new FakeVersions();
    var wiring = OneTableMeta.wiring(compute, versions);
    OneTableMeta.run(
        "commit-fail",
        wiring,
        KryoPlanCodec.create(),
        compute,
        versions,
        300,
        (meta, zk, schema, ids) -> {
          awaitTrue("checkpoints commit", 10_000, () -> versions.durableEpoch() > 0);
          int resets = compute.resets.get();

          versions.failCommits.set(1);
          awaitTrue("the failing commit was tried", 10_000, () -> versions.failCommits.get() == 0);
          long durable = versions.durableEpoch();
          long committedBefore = meta.barrierManager().orElseThrow().committedEpoch();
          Thread.sleep(1_000); // ~50 barrier intervals
          assertThat(versions.durableEpoch())
              .as("nothing commits around the failed epoch")
              .isEqualTo(durable);
          assertThat(meta.barrierManager().orElseThrow().committedEpoch())
              .as("the published committed epoch stays at the durable one")
              .isEqualTo(committedBefore)
              .isLessThanOrEqualTo(durable);
          assertThat(compute.resets.get()).as("no reset on a guessed epoch").isEqualTo(resets);
          List<RecoveryLog.Entry> log = meta.catalog().orElseThrow().recoveries().entries();
          assertThat(log.get(log.size() - 1).baseEpoch()).isLessThanOrEqualTo(durable);
        });
  }
}
