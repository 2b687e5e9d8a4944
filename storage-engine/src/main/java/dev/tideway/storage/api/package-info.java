/**
 * The public surface of the state store: {@link dev.tideway.storage.api.StateStores} opens a {@link
 * dev.tideway.storage.api.Storage}; compute nodes write through {@link
 * dev.tideway.storage.api.LocalStateStore} and {@link dev.tideway.storage.api.StateStore#sync},
 * meta commits through {@link dev.tideway.storage.api.VersionService#commitEpoch}. Key layout in
 * {@link dev.tideway.storage.api.Keys}, epochs in {@link dev.tideway.storage.api.Epochs}. Other
 * modules use only this package, {@code table} and {@code version}.
 */
package dev.tideway.storage.api;
