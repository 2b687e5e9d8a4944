/**
 * The barrier protocol, both ends, as pure logic: epochs and messages, the executor contract and
 * its checks, barrier alignment, the compute-side local barrier manager, the meta-side global
 * barrier core and create-MV progress. No Pekko, Curator or Parquet: every side effect sits behind
 * an interface that a test or the seeded simulation scripts.
 */
package dev.tideway.barrier;
