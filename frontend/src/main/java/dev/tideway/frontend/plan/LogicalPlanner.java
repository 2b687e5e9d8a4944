package dev.tideway.frontend.plan;

import dev.tideway.frontend.batch.BatchEngine;
import dev.tideway.frontend.batch.PgCasts;
import dev.tideway.frontend.batch.RelationSchema;
import dev.tideway.frontend.batch.TwTypeSystem;
import dev.tideway.frontend.meta.BatchReader;
import dev.tideway.frontend.meta.MetaClient;
import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.SqlState;
import dev.tideway.frontend.sql.PgColumnNames;
import dev.tideway.frontend.sql.StatementParser;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlLibrary;
import org.apache.calcite.sql.fun.SqlLibraryOperatorTableFactory;
import org.apache.calcite.sql.type.SqlTypeCoercionRule;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.tools.FrameworkConfig;
import org.apache.calcite.tools.Frameworks;
import org.apache.calcite.tools.Planner;

/**
 * A materialized view's query to a simplified logical {@link RelNode}: parse (Tideway's grammar,
 * RisingWave's windows and PostgreSQL syntax already rewritten by {@code PgParser}), validate and
 * convert against the catalog's {@code public} schema (a fresh planner per statement: Calcite
 * planners are single-use and not thread-safe), then a Hep pass that pushes filters into joins and
 * merges projections.
 */
public final class LogicalPlanner {
  private static final HepProgram HEP =
      new HepProgramBuilder()
          .addRuleCollection(
              List.of(
                  CoreRules.FILTER_INTO_JOIN,
                  CoreRules.JOIN_CONDITION_PUSH,
                  CoreRules.FILTER_PROJECT_TRANSPOSE,
                  CoreRules.FILTER_MERGE,
                  CoreRules.PROJECT_MERGE,
                  CoreRules.PROJECT_REMOVE,
                  CoreRules.AGGREGATE_PROJECT_MERGE))
          // count(DISTINCT b) becomes an aggregate over an aggregate grouped by b
          .addRuleInstance(CoreRules.AGGREGATE_EXPAND_DISTINCT_AGGREGATES_TO_JOIN)
          .addRuleCollection(List.of(CoreRules.PROJECT_MERGE, CoreRules.PROJECT_REMOVE))
          .build();

  private LogicalPlanner() {}

  /**
   * {@code rel} with its columns named {@code names}. Applied after the Hep pass: a rename-only
   * projection before it would be removed as trivial (Hep compares row types without names), and a
   * plain aggregate view would keep Calcite's {@code EXPR$1}.
   */
  private static RelNode renamed(RelNode rel, List<String> names) {
    if (rel.getRowType().getFieldNames().equals(names)) {
      return rel;
    }
    return RelFactories.LOGICAL_BUILDER
        .create(rel.getCluster(), null)
        .push(rel)
        .rename(names)
        .build();
  }

  /** Plans {@code query} (Calcite-ready text). Errors come back as PostgreSQL errors. */
  public static RelNode plan(String query, MetaClient meta, BatchReader reader) {
    return plan(query, meta, reader, List.of());
  }

  /**
   * Plans {@code query} with its first columns named {@code columns} (a view's column list, as
   * PostgreSQL takes it: fewer names rename the first columns; more fail).
   */
  public static RelNode plan(
      String query, MetaClient meta, BatchReader reader, List<String> columns) {
    SchemaPlus root = Frameworks.createRootSchema(false);
    SchemaPlus pub = root.add("public", new RelationSchema(meta, reader, false));
    FrameworkConfig config =
        Frameworks.newConfigBuilder()
            .parserConfig(StatementParser.PARSER)
            .defaultSchema(pub)
            .typeSystem(TwTypeSystem.INSTANCE)
            .operatorTable(
                SqlLibraryOperatorTableFactory.INSTANCE.getOperatorTable(
                    SqlLibrary.STANDARD, SqlLibrary.POSTGRESQL))
            .sqlValidatorConfig(
                SqlValidator.Config.DEFAULT
                    .withConformance(SqlConformanceEnum.LENIENT)
                    .withIdentifierExpansion(true))
            .sqlToRelConverterConfig(
                SqlToRelConverter.config().withTrimUnusedFields(true).withExpand(false))
            .build();
    Planner planner = Frameworks.getPlanner(config);
    try {
      SqlNode parsed = planner.parse(query);
      SqlNode validated;
      try (var casts = SqlTypeCoercionRule.THREAD_PROVIDERS.push(PgCasts.COERCION)) {
        validated = planner.validate(parsed); // PostgreSQL's casts (boolean to integer)
      }
      RelNode rel = planner.rel(validated).project();
      // the view's columns named as PostgreSQL names them (count, sum, ?column?, ...)
      List<String> names =
          new ArrayList<>(PgColumnNames.rename(parsed, rel.getRowType().getFieldNames(), true));
      if (columns.size() > names.size()) {
        throw PgException.error(SqlState.SYNTAX_ERROR, "too many column names were specified");
      }
      for (int i = 0; i < columns.size(); i++) {
        names.set(i, columns.get(i));
      }
      if (new HashSet<>(names).size() < names.size()) {
        String dup =
            names.stream()
                .filter(n -> names.indexOf(n) != names.lastIndexOf(n))
                .findFirst()
                .orElseThrow();
        throw PgException.error(
            SqlState.DUPLICATE_COLUMN, "column \"" + dup + "\" specified more than once");
      }
      HepPlanner hep = new HepPlanner(HEP);
      hep.setRoot(rel);
      return renamed(hep.findBestExp(), names);
    } catch (Exception e) {
      throw BatchEngine.translate(e, query);
    } finally {
      planner.close();
    }
  }
}
