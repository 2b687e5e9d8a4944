package dev.tideway.compute.node;

import dev.tideway.common.serde.KryoIdRange;
import dev.tideway.common.serde.KryoRegistrar;
import dev.tideway.common.serde.KryoRegistrations;
import dev.tideway.compute.exchange.ExchangeMessage;

/**
 * The compute node's Kryo registrations (listed in {@code META-INF/services}): the exchange's
 * messages between actors of different nodes. Ids are fixed and never reused; a removed class
 * leaves its id retired here.
 *
 * <pre>
 * 600..619  exchange: Frame, Credit
 * 620..699  retired: the control requests and events (now the protocol module's, 1040..1069), the
 *           barrier protocol's classes (now the barrier module's, 300..315), storage's SstInfo,
 *           TableStats and compaction records (now 400..404) and BitSet (now common's 119)
 * </pre>
 */
public final class ComputeKryoRegistrar implements KryoRegistrar {
  @Override
  public KryoIdRange range() {
    return KryoIdRange.COMPUTE_NODE;
  }

  @Override
  public void register(KryoRegistrations r) {
    r.addRecord(600, ExchangeMessage.Frame.class);
    r.addRecord(601, ExchangeMessage.Credit.class);
  }
}
