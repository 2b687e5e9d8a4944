package dev.tideway.meta.cluster;

import dev.tideway.common.check.Checks;

/**
 * One leader's term: the proof a fenced write carries. ZooKeeper rejects a write whose term is not
 * current, because the multi-op checks both fields.
 *
 * @param epoch the leader-epoch znode's version right after this leader bumped it; strictly
 *     increasing across leaders of a cluster (compute nodes may reject commands of a lower epoch)
 * @param latchPath this leader's ephemeral latch znode; it vanishes when the session expires, so
 *     even before another leader bumps the epoch the expired leader's writes fail
 */
public record LeaderTerm(int epoch, String latchPath) {
  public LeaderTerm {
    Checks.checkArgument(epoch > 0, "leader epoch must be > 0, got %s", epoch);
    Checks.checkNotNull(latchPath, "latch path of term " + epoch);
  }
}
