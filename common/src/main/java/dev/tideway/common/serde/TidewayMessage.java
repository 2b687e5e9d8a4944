package dev.tideway.common.serde;

/**
 * Marker for every message Tideway sends between nodes. Pekko routes instances to {@link
 * TidewayPekkoSerializer} through the {@code serialization-bindings} entry in common's {@code
 * reference.conf}; the serializer also refuses to decode a top-level object that is not one.
 *
 * <p>An implementing class must be registered with a fixed Kryo id in its module's {@link
 * KryoRegistrar}, and so must every class reachable from its fields. Prefer records with {@code
 * List.copyOf}/{@code Map.copyOf} fields; {@code Collections.unmodifiableList} and other JDK
 * wrappers are not registered.
 */
public interface TidewayMessage {}
