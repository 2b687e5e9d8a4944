package dev.tideway.compute.executor.source;

import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.random.RandomSource;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Field;
import dev.tideway.common.types.Schema;
import dev.tideway.compute.executor.source.NexmarkConfig.TableType;

/**
 * The Nexmark event generator, following nexmark-flink's rules (and so RisingWave's and Feldera's):
 * events come in epochs of 50 (offset 0 a person, 1–3 auctions, 4–49 bids), ids derive from the
 * event number, bids and auctions pick hot or recent persons and auctions with the standard ratios,
 * prices are log-uniform, {@code extra} pads each event to its average size.
 *
 * <p>Event {@code n} is a pure function of {@code (seed, n)}: its randomness comes from a {@link
 * RandomSource} seeded by the mix of both (as nexmark-flink seeds a {@code Random} by event id), so
 * any event can be regenerated alone, which sources rely on to resume at an offset.
 *
 * <p>Not thread-safe (it caches channel URLs): one per reader, confined to the reader's thread.
 */
public final class NexmarkGenerator {
  static final int PERSON_PROPORTION = 1;
  static final int AUCTION_PROPORTION = 3;
  static final int BID_PROPORTION = 46;
  static final int TOTAL_PROPORTION = PERSON_PROPORTION + AUCTION_PROPORTION + BID_PROPORTION;
  static final long FIRST_PERSON_ID = 1000;
  static final long FIRST_AUCTION_ID = 1000;
  static final long FIRST_CATEGORY_ID = 10;
  static final int NUM_CATEGORIES = 5;
  static final int PERSON_ID_LEAD = 10;
  static final int AUCTION_ID_LEAD = 10;
  static final int NUM_ACTIVE_PEOPLE = 1000;
  static final int NUM_IN_FLIGHT_AUCTIONS = 100;
  static final int HOT_AUCTION_RATIO = 2;
  static final int HOT_BIDDERS_RATIO = 4;
  static final int HOT_SELLERS_RATIO = 4;
  static final int HOT_CHANNELS_RATIO = 2;
  static final int HOT_RATIO_ROUND = 100;
  static final int AVG_PERSON_BYTES = 200;
  static final int AVG_AUCTION_BYTES = 500;
  static final int AVG_BID_BYTES = 100;
  static final int CHANNELS_NUMBER = 10_000;

  private static final String[] FIRST_NAMES = {
    "Peter", "Paul", "Luke", "John", "Saul", "Vicky", "Kate", "Julie", "Sarah", "Deiter", "Walter"
  };
  private static final String[] LAST_NAMES = {
    "Shultz", "Abrams", "Spencer", "White", "Bartels", "Walton", "Smith", "Jones", "Noris"
  };
  private static final String[] US_STATES = {"AZ", "CA", "ID", "OR", "WA", "WY"};
  private static final String[] US_CITIES = {
    "Phoenix",
    "Los Angeles",
    "San Francisco",
    "Boise",
    "Portland",
    "Bend",
    "Redmond",
    "Seattle",
    "Kent",
    "Cheyenne"
  };
  private static final String[] HOT_CHANNELS = {"Google", "Facebook", "Baidu", "Apple"};

  /** The padding {@code extra} values are cut from, generated once from the seed. */
  private static final int PAD_LENGTH = 1 << 16;

  private final NexmarkConfig config;
  private final String[] hotUrls = new String[HOT_CHANNELS.length];
  private final String pad;

  /** Channel URLs by channel number, filled on first use (each is a function of the seed). */
  private final String[] channelUrls = new String[CHANNELS_NUMBER];

  public NexmarkGenerator(NexmarkConfig config) {
    this.config = config;
    RandomSource r = RandomSource.seeded(Mix.of(config.seed(), -1));
    for (int i = 0; i < hotUrls.length; i++) {
      hotUrls[i] = baseUrl(r);
    }
    StringBuilder sb = new StringBuilder(PAD_LENGTH);
    for (int i = 0; i < PAD_LENGTH; i++) {
      sb.append((char) ('a' + r.nextInt(26)));
    }
    pad = sb.toString();
  }

  /** The columns of {@code type}'s rows, with RisingWave's names. */
  public static Schema schema(TableType type) {
    DataType big = DataType.BIGINT;
    DataType text = DataType.VARCHAR;
    DataType ts = DataType.TIMESTAMP;
    return switch (type) {
      case PERSON ->
          Schema.of(
              Field.of("id", big),
              Field.of("name", text),
              Field.of("email_address", text),
              Field.of("credit_card", text),
              Field.of("city", text),
              Field.of("state", text),
              Field.of("date_time", ts),
              Field.of("extra", text));
      case AUCTION ->
          Schema.of(
              Field.of("id", big),
              Field.of("item_name", text),
              Field.of("description", text),
              Field.of("initial_bid", big),
              Field.of("reserve", big),
              Field.of("date_time", ts),
              Field.of("expires", ts),
              Field.of("seller", big),
              Field.of("category", big),
              Field.of("extra", text));
      case BID ->
          Schema.of(
              Field.of("auction", big),
              Field.of("bidder", big),
              Field.of("price", big),
              Field.of("channel", text),
              Field.of("url", text),
              Field.of("date_time", ts),
              Field.of("extra", text));
    };
  }

