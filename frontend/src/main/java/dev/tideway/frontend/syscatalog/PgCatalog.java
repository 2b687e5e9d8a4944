package dev.tideway.frontend.syscatalog;

import dev.tideway.common.plan.ColumnDesc;
import dev.tideway.frontend.meta.MetaClient;
import dev.tideway.frontend.meta.Relation;
import dev.tideway.frontend.pgwire.PgType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

/**
 * {@code pg_catalog} and {@code information_schema} as virtual tables over the catalog, with the
 * columns psql 15 and pgjdbc 42.7 read (see the catalog-query corpus in the tests). Relations
 * clients only join against (pg_policy, pg_inherits, pg_publication, ...) exist and are empty.
 * There are no indexes: {@code relhasindex} is false, so psql skips its index query.
 */
public final class PgCatalog {
  private PgCatalog() {}

  /** The {@code pg_catalog} schema, with no connected sessions to list. */
  public static AbstractSchema pgCatalog(MetaClient meta) {
    return pgCatalog(meta, new Backends(dev.tideway.common.time.Clock.system()));
  }

  /** The {@code pg_catalog} schema; {@code pg_stat_activity} lists {@code backends}. */
  public static AbstractSchema pgCatalog(MetaClient meta, Backends backends) {
    Map<String, Table> t = new LinkedHashMap<>();
    t.put("pg_stat_activity", table(Backends.COLUMNS, m -> backends.rows(), meta));
    t.put(
        "pg_namespace",
        table(
            "oid bigint, nspname varchar, nspowner bigint, nspacl varchar",
            m -> namespaces(),
            meta));
    t.put(
        "pg_class",
        table(
            "oid bigint, relname varchar, relnamespace bigint, relowner bigint, relkind varchar,"
                + " relam bigint, relchecks smallint, relhasindex boolean, relhasrules boolean,"
                + " relhastriggers boolean, relrowsecurity boolean, relforcerowsecurity boolean,"
                + " relispartition boolean, reloptions varchar, reltablespace bigint, reloftype bigint,"
                + " relpersistence varchar, relreplident varchar, reltoastrelid bigint,"
                + " relpartbound varchar, relpages int, reltuples real, relacl varchar, relnatts smallint,"
                + " reltype bigint, relhasoids boolean",
            PgCatalog::classes,
            meta));
    t.put(
        "pg_attribute",
        table(
            "attrelid bigint, attname varchar, atttypid bigint, atttypmod int, attlen smallint,"
                + " attnum smallint, attnotnull boolean, atthasdef boolean, attisdropped boolean,"
                + " attidentity varchar, attgenerated varchar, attcollation bigint, attstorage varchar,"
                + " attcompression varchar, attstattarget int, attndims int, attacl varchar",
            PgCatalog::attributes,
            meta));
    t.put(
        "pg_type",
        table(
            "oid bigint, typname varchar, typnamespace bigint, typtype varchar, typnotnull boolean,"
                + " typbasetype bigint, typtypmod int, typcollation bigint, typinput varchar,"
                + " typlen smallint, typelem bigint, typarray bigint, typowner bigint, typrelid bigint,"
                + " typdelim varchar, typcategory varchar, typdefault varchar, typacl varchar",
            m -> types(),
            meta));
    t.put(
        "pg_database",
        table(
            "oid bigint, datname varchar, datdba bigint, encoding int, datcollate varchar, datctype varchar, datacl varchar, datallowconn boolean, datistemplate boolean, daticulocale varchar, datlocprovider varchar, dattablespace bigint",
            m ->
                List.<Object[]>of(
                    new Object[] {
                      CatalogIds.DB_DEV,
                      "dev",
                      CatalogIds.ROLE_ROOT,
                      6,
                      "C",
                      "C",
                      null,
                      true,
                      false,
                      null,
                      "c",
                      ClientCatalogs.DEFAULT_TABLESPACE
                    }),
            meta));
    t.put(
        "pg_roles",
        table(
            "oid bigint, rolname varchar, rolsuper boolean, rolinherit boolean, rolcreaterole"
                + " boolean, rolcreatedb boolean, rolcanlogin boolean, rolreplication boolean,"
                + " rolconnlimit int, rolpassword varchar, rolvaliduntil timestamptz,"
                + " rolbypassrls boolean, rolconfig varchar",
            PgCatalog::roles,
            meta));
    t.put(
        "pg_auth_members",
        table(
            "oid bigint, roleid bigint, member bigint, grantor bigint, admin_option boolean",
            m -> List.of(),
            meta));
    t.put(
        "pg_proc",
        table(
            "oid bigint, proname varchar, pronamespace bigint, proowner bigint, prokind varchar,"
                + " prorettype bigint, proretset boolean, pronargs smallint, proargtypes varchar,"
                + " prosrc varchar, prolang bigint, provolatile varchar, proparallel varchar,"
                + " prosecdef boolean, proacl varchar",
            m -> List.of(),
            meta));
    t.put(
        "pg_extension",
        table(
            "oid bigint, extname varchar, extowner bigint, extnamespace bigint,"
                + " extrelocatable boolean, extversion varchar",
            m -> List.of(),
            meta));
    t.put("pg_authid", t.get("pg_roles"));
    t.put(
        "pg_user",
        table(
            "usesysid bigint, usename varchar, usesuper boolean",
            m -> roles(m).stream().map(r -> new Object[] {r[0], r[1], r[2]}).toList(),
            meta));
    t.put(
        "pg_am",
        table(
            "oid bigint, amname varchar, amtype varchar, amhandler varchar", m -> List.of(), meta));
    t.put(
        "pg_attrdef",
        table("oid bigint, adrelid bigint, adnum smallint, adbin varchar", m -> List.of(), meta));
    t.put(
        "pg_collation",
        table("oid bigint, collname varchar, collnamespace bigint", m -> List.of(), meta));
    t.put(
        "pg_index",
        table(
            "indexrelid bigint, indrelid bigint, indnatts smallint, indisprimary boolean, indisunique boolean, indisclustered boolean, indisvalid boolean, indisreplident boolean, indkey varchar, indoption varchar, indpred varchar, indexprs varchar",
            m -> List.of(),
            meta));
    t.put(
        "pg_constraint",
        table(
            "oid bigint, conname varchar, connamespace bigint, contype varchar, condeferrable boolean, condeferred boolean, conrelid bigint, conindid bigint, conkey varchar, confrelid bigint",
            m -> List.of(),
            meta));
    t.put(
        "pg_description",
        table(
            "objoid bigint, classoid bigint, objsubid int, description varchar",
            m -> List.of(),
            meta));
    t.put(
        "pg_policy",
        table(
            "oid bigint, polname varchar, polrelid bigint, polcmd varchar, polpermissive boolean, polroles varchar, polqual varchar, polwithcheck varchar",
            m -> List.of(),
            meta));
    t.put(
        "pg_statistic_ext",
        table(
            "oid bigint, stxrelid bigint, stxname varchar, stxnamespace bigint, stxstattarget int, stxkeys varchar, stxkind varchar",
            m -> List.of(),
            meta));
    t.put(
        "pg_publication",
        table(
            "oid bigint, pubname varchar, pubowner bigint, puballtables boolean, pubinsert boolean,"
                + " pubupdate boolean, pubdelete boolean, pubtruncate boolean, pubviaroot boolean",
            m -> List.of(),
            meta));
    t.put(
        "pg_publication_rel",
        table(
            "oid bigint, prpubid bigint, prrelid bigint, prqual varchar, prattrs varchar",
            m -> List.of(),
            meta));
    t.put(
        "pg_publication_namespace",
        table("oid bigint, pnpubid bigint, pnnspid bigint", m -> List.of(), meta));
    t.put(
        "pg_inherits",
        table(
            "inhrelid bigint, inhparent bigint, inhseqno int, inhdetachpending boolean",
            m -> List.of(),
            meta));
    t.put(
        "pg_rewrite", table("oid bigint, rulename varchar, ev_class bigint", m -> List.of(), meta));
    t.put(
        "pg_trigger",
        table(
            "oid bigint, tgrelid bigint, tgname varchar, tgisinternal boolean",
            m -> List.of(),
            meta));
    t.put(
        "pg_settings",
        table(
            "name varchar, setting varchar, unit varchar, category varchar, short_desc varchar",
            m ->
                List.<Object[]>of(
                    new Object[] {
                      "server_version",
                      "13.14.0",
                      null,
                      "Preset Options",
                      "Shows the server version."
                    }),
            meta));
    t.put(
        "pg_tables",
        table(
            "schemaname varchar, tablename varchar, tableowner varchar, tablespace varchar, hasindexes boolean, hasrules boolean, hastriggers boolean, rowsecurity boolean",
            m -> relRows(m, 'r', false),
            meta));
    t.put(
        "pg_matviews",
        table(
            "schemaname varchar, matviewname varchar, matviewowner varchar, tablespace varchar, hasindexes boolean, ispopulated boolean, definition varchar",
            m -> relRows(m, 'm', true),
            meta));
    t.put(
        "pg_views",
        table(
            "schemaname varchar, viewname varchar, viewowner varchar, definition varchar",
            m -> List.of(),
            meta));
    ClientCatalogs.addTo(t, meta);
    return schema(t);
  }

