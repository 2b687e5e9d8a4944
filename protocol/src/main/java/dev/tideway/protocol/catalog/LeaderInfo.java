package dev.tideway.protocol.catalog;

import dev.tideway.common.check.Checks;

/**
 * What the meta leader publishes in its ephemeral {@code leader/address} znode: where to reach it
 * and under which epoch it leads (a receiver ignores commands stamped with a lower epoch).
 *
 * @param address the leader's Pekko address or {@code host:port}
 * @param httpAddress its HTTP API {@code host:port}, empty if none
 * @param epoch the leader epoch ({@code LeaderTerm.epoch})
 */
public record LeaderInfo(String address, String httpAddress, int epoch) {
  public static final int FORMAT_VERSION = 1;
  static final int FIELD_ADDRESS = 1;
  static final int FIELD_HTTP = 2;
  static final int FIELD_EPOCH = 3;

  public LeaderInfo {
    Checks.checkNotNull(address, "leader address");
    Checks.checkNotNull(httpAddress, "leader http address");
  }

  public byte[] encode() {
    return TaggedWriter.record(RecordKind.LEADER_INFO, FORMAT_VERSION)
        .putString(FIELD_ADDRESS, address)
        .putString(FIELD_HTTP, httpAddress)
        .putInt(FIELD_EPOCH, epoch)
        .toBytes();
  }

  public static LeaderInfo decode(byte[] data) {
    TaggedReader r = TaggedReader.record(data, RecordKind.LEADER_INFO, FORMAT_VERSION);
    return new LeaderInfo(
        r.requireString(FIELD_ADDRESS), r.getString(FIELD_HTTP, ""), r.requireInt(FIELD_EPOCH));
  }
}
