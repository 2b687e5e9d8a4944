package dev.tideway.protocol.catalog;

/**
 * One persisted change to the metadata, the unit a decision emits and a state replays (Kafka's
 * "record"). Each maps to exactly one znode write (the meta service's {@code CatalogWrites}).
 */
public sealed interface CatalogChange {
  record PutObject(CatalogObject object) implements CatalogChange {}

  record DeleteObject(int id) implements CatalogChange {}

  record PutJob(JobRecord job) implements CatalogChange {}

  record DeleteJob(int jobId) implements CatalogChange {}

  record PutFragments(FragmentGraph graph) implements CatalogChange {}

  record DeleteFragments(int jobId) implements CatalogChange {}

  record PutNextId(NextId nextId) implements CatalogChange {}

  record PutParams(SystemParams params) implements CatalogChange {}

  record PutRecoveryLog(RecoveryLog log) implements CatalogChange {}

  record PutBackfillHistory(BackfillHistory history) implements CatalogChange {}

  record PutVersionPointer(VersionPointer pointer) implements CatalogChange {}
}
