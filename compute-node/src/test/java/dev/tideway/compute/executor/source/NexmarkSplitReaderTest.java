package dev.tideway.compute.executor.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.row.Row;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NexmarkSplitReaderTest {
  static NexmarkConfig config(String type, long events, int splits) {
    return NexmarkConfig.parse(
        Map.of(
            "nexmark.table.type", type,
            "nexmark.event.num", Long.toString(events),
            "nexmark.split.num", Integer.toString(splits)));
  }

  /** Every row of every split, read to exhaustion in chunks of {@code chunk} rows. */
  static List<Row> readAll(NexmarkConfig c, int chunk) {
    List<Row> out = new ArrayList<>();
    for (SplitReader r : NexmarkSplitReader.allSplits(c)) {
      long offset = 0;
      while (!r.isExhausted(offset)) {
        SplitReader.Batch b = r.read(offset, chunk);
        assertThat(b.nextOffset()).isGreaterThan(offset);
        offset = b.nextOffset();
        for (StreamChunk.OpRow row : b.chunk().visibleRows()) {
          out.add(row.row());
        }
      }
    }
    return out;
  }

  @Test
  void eventsFollowTheOneThreeFortySixProportions() {
    assertThat(readAll(config("Person", 5000, 1), 64)).hasSize(100);
    assertThat(readAll(config("Auction", 5000, 1), 64)).hasSize(300);
    assertThat(readAll(config("bid", 5000, 1), 64)).hasSize(4600);
  }

  @Test
  void idsDeriveFromTheEventNumber() {
    List<Row> people = readAll(config("Person", 500, 1), 100);
    assertThat(people.stream().map(r -> (Long) r.get(0)).toList())
        .isEqualTo(java.util.stream.LongStream.range(1000, 1010).boxed().toList());
    List<Row> auctions = readAll(config("Auction", 500, 1), 100);
    assertThat(auctions.stream().map(r -> (Long) r.get(0)).toList())
        .isEqualTo(java.util.stream.LongStream.range(1000, 1030).boxed().toList());
    for (Row a : auctions) {
      assertThat((Long) a.get(8)).isBetween(10L, 14L); // category
      assertThat((Long) a.get(4)).isGreaterThan((Long) a.get(3)); // reserve > initial bid
      assertThat((LocalDateTime) a.get(6)).isAfter((LocalDateTime) a.get(5)); // expires later
      assertThat((Long) a.get(7)).isBetween(1000L, 1000L + 10 + 10); // seller among people so far
    }
  }

  @Test
  void bidsGoToRecentAuctionsAndPeopleWithLogUniformPrices() {
    List<Row> bids = readAll(config("Bid", 20_000, 1), 500);
    long hot = 0;
    for (Row b : bids) {
      long auction = (Long) b.get(0);
      assertThat(auction).isBetween(1000L, 1000L + 1200 + 10);
      assertThat((Long) b.get(1)).isBetween(1000L, 1000L + 1000 + 10 + 1);
      assertThat((Long) b.get(2)).isBetween(100L, 100_000_000L);
      String channel = (String) b.get(3);
      if (List.of("Google", "Facebook", "Baidu", "Apple").contains(channel)) {
        hot++;
      } else {
        assertThat(channel).startsWith("channel-");
      }
      assertThat((String) b.get(4)).startsWith("https://www.nexmark.com/");
    }
    assertThat((double) hot / bids.size()).isBetween(0.45, 0.55);
    double avgExtraAndUrl =
        bids.stream()
            .mapToInt(b -> ((String) b.get(6)).length() + ((String) b.get(4)).length())
            .average()
            .orElse(0);
    assertThat(avgExtraAndUrl).isGreaterThan(40); // padded toward 100 bytes per bid
  }

  @Test
  void splitsPartitionTheEventsAndEveryEventIsDeterministic() {
    Map<Row, Long> one = counts(readAll(config("Bid", 10_000, 1), 333));
    Map<Row, Long> three = counts(readAll(config("Bid", 10_000, 3), 97));
    assertThat(three).isEqualTo(one);
    assertThat(one.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(9200);
  }

  static Map<Row, Long> counts(List<Row> rows) {
    Map<Row, Long> out = new java.util.HashMap<>();
    rows.forEach(r -> out.merge(r, 1L, Long::sum));
    return out;
  }

  @Test
  void anOffsetReadsTheSameRowsEveryTime() {
    NexmarkSplitReader r = new NexmarkSplitReader(config("Bid", -1, 2), 1);
    SplitReader.Batch a = r.read(12_345, 50);
    SplitReader.Batch b = new NexmarkSplitReader(config("Bid", -1, 2), 1).read(12_345, 50);
    assertThat(b.chunk()).isEqualTo(a.chunk());
    assertThat(b.nextOffset()).isEqualTo(a.nextOffset());
    assertThat(r.isExhausted(Long.MAX_VALUE / 4)).isFalse();
  }
}
