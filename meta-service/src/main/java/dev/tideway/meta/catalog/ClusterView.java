package dev.tideway.meta.catalog;

import dev.tideway.meta.schedule.Worker;
import java.util.List;

/**
 * What a decision may know about the world besides the catalog: the live compute nodes and the
 * time, both captured by the shell before it calls the pure core.
 */
public record ClusterView(List<Worker> workers, long nowMs) {
  public ClusterView {
    workers = List.copyOf(workers);
  }
}
