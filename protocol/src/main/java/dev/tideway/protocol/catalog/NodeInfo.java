package dev.tideway.protocol.catalog;

import dev.tideway.common.check.Checks;

/**
 * One process's registration in {@code nodes/<role>/}: an ephemeral znode that vanishes with the
 * process's ZooKeeper session.
 *
 * @param role {@code meta}, {@code compute} or {@code frontend}
 * @param address the Pekko address (or {@code host:port}) peers use
 * @param uid the incarnation id, so a restarted process does not collide with its previous
 *     incarnation's znode (which lives until the session times out)
 * @param cores CPU cores offered (compute nodes; the scheduler's default parallelism sums them)
 * @param startedAtMs wall-clock start time
 */
public record NodeInfo(String role, String address, long uid, int cores, long startedAtMs) {
  public static final int FORMAT_VERSION = 1;
  static final int FIELD_ROLE = 1;
  static final int FIELD_ADDRESS = 2;
  static final int FIELD_UID = 3;
  static final int FIELD_CORES = 4;
  static final int FIELD_STARTED_AT_MS = 5;

  public NodeInfo {
    Checks.checkArgument(
        role != null && role.matches("[a-z]+"), "node role must be lower-case, got '%s'", role);
    Checks.checkNotNull(address, "node address");
    Checks.checkArgument(cores >= 0, "node %s cores must be >= 0, got %s", address, cores);
  }

  /** The znode name: address and incarnation, with path-unsafe characters replaced. */
  public String znodeName() {
    return address.replaceAll("[^a-zA-Z0-9.:_@-]", "_") + "-" + uid;
  }

  public byte[] encode() {
    return TaggedWriter.record(RecordKind.NODE_INFO, FORMAT_VERSION)
        .putString(FIELD_ROLE, role)
        .putString(FIELD_ADDRESS, address)
        .putLong(FIELD_UID, uid)
        .putInt(FIELD_CORES, cores)
        .putLong(FIELD_STARTED_AT_MS, startedAtMs)
        .toBytes();
  }

  public static NodeInfo decode(byte[] data) {
    TaggedReader r = TaggedReader.record(data, RecordKind.NODE_INFO, FORMAT_VERSION);
    return new NodeInfo(
        r.requireString(FIELD_ROLE),
        r.requireString(FIELD_ADDRESS),
        r.requireLong(FIELD_UID),
        r.getInt(FIELD_CORES, 0),
        r.getLong(FIELD_STARTED_AT_MS, 0));
  }
}
