package dev.tideway.frontend.syscatalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

/** to_char's templates, each expected value as PostgreSQL 15 prints it. */
class PgToCharTest {
  private static final LocalDateTime T = LocalDateTime.of(2024, 3, 5, 14, 7, 9, 123_456_000);

  @Test
  void dateTimeTemplates() {
    assertThat(PgToChar.format(T, "YYYY-MM-DD HH24:MI:SS")).isEqualTo("2024-03-05 14:07:09");
    assertThat(PgToChar.format(T, "YYYY-MM-DD\"T\"HH24:MI:SS.MS"))
        .isEqualTo("2024-03-05T14:07:09.123");
    assertThat(PgToChar.format(T, "HH12:MI AM")).isEqualTo("02:07 PM");
    assertThat(PgToChar.format(T, "FMHH12:MI pm")).isEqualTo("2:07 pm");
    assertThat(PgToChar.format(T, "Mon DD, YYYY")).isEqualTo("Mar 05, 2024");
    assertThat(PgToChar.format(T, "FMMonth FMDD")).isEqualTo("March 5");
    assertThat(PgToChar.format(T, "Month")).isEqualTo("March    ");
    assertThat(PgToChar.format(T, "DAY dy D")).isEqualTo("TUESDAY   tue 3");
    assertThat(PgToChar.format(T, "YYYY\"Q\"Q IW DDD US")).isEqualTo("2024Q1 10 065 123456");
  }

  @Test
  void numberTemplates() {
    assertThat(PgToChar.format(new BigDecimal("1234.5"), "9999.99")).isEqualTo(" 1234.50");
    assertThat(PgToChar.format(new BigDecimal("1234.5"), "FM9999.99")).isEqualTo("1234.5");
    assertThat(PgToChar.format(new BigDecimal("12"), "0000")).isEqualTo(" 0012");
    assertThat(PgToChar.format(new BigDecimal("1234.5"), "FM9,999.00")).isEqualTo("1,234.50");
    assertThat(PgToChar.format(new BigDecimal("1234.5"), "FM9,999.99")).isEqualTo("1,234.5");
    assertThat(PgToChar.format(new BigDecimal("1234567.891"), "9,999,999.99"))
        .isEqualTo(" 1,234,567.89");
    assertThat(PgToChar.format(new BigDecimal("-12.3"), "999.9")).isEqualTo(" -12.3");
    assertThat(PgToChar.format(new BigDecimal("0.5"), "9.99")).isEqualTo("  .50");
    assertThat(PgToChar.format(new BigDecimal("-5"), "S999")).isEqualTo("  -5");
    assertThat(PgToChar.format(new BigDecimal("-5"), "999PR")).isEqualTo("<5>");
    assertThat(PgToChar.format(new BigDecimal("12345"), "999")).isEqualTo(" ###");
    assertThat(PgToChar.format(new BigDecimal("0"), "999")).isEqualTo("   0");
  }
}
