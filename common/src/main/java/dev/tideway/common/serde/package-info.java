/**
 * The wire format: one Kryo registry with fixed class ids and the Pekko serializer bound to it.
 *
 * <p>Flow: every module lists its message classes, with ids from its {@link
 * dev.tideway.common.serde.KryoIdRange}, in a {@link dev.tideway.common.serde.KryoRegistrar}
 * (service-loaded; common's are built in) → {@link dev.tideway.common.serde.TidewayKryo} validates
 * them once and pools identically configured Kryo instances → {@link
 * dev.tideway.common.serde.TidewayPekkoSerializer} encodes every {@link
 * dev.tideway.common.serde.TidewayMessage} Pekko sends, and decodes what arrives.
 *
 * <p>Security property: decoding never loads or instantiates a class that is not registered. An
 * unknown class id, a class written by name, or a registered class that is not the accepted
 * top-level type fails with a {@link dev.tideway.common.serde.SerdeException} naming the id before
 * any object is read.
 */
package dev.tideway.common.serde;
