package dev.tideway.meta.barrier;

import static dev.tideway.meta.cluster.ZkFixture.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.protocol.catalog.KryoPlanCodec;
import dev.tideway.protocol.catalog.RecoveryLog;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The storage commit of a checkpoint fails (an object-store error whose outcome may be unknown):
 * the leader must not go on as if the epoch were committed (later checkpoints would commit around a
 * hole), nor reset the nodes on a guess. Its barrier loop halts: no further barrier, commit or
 * reset in that term. The leader then resigns the term and, as the only meta process, wins the next
 * one, which starts from what storage and ZooKeeper hold: the nodes are reset to the durable epoch
 * and checkpoints commit again, with no restart of the process.
 */
class CheckpointCommitFailureTest {
  @Test
  void aFailedStorageCommitHaltsTheTermAndTheNextTermGoesOnFromTheDurableEpoch() throws Exception {
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
          int termBefore = meta.leader().orElseThrow().epoch();
          int resets = compute.resets.get();

          versions.failCommits.set(1);
          awaitTrue("the failing commit was tried", 10_000, () -> versions.failCommits.get() == 0);
          long durable = versions.durableEpoch();
          awaitTrue(
              "a new term leads",
              20_000,
              () ->
                  meta.isLeader() && meta.leader().map(l -> l.epoch() > termBefore).orElse(false));
          awaitTrue("checkpoints commit again", 20_000, () -> versions.durableEpoch() > durable);
          assertThat(compute.resets.get())
              .as("the new term reset the nodes before committing")
              .isGreaterThan(resets);
          List<RecoveryLog.Entry> log = meta.catalog().orElseThrow().recoveries().entries();
          RecoveryLog.Entry base =
              log.stream().filter(e -> e.baseEpoch() >= durable).findFirst().orElseThrow();
          assertThat(base.baseEpoch())
              .as("the new term resets to the durable epoch: nothing above it was kept")
              .isEqualTo(durable);
        });
  }
}
