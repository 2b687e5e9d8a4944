/**
 * The persisted metadata records and their versioned binary formats.
 *
 * <p>Every record stored in ZooKeeper is written by {@link
 * dev.tideway.protocol.catalog.TaggedWriter}: a record-kind byte, a format-version byte, then
 * fields as {@code (tag u16, length i32, bytes)}. Readers ({@link
 * dev.tideway.protocol.catalog.TaggedReader}) skip tags they do not know and give defaults for tags
 * that are absent, so a format changes only by adding tags; enums are stored as their fixed byte
 * codes. Golden files of each released format live in the meta service's test resources ({@code
 * golden/}) and {@code MetadataGoldenTest} reads them.
 *
 * <p>Invariant: a tag number, once used for a field of a record kind, is never reused for another
 * meaning. Each record lists its tags as {@code FIELD_*} constants.
 */
package dev.tideway.protocol.catalog;