  /** The kind of event number {@code n}. */
  public static TableType kindOf(long n) {
    long offset = n % TOTAL_PROPORTION;
    if (offset < PERSON_PROPORTION) {
      return TableType.PERSON;
    }
    return offset < PERSON_PROPORTION + AUCTION_PROPORTION ? TableType.AUCTION : TableType.BID;
  }

  /** Event time of event {@code n}, in microseconds since 1970 (millisecond precision). */
  public long eventTimeMicros(long n) {
    long rate = config.firstEventRate();
    long ms = config.baseTimeMs() + (n / rate) * 1000 + (n % rate) * 1000 / rate;
    return ms * 1000;
  }

  /** Appends event {@code n} (which must be of {@code kindOf(n)}) as a row to {@code b}. */
  public void append(long n, StreamChunkBuilder b) {
    RandomSource r = RandomSource.seeded(Mix.of(config.seed(), n));
    long time = eventTimeMicros(n);
    switch (kindOf(n)) {
      case PERSON -> person(n, r, time, b);
      case AUCTION -> auction(n, r, time, b);
      case BID -> bid(n, r, time, b);
    }
  }

  private void person(long n, RandomSource r, long time, StreamChunkBuilder b) {
    long id = lastBase0PersonId(n) + FIRST_PERSON_ID;
    String name =
        FIRST_NAMES[r.nextInt(FIRST_NAMES.length)] + " " + LAST_NAMES[r.nextInt(LAST_NAMES.length)];
    String email = string(r, 7) + "@" + string(r, 5) + ".com";
    String card =
        String.format(
            "%04d %04d %04d %04d",
            r.nextInt(10_000), r.nextInt(10_000), r.nextInt(10_000), r.nextInt(10_000));
    String city = US_CITIES[r.nextInt(US_CITIES.length)];
    String state = US_STATES[r.nextInt(US_STATES.length)];
    int size =
        8 + name.length() + email.length() + card.length() + city.length() + state.length() + 8;
    b.column(0).appendLong(id);
    b.column(1).append(name);
    b.column(2).append(email);
    b.column(3).append(card);
    b.column(4).append(city);
    b.column(5).append(state);
    b.column(6).appendLong(time);
    b.column(7).append(extra(r, size, AVG_PERSON_BYTES));
    b.appendOp(Op.INSERT);
  }

  private void auction(long n, RandomSource r, long time, StreamChunkBuilder b) {
    long id = lastBase0AuctionId(n) + FIRST_AUCTION_ID;
    long seller;
    if (r.nextInt(HOT_SELLERS_RATIO) > 0) {
      seller = (lastBase0PersonId(n) / HOT_RATIO_ROUND) * HOT_RATIO_ROUND;
    } else {
      seller = nextBase0PersonId(n, r);
    }
    seller += FIRST_PERSON_ID;
    long category = FIRST_CATEGORY_ID + r.nextInt(NUM_CATEGORIES);
    long initialBid = price(r);
    long expires = time + auctionLengthMs(n, r, time) * 1000;
    String itemName = string(r, 20);
    String description = string(r, 100);
    long reserve = initialBid + price(r);
    int size = 8 + itemName.length() + description.length() + 8 + 8 + 8 + 8 + 8 + 8;
    b.column(0).appendLong(id);
    b.column(1).append(itemName);
    b.column(2).append(description);
    b.column(3).appendLong(initialBid);
    b.column(4).appendLong(reserve);
    b.column(5).appendLong(time);
    b.column(6).appendLong(expires);
    b.column(7).appendLong(seller);
    b.column(8).appendLong(category);
    b.column(9).append(extra(r, size, AVG_AUCTION_BYTES));
    b.appendOp(Op.INSERT);
  }

  private void bid(long n, RandomSource r, long time, StreamChunkBuilder b) {
    long auction;
    if (r.nextInt(HOT_AUCTION_RATIO) > 0) {
      auction = (lastBase0AuctionId(n) / HOT_RATIO_ROUND) * HOT_RATIO_ROUND;
    } else {
      auction = nextBase0AuctionId(n, r);
    }
    auction += FIRST_AUCTION_ID;
    long bidder;
    if (r.nextInt(HOT_BIDDERS_RATIO) > 0) {
      bidder = (lastBase0PersonId(n) / HOT_RATIO_ROUND) * HOT_RATIO_ROUND + 1;
    } else {
      bidder = nextBase0PersonId(n, r);
    }
    bidder += FIRST_PERSON_ID;
    long price = price(r);
    String channel;
    String url;
    if (r.nextInt(HOT_CHANNELS_RATIO) > 0) {
      int i = r.nextInt(HOT_CHANNELS.length);
      channel = HOT_CHANNELS[i];
      url = hotUrls[i];
    } else {
      int k = r.nextInt(CHANNELS_NUMBER);
      channel = "channel-" + k;
      url = channelUrl(k);
    }
    int size = 8 + 8 + 8 + channel.length() + url.length() + 8;
    b.column(0).appendLong(auction);
    b.column(1).appendLong(bidder);
    b.column(2).appendLong(price);
    b.column(3).append(channel);
    b.column(4).append(url);
    b.column(5).appendLong(time);
    b.column(6).append(extra(r, size, AVG_BID_BYTES));
    b.appendOp(Op.INSERT);
  }

