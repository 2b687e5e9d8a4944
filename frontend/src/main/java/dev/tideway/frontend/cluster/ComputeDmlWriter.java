package dev.tideway.frontend.cluster;

import dev.tideway.common.check.Checks;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.row.Row;
import dev.tideway.common.time.Clock;
import dev.tideway.common.vnode.VirtualNode;
import dev.tideway.frontend.meta.DmlWriter;
import dev.tideway.frontend.meta.Relation;
import dev.tideway.frontend.meta.WriteAck;
import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.SqlState;
import dev.tideway.protocol.catalog.CatalogObject;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.protocol.catalog.PlanCodec;
import dev.tideway.protocol.compute.ComputeBridge;
import dev.tideway.protocol.compute.ComputeEvent;
import dev.tideway.protocol.compute.ComputeRequest;
import dev.tideway.protocol.compute.DmlRouter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The frontend's writes into tables: splits the rows by the vnode of their distribution key into
 * the table's {@code Dml} actors (from the catalog's fragment graph), sends each node one {@code
 * WriteDml} with its share, and returns once every node's actors took their rows, with each node's
 * acknowledgement naming the generation and epoch the rows joined (they become visible with the
 * checkpoint that commits that epoch). A share a node discarded before its actors took it (the node
 * reset for a recovery, or is still building the table's actors) is in no epoch and is sent again
 * until the write timeout.
 *
 * <p>Thread-safe.
 */
public final class ComputeDmlWriter implements DmlWriter {
  private static final long WRITE_TIMEOUT_S = 60;

  private final ComputeBridge bridge;
  private final MetaAccess meta;
  private final PlanCodec codec;
  private final Clock clock;

  public ComputeDmlWriter(ComputeBridge bridge, MetaAccess meta, PlanCodec codec, Clock clock) {
    this.clock = clock;
    this.bridge = bridge;
    this.meta = meta;
    this.codec = codec;
  }

  /** Where a table's rows go: its layout and, per vnode, the Dml actor and its node. */
  private record Route(TableDesc table, int[] actorByVnode, Map<Integer, String> nodeOfActor) {}

  @Override
  public List<WriteAck> write(int tableId, List<Row> deletes, List<Row> inserts) {
    CatalogState state =
        meta.catalog()
            .orElseThrow(() -> PgException.error("57P03", "the meta service is not ready"));
    Route route = route(state, tableId);
    TableDesc t = route.table();
    int rowId = -1;
    for (int i = 0; i < t.columns().size(); i++) {
      if (t.columns().get(i).name().equals(Relation.ROW_ID)) {
        rowId = i;
      }
    }
    Map<Integer, DmlRouter.Part> parts;
    try {
      parts =
          DmlRouter.split(
              t.types(),
              t.distributionKey().stream().mapToInt(Integer::intValue).toArray(),
              rowId,
              route.actorByVnode(),
              deletes,
              inserts);
    } catch (IllegalArgumentException e) {
      throw PgException.error(SqlState.DATATYPE_MISMATCH, e.getMessage());
    }
    List<WriteAck> out = new ArrayList<>();
    long deadline = clock.nanoTime() + TimeUnit.SECONDS.toNanos(WRITE_TIMEOUT_S);
    Map<Integer, DmlRouter.Part> pending = new TreeMap<>(parts);
    while (!pending.isEmpty()) {
      Map<Integer, CompletableFuture<ComputeEvent>> acks = new TreeMap<>();
      for (Map.Entry<Integer, DmlRouter.Part> p : pending.entrySet()) {
        String node = route.nodeOfActor().get(p.getKey());
        List<Row> d = p.getValue().deletes();
        List<Row> i = p.getValue().inserts();
        int actor = p.getKey();
        acks.put(
            actor,
            bridge.request(
                node,
                id -> new ComputeRequest.WriteDml(id, tableId, actor, d, i, bridge.replyTo())));
      }
      Map<Integer, DmlRouter.Part> retry = new TreeMap<>();
      for (Map.Entry<Integer, CompletableFuture<ComputeEvent>> a : acks.entrySet()) {
        ComputeEvent e = await(a.getValue(), tableId, deadline);
        if (e instanceof ComputeEvent.CommandFailed f
            && (f.reason().contains("no DML actor") || f.reason().contains("write discarded"))
            && clock.nanoTime() < deadline) {
          // the node is (re)building its actors (recovery, a new table) or dropped them before
          // they took the rows: none of them joined an epoch, so they go again
          retry.put(a.getKey(), pending.get(a.getKey()));
        } else {
          out.add(ackOf(e, tableId));
        }
      }
      pending = retry;
      if (!pending.isEmpty()) {
        try {
          clock.sleepMillis(100);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw PgException.error(SqlState.QUERY_CANCELED, "interrupted while writing");
        }
        // a recovery may have moved the actors of a lost node
        route = route(meta.catalog().orElse(state), tableId);
      }
    }
    return out;
  }

  private ComputeEvent await(CompletableFuture<ComputeEvent> ack, int tableId, long deadline) {
    try {
      return ack.get(Math.max(1, deadline - clock.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
      throw PgException.error(SqlState.QUERY_CANCELED, "interrupted while writing");
    } catch (java.util.concurrent.TimeoutException ex) {
      ack.cancel(false); // forget the request
      throw PgException.error(
          SqlState.INTERNAL_ERROR,
          "write into table "
              + tableId
              + ": no acknowledgement within "
              + WRITE_TIMEOUT_S
              + " s (the table's actors are behind); its rows may still be applied");
    } catch (Exception ex) {
      throw PgException.error(
          SqlState.INTERNAL_ERROR, "write into table " + tableId + " failed: " + ex.getMessage());
    }
  }

  private static WriteAck ackOf(ComputeEvent e, int tableId) {
    if (e instanceof ComputeEvent.DmlWritten w) {
      return new WriteAck(tableId, w.rows(), w.generation(), w.epoch());
    }
    String reason = e instanceof ComputeEvent.CommandFailed f ? f.reason() : "answered " + e;
    throw PgException.error(
        SqlState.INTERNAL_ERROR, "write into table " + tableId + " failed: " + reason);
  }

  private Route route(CatalogState state, int tableId) {
    CatalogObject o = state.objects().get(tableId);
    if (o == null) {
      throw PgException.error(SqlState.UNDEFINED_TABLE, "table " + tableId + " does not exist");
    }
    FragmentGraph g = state.fragments().get(o.jobId());
    Checks.checkState(g != null, "table %s has no fragment graph", o.name());
    for (FragmentGraph.Fragment f : g.fragments()) {
      StreamPlanNode plan = codec.decode(f.body());
      if (!hasDml(plan, tableId)) {
        continue;
      }
      int[] actorByVnode = new int[VirtualNode.COUNT];
      Arrays.fill(actorByVnode, -1);
      Map<Integer, String> nodes = new HashMap<>();
      for (FragmentGraph.Actor a : g.actorsOf(f.fragmentId())) {
        nodes.put(a.actorId(), a.node());
        for (int v = 0; v < VirtualNode.COUNT; v++) {
          if (a.vnodes().contains(v)) {
            actorByVnode[v] = a.actorId();
          }
        }
      }
      return new Route(state.tableDesc(codec, tableId), actorByVnode, nodes);
    }
    throw PgException.error(
        SqlState.FEATURE_NOT_SUPPORTED, "\"" + o.name() + "\" is not a table that accepts DML");
  }

  private static boolean hasDml(StreamPlanNode n, int tableId) {
    if (n.node() instanceof StreamNode.Dml d && d.tableId() == tableId) {
      return true;
    }
    return n.inputs().stream().anyMatch(in -> hasDml(in, tableId));
  }
}
