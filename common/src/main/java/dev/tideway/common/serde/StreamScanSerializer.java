package dev.tideway.common.serde;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.serializers.RecordSerializer;
import dev.tideway.common.plan.BackfillKind;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.TableDesc;
import java.util.List;

/**
 * {@link StreamNode.StreamScan} across format versions: version 1 had four components (no upstream
 * table layout, no rate limit); version 2 adds both. Fragment graphs persisted in ZooKeeper by
 * version 1 keep decoding, with no layout (filled from the catalog) and no limit.
 */
final class StreamScanSerializer extends Serializer<StreamNode.StreamScan> {
  /** The version 1 layout: the same component names and types, so the same bytes. */
  record V1(
      int upstreamTableId,
      List<Integer> outputColumns,
      BackfillKind backfillKind,
      TableDesc backfillStateTable) {}

  private final RecordSerializer<StreamNode.StreamScan> current =
      new RecordSerializer<>(StreamNode.StreamScan.class);
  private final RecordSerializer<V1> v1 = new RecordSerializer<>(V1.class);

  @Override
  public void write(Kryo kryo, Output output, StreamNode.StreamScan scan) {
    current.write(kryo, output, scan);
  }

  @Override
  public StreamNode.StreamScan read(
      Kryo kryo, Input input, Class<? extends StreamNode.StreamScan> type) {
    if (TidewayKryo.readVersion(kryo) >= 2) {
      return current.read(kryo, input, type);
    }
    V1 old = v1.read(kryo, input, V1.class);
    return new StreamNode.StreamScan(
        old.upstreamTableId(), old.outputColumns(), old.backfillKind(), old.backfillStateTable());
  }
}
