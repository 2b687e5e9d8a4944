package dev.tideway.protocol.store;

import dev.tideway.protocol.catalog.BackfillHistory;
import dev.tideway.protocol.catalog.CatalogObject;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.protocol.catalog.JobRecord;
import dev.tideway.protocol.catalog.NextId;
import dev.tideway.protocol.catalog.RecoveryLog;
import dev.tideway.protocol.catalog.SystemParams;
import dev.tideway.protocol.catalog.VersionPointer;
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

  public static CatalogState load(MetaStoreReader store) {
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
    BackfillHistory backfills =
        store
            .read(p.backfillHistory())
            .map(b -> decode(p.backfillHistory(), b, BackfillHistory::decode))
            .orElse(BackfillHistory.EMPTY);
    return new CatalogState(params, objects, jobs, fragments, pointer, next, recoveries, backfills);
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
