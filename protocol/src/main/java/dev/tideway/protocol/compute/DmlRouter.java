package dev.tideway.protocol.compute;

import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.chunk.StreamChunkSerializer;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.vnode.VirtualNode;
import dev.tideway.common.vnode.VnodeHasher;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/**
 * Routes one statement's DML rows to a table's DML actors and cuts them into the chunks a writer
 * sends ({@link ComputeRequest.WriteDml}): each row goes to the actor owning its vnode (by the
 * table's distribution key) and is appended to that actor's chunk, in the order the rows came; a
 * chunk is sealed when it holds {@code chunkRows} rows or about {@code chunkBytes} bytes, and at
 * {@link #flush}.
 *
 * <ul>
 *   <li>An update whose old and new rows land on one actor stays a {@code U-}/{@code U+} pair in
 *       one chunk; otherwise it is a {@code -} on one actor and a {@code +} on the other.
 *   <li>An insert of a table with a hidden {@code _row_id} ({@code rowIdIndex >= 0}) that carries
 *       NULL there has no vnode yet: such rows are spread round-robin over the actors, which give
 *       each an id in their own vnodes.
 * </ul>
 *
 * <p>Sizes are estimates of the encoded size (fixed-width values at 8 bytes, text at up to 3 bytes
 * a char): a writer keeps {@code chunkBytes} well below the transport's frame and fails a single
 * row above it ({@link RowTooLargeException}), which no chunking can send.
 *
 * <p>Not thread-safe: one per statement.
 */
public final class DmlRouter {
  /** A chunk ready to send to {@code actorId}, of about {@code bytes} encoded bytes. */
  public record Sealed(int actorId, StreamChunk chunk, long bytes) {}

  /** A single row larger than a chunk may be. */
  public static final class RowTooLargeException extends IllegalArgumentException {
    public RowTooLargeException(String message) {
      super(message);
    }
  }

  private final List<DataType> types;
  private final VnodeHasher hasher;
  private final int rowIdIndex;
  private final int[] actorByVnode;
  private final int[] actors;
  private final int chunkRows;
  private final long chunkBytes;
  private final Consumer<Sealed> out;
  private final Map<Integer, Open> open = new LinkedHashMap<>();
  private int spread;
  private long rows;

  /** One actor's chunk being filled. */
  private final class Open {
    final int actorId;
    StreamChunkBuilder builder;
    long bytes;

    Open(int actorId) {
      this.actorId = actorId;
    }

    void append(Op op, Row row, long size) {
      if (builder == null) {
        // small to start (a statement of one row is common); the builder grows as rows come
        builder = new StreamChunkBuilder(types, Math.min(chunkRows + 1, 64));
      }
      builder.append(op, row);
      bytes += size;
    }

    void sealIfFull() {
      if (builder != null && (builder.size() >= chunkRows || bytes >= chunkBytes)) {
        seal();
      }
    }

    void seal() {
      if (builder != null && builder.size() > 0) {
        out.accept(new Sealed(actorId, builder.build(), bytes));
      }
      builder = null;
      bytes = 0;
    }
  }

  /**
   * @param types the table's column types
   * @param distributionKey the table's distribution key columns (empty = singleton, vnode 0)
   * @param rowIdIndex the hidden {@code _row_id} column, or -1
   * @param actorByVnode for each vnode, the DML actor owning it
   * @param chunkRows rows per chunk at most
   * @param chunkBytes about this many encoded bytes per chunk at most
   * @param out takes each sealed chunk
   */
  public DmlRouter(
      List<DataType> types,
      int[] distributionKey,
      int rowIdIndex,
      int[] actorByVnode,
      int chunkRows,
      long chunkBytes,
      Consumer<Sealed> out) {
    Checks.checkArgument(
        actorByVnode.length == VirtualNode.COUNT,
        "actorByVnode has %s entries, expected %s",
        actorByVnode.length,
        VirtualNode.COUNT);
    Checks.checkArgument(
        chunkRows > 0 && chunkBytes > 0, "chunk of %s rows, %s bytes", chunkRows, chunkBytes);
    this.types = List.copyOf(types);
    this.hasher = new VnodeHasher(types, distributionKey);
    this.rowIdIndex = rowIdIndex;
    this.actorByVnode = actorByVnode.clone();
    this.actors = IntStream.of(actorByVnode).filter(a -> a >= 0).distinct().sorted().toArray();
    this.chunkRows = chunkRows;
    this.chunkBytes = chunkBytes;
    this.out = out;
  }

