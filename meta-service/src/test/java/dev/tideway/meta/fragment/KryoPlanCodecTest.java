package dev.tideway.meta.fragment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.protocol.catalog.KryoPlanCodec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Fragment bodies stored in ZooKeeper decode to the very trees the fragmenter produced. */
class KryoPlanCodecTest {
  @Test
  void everyFragmentOfAJobRoundTrips() {
    KryoPlanCodec codec = KryoPlanCodec.create();
    List<StreamFragment> fs = Fragmenter.fragment(Plans.countByK(1, 2, 3), new IdAllocator(10));
    fs.addAll(Fragmenter.fragment(Plans.mvOnMv(3, 4, 5), new IdAllocator(20)));
    for (StreamFragment f : fs) {
      assertThat(codec.decode(codec.encode(f.root()))).isEqualTo(f.root());
    }
    assertThat(codec.name()).isEqualTo("kryo-v1");
  }
}
