/**
 * Virtual nodes: {@link dev.tideway.common.vnode.VirtualNode#COUNT} (256) hash buckets of the
 * distribution key. {@code vnode = CRC32C(memcomparable ASC NULLS FIRST encoding of the
 * distribution key columns) mod 256} ({@link dev.tideway.common.vnode.VnodeHasher}, per row or a
 * whole chunk at once). Each actor of a fragment owns a {@link
 * dev.tideway.common.vnode.VnodeBitmap}; {@link dev.tideway.common.vnode.VnodeBitmap#split} divides
 * the 256 vnodes evenly into contiguous ranges.
 *
 * <p>The vnode is part of every storage key, so the hash is persisted behaviour: {@link
 * dev.tideway.common.vnode.VirtualNode#HASH_VERSION} names it and a golden test pins fixed inputs
 * to fixed vnodes. Since SQL-equal values encode to equal bytes, SQL-equal keys share a vnode.
 */
package dev.tideway.common.vnode;
