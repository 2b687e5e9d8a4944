package dev.tideway.frontend.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.frontend.pgwire.PgException;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.junit.jupiter.api.Test;

class PgIntervalsTest {
  @Test
  void oneUnitBecomesTheStandardLiteralWithRoomForLargeValues() {
    assertThat(PgIntervals.toCalcite("1 hour")).isEqualTo("INTERVAL '1' HOUR(10)");
    assertThat(PgIntervals.toCalcite("2 MINUTES")).isEqualTo("INTERVAL '2' MINUTE(10)");
    assertThat(PgIntervals.toCalcite("100 hours")).isEqualTo("INTERVAL '100' HOUR(10)");
    assertThat(PgIntervals.toCalcite("10 secs")).isEqualTo("INTERVAL '10' SECOND(10, 6)");
    assertThat(PgIntervals.toCalcite("1.5 seconds")).isEqualTo("INTERVAL '1.5' SECOND(10, 6)");
    assertThat(PgIntervals.toCalcite(" 3 days ")).isEqualTo("INTERVAL '3' DAY(9)");
    assertThat(PgIntervals.toCalcite("2 months")).isEqualTo("INTERVAL '2' MONTH(9)");
    assertThat(PgIntervals.toCalcite("1 year")).isEqualTo("INTERVAL '1' YEAR(9)");
  }

  @Test
  void severalPartsAddUp() {
    assertThat(PgIntervals.toCalcite("1 day 2 hours 30 minutes"))
        .isEqualTo("INTERVAL '1 02:30:00.000000' DAY(9) TO SECOND(6)");
    assertThat(PgIntervals.toCalcite("1 week"))
        .isEqualTo("INTERVAL '7 00:00:00.000000' DAY(9) TO SECOND(6)");
    assertThat(PgIntervals.toCalcite("500 ms"))
        .isEqualTo("INTERVAL '0 00:00:00.500000' DAY(9) TO SECOND(6)");
    assertThat(PgIntervals.toCalcite("01:02:03.5"))
        .isEqualTo("INTERVAL '0 01:02:03.500000' DAY(9) TO SECOND(6)");
    assertThat(PgIntervals.toCalcite("1 day -01:00"))
        .isEqualTo("INTERVAL '0 23:00:00.000000' DAY(9) TO SECOND(6)");
    assertThat(PgIntervals.toCalcite("-1 hour -30 minutes"))
        .isEqualTo("INTERVAL '-0 01:30:00.000000' DAY(9) TO SECOND(6)");
    assertThat(PgIntervals.toCalcite("1 year 2 months"))
        .isEqualTo("INTERVAL '1-2' YEAR(9) TO MONTH");
  }

  @Test
  void badIntervalsAreClearErrors() {
    assertThatThrownBy(() -> PgIntervals.toCalcite("1 fortnight"))
        .isInstanceOf(PgException.class)
        .hasMessageContaining("invalid input syntax for type interval")
        .hasMessageContaining("fortnight");
    assertThatThrownBy(() -> PgIntervals.toCalcite("soon"))
        .isInstanceOf(PgException.class)
        .hasMessageContaining("\"soon\"");
    assertThatThrownBy(() -> PgIntervals.toCalcite("1 month 2 days"))
        .isInstanceOf(PgException.class)
        .hasMessageContaining("mixes months");
  }

  @Test
  void theParserTypesOnlyPostgresStyleLiterals() {
    assertThat(tree("SELECT ts + INTERVAL '1 hour' FROM t"))
        .isEqualTo("SELECT ts + INTERVAL '1' HOUR(10) FROM t");
    assertThat(tree("SELECT ts + INTERVAL '10' SECOND FROM t"))
        .isEqualTo("SELECT ts + INTERVAL '10' SECOND FROM t");
    assertThat(tree("SELECT window_start FROM TUMBLE(bid, date_time, INTERVAL '2 minutes')"))
        .contains("INTERVAL '2' MINUTE(10))");
    assertThatThrownBy(() -> tree("SELECT INTERVAL '1 fortnight'"))
        .isInstanceOf(PgException.class)
        .hasMessageContaining("fortnight")
        .satisfies(e -> assertThat(((PgException) e).sqlState()).isEqualTo("22007"));
  }

  private static String tree(String sql) {
    return StatementParser.calciteParse(sql)
        .toSqlString(c -> c.withDialect(CalciteSqlDialect.DEFAULT).withQuoteAllIdentifiers(false))
        .getSql()
        .replaceAll("\\s+", " ");
  }
}