  /** The {@code information_schema} schema. */
  public static AbstractSchema informationSchema(MetaClient meta) {
    Map<String, Table> t = new LinkedHashMap<>();
    t.put(
        "tables",
        table(
            "table_catalog varchar, table_schema varchar, table_name varchar, table_type varchar",
            m -> {
              List<Object[]> out = new ArrayList<>();
              for (Relation r : m.relations()) {
                out.add(
                    new Object[] {
                      "dev",
                      "public",
                      r.name(),
                      r.kind().relkind() == 'm' ? "MATERIALIZED VIEW" : "BASE TABLE"
                    });
              }
              return out;
            },
            meta));
    t.put(
        "columns",
        table(
            "table_catalog varchar, table_schema varchar, table_name varchar, column_name varchar, ordinal_position int, data_type varchar, is_nullable varchar",
            m -> {
              List<Object[]> out = new ArrayList<>();
              for (Relation r : m.relations()) {
                int n = 1;
                for (ColumnDesc c : r.visibleColumns()) {
                  out.add(
                      new Object[] {
                        "dev",
                        "public",
                        r.name(),
                        c.name(),
                        n++,
                        CatalogIds.formatType(PgType.of(c.type()).oid(), PgType.typmod(c.type())),
                        "YES"
                      });
                }
              }
              return out;
            },
            meta));
    t.put(
        "schemata",
        table(
            "catalog_name varchar, schema_name varchar, schema_owner varchar",
            m -> {
              List<Object[]> out = new ArrayList<>();
              for (Object[] ns : namespaces()) {
                out.add(new Object[] {"dev", ns[1], "root"});
              }
              return out;
            },
            meta));
    return schema(t);
  }

