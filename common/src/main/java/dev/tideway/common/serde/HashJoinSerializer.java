package dev.tideway.common.serde;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.serializers.RecordSerializer;
import dev.tideway.common.plan.ExprNode;
import dev.tideway.common.plan.JoinType;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.TableDesc;
import java.util.List;
import java.util.Optional;

/**
 * {@link StreamNode.HashJoin} across format versions: versions 1 and 2 had six components (no
 * growing columns); version 3 adds them. Fragment graphs persisted by earlier versions keep
 * decoding, as joins whose inputs promise no growing column.
 */
final class HashJoinSerializer extends Serializer<StreamNode.HashJoin> {
  /** The version 1 and 2 layout: the same component names and types, so the same bytes. */
  record V2(
      JoinType joinType,
      List<Integer> leftKeys,
      List<Integer> rightKeys,
      Optional<ExprNode> condition,
      TableDesc leftTable,
      TableDesc rightTable) {}

  private final RecordSerializer<StreamNode.HashJoin> current =
      new RecordSerializer<>(StreamNode.HashJoin.class);
  private final RecordSerializer<V2> v2 = new RecordSerializer<>(V2.class);

  @Override
  public void write(Kryo kryo, Output output, StreamNode.HashJoin join) {
    current.write(kryo, output, join);
  }

  @Override
  public StreamNode.HashJoin read(
      Kryo kryo, Input input, Class<? extends StreamNode.HashJoin> type) {
    if (TidewayKryo.readVersion(kryo) >= 3) {
      return current.read(kryo, input, type);
    }
    V2 old = v2.read(kryo, input, V2.class);
    return new StreamNode.HashJoin(
        old.joinType(),
        old.leftKeys(),
        old.rightKeys(),
        old.condition(),
        old.leftTable(),
        old.rightTable());
  }
}
