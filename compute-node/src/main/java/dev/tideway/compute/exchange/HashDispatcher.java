package dev.tideway.compute.exchange;

import dev.tideway.barrier.message.Message;
import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.types.DataType;
import dev.tideway.common.vnode.VirtualNode;
import dev.tideway.common.vnode.VnodeHasher;
import java.util.List;

/**
 * Routes each row to the output that owns the vnode of its distribution key ({@link VnodeHasher},
 * the same function storage keys use, so a row lands on the actor that owns its state). Each output
 * gets the chunk with a visibility mask of its rows (columns are shared, not copied).
 *
 * <p>An update pair ({@code U-}, {@code U+}) whose halves hash to different outputs becomes a
 * {@code -} on one and a {@code +} on the other, so every output still sees well-formed updates.
 *
 * <p>Confined to the upstream actor thread (the hasher and scratch arrays are reused).
 */
public final class HashDispatcher implements Dispatcher {
  private final List<OutputChannel> outputs;
  private final VnodeHasher hasher;

  /** vnode → index into {@link #outputs}. */
  private final int[] outputOfVnode;

  private int[] vnodes = new int[0];
  private int[] target = new int[0];
  private boolean[] mask = new boolean[0];

  /**
   * @param outputs one per downstream actor
   * @param outputOfVnode for each of the 256 vnodes, the index of the output that owns it
   * @param rowTypes the chunk's column types
   * @param distKeys the distribution key columns
   */
  public HashDispatcher(
      List<OutputChannel> outputs, int[] outputOfVnode, List<DataType> rowTypes, int[] distKeys) {
    Checks.checkArgument(!outputs.isEmpty(), "hash dispatcher without outputs");
    Checks.checkArgument(
        outputOfVnode.length == VirtualNode.COUNT,
        "hash dispatcher needs an owner for each of %s vnodes, got %s",
        VirtualNode.COUNT,
        outputOfVnode.length);
    for (int v = 0; v < outputOfVnode.length; v++) {
      Checks.checkIndex(outputOfVnode[v], outputs.size(), "output of vnode " + v);
    }
    this.outputs = List.copyOf(outputs);
    this.outputOfVnode = outputOfVnode.clone();
    this.hasher = new VnodeHasher(rowTypes, distKeys);
  }

  @Override
  public List<OutputChannel> outputs() {
    return outputs;
  }

  @Override
  public void dispatch(Message message) {
    if (!(message instanceof Message.Chunk c)) {
      Dispatcher.toAll(outputs, message);
      return;
    }
    StreamChunk chunk = c.chunk();
    if (chunk.cardinality() == 0) {
      return;
    }
    int n = chunk.size();
    ensureCapacity(n);
    hasher.vnodes(chunk, vnodes);
    for (int i = 0; i < n; i++) {
      target[i] = outputOfVnode[vnodes[i]];
    }
    chunk = splitCrossingUpdates(chunk, n);
    for (int o = 0; o < outputs.size(); o++) {
      int visible = 0;
      for (int i = 0; i < n; i++) {
        mask[i] = target[i] == o && chunk.isVisible(i);
        visible += mask[i] ? 1 : 0;
      }
      if (visible > 0) {
        outputs.get(o).send(Message.of(visible == chunk.cardinality() ? chunk : masked(chunk)));
      }
    }
  }

  private StreamChunk masked(StreamChunk chunk) {
    return chunk.withVisibility(mask);
  }

  /** Rewrites a U-/U+ pair routed to two outputs into -/+ (a copy of the ops, never in place). */
  private StreamChunk splitCrossingUpdates(StreamChunk chunk, int n) {
    byte[] ops = null;
    for (int i = 0; i + 1 < n; i++) {
      if (chunk.op(i) == Op.UPDATE_DELETE
          && chunk.op(i + 1) == Op.UPDATE_INSERT
          && target[i] != target[i + 1]) {
        if (ops == null) {
          ops = new byte[n];
          for (int j = 0; j < n; j++) {
            ops[j] = chunk.opCode(j);
          }
        }
        ops[i] = Op.DELETE.code();
        ops[i + 1] = Op.INSERT.code();
        i++;
      }
    }
    return ops == null ? chunk : chunk.withOps(ops);
  }

  private void ensureCapacity(int n) {
    if (vnodes.length < n) {
      vnodes = new int[n];
      target = new int[n];
      mask = new boolean[n];
    }
  }
}
