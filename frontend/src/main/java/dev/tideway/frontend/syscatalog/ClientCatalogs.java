package dev.tideway.frontend.syscatalog;

import static dev.tideway.frontend.syscatalog.PgCatalog.table;

import dev.tideway.common.plan.ColumnDesc;
import dev.tideway.frontend.meta.MetaClient;
import dev.tideway.frontend.meta.Relation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.calcite.schema.Table;

/**
 * The {@code pg_catalog} tables that clients' metadata queries read and that hold nothing of
 * Tideway's own (or only PostgreSQL's fixed rows): psql's {@code \\l+} tablespaces, {@code \\df+}
 * languages, SQLAlchemy's sequences and enums, and {@code tw_pk_columns}, not PostgreSQL's, each
 * relation's primary key columns (what clients compute with {@code unnest(pg_index.indkey)}; see
 * {@code ClientCatalogQueries}).
 */
final class ClientCatalogs {
  /** PostgreSQL's {@code pg_default} tablespace, every database's. */
  static final long DEFAULT_TABLESPACE = 1663L;

  private ClientCatalogs() {}

  static void addTo(Map<String, Table> t, MetaClient meta) {
    t.put(
        "pg_tablespace",
        table(
            "oid bigint, spcname varchar, spcowner bigint, spcacl varchar, spcoptions varchar",
            m ->
                List.of(
                    new Object[] {
                      DEFAULT_TABLESPACE, "pg_default", CatalogIds.ROLE_ROOT, null, null
                    },
                    new Object[] {1664L, "pg_global", CatalogIds.ROLE_ROOT, null, null}),
            meta));
    t.put(
        "pg_language",
        table(
            "oid bigint, lanname varchar, lanowner bigint, lanispl boolean, lanpltrusted boolean,"
                + " lanplcallfoid bigint, laninline bigint, lanvalidator bigint, lanacl varchar",
            m -> List.of(),
            meta));
    t.put(
        "pg_sequence",
        table(
            "seqrelid bigint, seqtypid bigint, seqstart bigint, seqincrement bigint, seqmax bigint,"
                + " seqmin bigint, seqcache bigint, seqcycle boolean",
            m -> List.of(),
            meta));
    t.put(
        "pg_enum",
        table(
            "oid bigint, enumtypid bigint, enumsortorder real, enumlabel varchar",
            m -> List.of(),
            meta));
    t.put(
        "tw_pk_columns",
        table("indrelid bigint, attnum smallint, ord int", ClientCatalogs::pkColumns, meta));
  }

  private static List<Object[]> pkColumns(MetaClient m) {
    List<Object[]> out = new ArrayList<>();
    for (Relation r : m.relations()) {
      List<String> visible = r.visibleColumns().stream().map(ColumnDesc::name).toList();
      int ord = 1;
      for (var o : r.table().pk()) {
        int attnum = visible.indexOf(r.table().columns().get(o.index()).name()) + 1;
        if (attnum > 0) {
          out.add(new Object[] {(long) r.id(), (short) attnum, ord++});
        }
      }
    }
    return out;
  }
}
