package dev.tideway.common.serde;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Test helper (shipped in common's test-jar) for every module's registrar test: each class
 * registered in a range must have a sample instance, and each sample must round-trip through the
 * registry unchanged. A new registration without a sample fails {@link #assertEverySampled}.
 */
public final class KryoRoundTrips {
  private KryoRoundTrips() {}

  /** The registered classes of {@code range}. */
  public static List<Class<?>> registeredClasses(TidewayKryo kryo, KryoIdRange range) {
    List<Class<?>> out = new ArrayList<>();
    for (KryoRegistrations.Entry e : kryo.registrations()) {
      if (range.contains(e.id())) {
        out.add(e.type());
      }
    }
    return out;
  }

  /** Fails naming each class of {@code range} that no sample is an instance of. */
  public static void assertEverySampled(
      TidewayKryo kryo, KryoIdRange range, Collection<?> samples) {
    Set<Class<?>> sampled = samples.stream().map(Object::getClass).collect(Collectors.toSet());
    List<String> missing = new ArrayList<>();
    for (Class<?> c : registeredClasses(kryo, range)) {
      if (!sampled.contains(c)) {
        missing.add(c.getName());
      }
    }
    assertThat(missing)
        .as("registered classes in %s without a sample instance: add one to the test", range)
        .isEmpty();
  }

  /** Serializes and deserializes {@code value} and returns the copy. */
  @SuppressWarnings("unchecked")
  public static <T> T roundTrip(TidewayKryo kryo, T value) {
    byte[] bytes = kryo.serialize(value);
    assertThat(bytes[0]).isEqualTo(TidewayKryo.FORMAT_VERSION);
    return (T) kryo.deserialize(bytes);
  }

  /** Asserts every sample round-trips to an equal value of the same class. */
  public static void assertRoundTrips(TidewayKryo kryo, Collection<?> samples) {
    for (Object s : samples) {
      Object copy = roundTrip(kryo, s);
      if (!(s instanceof Collection<?> || s instanceof java.util.Map<?, ?>)) {
        // JDK immutable collections may come back as a sibling class (a subList as a List.of)
        assertThat(copy).as("class after round trip").isInstanceOf(s.getClass());
      }
      assertThat(copy).as("round trip of %s", s.getClass().getName()).isEqualTo(s);
    }
  }
}
