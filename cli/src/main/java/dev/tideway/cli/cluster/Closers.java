package dev.tideway.cli.cluster;

import java.util.Deque;

/** Closes a process's parts in reverse start order, keeping the first failure. */
final class Closers {
  private Closers() {}

  static void closeAll(Deque<AutoCloseable> closers) throws Exception {
    Exception first = null;
    while (!closers.isEmpty()) {
      try {
        closers.pop().close();
      } catch (Exception e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
