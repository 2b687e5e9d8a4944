package dev.tideway.protocol.store;

import dev.tideway.common.check.Checks;

/**
 * The ZooKeeper layout of one cluster, all under {@code /tideway/<cluster-id>/}. Every path the
 * meta service reads or writes is built here, so the layout is readable in one place (the module
 * README mirrors it).
 *
 * <pre>
 * /tideway/&lt;cluster-id&gt;/
 *   leader/latch/...          Curator LeaderLatch participants (ephemeral sequential)
 *   leader/epoch              persistent; its znode version is the leader term (fencing)
 *   leader/address            ephemeral; the leader's address and term
 *   params                    system parameters
 *   catalog/objects/&lt;id&gt;     one catalog object (database, schema, table, source, MV, internal)
 *   catalog/next-id           the next free catalog / job / fragment / actor id
 *   catalog/backfill-history  the last finished backfills (dashboard history)
 *   jobs/&lt;job-id&gt;             job status (CREATING / CREATED, create type, progress snapshot)
 *   fragments/&lt;job-id&gt;        the job's fragment graph and actor placement
 *   storage/version           the storage version pointer
 *   nodes/&lt;role&gt;/&lt;addr&gt;-&lt;uid&gt; ephemeral node registrations
 * </pre>
 *
 * <p>Invariant: a cluster id is one path segment of {@code [a-zA-Z0-9_-]}.
 */
public final class MetaPaths {
  private final String root;

  public MetaPaths(String clusterId) {
    Checks.checkArgument(
        clusterId != null && clusterId.matches("[a-zA-Z0-9_-]+"),
        "cluster id must match [a-zA-Z0-9_-]+, got '%s'",
        clusterId);
    this.root = "/tideway/" + clusterId;
  }

  public String root() {
    return root;
  }

  public String leaderLatch() {
    return root + "/leader/latch";
  }

  public String leaderEpoch() {
    return root + "/leader/epoch";
  }

  public String leaderAddress() {
    return root + "/leader/address";
  }

  public String params() {
    return root + "/params";
  }

  public String catalogObjects() {
    return root + "/catalog/objects";
  }

  public String catalogObject(int id) {
    return catalogObjects() + "/" + id;
  }

  public String nextId() {
    return root + "/catalog/next-id";
  }

  public String jobs() {
    return root + "/jobs";
  }

  public String job(int jobId) {
    return jobs() + "/" + jobId;
  }

  public String fragments() {
    return root + "/fragments";
  }

  public String fragmentGraph(int jobId) {
    return fragments() + "/" + jobId;
  }

  public String versionPointer() {
    return root + "/storage/version";
  }

  /** The recovery log ({@code RecoveryLog}): which generation began from which epoch. */
  public String recoveryLog() {
    return root + "/barrier/recoveries";
  }

  /** The finished backfills ({@code BackfillHistory}), newest last. */
  public String backfillHistory() {
    return root + "/catalog/backfill-history";
  }

  public String nodes(String role) {
    return root + "/nodes/" + role;
  }

  /** Persistent parents created once at start, so fenced multi-ops never need to create them. */
  public String[] persistentParents() {
    return new String[] {
      leaderLatch(),
      catalogObjects(),
      jobs(),
      fragments(),
      root + "/storage",
      root + "/nodes",
      root + "/barrier"
    };
  }
}
