package dev.tideway.frontend.syscatalog;

import dev.tideway.common.types.DataType;
import java.util.ArrayList;
import java.util.List;

/** {@code generate_series(start, stop [, step])} as a Calcite table function of BIGINT. */
public final class GenerateSeries {
  private GenerateSeries() {}

  /** {@code generate_series(start, stop)}. Each arity has its own method name: see Frontend. */
  public static SystemTable eval(Long start, Long stop) {
    return evalWithStep(start, stop, 1L);
  }

  /** {@code generate_series(start, stop, step)}. */
  public static SystemTable evalWithStep(Long start, Long stop, Long step) {
    return new SystemTable(
        List.of(new SystemTable.Col("generate_series", DataType.BIGINT)),
        () -> {
          List<Object[]> out = new ArrayList<>();
          if (start == null || stop == null || step == null || step == 0) {
            return out;
          }
          for (long i = start; step > 0 ? i <= stop : i >= stop; i += step) {
            out.add(new Object[] {i});
          }
          return out;
        });
  }
}
