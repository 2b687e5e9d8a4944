package dev.tideway.frontend.cluster;

import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
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
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The frontend's writes into tables, streamed: a statement's rows are routed by the vnode of their
 * distribution key to the table's {@code Dml} actors (from the catalog's fragment graph) and cut
 * into columnar chunks per actor ({@link DmlRouter}); each chunk is one {@code WriteDml} to its
 * actor's node, acknowledged with the generation and epoch it joined once the actor took it. A
 * statement keeps at most {@link #WINDOW} chunks unacknowledged, so a statement of any size streams
 * through memory bounded by the window times the chunk size, and the node holds no more of it.
 *
 * <p>Chunks are cut to {@link #CHUNK_ROWS} rows or a quarter of the largest message Pekko carries
 * ({@code maximum-large-frame-size}), whichever comes first. A chunk the node discarded before its
 * actor took it (the node reset for a recovery, or is still building the table's actors) is in no
 * epoch and is sent again, re-routed when the actors moved, until it has waited {@link
 * #WRITE_TIMEOUT_S} seconds without an answer.
 *
 * <p>Thread-safe; each {@link Write} is confined to its session's thread.
 */
public final class ComputeDmlWriter implements DmlWriter {
  /** How long one chunk may go unacknowledged (sent again or not) before the statement fails. */
  static final long WRITE_TIMEOUT_S = 60;

  /**
   * Rows per chunk at most (the DML actor's own chunk size, so it passes chunks on as they are).
   */
  public static final int CHUNK_ROWS = 1024;

  /** Chunks a statement keeps unacknowledged at most. */
  public static final int WINDOW = 16;

  private final ComputeBridge bridge;
  private final MetaAccess meta;
  private final PlanCodec codec;
  private final Clock clock;
  private final int chunkRows;
  private final long chunkBytes;
  private final int window;

  public ComputeDmlWriter(ComputeBridge bridge, MetaAccess meta, PlanCodec codec, Clock clock) {
    this(bridge, meta, codec, clock, CHUNK_ROWS, bridge.largeFrameBytes() / 4, WINDOW);
  }

  /** A writer with its own chunk size and window (tests cross small frames with it). */
  public ComputeDmlWriter(
      ComputeBridge bridge,
      MetaAccess meta,
      PlanCodec codec,
      Clock clock,
      int chunkRows,
      long chunkBytes,
      int window) {
    Checks.checkArgument(window > 0, "DML window %s", window);
    this.clock = clock;
    this.bridge = bridge;
    this.meta = meta;
    this.codec = codec;
    this.chunkRows = chunkRows;
    this.chunkBytes = chunkBytes;
    this.window = window;
  }

  /** Where a table's rows go: its layout and, per vnode, the Dml actor and its node. */
  private record Route(
      TableDesc table, int rowIdIndex, int[] actorByVnode, Map<Integer, String> nodeOfActor) {}

  @Override
  public Write begin(int tableId) {
    return new StreamingWrite(tableId, route(catalog(), tableId));
  }

  /** A chunk sent and not acknowledged yet. */
  private static final class InFlight {
    final int actorId;
    final StreamChunk chunk;
    final long firstSentNanos;
    CompletableFuture<ComputeEvent> answer;

    InFlight(int actorId, StreamChunk chunk, long firstSentNanos) {
      this.actorId = actorId;
      this.chunk = chunk;
      this.firstSentNanos = firstSentNanos;
    }
  }

  private final class StreamingWrite implements Write {
    private final int tableId;
    private Route route;
    private final DmlRouter router;
    private final ArrayDeque<InFlight> inFlight = new ArrayDeque<>();

    /** Rows acknowledged per (table, 0, generation, epoch). */
    private final Map<WriteAck, Long> acks = new LinkedHashMap<>();

    private long sent;
    private boolean done;

    StreamingWrite(int tableId, Route route) {
      this.tableId = tableId;
      this.route = route;
      this.router = routerFor(route);
    }

    private DmlRouter routerFor(Route r) {
      return new DmlRouter(
          r.table().types(),
          r.table().distributionKey().stream().mapToInt(Integer::intValue).toArray(),
          r.rowIdIndex(),
          r.actorByVnode(),
          chunkRows,
          chunkBytes,
          s -> send(s.actorId(), s.chunk(), clock.nanoTime()));
    }

    @Override
    public void delete(Row row) {
      routed(() -> router.delete(row));
    }

    @Override
    public void insert(Row row) {
      routed(() -> router.insert(row));
    }

    @Override
    public void update(Row before, Row after) {
      routed(() -> router.update(before, after));
    }

    private void routed(Runnable step) {
      Checks.checkState(!done, "table %s: write already finished", tableId);
      try {
        step.run();
      } catch (DmlRouter.RowTooLargeException e) {
        throw PgException.error(SqlState.PROGRAM_LIMIT_EXCEEDED, e.getMessage());
      } catch (IllegalArgumentException e) {
        throw PgException.error(SqlState.DATATYPE_MISMATCH, e.getMessage());
      }
    }

    @Override
    public long rowsSent() {
      return sent;
    }

    @Override
    public List<WriteAck> finish() {
      routed(router::flush);
      while (!inFlight.isEmpty()) {
        settleOldest();
      }
      done = true;
      List<WriteAck> out = new ArrayList<>();
      acks.forEach(
          (k, rows) -> out.add(new WriteAck(k.tableId(), rows, k.generation(), k.epoch())));
      return out;
    }

    @Override
    public void abort() {
      done = true;
      inFlight.forEach(f -> f.answer.cancel(false)); // forget the requests
      inFlight.clear();
    }

    /** Sends one chunk, first waiting while the window is full. */
    private void send(int actorId, StreamChunk chunk, long firstSentNanos) {
      while (inFlight.size() >= window) {
        settleOldest();
      }
      InFlight f = new InFlight(actorId, chunk, firstSentNanos);
      post(f);
      inFlight.add(f);
      sent += chunk.cardinality();
    }

    private void post(InFlight f) {
      String node = route.nodeOfActor().get(f.actorId);
      f.answer =
          bridge.request(
              node,
              id -> new ComputeRequest.WriteDml(id, tableId, f.actorId, f.chunk, bridge.replyTo()));
    }

    /** Waits for the oldest chunk's answer: records it, or sends the chunk again, or fails. */
    private void settleOldest() {
      InFlight f = inFlight.poll();
      ComputeEvent e = await(f);
      if (e instanceof ComputeEvent.DmlWritten w) {
        acks.merge(new WriteAck(tableId, 0, w.generation(), w.epoch()), w.rows(), Long::sum);
        return;
      }
      String reason = e instanceof ComputeEvent.CommandFailed c ? c.reason() : "answered " + e;
      boolean retryable = reason.contains("no DML actor") || reason.contains("write discarded");
      if (!retryable
          || clock.nanoTime() - f.firstSentNanos > TimeUnit.SECONDS.toNanos(WRITE_TIMEOUT_S)) {
        abort();
        throw PgException.error(
            SqlState.INTERNAL_ERROR, "write into table " + tableId + " failed: " + reason);
      }
      // the node is (re)building its actors (recovery, a new table) or dropped them before they
      // took the chunk: it joined no epoch, so it goes again, to where its rows live now
      try {
        clock.sleepMillis(100);
      } catch (InterruptedException ie) {
        Thread.currentThread().interrupt();
        abort();
        throw PgException.error(SqlState.QUERY_CANCELED, "interrupted while writing");
      }
      route = route(meta.catalog().orElse(null), tableId);
      if (route.nodeOfActor().containsKey(f.actorId)) {
        post(f);
        inFlight.add(f);
        return;
      }
      // its actor is gone (actors keep their ids and vnodes when a recovery moves them, so this is
      // a table rebuilt with other actors): route the chunk's rows afresh, keeping their deadline
      DmlRouter again =
          new DmlRouter(
              route.table().types(),
              route.table().distributionKey().stream().mapToInt(Integer::intValue).toArray(),
              route.rowIdIndex(),
              route.actorByVnode(),
              chunkRows,
              chunkBytes,
              s -> {
                InFlight g = new InFlight(s.actorId(), s.chunk(), f.firstSentNanos);
                post(g);
                inFlight.add(g);
              });
      replay(f.chunk, again);
      again.flush();
    }

    private ComputeEvent await(InFlight f) {
      long deadline = f.firstSentNanos + TimeUnit.SECONDS.toNanos(WRITE_TIMEOUT_S);
      try {
        return f.answer.get(Math.max(1, deadline - clock.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (InterruptedException ie) {
        Thread.currentThread().interrupt();
        abort();
        throw PgException.error(SqlState.QUERY_CANCELED, "interrupted while writing");
      } catch (TimeoutException ex) {
        abort();
        throw PgException.error(
            SqlState.INTERNAL_ERROR,
            "write into table "
                + tableId
                + ": no acknowledgement within "
                + WRITE_TIMEOUT_S
                + " s (the table's actors are behind); "
                + sent
                + " row(s) of this statement were sent and may still be applied");
      } catch (ExecutionException ex) {
        abort();
        Throwable c = ex.getCause() == null ? ex : ex.getCause();
        throw PgException.error(
            SqlState.INTERNAL_ERROR, "write into table " + tableId + " failed: " + c.getMessage());
      }
    }
  }

  /** Feeds {@code chunk}'s rows, with their ops, to {@code router}. */
  private static void replay(StreamChunk chunk, DmlRouter router) {
    for (int i = 0; i < chunk.size(); i++) {
      Op op = chunk.op(i);
      Row row = chunk.row(i);
      switch (op) {
        case INSERT -> router.insert(row);
        case DELETE -> router.delete(row);
        case UPDATE_DELETE -> {
          router.update(row, chunk.row(i + 1));
          i++;
        }
        default -> throw new IllegalStateException("U+ without its U- at row " + i);
      }
    }
  }

  private CatalogState catalog() {
    return meta.catalog()
        .orElseThrow(() -> PgException.error("57P03", "the meta service is not ready"));
  }

  /** The routes computed from one catalog snapshot (a statement's begin needs no plan decoding). */
  private record Routes(CatalogState state, Map<Integer, Route> byTable) {}

  private volatile Routes routes = new Routes(null, Map.of());

  private Route route(CatalogState state, int tableId) {
    if (state == null) {
      state = catalog();
    }
    Routes cached = routes;
    if (cached.state() != state) {
      cached = new Routes(state, new ConcurrentHashMap<>());
      routes = cached;
    }
    Route r = cached.byTable().get(tableId);
    if (r == null) {
      r = computeRoute(state, tableId);
      cached.byTable().put(tableId, r);
    }
    return r;
  }

  private Route computeRoute(CatalogState state, int tableId) {
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
      TableDesc t = state.tableDesc(codec, tableId);
      int rowId = -1;
      for (int i = 0; i < t.columns().size(); i++) {
        if (t.columns().get(i).name().equals(Relation.ROW_ID)) {
          rowId = i;
        }
      }
      return new Route(t, rowId, actorByVnode, nodes);
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
