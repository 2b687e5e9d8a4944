package dev.tideway.common.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FailPointsTest {
  private static final String POINT = FailPoints.declare("test.failpoints.step");

  @AfterEach
  void reset() {
    FailPoints.reset();
  }

  @Test
  void disabledPointDoesNothing() {
    assertThatCode(() -> FailPoints.hit(POINT)).doesNotThrowAnyException();
  }

  @Test
  void enabledPointThrowsInjectedFaultNamingIt() {
    FailPoints.enable(POINT, new FailPoints.Fail());
    assertThatThrownBy(() -> FailPoints.hit(POINT))
        .isInstanceOf(InjectedFault.class)
        .hasMessageContaining(POINT);
  }

  @Test
  void failOnHitFiresExactlyOnce() {
    FailPoints.enable(POINT, new FailPoints.FailOnHit(2));
    FailPoints.hit(POINT);
    assertThatThrownBy(() -> FailPoints.hit(POINT)).isInstanceOf(InjectedFault.class);
    FailPoints.hit(POINT);
    assertThat(FailPoints.hits(POINT)).isEqualTo(3);
  }

  @Test
  void unknownNameIsRejectedSoATypoCannotSilentlyNeverFire() {
    assertThatThrownBy(() -> FailPoints.enable("test.failpoints.stpe", new FailPoints.Fail()))
        .hasMessageContaining("unknown fail point 'test.failpoints.stpe'");
  }

  @Test
  void pauseBlocksUntilReleased() throws Exception {
    FailPoints.Pause pause = new FailPoints.Pause();
    FailPoints.enable(POINT, pause);
    Thread t = new Thread(() -> FailPoints.hit(POINT));
    t.start();
    assertThat(pause.reached().await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(t.isAlive()).isTrue();
    pause.release();
    t.join(10_000);
    assertThat(t.isAlive()).isFalse();
  }
}
