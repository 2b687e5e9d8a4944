package dev.tideway.compute.executor.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.chunk.LongVector;
import dev.tideway.common.types.DataType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A source relation's hidden {@code _row_id} key: every row of every split gets an id no other row
 * has, whatever the batch sizes, and a read again from the same offset (recovery) gives the same
 * rows the same ids.
 */
class RowIdSplitReaderTest {
  @Test
  void everyRowOfEverySplitGetsADistinctIdAndTheConnectorColumnsStay() {
    NexmarkConfig c = NexmarkSplitReaderTest.config("Bid", 5_000, 3);
    List<SplitReader> all = NexmarkSplitReader.allSplits(c);
    Set<Long> ids = new HashSet<>();
    int rows = 0;
    int[] chunkSizes = {1, 7, 100, 1024};
    for (int k = 0; k < all.size(); k++) {
      SplitReader r = new RowIdSplitReader(all.get(k), k, "_row_id");
      assertThat(r.schema().types().subList(0, 7)).isEqualTo(all.get(k).schema().types());
      assertThat(r.schema().type(7)).isEqualTo(DataType.BIGINT);
      long offset = 0;
      for (int i = 0; !r.isExhausted(offset); i++) {
        SplitReader.Batch b = r.read(offset, chunkSizes[i % chunkSizes.length]);
        LongVector id = (LongVector) b.chunk().column(7);
        for (int row = 0; row < b.chunk().size(); row++) {
          assertThat(ids.add(id.getLong(row))).as("id %s repeats", id.getLong(row)).isTrue();
          rows++;
        }
        offset = b.nextOffset();
      }
    }
    assertThat(rows).isEqualTo(5_000 / 50 * 46);
  }

  @Test
  void aReadAgainFromTheSameOffsetGivesTheSameIds() {
    SplitReader r =
        new RowIdSplitReader(
            NexmarkSplitReader.allSplits(NexmarkSplitReaderTest.config("Bid", 1_000, 2)).get(1),
            1,
            "_row_id");
    List<Long> first = new ArrayList<>();
    List<Long> again = new ArrayList<>();
    SplitReader.Batch a = r.read(100, 50);
    SplitReader.Batch b = r.read(100, 50);
    for (int i = 0; i < a.chunk().size(); i++) {
      first.add(((LongVector) a.chunk().column(7)).getLong(i));
      again.add(((LongVector) b.chunk().column(7)).getLong(i));
    }
    assertThat(first).hasSize(50).isEqualTo(again);
    assertThat(first.get(0) >>> RowIdSplitReader.OFFSET_BITS).isEqualTo(1);
  }
}
