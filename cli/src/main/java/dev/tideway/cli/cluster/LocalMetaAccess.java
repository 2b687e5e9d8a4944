package dev.tideway.cli.cluster;

import dev.tideway.barrier.progress.JobProgress;
import dev.tideway.frontend.cluster.MetaAccess;
import dev.tideway.meta.MetaServer;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.meta.DdlCommand;
import dev.tideway.protocol.meta.DdlReply;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** The meta leader in this process (the playground). */
public final class LocalMetaAccess implements MetaAccess {
  private final MetaServer meta;

  public LocalMetaAccess(MetaServer meta) {
    this.meta = meta;
  }

  @Override
  public Optional<CatalogState> catalog() {
    return meta.ddl().snapshot();
  }

  @Override
  public CompletableFuture<Integer> submit(DdlCommand command) {
    return meta.ddl().submit(command).thenApply(DdlReply::valueOf);
  }

  @Override
  public CompletableFuture<Void> awaitCreated(int jobId) {
    return meta.ddl().awaitCreated(jobId).thenApply(j -> null);
  }

  @Override
  public CompletableFuture<Void> setBackfillRateLimit(int jobId, long rowsPerSecond) {
    return meta.setBackfillRateLimit(jobId, rowsPerSecond)
        .thenApply(
            reply -> {
              DdlReply.valueOf(reply); // throws DdlRejectedException
              return null;
            });
  }

  @Override
  public Map<Long, JobProgress> progress() {
    return meta.progress();
  }

  @Override
  public long committedEpoch() {
    return catalog()
        .flatMap(CatalogState::versionPointer)
        .map(p -> p.maxCommittedEpoch())
        .orElse(0L);
  }
}
