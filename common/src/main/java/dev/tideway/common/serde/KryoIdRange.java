package dev.tideway.common.serde;

/**
 * The Kryo class id ranges, one per module: the single table of who owns which ids. A module's
 * {@link KryoRegistrar} declares its range and may only use ids inside it; {@link TidewayKryo}
 * refuses to start when two registrars claim the same range or an id falls outside its range.
 *
 * <pre>
 *   0..9     Kryo built-ins (int/Integer, String, float, boolean, byte, char, short, long, double, void)
 *  10..99    never used (Kryo's auto-assigned ids would land here)
 * 100..199   COMMON_CORE     JDK values, collections, types, rows, chunks, ActorRef
 * 200..299   COMMON_PLAN     stream plan records
 * 300..399   BARRIER         epochs, barriers, mutations, progress
 * 400..499   STORAGE_ENGINE  SST infos, version deltas, table stats
 * 500..599   BACKFILL
 * 600..699   COMPUTE_NODE    exchange, actor control
 * 700..799   META_SERVICE
 * 800..899   FRONTEND
 * 900..999   TESTS           test-only classes; never registered in production
 * 1000..1099 PROTOCOL        the protocol module: meta ↔ compute and frontend ↔ meta requests and
 *                            answers, meta DDL commands
 * </pre>
 *
 * Ids are never reused or renumbered: a removed class leaves its id retired (note it in the
 * registrar's table). Add a range at the end for a new module.
 */
public enum KryoIdRange {
  COMMON_CORE(100, 199),
  COMMON_PLAN(200, 299),
  BARRIER(300, 399),
  STORAGE_ENGINE(400, 499),
  BACKFILL(500, 599),
  COMPUTE_NODE(600, 699),
  META_SERVICE(700, 799),
  FRONTEND(800, 899),
  TESTS(900, 999),
  PROTOCOL(1000, 1099);

  private final int first;
  private final int last;

  KryoIdRange(int first, int last) {
    this.first = first;
    this.last = last;
  }

  public int first() {
    return first;
  }

  public int last() {
    return last;
  }

  public boolean contains(int id) {
    return id >= first && id <= last;
  }

  @Override
  public String toString() {
    return name() + " " + first + ".." + last;
  }
}
