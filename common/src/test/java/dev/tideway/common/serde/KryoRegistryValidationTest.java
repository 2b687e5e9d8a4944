package dev.tideway.common.serde;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The registry refuses to start on overlapping ranges, out-of-range ids and duplicates. */
class KryoRegistryValidationTest {
  record A(int x) {}

  record B(int x) {}

  private static KryoRegistrar registrar(KryoIdRange range, Consumer<KryoRegistrations> body) {
    return new KryoRegistrar() {
      @Override
      public KryoIdRange range() {
        return range;
      }

      @Override
      public void register(KryoRegistrations r) {
        body.accept(r);
      }
    };
  }

  private static TidewayKryo build(KryoRegistrar... registrars) {
    TidewayKryo.Builder b = TidewayKryo.builder().serviceLoader(false);
    for (KryoRegistrar r : registrars) {
      b.registrar(r);
    }
    return b.build();
  }

  @Test
  void aRangeClaimedTwiceFailsNamingBothRegistrars() {
    assertThatThrownBy(
            () ->
                build(
                    registrar(KryoIdRange.BARRIER, r -> r.addRecord(300, A.class)),
                    registrar(KryoIdRange.BARRIER, r -> r.addRecord(301, B.class))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("range BARRIER 300..399 claimed by both");
  }

  @Test
  void anIdOutsideTheRangeFails() {
    assertThatThrownBy(() -> build(registrar(KryoIdRange.BARRIER, r -> r.addRecord(450, A.class))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(
            A.class.getName() + " with Kryo id 450 outside its range BARRIER 300..399");
  }

  @Test
  void theSameIdTwiceFailsNamingBothClasses() {
    assertThatThrownBy(
            () ->
                build(
                    registrar(
                        KryoIdRange.BARRIER,
                        r -> r.addRecord(300, A.class).addRecord(300, B.class))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Kryo id 300 registered twice")
        .hasMessageContaining(A.class.getName())
        .hasMessageContaining(B.class.getName());
  }

  @Test
  void theSameClassTwiceFails() {
    assertThatThrownBy(
            () ->
                build(
                    registrar(KryoIdRange.BARRIER, r -> r.addRecord(300, A.class)),
                    registrar(KryoIdRange.BACKFILL, r -> r.addRecord(500, A.class))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(A.class.getName() + " registered twice: id 300");
  }

  @Test
  void aClassCommonAlreadyRegistersCannotBeTakenAgain() {
    assertThatThrownBy(
            () ->
                build(
                    registrar(
                        KryoIdRange.BARRIER,
                        r -> r.addRecord(300, dev.tideway.common.types.Interval.class))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Interval registered twice: id 124");
  }

  enum Clash {
    X,
    Y
  }

  @Test
  void enumCodesMustBeDistinct() {
    assertThatThrownBy(
            () ->
                build(
                    registrar(
                        KryoIdRange.BARRIER,
                        r -> r.addEnum(300, Clash.class, e -> 1, c -> Clash.X))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Clash: code 1 used twice");
  }
}
