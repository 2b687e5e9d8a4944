package dev.tideway.protocol.catalog;

import dev.tideway.common.plan.StreamPlanNode;

/**
 * Encodes a fragment's operator tree for the fragment graph in ZooKeeper (and decodes it when
 * actors are rebuilt). The production codec is the Kryo registry of {@code common.serde}; the meta
 * service only stores the bytes and the codec's name, so a graph written by one codec is never
 * decoded by another.
 */
public interface PlanCodec {
  /** A stable name stored with every graph ({@code kryo-v1}). */
  String name();

  byte[] encode(StreamPlanNode fragmentRoot);

  StreamPlanNode decode(byte[] bytes);
}
