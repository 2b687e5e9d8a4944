package dev.tideway.protocol.catalog;

import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.serde.TidewayKryo;

/**
 * The production {@link PlanCodec}: {@code common.serde}'s Kryo registry (registration required,
 * fixed class ids in the plan range, a format-version byte first). Thread-safe (the registry pools
 * its Kryo instances).
 */
public final class KryoPlanCodec implements PlanCodec {
  public static final String NAME = "kryo-v1";

  private final TidewayKryo kryo;

  public KryoPlanCodec(TidewayKryo kryo) {
    this.kryo = kryo;
  }

  /** A codec over the default registry (every registrar found on the class path). */
  public static KryoPlanCodec create() {
    return new KryoPlanCodec(TidewayKryo.create());
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public byte[] encode(StreamPlanNode fragmentRoot) {
    return kryo.serialize(fragmentRoot);
  }

  @Override
  public StreamPlanNode decode(byte[] bytes) {
    return kryo.deserialize(bytes, StreamPlanNode.class);
  }
}
