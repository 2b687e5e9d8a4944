package dev.tideway.frontend.meta;

import dev.tideway.common.check.Checks;
import dev.tideway.common.plan.ColumnDesc;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.plan.TableDesc;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A table, source or materialized view in the catalog.
 *
 * @param table its storage layout (columns incl. hidden ones, pk, distribution)
 * @param kind what it is
 * @param hiddenColumns names of columns users do not see ({@code _row_id})
 * @param definition the statement that created it, as the user wrote it
 * @param properties the {@code WITH (...)} options (sources; empty otherwise)
 * @param plan the stream plan that maintains it (MVs), empty for tables and sources
 * @param dependsOn ids of the relations its plan reads
 */
public record Relation(
    TableDesc table,
    RelationKind kind,
    Set<String> hiddenColumns,
    String definition,
    Map<String, String> properties,
    Optional<StreamPlanNode> plan,
    List<Integer> dependsOn) {

  /** The hidden key of a table created without a primary key. */
  public static final String ROW_ID = "_row_id";

  /**
   * The property a source relation carries when it runs as a job of its own (a shared source): a
   * view over it reads it through a source backfill paired with the job's actors.
   */
  public static final String SHARED_SOURCE = "_shared";

  /** Whether this is a shared source ({@link #SHARED_SOURCE}). */
  public boolean sharedSource() {
    return kind == RelationKind.SOURCE && "true".equals(properties.get(SHARED_SOURCE));
  }

  public Relation {
    Checks.checkNotNull(table, "relation table");
    Checks.checkNotNull(kind, "relation kind of " + table.name());
    hiddenColumns = Set.copyOf(hiddenColumns);
    properties = Map.copyOf(properties);
    dependsOn = List.copyOf(dependsOn);
  }

  public int id() {
    return table.tableId();
  }

  public String name() {
    return table.name();
  }

  /** The columns users see, in order. */
  public List<ColumnDesc> visibleColumns() {
    return table.columns().stream().filter(c -> !hiddenColumns.contains(c.name())).toList();
  }

  /** Index (into all columns) of each visible column. */
  public int[] visibleIndices() {
    List<ColumnDesc> cols = table.columns();
    return java.util.stream.IntStream.range(0, cols.size())
        .filter(i -> !hiddenColumns.contains(cols.get(i).name()))
        .toArray();
  }
}
