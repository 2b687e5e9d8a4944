package dev.tideway.frontend.meta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.barrier.progress.BackfillMode;
import dev.tideway.barrier.progress.JobPhase;
import dev.tideway.barrier.progress.JobProgress;
import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.SqlState;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ForegroundJobsTest {
  private static DdlJob job(long consumed) {
    JobProgress p =
        new JobProgress(
            7,
            1,
            BackfillMode.ARRANGEMENT,
            JobPhase.SNAPSHOT,
            consumed,
            0,
            0,
            100,
            OptionalLong.of(100),
            true,
            consumed / 100.0,
            consumed / 100.0,
            0,
            OptionalLong.empty(),
            0,
            0,
            0,
            0,
            1,
            1,
            Optional.empty());
    return new DdlJob(7, "CREATE MATERIALIZED VIEW v AS SELECT 1", "FOREGROUND", Instant.EPOCH, p);
  }

  @Test
  void reportsProgressWhileWaitingAndReturnsWhenDone() throws Exception {
    CompletableFuture<Void> done = new CompletableFuture<>();
    List<String> notices = new CopyOnWriteArrayList<>();
    CompletableFuture.delayedExecutor(300, TimeUnit.MILLISECONDS)
        .execute(() -> done.complete(null));
    ForegroundJobs.await(
        7, done, id -> Optional.of(job(42)), j -> notices.add(j.progress().render()), 20);
    assertThat(notices).isNotEmpty().allMatch(n -> n.contains("42.00% (42/100)"));
  }

  @Test
  void cancelledJobEndsWith57014AndAFailedOneWithItsCause() {
    CompletableFuture<Void> cancelled = new CompletableFuture<>();
    cancelled.cancel(false);
    assertThatThrownBy(
            () ->
                ForegroundJobs.await(
                    7, cancelled, id -> Optional.empty(), MetaClient.ProgressListener.NONE, 10))
        .isInstanceOf(PgException.class)
        .satisfies(e -> assertThat(((PgException) e).sqlState()).isEqualTo("57014"));
    CompletableFuture<Void> failed =
        CompletableFuture.failedFuture(new IllegalStateException("node 3 lost"));
    assertThatThrownBy(
            () ->
                ForegroundJobs.await(
                    7, failed, id -> Optional.empty(), MetaClient.ProgressListener.NONE, 10))
        .satisfies(e -> assertThat(((PgException) e).sqlState()).isEqualTo("XX000"))
        .hasMessageContaining("job 7 failed")
        .hasMessageContaining("node 3 lost");
    CompletableFuture<Void> user =
        CompletableFuture.failedFuture(PgException.error(SqlState.DIVISION_BY_ZERO, "x / 0"));
    assertThatThrownBy(
            () ->
                ForegroundJobs.await(
                    7, user, id -> Optional.empty(), MetaClient.ProgressListener.NONE, 10))
        .satisfies(e -> assertThat(((PgException) e).sqlState()).isEqualTo("22012"));
  }
}
