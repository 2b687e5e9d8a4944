package dev.tideway.frontend;

import dev.tideway.common.row.Row;
import dev.tideway.frontend.batch.BatchEngine;
import dev.tideway.frontend.batch.RelationSchema;
import dev.tideway.frontend.meta.BatchReader;
import dev.tideway.frontend.meta.ComputeStatus;
import dev.tideway.frontend.meta.DmlWriter;
import dev.tideway.frontend.meta.InMemoryCluster;
import dev.tideway.frontend.meta.MetaClient;
import dev.tideway.frontend.meta.Relation;
import dev.tideway.frontend.pgwire.PgAuth;
import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.PgSession;
import dev.tideway.frontend.pgwire.SqlState;
import dev.tideway.frontend.session.Session;
import dev.tideway.frontend.session.TrackedSession;
import dev.tideway.frontend.sql.Statement;
import dev.tideway.frontend.sql.StatementParser;
import dev.tideway.frontend.syscatalog.Backends;
import dev.tideway.frontend.syscatalog.GenerateSeries;
import dev.tideway.frontend.syscatalog.PgCatalog;
import dev.tideway.frontend.syscatalog.PgFunctions;
import dev.tideway.frontend.syscatalog.RwCatalog;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.schema.impl.TableFunctionImpl;

/**
 * The frontend node's SQL side: opens a {@link Session} per authenticated connection (database
 * {@code dev} only) wired to the cluster's {@link MetaClient}, {@link BatchReader} and {@link
 * DmlWriter}. {@link #inMemory} wires it to an {@link InMemoryCluster} for tests and a benchmark.
 *
 * <p>Thread-safe: {@link #open} is called by connection threads; sessions are independent.
 */
public final class Frontend implements PgSession.Factory {
  public static final String DATABASE = "dev";

  private final MetaClient meta;
  private final BatchReader reader;
  private final DmlWriter writer;
  private final ComputeStatus compute;

  /** The client sessions of this frontend ({@code pg_stat_activity}, {@code pg_cancel_backend}). */
  private final Backends backends = new Backends(dev.tideway.common.time.Clock.system());

  public Frontend(MetaClient meta, BatchReader reader, DmlWriter writer) {
    this(meta, reader, writer, ComputeStatus.NONE);
  }

  /** A frontend that also shows what the compute nodes report ({@code rw_catalog}). */
  public Frontend(MetaClient meta, BatchReader reader, DmlWriter writer, ComputeStatus compute) {
    this.meta = meta;
    this.reader = reader;
    this.writer = writer;
    this.compute = compute;
  }

  /**
   * A frontend over an in-memory cluster whose materialized views are computed on read by running
   * their query on a per-thread batch engine (tests and the batch-select benchmark only).
   */
  public static Frontend inMemory(InMemoryCluster cluster) {
    Frontend f = new Frontend(cluster, cluster, cluster);
    ThreadLocal<BatchEngine> engines = ThreadLocal.withInitial(f::newEngine);
    cluster.setViewEvaluator(r -> f.evaluate(r, engines.get()));
    return f;
  }

  private List<Row> evaluate(Relation r, BatchEngine engine) {
    Statement s = StatementParser.parse(r.definition()).statement();
    String q = ((Statement.CreateMaterializedView) s).query();
    MetaClient outer = PgFunctions.CURRENT.get();
    PgFunctions.CURRENT.set(meta);
    try {
      int[] visible = r.visibleIndices();
      return engine.query(q, List.of()).rows().stream()
          .map(
              v -> {
                Object[] full = new Object[r.table().columns().size()];
                for (int i = 0; i < visible.length; i++) {
                  full[visible[i]] = v[i];
                }
                return Row.wrap(full);
              })
          .toList();
    } finally {
      if (outer == null) {
        PgFunctions.CURRENT.remove();
      } else {
        PgFunctions.CURRENT.set(outer);
      }
    }
  }

  /** A batch engine with every schema and catalog function registered. */
  public BatchEngine newEngine() {
    BatchEngine e = new BatchEngine(() -> meta.relations().stream().map(r -> r.id()).toList());
    e.addSchema(
        "public", new RelationSchema(meta, reader, false, PgCatalog.pgCatalog(meta, backends)));
    e.addSchema("tideway_internal", new RelationSchema(meta, reader, true));
    e.addSchema("pg_catalog", PgCatalog.pgCatalog(meta, backends));
    e.addSchema("information_schema", PgCatalog.informationSchema(meta));
    e.addSchema("rw_catalog", RwCatalog.schema(meta, compute));
    for (Method m : PgFunctions.class.getDeclaredMethods()) {
      if (Modifier.isStatic(m.getModifiers()) && Modifier.isPublic(m.getModifiers())) {
        e.addFunction(m.getName(), ScalarFunctionImpl.create(m), "pg_catalog");
      }
    }
    // One function per arity: TableFunctionImpl.create(class, name) picks whichever overload
    // reflection lists first, which differs between runs.
    e.addFunction(
        "generate_series", TableFunctionImpl.create(GenerateSeries.class, "eval"), "pg_catalog");
    e.addFunction(
        "generate_series",
        TableFunctionImpl.create(GenerateSeries.class, "evalWithStep"),
        "pg_catalog");
    e.setDefaultSchema("public");
    return e;
  }

  @Override
  public PgSession open(PgSession.Client client) {
    return new TrackedSession(open(client.user(), client.database()), backends, client);
  }

  @Override
  public PgSession open(String user, String database) {
    if (!database.equals(DATABASE)) {
      throw PgException.fatal(
          SqlState.INVALID_CATALOG_NAME, "database \"" + database + "\" does not exist");
    }
    return new Session(user, meta, reader, writer, newEngine());
  }

  /**
   * The users connections authenticate as ({@link PgAuth#catalog}): the catalog's, each with its
   * SCRAM verifier (empty text: no password); a role without LOGIN is refused.
   */
  public PgAuth.Users authUsers() {
    return user ->
        meta.users()
            .find(user)
            .map(
                p -> {
                  if ("false".equals(p.get("login"))) {
                    throw PgException.fatal(
                        SqlState.INVALID_AUTHORIZATION,
                        "role \"" + user + "\" is not permitted to log in");
                  }
                  return p.getOrDefault("password", "");
                });
  }

  public MetaClient meta() {
    return meta;
  }
}