  /** The person id (0-based) most recently created at or before event {@code n}. */
  static long lastBase0PersonId(long n) {
    long epoch = n / TOTAL_PROPORTION;
    long offset = n % TOTAL_PROPORTION;
    if (offset >= PERSON_PROPORTION) {
      offset = PERSON_PROPORTION - 1;
    }
    return epoch * PERSON_PROPORTION + offset;
  }

  /** The auction id (0-based) most recently created at or before event {@code n}. */
  static long lastBase0AuctionId(long n) {
    long epoch = n / TOTAL_PROPORTION;
    long offset = n % TOTAL_PROPORTION;
    if (offset < PERSON_PROPORTION) {
      epoch--;
      offset = AUCTION_PROPORTION - 1;
    } else if (offset >= PERSON_PROPORTION + AUCTION_PROPORTION) {
      offset = AUCTION_PROPORTION - 1;
    } else {
      offset -= PERSON_PROPORTION;
    }
    return epoch * AUCTION_PROPORTION + offset;
  }

  /** A recent person: uniform over the last {@code NUM_ACTIVE_PEOPLE} plus a lead. */
  static long nextBase0PersonId(long n, RandomSource r) {
    long numPeople = lastBase0PersonId(n) + 1;
    long active = Math.min(numPeople, NUM_ACTIVE_PEOPLE);
    return numPeople - active + r.nextLong(active + PERSON_ID_LEAD);
  }

  /** A recent auction: uniform over the last {@code NUM_IN_FLIGHT_AUCTIONS} plus a lead. */
  static long nextBase0AuctionId(long n, RandomSource r) {
    long max = lastBase0AuctionId(n);
    long min = Math.max(max - NUM_IN_FLIGHT_AUCTIONS, 0);
    return min + r.nextLong(max - min + 1 + AUCTION_ID_LEAD);
  }

  /** Log-uniform in [100, 10^8]. */
  static long price(RandomSource r) {
    return Math.round(Math.pow(10.0, r.nextDouble() * 6.0) * 100.0);
  }

  /** 1 + uniform(0, 2 × horizon) ms, horizon = time until 100 more auctions exist. */
  private long auctionLengthMs(long n, RandomSource r, long timeMicros) {
    long eventsForAuctions = (long) NUM_IN_FLIGHT_AUCTIONS * TOTAL_PROPORTION / AUCTION_PROPORTION;
    long future = eventTimeMicros(n + eventsForAuctions);
    long horizonMs = (future - timeMicros) / 1000;
    return 1 + r.nextLong(Math.max(horizonMs * 2, 1));
  }

  /** The URL of channel {@code k}; 90% carry {@code &channel_id=<bit-reversed k>}. Cached. */
  private String channelUrl(int k) {
    String url = channelUrls[k];
    if (url == null) {
      RandomSource r = RandomSource.seeded(Mix.of(config.seed(), -2 - k));
      url = baseUrl(r);
      if (r.nextInt(10) > 0) {
        url += "&channel_id=" + Math.abs(Integer.reverse(k));
      }
      channelUrls[k] = url;
    }
    return url;
  }

  private static String baseUrl(RandomSource r) {
    return "https://www.nexmark.com/"
        + string(r, 5)
        + "/"
        + string(r, 5)
        + "/"
        + string(r, 5)
        + "/item.htm?query=1";
  }

  private static String string(RandomSource r, int maxLength) {
    int len = 3 + r.nextInt(Math.max(1, maxLength - 2));
    char[] c = new char[len];
    for (int i = 0; i < len; i++) {
      c[i] = r.nextInt(13) == 0 ? ' ' : (char) ('a' + r.nextInt(26));
    }
    return new String(c);
  }

  /** Padding so the event averages {@code average} bytes (±20%), or "" when already larger. */
  private String extra(RandomSource r, int currentSize, int average) {
    if (currentSize > average) {
      return "";
    }
    int desired = average - currentSize;
    int delta = (int) Math.round(desired * 0.2);
    int size = desired - delta + (delta == 0 ? 0 : r.nextInt(2 * delta));
    int from = r.nextInt(PAD_LENGTH - size);
    return pad.substring(from, from + size);
  }
}
