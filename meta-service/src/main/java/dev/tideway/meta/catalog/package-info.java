/**
 * The catalog and DDL handling: decided purely, persisted by a thin shell.
 *
 * <p>Flow: {@link dev.tideway.meta.catalog.DdlService#submit} (the shell, one owner thread) hands a
 * {@link dev.tideway.protocol.meta.DdlCommand} and the current {@link
 * dev.tideway.protocol.catalog.CatalogState} to {@link
 * dev.tideway.meta.catalog.CatalogCore#decide}, which returns a {@link
 * dev.tideway.meta.catalog.DdlDecision}: the {@link dev.tideway.meta.catalog.CatalogChange}s to
 * persist and the reply. The shell writes the changes in one fenced multi-op, then replays them
 * into its state ({@link dev.tideway.protocol.catalog.CatalogState#apply}); a new leader rebuilds
 * the same state with {@link dev.tideway.protocol.store.CatalogLoader#load}.
 *
 * <p>Invariant: the in-memory state only ever reflects changes that ZooKeeper accepted; a change is
 * applied after its commit returned, never before.
 */
package dev.tideway.meta.catalog;
