package dev.tideway.common.vnode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class VnodeBitmapTest {
  @Test
  void splitCoversEveryVnodeOnceInContiguousNearlyEqualRanges() {
    for (int n = 1; n <= VirtualNode.COUNT; n++) {
      List<VnodeBitmap> parts = VnodeBitmap.split(n);
      assertThat(parts).hasSize(n);
      VnodeBitmap union = VnodeBitmap.EMPTY;
      int next = 0;
      int min = Integer.MAX_VALUE;
      int max = 0;
      for (VnodeBitmap p : parts) {
        assertThat(p.intersect(union).isEmpty()).as("split(%s) overlaps", n).isTrue();
        int[] vnodes = p.toArray();
        assertThat(vnodes[0]).as("split(%s) contiguous", n).isEqualTo(next);
        assertThat(vnodes[vnodes.length - 1]).isEqualTo(next + vnodes.length - 1);
        next += vnodes.length;
        min = Math.min(min, vnodes.length);
        max = Math.max(max, vnodes.length);
        union = union.union(p);
      }
      assertThat(union).isEqualTo(VnodeBitmap.ALL);
      assertThat(max - min).as("split(%s) sizes", n).isLessThanOrEqualTo(1);
    }
    assertThat(VnodeBitmap.split(3).get(0).toString()).isEqualTo("{0..85}");
    assertThatThrownBy(() -> VnodeBitmap.split(257)).hasMessageContaining("257 ways");
  }

  @Test
  void iterationBytesAndTextAgree() {
    VnodeBitmap b = VnodeBitmap.of(0, 1, 2, 63, 64, 200, 255);
    List<Integer> seen = new ArrayList<>();
    b.forEach(seen::add);
    assertThat(seen).containsExactly(0, 1, 2, 63, 64, 200, 255);
    assertThat(b.count()).isEqualTo(7);
    assertThat(b.next(3)).isEqualTo(63);
    assertThat(b.next(201)).isEqualTo(255);
    assertThat(VnodeBitmap.of(5).next(6)).isEqualTo(-1);
    assertThat(b.toString()).isEqualTo("{0..2, 63..64, 200, 255}");
    assertThat(VnodeBitmap.fromBytes(b.toBytes())).isEqualTo(b);
    assertThat(b.toBytes()[0]).isEqualTo((byte) 0b111);
    assertThat(b.minus(VnodeBitmap.range(0, 64))).isEqualTo(VnodeBitmap.of(64, 200, 255));
    assertThat(b.contains(200)).isTrue();
    assertThat(b.contains(199)).isFalse();
    assertThatThrownBy(() -> b.contains(256)).isInstanceOf(IndexOutOfBoundsException.class);
  }
}
