package dev.tideway.storage.archfixture;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** Breaks the thread-pool ban on purpose (see BoundaryRulesCatchViolationsTest). */
public final class StorageStartsExecutors {
  ExecutorService pool() {
    return Executors.newSingleThreadExecutor();
  }
}
