package dev.tideway.meta.catalog;

import dev.tideway.meta.cluster.MetaPaths;
import dev.tideway.meta.cluster.MetaWrite;
import dev.tideway.meta.metadata.CatalogObject;
import dev.tideway.meta.metadata.FragmentGraph;
import dev.tideway.meta.metadata.JobRecord;
import dev.tideway.meta.metadata.NextId;
import dev.tideway.meta.metadata.RecoveryLog;
import dev.tideway.meta.metadata.SystemParams;
import dev.tideway.meta.metadata.VersionPointer;

/**
 * One persisted change to the metadata, the unit a decision emits and a state replays (Kafka's
 * "record"). Each maps to exactly one znode write.
 */
public sealed interface CatalogChange {
  /** The znode write that persists this change. */
  MetaWrite toWrite(MetaPaths paths);

  record PutObject(CatalogObject object) implements CatalogChange {
    @Override
    public MetaWrite toWrite(MetaPaths paths) {
      return new MetaWrite.Put(paths.catalogObject(object.id()), object.encode());
    }
  }

  record DeleteObject(int id) implements CatalogChange {
    @Override
    public MetaWrite toWrite(MetaPaths paths) {
      return new MetaWrite.Delete(paths.catalogObject(id));
    }
  }

  record PutJob(JobRecord job) implements CatalogChange {
    @Override
    public MetaWrite toWrite(MetaPaths paths) {
      return new MetaWrite.Put(paths.job(job.jobId()), job.encode());
    }
  }

  record DeleteJob(int jobId) implements CatalogChange {
    @Override
    public MetaWrite toWrite(MetaPaths paths) {
      return new MetaWrite.Delete(paths.job(jobId));
    }
  }

  record PutFragments(FragmentGraph graph) implements CatalogChange {
    @Override
    public MetaWrite toWrite(MetaPaths paths) {
      return new MetaWrite.Put(paths.fragmentGraph(graph.jobId()), graph.encode());
    }
  }

  record DeleteFragments(int jobId) implements CatalogChange {
    @Override
    public MetaWrite toWrite(MetaPaths paths) {
      return new MetaWrite.Delete(paths.fragmentGraph(jobId));
    }
  }

  record PutNextId(NextId nextId) implements CatalogChange {
    @Override
    public MetaWrite toWrite(MetaPaths paths) {
      return new MetaWrite.Put(paths.nextId(), nextId.encode());
    }
  }

  record PutParams(SystemParams params) implements CatalogChange {
    @Override
    public MetaWrite toWrite(MetaPaths paths) {
      return new MetaWrite.Put(paths.params(), params.encode());
    }
  }

  record PutRecoveryLog(RecoveryLog log) implements CatalogChange {
    @Override
    public MetaWrite toWrite(MetaPaths paths) {
      return new MetaWrite.Put(paths.recoveryLog(), log.encode());
    }
  }

  record PutVersionPointer(VersionPointer pointer) implements CatalogChange {
    @Override
    public MetaWrite toWrite(MetaPaths paths) {
      return new MetaWrite.Put(paths.versionPointer(), pointer.encode());
    }
  }
}
