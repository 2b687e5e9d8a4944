package dev.tideway.meta.barrier;

import static dev.tideway.meta.cluster.ZkFixture.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.barrier.message.Mutation;
import dev.tideway.meta.MetaServer;
import dev.tideway.meta.fragment.Plans;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.protocol.catalog.JobStatus;
import dev.tideway.protocol.catalog.KryoPlanCodec;
import dev.tideway.protocol.catalog.ObjectKind;
import dev.tideway.protocol.meta.DdlCommand;
import dev.tideway.protocol.meta.DdlReply;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A new job's actors are built on their nodes before its {@code Add} barrier; a failed build
 * removes the job cleanly and tells the foreground DDL why.
 */
class JobBuildTest {
  final FakeCompute compute = new FakeCompute(2, 200);
  final FakeVersions versions = new FakeVersions();

  interface Body {
    void run(MetaServer meta, int schema, DdlReply.IdsReserved ids) throws Exception;
  }

  void withMeta(Body body) throws Exception {
    var wiring = OneTableMeta.wiring(compute, versions);
    OneTableMeta.run(
        "build",
        wiring,
        KryoPlanCodec.create(),
        compute,
        versions,
        400,
        (meta, zk, schema, ids) -> body.run(meta, schema, ids));
  }

  DdlReply.JobAccepted createMv(MetaServer meta, int schema, DdlReply.IdsReserved ids)
      throws Exception {
    return (DdlReply.JobAccepted)
        meta.ddl()
            .submit(
                BarrierFailoverTest.create(
                    ObjectKind.MATERIALIZED_VIEW,
                    schema,
                    "mv",
                    Plans.mvOnMv(ids.from() + 1, ids.from() + 2, ids.from() + 3)))
            .get(5, TimeUnit.SECONDS);
  }

  boolean addInjectedFor(Set<Integer> actors) {
    return compute.mutations.stream()
        .anyMatch(m -> m instanceof Mutation.Add a && a.actors().containsAll(actors));
  }

  @Test
  void theAddBarrierWaitsForTheBuild() throws Exception {
    CompletableFuture<Void> build = new CompletableFuture<>();
    compute.builder = g -> build;
    withMeta(
        (meta, schema, ids) -> {
          var mv = createMv(meta, schema, ids);
          Set<Integer> actors = actorsOf(mv.graph());
          compute.addBackfillActors(List.copyOf(actors));
          int barriersBefore = compute.injects.size();
          awaitTrue(
              "barriers keep flowing", 5_000, () -> compute.injects.size() > barriersBefore + 10);
          assertThat(addInjectedFor(actors)).as("no Add before the build completed").isFalse();

          build.complete(null);
          awaitTrue("Add injected after the build", 5_000, () -> addInjectedFor(actors));
          assertThat(compute.builtActors).containsAll(actors);
          awaitTrue(
              "mv created",
              30_000,
              () ->
                  meta.catalog().orElseThrow().jobs().get(mv.job().jobId()).status()
                      == JobStatus.CREATED);
        });
  }

  @Test
  void aJobWithoutBackfillIsCreatedOnlyOnceItsAddCommitted() throws Exception {
    CompletableFuture<Void> build = new CompletableFuture<>();
    compute.builder = g -> build;
    withMeta(
        (meta, schema, ids) -> {
          var more =
              (DdlReply.IdsReserved)
                  meta.ddl().submit(new DdlCommand.ReserveIds(2)).get(5, TimeUnit.SECONDS);
          var u =
              (DdlReply.JobAccepted)
                  meta.ddl()
                      .submit(
                          BarrierFailoverTest.create(
                              ObjectKind.TABLE,
                              schema,
                              "u",
                              Plans.sourceTable(more.from(), more.from() + 1)))
                      .get(5, TimeUnit.SECONDS);
          int job = u.job().jobId();
          Set<Integer> actors = actorsOf(u.graph());
          int n = compute.injects.size();
          long committed = versions.current().pointer().maxCommittedEpoch();
          awaitTrue(
              "checkpoints commit while the build is pending",
              5_000,
              () ->
                  compute.injects.size() > n + 10
                      && versions.current().pointer().maxCommittedEpoch() > committed);
          assertThat(meta.catalog().orElseThrow().jobs().get(job).status())
              .as("no Add committed yet, so not CREATED")
              .isEqualTo(JobStatus.CREATING);
          var waiter = meta.ddl().awaitCreated(job);
          assertThat(waiter).isNotDone();

          build.complete(null);
          waiter.get(10, TimeUnit.SECONDS);
          assertThat(addInjectedFor(actors)).as("CREATED after its Add").isTrue();
          awaitTrue(
              "u created in the catalog",
              5_000,
              () -> meta.catalog().orElseThrow().jobs().get(job).status() == JobStatus.CREATED);
        });
  }

  @Test
  void aFailedBuildRemovesTheJobAndTellsTheWaiterWhy() throws Exception {
    compute.builder =
        g ->
            CompletableFuture.failedFuture(
                new IllegalStateException("node compute-1 refused: boom"));
    withMeta(
        (meta, schema, ids) -> {
          var mv = createMv(meta, schema, ids);
          int job = mv.job().jobId();
          var waiter = meta.ddl().awaitCreated(job);
          assertThatThrownBy(() -> waiter.get(10, TimeUnit.SECONDS))
              .isInstanceOf(ExecutionException.class)
              .hasMessageContaining("building the actors of job " + job)
              .hasMessageContaining("boom");
          awaitTrue(
              "job removed", 5_000, () -> !meta.catalog().orElseThrow().jobs().containsKey(job));
          assertThat(meta.catalog().orElseThrow().find(schema, "mv", ObjectKind.MATERIALIZED_VIEW))
              .isEmpty();
          assertThat(compute.droppedActors).containsAll(actorsOf(mv.graph()));
          assertThat(addInjectedFor(actorsOf(mv.graph()))).isFalse();
          // the table's loop keeps running
          int n = compute.injects.size();
          awaitTrue("barriers continue", 5_000, () -> compute.injects.size() > n + 5);
        });
  }

  static Set<Integer> actorsOf(FragmentGraph g) {
    return g.actors().stream().map(FragmentGraph.Actor::actorId).collect(Collectors.toSet());
  }
}
