package dev.tideway.frontend.batch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.frontend.pgwire.PgException;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** Calcite's and the JVM's failures of a batch query, as the PostgreSQL errors a client expects. */
class ErrorTranslationTest {
  static PgException translate(Throwable cause) {
    return BatchEngine.translate(
        new SQLException("exception while executing query: null", cause), "SELECT 1");
  }

  @Test
  void aHotIntegerDivisionByZeroWithoutMessageIsDivisionByZero() {
    // once the path is hot, HotSpot throws a preallocated ArithmeticException with no message
    PgException e = translate(new ArithmeticException());
    assertThat(e.sqlState()).isEqualTo("22012");
    assertThat(e.getMessage()).isEqualTo("division by zero");
  }

  @Test
  void bigDecimalZeroByZeroAndOutOfRangeAreDataErrors() {
    assertThat(translate(new ArithmeticException("Division undefined")).sqlState())
        .isEqualTo("22012");
    assertThat(translate(new IllegalArgumentException("Value 1.0E10 out of range")).sqlState())
        .isEqualTo("22003");
  }

  @Test
  void anUnexplainedFailureNamesItsException() {
    PgException e = translate(new NullPointerException());
    assertThat(e.sqlState()).isEqualTo("42000");
    assertThat(e.getMessage()).contains("NullPointerException");
  }
}
