package dev.tideway.frontend.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.barrier.progress.JobProgress;
import dev.tideway.common.time.Clock;
import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.meta.DdlCommand;
import dev.tideway.protocol.meta.DdlRejectedException;
import dev.tideway.protocol.meta.DdlReply.Rejected.Reason;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * How {@link ClusterMetaClient#setBackfillRateLimit} maps meta's answers for the frontend: DEFAULT
 * becomes unlimited (-1); an unknown or created job is {@code false} (the frontend names the view
 * in its error); a job without backfill is SQLSTATE 55000 with meta's message. The meta side is a
 * scripted {@link MetaAccess} (the real leader's behaviour is covered by meta-service's {@code
 * BackfillThrottleTest} and the playground's {@code PsqlPlaygroundIT}).
 */
class ClusterMetaClientRateLimitTest {
  /** Answers every rate-limit request with {@link #next}; records what was asked. */
  static final class ScriptedMeta implements MetaAccess {
    final List<String> asked = new ArrayList<>();
    CompletableFuture<Void> next = CompletableFuture.completedFuture(null);

    @Override
    public CompletableFuture<Void> setBackfillRateLimit(int jobId, long rowsPerSecond) {
      asked.add(jobId + "=" + rowsPerSecond);
      return next;
    }

    @Override
    public Optional<CatalogState> catalog() {
      return Optional.empty();
    }

    @Override
    public CompletableFuture<Integer> submit(DdlCommand command) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<Void> awaitCreated(int jobId) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Map<Long, JobProgress> progress() {
      return Map.of();
    }

    @Override
    public long committedEpoch() {
      return 0;
    }
  }

  final ScriptedMeta meta = new ScriptedMeta();
  final ClusterMetaClient client = new ClusterMetaClient(meta, null, null, Clock.system(), 1000);

  @Test
  void aLimitOrDefaultIsSentAsRowsPerSecondOrUnlimited() {
    assertThat(client.setBackfillRateLimit(7, OptionalLong.of(0))).isTrue();
    assertThat(client.setBackfillRateLimit(7, OptionalLong.empty())).isTrue();
    assertThat(meta.asked).containsExactly("7=0", "7=-1");
  }

  @Test
  void anUnknownOrCreatedJobIsFalseAndAJobWithoutBackfillIs55000() {
    meta.next =
        CompletableFuture.failedFuture(new DdlRejectedException(Reason.WRONG_STATUS, "created"));
    assertThat(client.setBackfillRateLimit(7, OptionalLong.of(5))).isFalse();
    meta.next =
        CompletableFuture.failedFuture(new DdlRejectedException(Reason.NOT_FOUND, "no job 7"));
    assertThat(client.setBackfillRateLimit(7, OptionalLong.of(5))).isFalse();
    meta.next =
        CompletableFuture.failedFuture(
            new DdlRejectedException(Reason.INVALID, "job 7 reads no table"));
    assertThatThrownBy(() -> client.setBackfillRateLimit(7, OptionalLong.of(5)))
        .isInstanceOfSatisfying(
            PgException.class,
            e -> {
              assertThat(e.sqlState()).isEqualTo("55000");
              assertThat(e.getMessage()).contains("job 7 reads no table");
            });
  }

  @Test
  void aMetaFailureIsAnInternalErrorNamingTheCause() {
    meta.next = CompletableFuture.failedFuture(new IllegalStateException("not-leader: deposed"));
    assertThatThrownBy(() -> client.setBackfillRateLimit(7, OptionalLong.of(5)))
        .isInstanceOf(PgException.class)
        .hasMessageContaining("not-leader: deposed");
  }
}
