package dev.tideway.meta.barrier;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.control.NodeFailure;
import dev.tideway.meta.catalog.CatalogCore;
import dev.tideway.meta.catalog.ClusterView;
import dev.tideway.meta.fragment.Plans;
import dev.tideway.meta.schedule.Worker;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.CreateType;
import dev.tideway.protocol.catalog.ObjectKind;
import dev.tideway.protocol.meta.DdlCommand;
import dev.tideway.protocol.meta.DdlReply;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** Which failures count against a job, and when it becomes due for isolation. */
class FailingJobsTest {
  private static final ClusterView VIEW =
      new ClusterView(List.of(new Worker("c1", 2), new Worker("c2", 2)), 1_000);

  private final CatalogCore core = new CatalogCore(Plans.OPERATOR_IDS);
  private CatalogState state = CatalogState.empty();
  private final int jobId;
  private final int actorId;

  FailingJobsTest() {
    core.bootstrap(state).forEach(c -> state = state.apply(c));
    int schema = state.find(1, CatalogCore.DEFAULT_SCHEMA, ObjectKind.SCHEMA).orElseThrow().id();
    DdlReply.IdsReserved ids = (DdlReply.IdsReserved) apply(new DdlCommand.ReserveIds(3));
    int first = ids.from();
    DdlReply.JobAccepted acc =
        (DdlReply.JobAccepted)
            apply(
                new DdlCommand.CreateStreamingJob(
                    ObjectKind.MATERIALIZED_VIEW,
                    schema,
                    "mv",
                    "",
                    Plans.countByK(first, first + 1, first + 2),
                    CreateType.FOREGROUND));
    jobId = acc.job().jobId();
    actorId = acc.graph().actors().get(0).actorId();
  }

  private DdlReply apply(DdlCommand cmd) {
    var d = core.decide(cmd, state, VIEW);
    d.changes().forEach(c -> state = state.apply(c));
    return d.reply();
  }

  private NodeFailure failure(int actor, String reason) {
    return new NodeFailure(1, 1, actor, "actor " + actor + " failed: " + reason, List.of());
  }

  @Test
  void aJobIsDueAfterMaxFailuresInARowWithNoCheckpointBetween() {
    FailingJobs f = new FailingJobs(3);
    String boom = "java.lang.IllegalStateException: boom";
    assertThat(f.onFailure(state, failure(actorId, boom))).isEmpty();
    assertThat(f.onFailure(state, failure(actorId, boom))).isEmpty();
    f.onCommit(); // the job passed a checkpoint: a crash now and then, not a job that cannot run
    assertThat(f.onFailure(state, failure(actorId, boom))).isEmpty();
    assertThat(f.onFailure(state, failure(actorId, boom))).isEmpty();
    assertThat(f.onFailure(state, failure(actorId, boom))).isEqualTo(OptionalInt.of(jobId));
    assertThat(f.due()).containsOnlyKeys(jobId);
    assertThat(f.due().get(jobId)).contains("failed 3 times in a row").contains("boom");
    assertThat(f.onFailure(state, failure(actorId, boom))).as("due once").isEmpty();
    f.settled(jobId);
    assertThat(f.due()).isEmpty();
    assertThat(f.onFailure(state, failure(actorId, boom))).as("settled: counted afresh").isEmpty();
  }

  @Test
  void infrastructureFailuresAndUnknownActorsCountAgainstNoJob() {
    FailingJobs f = new FailingJobs(1);
    for (String reason :
        List.of(
            "dev.tideway.compute.exchange.ChannelFailed: peer lost",
            "dev.tideway.compute.actor.ActorInterrupted: interrupted",
            "dev.tideway.storage.StorageException: object store unreachable",
            "java.io.UncheckedIOException: java.io.IOException: disk",
            "no such actor on node 2")) {
      assertThat(f.onFailure(state, failure(actorId, reason))).as(reason).isEmpty();
    }
    assertThat(f.onFailure(state, failure(999_999, "java.lang.ArithmeticException"))).isEmpty();
    assertThat(f.due()).isEmpty();
    assertThat(f.onFailure(state, failure(actorId, "java.lang.ArithmeticException")))
        .isEqualTo(OptionalInt.of(jobId));
  }

  @Test
  void aPausedJobLeavesTheRunningGraph() {
    apply(new DdlCommand.FinishJob(jobId, new byte[0]));
    assertThat(FailingJobs.running(state)).isSameAs(state);
    apply(new DdlCommand.PauseJob(jobId, "boom"));
    assertThat(FailingJobs.paused(state, jobId)).isTrue();
    CatalogState running = FailingJobs.running(state);
    assertThat(running.fragments()).doesNotContainKey(jobId);
    assertThat(running.jobs()).containsKey(jobId);
    assertThat(Topologies.of(running).size()).isZero();
  }
}
