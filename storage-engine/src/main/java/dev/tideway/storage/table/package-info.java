/**
 * StateTable: typed rows of one executor over a LocalStateStore, with pluggable memcomparable pk,
 * value and vnode codecs.
 */
package dev.tideway.storage.table;
