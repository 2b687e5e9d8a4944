package dev.tideway.compute.testing;

import dev.tideway.barrier.executor.CheckedExecutor;
import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.chunk.Chunks;
import dev.tideway.common.chunk.StreamChunk;
import java.util.ArrayList;
import java.util.List;

/** Pulls an executor, wrapped in {@link CheckedExecutor}, until its stream ends. */
public final class Drain {
  private Drain() {}

  /** Every message until the end of the stream. */
  public static List<Message> all(Executor e) {
    Executor checked = CheckedExecutor.wrap(e);
    List<Message> out = new ArrayList<>();
    for (Message m = checked.next(); m != null; m = checked.next()) {
      if (m instanceof Message.Chunk c && c.chunk().size() == 0) {
        continue; // a yield (HashAgg returns one after each input chunk): carries no change
      }
      out.add(m);
    }
    return out;
  }

  /** The messages as text: chunks in the DSL (header included), barriers as {@code B<curr>}. */
  public static List<String> pretty(List<Message> messages) {
    List<String> out = new ArrayList<>();
    for (Message m : messages) {
      if (m instanceof Message.Chunk c) {
        out.add(Chunks.pretty(c.chunk()));
      } else if (m instanceof Barrier b) {
        out.add("B" + b.curr());
      } else {
        out.add(m.toString());
      }
    }
    return out;
  }

  /** A DSL chunk normalised through parse and pretty, for comparing with {@link #pretty}. */
  public static String chunk(String dsl) {
    return Chunks.pretty(Chunks.parse(dsl));
  }

  /** The chunks only. */
  public static List<StreamChunk> chunks(List<Message> messages) {
    List<StreamChunk> out = new ArrayList<>();
    for (Message m : messages) {
      if (m instanceof Message.Chunk c) {
        out.add(c.chunk());
      }
    }
    return out;
  }
}
