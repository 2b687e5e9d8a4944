package dev.tideway.meta.barrier;

import dev.tideway.barrier.message.Barrier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The recent barriers of a leader's loop, with their inject, collect and commit times, for {@code
 * /api/barriers}. Written on the loop's owner thread; {@link #recent()} is a volatile snapshot any
 * thread may read.
 */
public final class BarrierLog {
  /**
   * One barrier.
   *
   * @param curr its epoch
   * @param prev the epoch it closes
   * @param kind INITIAL, BARRIER or CHECKPOINT
   * @param mutation the mutation's name, or empty
   * @param injectedMs wall time of injection
   * @param collectedMs when every node collected it, or -1
   * @param committedMs when the checkpoint covering it committed, or -1
   */
  public record Entry(
      long curr,
      long prev,
      String kind,
      String mutation,
      long injectedMs,
      long collectedMs,
      long committedMs) {
    Entry collected(long ms) {
      return new Entry(curr, prev, kind, mutation, injectedMs, ms, committedMs);
    }

    Entry committed(long ms) {
      return new Entry(curr, prev, kind, mutation, injectedMs, collectedMs, ms);
    }
  }

  private final int capacity;
  private final ArrayDeque<Entry> entries = new ArrayDeque<>();
  private volatile List<Entry> snapshot = List.of();

  BarrierLog(int capacity) {
    this.capacity = capacity;
  }

  void injected(Barrier b, long nowMs) {
    String m = b.mutation() == null ? "" : b.mutation().getClass().getSimpleName();
    entries.addLast(new Entry(b.curr(), b.prev(), b.kind().name(), m, nowMs, -1, -1));
    while (entries.size() > capacity) {
      entries.pollFirst();
    }
    publish();
  }

  /** Marks {@code curr} collected; returns its inject time, or -1 if unknown. */
  long collected(long curr, long nowMs) {
    long injected = -1;
    List<Entry> next = new ArrayList<>(entries.size());
    for (Entry e : entries) {
      if (e.curr() == curr) {
        injected = e.injectedMs();
        next.add(e.collected(nowMs));
      } else {
        next.add(e);
      }
    }
    replace(next);
    return injected;
  }

  /** Marks every collected barrier up to {@code curr} committed. */
  void committed(long curr, long nowMs) {
    List<Entry> next = new ArrayList<>(entries.size());
    for (Entry e : entries) {
      next.add(
          e.curr() <= curr && e.committedMs() < 0 && e.collectedMs() >= 0 ? e.committed(nowMs) : e);
    }
    replace(next);
  }

  private void replace(List<Entry> next) {
    entries.clear();
    entries.addAll(next);
    publish();
  }

  private void publish() {
    snapshot = List.copyOf(entries);
  }

  /** Oldest first. */
  public List<Entry> recent() {
    return snapshot;
  }
}
