/** Merge iterators over sorted sources and the MVCC view of a merged stream at an epoch. */
package dev.tideway.storage.iterator;
