package dev.tideway.common.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class FailuresTest {
  @Test
  void theRootCauseMessageIsReportedThroughWrappers() {
    Throwable root = new IllegalStateException("actor 31 stopped before it took the write");
    assertThat(Failures.rootMessage(new CompletionException(new RuntimeException("wrap", root))))
        .isEqualTo("actor 31 stopped before it took the write");
    assertThat(Failures.rootMessage(new IllegalArgumentException()))
        .as("no message: the exception itself")
        .isEqualTo("java.lang.IllegalArgumentException");
  }
}
