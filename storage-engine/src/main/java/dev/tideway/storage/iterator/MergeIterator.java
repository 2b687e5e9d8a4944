package dev.tideway.storage.iterator;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Merges sorted sources into one stream in storage order (key asc, epoch desc). Sources may hold
 * the same (key, epoch): an SST that was synced and then committed is read both from the shared
 * buffer and from the version for a moment; such duplicates carry the same content and are emitted
 * once. Confined to one thread.
 */
public final class MergeIterator extends CurrentEntryIterator {
  private final PriorityQueue<EntryIterator> heap = new PriorityQueue<>(MergeIterator::compare);
  private final List<EntryIterator> pending;
  private final List<EntryIterator> all;
  private EntryIterator top;
  private boolean started;

  public MergeIterator(List<? extends EntryIterator> sources) {
    this.pending = new ArrayList<>(sources);
    this.all = new ArrayList<>(sources);
  }

  @Override
  public boolean next() throws IOException {
    if (all.size() == 1) {
      return nextSingle();
    }
    if (!started) {
      started = true;
      for (EntryIterator it : pending) {
        if (it.next()) {
          heap.add(it);
        }
      }
      pending.clear();
    }
    while (true) {
      if (top != null && top.next()) {
        // keep pulling the same source while it stays first: one comparison instead of a heap
        // push and pop (sources of different tables, or of disjoint key ranges, never interleave)
        EntryIterator head = heap.peek();
        if (head != null && compare(head, top) < 0) {
          heap.add(top);
          top = heap.poll();
        }
      } else {
        top = heap.poll();
      }
      if (top == null) {
        return false;
      }
      byte[] k = top.key();
      long e = top.epoch();
      if (key != null && e == epoch && Arrays.equals(k, key)) {
        continue;
      }
      key = k;
      epoch = e;
      delete = top.isDelete();
      value = top.value();
      return true;
    }
  }

  private static int compare(EntryIterator a, EntryIterator b) {
    return Entry.compare(a.key(), a.epoch(), b.key(), b.epoch());
  }

  /** One source: no heap and no duplicates to skip. */
  private boolean nextSingle() throws IOException {
    EntryIterator only = all.get(0);
    if (!only.next()) {
      return false;
    }
    key = only.key();
    epoch = only.epoch();
    delete = only.isDelete();
    value = only.value();
    return true;
  }

  @Override
  public void close() {
    all.forEach(EntryIterator::close);
  }
}
