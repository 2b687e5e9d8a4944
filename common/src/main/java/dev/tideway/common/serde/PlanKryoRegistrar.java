package dev.tideway.common.serde;

import dev.tideway.common.plan.AggCall;
import dev.tideway.common.plan.AggKind;
import dev.tideway.common.plan.BackfillKind;
import dev.tideway.common.plan.ColumnDesc;
import dev.tideway.common.plan.ColumnOrder;
import dev.tideway.common.plan.DispatcherKind;
import dev.tideway.common.plan.ExprNode;
import dev.tideway.common.plan.FunctionKind;
import dev.tideway.common.plan.JoinType;
import dev.tideway.common.plan.SinkNode;
import dev.tideway.common.plan.SourceBackfillNode;
import dev.tideway.common.plan.SourceConnector;
import dev.tideway.common.plan.StreamFragmentGraph;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.plan.TableDesc;

/**
 * The stream plan records ({@link KryoIdRange#COMMON_PLAN}). Ids are fixed: never reuse or renumber
 * one; append new classes with new ids. Enums go by their wire codes.
 *
 * <pre>
 * 200 ColumnOrder          210 DispatcherKind       220 StreamNode.Source      230 StreamNode.TumbleWindow
 * 201 ColumnDesc           211 BackfillKind         221 StreamNode.Dml         231 StreamNode.HopWindow
 * 202 TableDesc            212 JoinType             222 StreamNode.StreamScan  240 StreamPlanNode
 * 203 FunctionKind         213 SourceConnector      223 StreamNode.Project     241 StreamFragmentGraph
 * 204 ExprNode.InputRef                             224 StreamNode.Filter      242 StreamFragmentGraph.Fragment
 * 205 ExprNode.Literal                              225 StreamNode.HashAgg     243 StreamFragmentGraph.Edge
 * 206 ExprNode.FunctionCall                         226 StreamNode.HashJoin
 * 207 ExprNode.Cast                                 227 StreamNode.Materialize
 * 208 AggKind                                       228 StreamNode.Exchange
 * 209 AggCall                                       229 StreamNode.Merge
 *                                                                           232 StreamNode.LocalAgg
 *                                                                           233 StreamNode.PaneHopAgg
 * </pre>
 */
final class PlanKryoRegistrar implements KryoRegistrar {
  @Override
  public KryoIdRange range() {
    return KryoIdRange.COMMON_PLAN;
  }

  @Override
  public void register(KryoRegistrations r) {
    r.addRecord(200, ColumnOrder.class);
    r.addRecord(201, ColumnDesc.class);
    r.addRecord(202, TableDesc.class);
    r.addEnum(203, FunctionKind.class, FunctionKind::code, FunctionKind::fromCode);
    r.addRecord(204, ExprNode.InputRef.class);
    r.addRecord(205, ExprNode.Literal.class);
    r.addRecord(206, ExprNode.FunctionCall.class);
    r.addRecord(207, ExprNode.Cast.class);
    r.addEnum(208, AggKind.class, AggKind::code, AggKind::fromCode);
    r.addRecord(209, AggCall.class);
    r.addEnum(210, DispatcherKind.class, DispatcherKind::code, DispatcherKind::fromCode);
    r.addEnum(211, BackfillKind.class, BackfillKind::code, BackfillKind::fromCode);
    r.addEnum(212, JoinType.class, JoinType::code, JoinType::fromCode);
    r.addEnum(213, SourceConnector.class, SourceConnector::code, SourceConnector::fromCode);
    r.addRecord(220, StreamNode.Source.class);
    r.addRecord(221, StreamNode.Dml.class);
    r.add(222, StreamNode.StreamScan.class, StreamScanSerializer::new);
    r.addRecord(223, StreamNode.Project.class);
    r.addRecord(224, StreamNode.Filter.class);
    r.addRecord(225, StreamNode.HashAgg.class);
    r.add(226, StreamNode.HashJoin.class, HashJoinSerializer::new);
    r.addRecord(227, StreamNode.Materialize.class);
    r.addRecord(228, StreamNode.Exchange.class);
    r.addRecord(229, StreamNode.Merge.class);
    r.addRecord(230, StreamNode.TumbleWindow.class);
    r.addRecord(231, StreamNode.HopWindow.class);
    r.addRecord(232, StreamNode.LocalAgg.class);
    r.addRecord(233, StreamNode.PaneHopAgg.class);
    r.addRecord(234, SinkNode.class);
    r.addRecord(235, SourceBackfillNode.class);
    r.addRecord(240, StreamPlanNode.class);
    r.addRecord(241, StreamFragmentGraph.class);
    r.addRecord(242, StreamFragmentGraph.Fragment.class);
    r.addRecord(243, StreamFragmentGraph.Edge.class);
  }
}
