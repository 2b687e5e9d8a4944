package dev.tideway.protocol.catalog;

import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.plan.TableDesc;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * All metadata of a cluster as one immutable value: what ZooKeeper holds under the cluster root
 * (minus leadership and node registrations). {@link #apply} returns the next state; the old one is
 * untouched, so readers (HTTP, metrics) can hold a state while the owner thread moves on.
 */
public record CatalogState(
    SystemParams params,
    Map<Integer, CatalogObject> objects,
    Map<Integer, JobRecord> jobs,
    Map<Integer, FragmentGraph> fragments,
    Optional<VersionPointer> versionPointer,
    NextId nextId,
    RecoveryLog recoveries,
    BackfillHistory backfills) {
  /** The database every cluster starts with. */
  public static final String DEFAULT_DATABASE = "dev";

  /** The schema of {@link #DEFAULT_DATABASE} every cluster starts with. */
  public static final String DEFAULT_SCHEMA = "public";

  /** A state without finished backfills (a view of the running jobs, built by the barrier loop). */
  public CatalogState(
      SystemParams params,
      Map<Integer, CatalogObject> objects,
      Map<Integer, JobRecord> jobs,
      Map<Integer, FragmentGraph> fragments,
      Optional<VersionPointer> versionPointer,
      NextId nextId,
      RecoveryLog recoveries) {
    this(
        params,
        objects,
        jobs,
        fragments,
        versionPointer,
        nextId,
        recoveries,
        BackfillHistory.EMPTY);
  }

  public CatalogState {
    objects = Collections.unmodifiableMap(new TreeMap<>(objects));
    jobs = Collections.unmodifiableMap(new TreeMap<>(jobs));
    fragments = Collections.unmodifiableMap(new TreeMap<>(fragments));
  }

  /** A fresh cluster: default parameters, nothing else. */
  public static CatalogState empty() {
    return new CatalogState(
        SystemParams.DEFAULTS,
        Map.of(),
        Map.of(),
        Map.of(),
        Optional.empty(),
        new NextId(1),
        RecoveryLog.EMPTY,
        BackfillHistory.EMPTY);
  }

  /** The object named {@code name} of a kind in {@code kinds} under {@code parentId}, if any. */
  public Optional<CatalogObject> find(int parentId, String name, ObjectKind... kinds) {
    for (CatalogObject o : objects.values()) {
      if (o.parentId() == parentId && o.name().equals(name)) {
        for (ObjectKind k : kinds) {
          if (o.kind() == k) {
            return Optional.of(o);
          }
        }
      }
    }
    return Optional.empty();
  }

  /** The state after {@code change}. */
  public CatalogState apply(CatalogChange change) {
    var o = new TreeMap<>(objects);
    var j = new TreeMap<>(jobs);
    var f = new TreeMap<>(fragments);
    SystemParams p = params;
    Optional<VersionPointer> v = versionPointer;
    NextId n = nextId;
    RecoveryLog r = recoveries;
    BackfillHistory h = backfills;
    if (change instanceof CatalogChange.PutObject c) {
      o.put(c.object().id(), c.object());
    } else if (change instanceof CatalogChange.DeleteObject c) {
      o.remove(c.id());
    } else if (change instanceof CatalogChange.PutJob c) {
      j.put(c.job().jobId(), c.job());
    } else if (change instanceof CatalogChange.DeleteJob c) {
      j.remove(c.jobId());
    } else if (change instanceof CatalogChange.PutFragments c) {
      f.put(c.graph().jobId(), c.graph());
    } else if (change instanceof CatalogChange.DeleteFragments c) {
      f.remove(c.jobId());
    } else if (change instanceof CatalogChange.PutNextId c) {
      n = c.nextId();
    } else if (change instanceof CatalogChange.PutParams c) {
      p = c.params();
    } else if (change instanceof CatalogChange.PutVersionPointer c) {
      v = Optional.of(c.pointer());
    } else if (change instanceof CatalogChange.PutRecoveryLog c) {
      r = c.log();
    } else if (change instanceof CatalogChange.PutBackfillHistory c) {
      h = c.history();
    } else {
      throw new IllegalStateException("unknown catalog change " + change);
    }
    return new CatalogState(p, o, j, f, v, n, r, h);
  }

  /**
   * The storage layout of table or view {@code tableId}: its job's {@code Materialize} table.
   *
   * @throws IllegalArgumentException if no job materializes it
   */
  public TableDesc tableDesc(PlanCodec codec, int tableId) {
    CatalogObject o = objects.get(tableId);
    FragmentGraph g = o == null ? null : fragments.get(o.jobId());
    if (g != null) {
      for (FragmentGraph.Fragment f : g.fragments()) {
        if (f.stateTableIds().contains(tableId)) {
          TableDesc t = materialized(codec.decode(f.body()), tableId);
          if (t != null) {
            return t;
          }
        }
      }
    }
    throw new IllegalArgumentException("no job materializes table " + tableId);
  }

  /** The {@code Materialize} table {@code tableId} in plan {@code n}, or null. */
  public static TableDesc materialized(StreamPlanNode n, int tableId) {
    if (n.node() instanceof StreamNode.Materialize m && m.table().tableId() == tableId) {
      return m.table();
    }
    if (n.node() instanceof dev.tideway.common.plan.SinkNode k
        && k.logStore().tableId() == tableId) {
      return k.logStore(); // a sink's catalog id is its log store's
    }
    for (StreamPlanNode in : n.inputs()) {
      TableDesc t = materialized(in, tableId);
      if (t != null) {
        return t;
      }
    }
    return null;
  }
}
