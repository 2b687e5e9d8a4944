package dev.tideway.meta.catalog;

import dev.tideway.meta.cluster.FencedMetaStore;
import dev.tideway.meta.cluster.MetaPaths;
import dev.tideway.meta.metadata.CatalogObject;
import dev.tideway.meta.metadata.FragmentGraph;
import dev.tideway.meta.metadata.JobRecord;
import dev.tideway.meta.metadata.NextId;
import dev.tideway.meta.metadata.RecoveryLog;
import dev.tideway.meta.metadata.SystemParams;
import dev.tideway.meta.metadata.VersionPointer;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the whole metadata of a cluster into a {@link CatalogState}: what a new leader does before
 * acting. A record that fails to decode fails the load, naming its path (never skipped: a silently
 * missing table is worse than a leader that refuses to start).
 */
public final class CatalogLoader {
  private CatalogLoader() {}

  public static CatalogState load(FencedMetaStore store) {
    MetaPaths p = store.paths();
    Map<Integer, CatalogObject> objects = new HashMap<>();
    for (String child : store.children(p.catalogObjects())) {
      String path = p.catalogObjects() + "/" + child;
      store
          .read(path)
          .ifPresent(
              b -> objects.put(Integer.parseInt(child), decode(path, b, CatalogObject::decode)));
    }
    Map<Integer, JobRecord> jobs = new HashMap<>();
    for (String child : store.children(p.jobs())) {
      String path = p.jobs() + "/" + child;
      store
          .read(path)
          .ifPresent(b -> jobs.put(Integer.parseInt(child), decode(path, b, JobRecord::decode)));
    }
    Map<Integer, FragmentGraph> fragments = new HashMap<>();
    for (String child : store.children(p.fragments())) {
      String path = p.fragments() + "/" + child;
      store
          .read(path)
          .ifPresent(
              b -> fragments.put(Integer.parseInt(child), decode(path, b, FragmentGraph::decode)));
    }
    SystemParams params =
        store
            .read(p.params())
            .map(b -> decode(p.params(), b, SystemParams::decode))
            .orElse(SystemParams.DEFAULTS);
    Optional<VersionPointer> pointer =
        store
            .read(p.versionPointer())
            .map(b -> decode(p.versionPointer(), b, VersionPointer::decode));
    NextId next =
        store
            .read(p.nextId())
            .map(b -> decode(p.nextId(), b, NextId::decode))
            .orElse(new NextId(1));
    RecoveryLog recoveries =
        store
            .read(p.recoveryLog())
            .map(b -> decode(p.recoveryLog(), b, RecoveryLog::decode))
            .orElse(RecoveryLog.EMPTY);
    return new CatalogState(params, objects, jobs, fragments, pointer, next, recoveries);
  }

  private interface Decoder<T> {
    T decode(byte[] b);
  }

  private static <T> T decode(String path, byte[] bytes, Decoder<T> d) {
    try {
      return d.decode(bytes);
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "cannot decode metadata at " + path + ": " + e.getMessage(), e);
    }
  }
}
