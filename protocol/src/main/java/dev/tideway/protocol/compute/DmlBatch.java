package dev.tideway.protocol.compute;

import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk.OpRow;
import dev.tideway.common.row.Row;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@code INSERT}, {@code UPDATE} or {@code DELETE} statement's row changes for one table, in
 * order. An update is a {@code U-} row (the old values) directly followed by its {@code U+} row.
 *
 * @param tableId the table written
 * @param rows the changes
 */
public record DmlBatch(int tableId, List<OpRow> rows) {
  public DmlBatch {
    rows = List.copyOf(rows);
    for (int i = 0; i < rows.size(); i++) {
      Op op = rows.get(i).op();
      if (op == Op.UPDATE_DELETE) {
        Checks.checkArgument(
            i + 1 < rows.size() && rows.get(i + 1).op() == Op.UPDATE_INSERT,
            "table %s: U- at row %s is not followed by U+",
            tableId,
            i);
      } else if (op == Op.UPDATE_INSERT) {
        Checks.checkArgument(
            i > 0 && rows.get(i - 1).op() == Op.UPDATE_DELETE,
            "table %s: U+ at row %s does not follow U-",
            tableId,
            i);
      }
    }
  }

  /** An {@code INSERT} of {@code rows}. */
  public static DmlBatch insert(int tableId, List<Row> rows) {
    List<OpRow> out = new ArrayList<>(rows.size());
    rows.forEach(r -> out.add(new OpRow(Op.INSERT, r)));
    return new DmlBatch(tableId, out);
  }

  /** A {@code DELETE} of {@code rows}. */
  public static DmlBatch delete(int tableId, List<Row> rows) {
    List<OpRow> out = new ArrayList<>(rows.size());
    rows.forEach(r -> out.add(new OpRow(Op.DELETE, r)));
    return new DmlBatch(tableId, out);
  }
}
