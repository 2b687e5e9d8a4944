package dev.tideway.meta.fragment;

import dev.tideway.common.plan.AggCall;
import dev.tideway.common.plan.BackfillKind;
import dev.tideway.common.plan.ColumnDesc;
import dev.tideway.common.plan.ColumnOrder;
import dev.tideway.common.plan.DispatcherKind;
import dev.tideway.common.plan.SourceConnector;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Field;
import dev.tideway.common.types.Schema;
import dev.tideway.protocol.catalog.PlanCodec;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

/** Small stream plans as a frontend would send them, and a test plan codec. */
public final class Plans {
  private Plans() {}

  public static final Schema KV =
      Schema.of(new Field("k", DataType.INT), new Field("v", DataType.BIGINT));
  public static final Schema K_CNT =
      Schema.of(new Field("k", DataType.INT), new Field("cnt", DataType.BIGINT));

  public static TableDesc table(int id, String name, Schema s, boolean keyed) {
    List<ColumnDesc> cols =
        List.of(
            new ColumnDesc(0, s.field(0).name(), s.type(0)),
            new ColumnDesc(1, s.field(1).name(), s.type(1)));
    return new TableDesc(
        id,
        name,
        cols,
        keyed ? List.of(ColumnOrder.asc(0)) : List.of(),
        keyed ? List.of(0) : List.of(),
        false,
        false);
  }

  public static StreamPlanNode source(int stateTableId) {
    return StreamPlanNode.leaf(
        1,
        new StreamNode.Source(
            SourceConnector.DATAGEN,
            Map.of("rows.per.second", "10"),
            KV,
            table(stateTableId, "src_state", KV, true)),
        KV);
  }

  /** {@code SELECT k, count(*) FROM src GROUP BY k}: source | hash exchange | agg, materialize. */
  public static StreamPlanNode countByK(int srcState, int aggState, int mv) {
    StreamPlanNode ex =
        StreamPlanNode.unary(
            2, new StreamNode.Exchange(DispatcherKind.HASH, List.of(0)), source(srcState), KV);
    StreamPlanNode agg =
        StreamPlanNode.unary(
            3,
            new StreamNode.HashAgg(
                List.of(0),
                List.of(AggCall.countStar()),
                table(aggState, "agg_state", K_CNT, true),
                Map.of()),
            ex,
            K_CNT);
    return StreamPlanNode.unary(
        4, new StreamNode.Materialize(table(mv, "mv", K_CNT, true)), agg, K_CNT);
  }

  /** {@code SELECT k, cnt FROM upstream} as an MV on an MV: scan with no-shuffle backfill. */
  public static StreamPlanNode mvOnMv(int upstream, int backfillState, int mv) {
    StreamPlanNode scan =
        StreamPlanNode.leaf(
            1,
            new StreamNode.StreamScan(
                upstream,
                List.of(0, 1),
                BackfillKind.NO_SHUFFLE,
                table(backfillState, "backfill", K_CNT, true)),
            K_CNT);
    return StreamPlanNode.unary(
        2, new StreamNode.Materialize(table(mv, "mv2", K_CNT, true)), scan, K_CNT);
  }

  /** A source materialized as a table: {@code CREATE TABLE ... WITH (connector=datagen)}. */
  public static StreamPlanNode sourceTable(int srcState, int table) {
    return StreamPlanNode.unary(
        2, new StreamNode.Materialize(table(table, "t", KV, true)), source(srcState), KV);
  }

  /**
   * A codec for tests that records the operator ids of a fragment tree (enough to check what was
   * stored); it cannot decode. The production codec is the Kryo registry.
   */
  public static final PlanCodec OPERATOR_IDS =
      new PlanCodec() {
        @Override
        public String name() {
          return "test-operator-ids";
        }

        @Override
        public byte[] encode(StreamPlanNode root) {
          ByteBuffer b = ByteBuffer.allocate(4 * 64);
          write(root, b);
          return java.util.Arrays.copyOf(b.array(), b.position());
        }

        private void write(StreamPlanNode n, ByteBuffer b) {
          b.putInt(n.operatorId());
          n.inputs().forEach(i -> write(i, b));
        }

        @Override
        public StreamPlanNode decode(byte[] bytes) {
          throw new UnsupportedOperationException("test codec only encodes");
        }
      };
}
