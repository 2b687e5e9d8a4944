package dev.tideway.common.serde;

/**
 * A module's contribution to the Kryo registry: its message classes with fixed ids from its {@link
 * KryoIdRange}. Implementations are found with {@link java.util.ServiceLoader}: list the class in
 * {@code META-INF/services/dev.tideway.common.serde.KryoRegistrar} of the module. Common's own
 * registrars are built in.
 *
 * <p>Every node must see the same registrars (all modules are on every node's class path), since a
 * class id means the same class everywhere.
 *
 * <p>Test each registration: the registry test helper {@code KryoRoundTrips} (common's test-jar)
 * fails when a registered class has no sample instance.
 */
public interface KryoRegistrar {
  /** The id range this registrar owns. */
  KryoIdRange range();

  /** Adds this module's classes; called once when the registry is built. */
  void register(KryoRegistrations registrations);
}
