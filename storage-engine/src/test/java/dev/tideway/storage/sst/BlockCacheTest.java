package dev.tideway.storage.sst;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BlockCacheTest {
  @Test
  void blocksOfManySstsSpreadOverDistinctHashes() {
    // 60 SSTs of 5000 pages each, as a node with a large join state holds; the record's default
    // hash gave these 300000 blocks 6829 distinct hashes
    Set<Integer> hashes = new HashSet<>();
    int keys = 0;
    for (long sst = 1; sst <= 60; sst++) {
      for (int block = 0; block < 5000; block++) {
        hashes.add(BlockCache.hash(sst, block));
        keys++;
      }
    }
    assertThat(hashes.size()).isGreaterThan(keys - keys / 1000);
  }

  @Test
  void aCachedBlockIsServedWithoutLoadingItAgainAndAnInvalidatedOneIsLoaded() throws Exception {
    BlockCache cache = new BlockCache(1L << 20);
    int[] loads = {0};
    BlockCache.Loader loader =
        () -> {
          loads[0]++;
          Block.Builder b = new Block.Builder(1);
          b.add(new byte[] {1}, 0, 1, 1L, false, new byte[] {2}, 0, 1);
          return b.build();
        };
    for (long sst = 1; sst <= 40; sst++) {
      for (int block = 0; block < 50; block++) {
        cache.get(sst, block, loader);
      }
    }
    int first = loads[0];
    for (long sst = 1; sst <= 40; sst++) {
      for (int block = 0; block < 50; block++) {
        cache.get(sst, block, loader);
      }
    }
    assertThat(loads[0]).as("second pass over 2000 cached blocks").isEqualTo(first);
    cache.invalidate(7);
    cache.get(7, 3, loader);
    assertThat(loads[0]).isEqualTo(first + 1);
  }
}