  static AbstractSchema schema(Map<String, Table> tables) {
    Map<String, Table> copy = Map.copyOf(tables);
    return new AbstractSchema() {
      @Override
      protected Map<String, Table> getTableMap() {
        return copy;
      }
    };
  }

  static SystemTable table(
      String cols, Function<MetaClient, List<Object[]>> rows, MetaClient meta) {
    return new SystemTable(SystemTable.cols(cols), () -> rows.apply(meta));
  }

  /** {@code root} and the catalog's users ({@code CREATE USER}); a password shows as stars. */
  private static List<Object[]> roles(MetaClient m) {
    List<Object[]> out = new ArrayList<>();
    Map<String, Map<String, String>> users;
    try {
      users = m.users().all();
    } catch (dev.tideway.frontend.pgwire.PgException unsupported) {
      users = Map.of("root", Map.of("superuser", "true"));
    }
    long oid = CatalogIds.ROLE_ROOT;
    for (Map.Entry<String, Map<String, String>> u : users.entrySet()) {
      boolean root = u.getKey().equals("root");
      boolean superuser = "true".equals(u.getValue().get("superuser"));
      boolean login = !"false".equals(u.getValue().get("login"));
      out.add(
          new Object[] {
            root ? CatalogIds.ROLE_ROOT : ++oid,
            u.getKey(),
            superuser,
            true,
            superuser,
            superuser,
            login,
            superuser,
            -1,
            u.getValue().containsKey("password") ? "********" : null,
            null,
            superuser,
            null
          });
    }
    return out;
  }