  /** Appends an insert of full row {@code row}. */
  public void insert(Row row) {
    long size = sizeOf(row);
    int actor;
    if (rowIdIndex >= 0 && row.size() == types.size() && row.get(rowIdIndex) == null) {
      checkFits(types, row);
      Checks.checkArgument(actors.length > 0, "no actor to insert row %s into", row);
      actor = actors[spread++ % actors.length];
    } else {
      actor = owner(row);
    }
    add(actor, Op.INSERT, row, size);
  }

  /** Appends a delete of full row {@code row} (by its primary key). */
  public void delete(Row row) {
    add(owner(row), Op.DELETE, row, sizeOf(row));
  }

  /** Appends an update of {@code before} to {@code after} (full rows). */
  public void update(Row before, Row after) {
    int from = owner(before);
    int to = owner(after);
    long sizeBefore = sizeOf(before);
    long sizeAfter = sizeOf(after);
    if (from != to) {
      add(from, Op.DELETE, before, sizeBefore);
      add(to, Op.INSERT, after, sizeAfter);
      return;
    }
    Open o = open.computeIfAbsent(from, Open::new);
    // a pair is never cut: seal before it when it would not fit
    if (o.builder != null
        && (o.builder.size() + 2 > chunkRows || o.bytes + sizeBefore + sizeAfter > chunkBytes)) {
      o.seal();
    }
    o.append(Op.UPDATE_DELETE, before, sizeBefore);
    o.append(Op.UPDATE_INSERT, after, sizeAfter);
    rows += 2;
    o.sealIfFull();
  }

  /** Seals every chunk being filled. */
  public void flush() {
    open.values().forEach(Open::seal);
  }

  /** Rows routed so far. */
  public long rows() {
    return rows;
  }

  private void add(int actor, Op op, Row row, long size) {
    Open o = open.computeIfAbsent(actor, Open::new);
    if (o.builder != null && o.bytes + size > chunkBytes) {
      o.seal();
    }
    o.append(op, row, size);
    rows++;
    o.sealIfFull();
  }

  private long sizeOf(Row row) {
    long size = 1; // the op
    for (int c = 0; c < row.size(); c++) {
      size += StreamChunkSerializer.estimatedBytes(row.get(c));
    }
    if (size > chunkBytes) {
      throw new RowTooLargeException(
          "a row of about "
              + size
              + " bytes is larger than the largest DML message ("
              + chunkBytes
              + " bytes; raise tideway.cluster.pekko.remote.artery.advanced.maximum-large-frame-size)");
    }
    return size;
  }

  private int owner(Row r) {
    checkFits(types, r);
    int vnode = hasher.vnode(r);
    int actor = actorByVnode[vnode];
    Checks.checkArgument(
        actor >= 0, "row %s hashes to vnode %s, which no actor here owns", r, vnode);
    return actor;
  }

  /** Fails naming the row, column and value when {@code r} does not fit {@code types}. */
  public static void checkFits(List<DataType> types, Row r) {
    Checks.checkArgument(
        r.size() == types.size(), "row %s has %s columns, the table %s", r, r.size(), types.size());
    for (int c = 0; c < types.size(); c++) {
      Object v = r.get(c);
      Checks.checkArgument(
          types.get(c).accepts(v),
          "row %s: column %s value %s (%s) is not a %s",
          r,
          c,
          v,
          v == null ? "null" : v.getClass().getSimpleName(),
          types.get(c));
    }
  }

  /**
   * Routes {@code deletes} then {@code inserts} into chunks of at most {@code chunkRows} rows per
   * actor (a convenience for tests and small writes): the chunks by actor, in order.
   */
  public static Map<Integer, List<StreamChunk>> route(
      List<DataType> types,
      int[] distributionKey,
      int rowIdIndex,
      int[] actorByVnode,
      int chunkRows,
      List<Row> deletes,
      List<Row> inserts) {
    Map<Integer, List<StreamChunk>> byActor = new HashMap<>();
    DmlRouter r =
        new DmlRouter(
            types,
            distributionKey,
            rowIdIndex,
            actorByVnode,
            chunkRows,
            Long.MAX_VALUE,
            s ->
                byActor
                    .computeIfAbsent(s.actorId(), a -> new java.util.ArrayList<>())
                    .add(s.chunk()));
    deletes.forEach(r::delete);
    inserts.forEach(r::insert);
    r.flush();
    return byActor;
  }
}
