package dev.tideway.protocol.catalog;

import dev.tideway.common.check.Checks;
import dev.tideway.common.plan.ColumnDesc;
import dev.tideway.common.types.DataType;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One catalog entry, persisted at {@code catalog/objects/<id>}.
 *
 * @param id the catalog id, {@code > 0}; for tables, MVs and internal tables also the storage table
 *     id
 * @param kind what it is
 * @param name the name, unique per (parent, kind family)
 * @param parentId the schema of a relation, the database of a schema, 0 for a database
 * @param jobId the streaming job that created it (0 for databases and schemas); internal tables
 *     belong to the job of their operator
 * @param definition the SQL text that created it (empty for internal tables)
 * @param columns the stored columns (empty for databases and schemas)
 * @param pk the primary key column indices
 * @param properties connector options of a source ({@code WITH (...)}); empty otherwise
 * @param distributionKey the columns hashed to vnodes (tables, MVs, internal tables); empty when
 *     unknown or singleton
 * @param dependsOn relations this one reads besides those wired in its fragment graph (the
 *     catalog-only sources an MV's plan embeds); a relation in another's list cannot be dropped
 */
public record CatalogObject(
    int id,
    ObjectKind kind,
    String name,
    int parentId,
    int jobId,
    String definition,
    List<ColumnDesc> columns,
    List<Integer> pk,
    Map<String, String> properties,
    List<Integer> distributionKey,
    List<Integer> dependsOn) {
  public static final int FORMAT_VERSION = 1;
  static final int FIELD_ID = 1;
  static final int FIELD_KIND = 2;
  static final int FIELD_NAME = 3;
  static final int FIELD_PARENT_ID = 4;
  static final int FIELD_JOB_ID = 5;
  static final int FIELD_DEFINITION = 6;
  static final int FIELD_COLUMN = 7;
  static final int FIELD_PK = 8;
  static final int FIELD_PROPERTY = 9;
  static final int FIELD_DISTRIBUTION_KEY = 10;
  static final int FIELD_DEPENDS_ON = 11;
  static final int PROPERTY_KEY = 1;
  static final int PROPERTY_VALUE = 2;
  static final int COLUMN_ID = 1;
  static final int COLUMN_NAME = 2;
  static final int COLUMN_TYPE = 3;

  public CatalogObject {
    Checks.checkArgument(id > 0, "catalog id must be > 0, got %s ('%s')", id, name);
    Checks.checkNotNull(kind, "kind of catalog object " + id);
    Checks.checkNotNull(name, "name of catalog object " + id);
    Checks.checkNotNull(definition, "definition of catalog object " + id);
    columns = List.copyOf(columns);
    pk = List.copyOf(pk);
    properties = Collections.unmodifiableMap(new TreeMap<>(properties));
    distributionKey = List.copyOf(distributionKey);
    dependsOn = List.copyOf(dependsOn);
    for (int k : pk) {
      Checks.checkArgument(
          k >= 0 && k < columns.size(),
          "catalog object %s: pk column %s out of [0, %s)",
          id,
          k,
          columns.size());
    }
  }

  /** An object without properties, distribution key or extra dependencies (format v1 fields). */
  public CatalogObject(
      int id,
      ObjectKind kind,
      String name,
      int parentId,
      int jobId,
      String definition,
      List<ColumnDesc> columns,
      List<Integer> pk) {
    this(id, kind, name, parentId, jobId, definition, columns, pk, Map.of(), List.of(), List.of());
  }

  /** Whether this is a source without a streaming job ({@code CREATE SOURCE}: catalog only). */
  public boolean catalogOnly() {
    return (kind == ObjectKind.SOURCE && jobId == 0) || kind == ObjectKind.USER;
  }

  public CatalogObject withDistributionKey(List<Integer> key) {
    return new CatalogObject(
        id, kind, name, parentId, jobId, definition, columns, pk, properties, key, dependsOn);
  }

  public CatalogObject withProperties(Map<String, String> props) {
    return new CatalogObject(
        id,
        kind,
        name,
        parentId,
        jobId,
        definition,
        columns,
        pk,
        props,
        distributionKey,
        dependsOn);
  }

  public CatalogObject withDependsOn(List<Integer> ids) {
    return new CatalogObject(
        id, kind, name, parentId, jobId, definition, columns, pk, properties, distributionKey, ids);
  }

  /** Absent fields are not written, so a record without them keeps its v1 bytes. */
  public byte[] encode() {
    TaggedWriter w =
        TaggedWriter.record(RecordKind.CATALOG_OBJECT, FORMAT_VERSION)
            .putInt(FIELD_ID, id)
            .putByte(FIELD_KIND, kind.code())
            .putString(FIELD_NAME, name)
            .putInt(FIELD_PARENT_ID, parentId)
            .putInt(FIELD_JOB_ID, jobId)
            .putString(FIELD_DEFINITION, definition);
    for (ColumnDesc c : columns) {
      w.putNested(
          FIELD_COLUMN,
          TaggedWriter.nested()
              .putInt(COLUMN_ID, c.columnId())
              .putString(COLUMN_NAME, c.name())
              .putString(COLUMN_TYPE, c.type().sqlName()));
    }
    for (int k : pk) {
      w.putInt(FIELD_PK, k);
    }
    properties.forEach(
        (k, v) ->
            w.putNested(
                FIELD_PROPERTY,
                TaggedWriter.nested().putString(PROPERTY_KEY, k).putString(PROPERTY_VALUE, v)));
    for (int k : distributionKey) {
      w.putInt(FIELD_DISTRIBUTION_KEY, k);
    }
    for (int d : dependsOn) {
      w.putInt(FIELD_DEPENDS_ON, d);
    }
    return w.toBytes();
  }

  public static CatalogObject decode(byte[] data) {
    TaggedReader r = TaggedReader.record(data, RecordKind.CATALOG_OBJECT, FORMAT_VERSION);
    List<ColumnDesc> cols =
        r.nestedAll(FIELD_COLUMN).stream()
            .map(
                c ->
                    new ColumnDesc(
                        c.requireInt(COLUMN_ID),
                        c.requireString(COLUMN_NAME),
                        DataType.parse(c.requireString(COLUMN_TYPE))))
            .toList();
    Map<String, String> props = new TreeMap<>();
    for (TaggedReader p : r.nestedAll(FIELD_PROPERTY)) {
      props.put(p.requireString(PROPERTY_KEY), p.getString(PROPERTY_VALUE, ""));
    }
    return new CatalogObject(
        r.requireInt(FIELD_ID),
        ObjectKind.fromCode(r.requireByte(FIELD_KIND)),
        r.requireString(FIELD_NAME),
        r.getInt(FIELD_PARENT_ID, 0),
        r.getInt(FIELD_JOB_ID, 0),
        r.getString(FIELD_DEFINITION, ""),
        cols,
        r.longs(FIELD_PK).stream().map(Math::toIntExact).toList(),
        props,
        r.longs(FIELD_DISTRIBUTION_KEY).stream().map(Math::toIntExact).toList(),
        r.longs(FIELD_DEPENDS_ON).stream().map(Math::toIntExact).toList());
  }
}
