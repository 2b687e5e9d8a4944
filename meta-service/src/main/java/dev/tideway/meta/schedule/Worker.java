package dev.tideway.meta.schedule;

import dev.tideway.common.check.Checks;

/**
 * A compute node as the scheduler sees it.
 *
 * @param address the node's address (actors are placed by it)
 * @param cores the cores it offers, {@code >= 1}
 */
public record Worker(String address, int cores) {
  public Worker {
    Checks.checkNotNull(address, "worker address");
    Checks.checkArgument(cores >= 1, "worker %s must offer >= 1 core, got %s", address, cores);
  }
}