  private static List<Object[]> namespaces() {
    return List.of(
        new Object[] {CatalogIds.NS_PG_CATALOG, "pg_catalog", CatalogIds.ROLE_ROOT, null},
        new Object[] {CatalogIds.NS_PUBLIC, "public", CatalogIds.ROLE_ROOT, null},
        new Object[] {
          CatalogIds.NS_INFORMATION_SCHEMA, "information_schema", CatalogIds.ROLE_ROOT, null
        },
        new Object[] {CatalogIds.NS_RW_CATALOG, "rw_catalog", CatalogIds.ROLE_ROOT, null});
  }

  private static List<Object[]> classes(MetaClient m) {
    List<Object[]> out = new ArrayList<>();
    for (Relation r : m.relations()) {
      out.add(
          new Object[] {
            (long) r.id(),
            r.name(),
            CatalogIds.NS_PUBLIC,
            CatalogIds.ROLE_ROOT,
            String.valueOf(r.kind().relkind()),
            0L,
            (short) 0,
            false,
            false,
            false,
            false,
            false,
            false,
            null,
            0L,
            0L,
            "p",
            "d",
            0L,
            null,
            0,
            -1f,
            null,
            (short) r.visibleColumns().size(),
            0L,
            false
          });
    }
    return out;
  }

  private static List<Object[]> attributes(MetaClient m) {
    List<Object[]> out = new ArrayList<>();
    for (Relation r : m.relations()) {
      short n = 1;
      for (ColumnDesc c : r.visibleColumns()) {
        PgType t = PgType.of(c.type());
        boolean pk =
            r.table().pk().stream()
                .anyMatch(o -> r.table().columns().get(o.index()).name().equals(c.name()));
        out.add(
            new Object[] {
              (long) r.id(),
              c.name(),
              (long) t.oid(),
              PgType.typmod(c.type()),
              (short) t.typlen(),
              n++,
              pk,
              false,
              false,
              "",
              "",
              0L,
              "p",
              "",
              -1,
              0,
              null
            });
      }
    }
    return out;
  }

  private static List<Object[]> types() {
    List<Object[]> out = new ArrayList<>();
    for (PgType t : PgType.values()) {
      out.add(
          new Object[] {
            (long) t.oid(),
            t.name().toLowerCase(java.util.Locale.ROOT),
            CatalogIds.NS_PG_CATALOG,
            "b",
            false,
            0L,
            -1,
            0L,
            t.name().toLowerCase() + "in",
            (short) t.typlen(),
            0L,
            0L,
            CatalogIds.ROLE_ROOT,
            0L,
            ",",
            "U",
            null,
            null
          });
    }
    return out;
  }

  private static List<Object[]> relRows(MetaClient m, char kind, boolean mv) {
    List<Object[]> out = new ArrayList<>();
    for (Relation r : m.relations()) {
      if (r.kind().relkind() != kind) {
        continue;
      }
      out.add(
          mv
              ? new Object[] {
                "public",
                r.name(),
                "root",
                null,
                false,
                true,
                PgFunctions.pg_get_viewdef((long) r.id())
              }
              : new Object[] {"public", r.name(), "root", null, false, false, false, false});
    }
    return out;
  }
}
