package dev.tideway.frontend.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** The worked SCRAM and MD5 exchanges captured from PostgreSQL 15 with psql, byte for byte. */
class ScramTest {
  private static final byte[] SALT = Base64.getDecoder().decode("xKtYN+CplJwd2cy6Pl4RTA==");

  @Test
  void reproducesPostgresServerSignatureForCapturedExchange() {
    Scram s = new Scram("scrampass", SALT, "yrrshohtirRjBvz2Toqmps+J");
    assertThat(s.serverFirst("n,,n=,r=AC4IAwicakmWmhlwb8kEdmVX"))
        .isEqualTo(
            "r=AC4IAwicakmWmhlwb8kEdmVXyrrshohtirRjBvz2Toqmps+J,s=xKtYN+CplJwd2cy6Pl4RTA==,i=4096");
    assertThat(
            s.serverFinal(
                "c=biws,r=AC4IAwicakmWmhlwb8kEdmVXyrrshohtirRjBvz2Toqmps+J,"
                    + "p=N36YzyptLRw5YSZ5sHChD7FVWBsor2EToYPgedYqamc="))
        .contains("v=7Y76xk2F0b25Vd27QIWyMjCPua63mmyJ7zUg8HJVEhg=");
  }

  @Test
  void wrongPasswordOrUnknownUserFailsAtTheProof() {
    for (String pw : new String[] {"other", null}) {
      Scram s = new Scram(pw, SALT, "yrrshohtirRjBvz2Toqmps+J");
      s.serverFirst("n,,n=,r=AC4IAwicakmWmhlwb8kEdmVX");
      assertThat(
              s.serverFinal(
                  "c=biws,r=AC4IAwicakmWmhlwb8kEdmVXyrrshohtirRjBvz2Toqmps+J,"
                      + "p=N36YzyptLRw5YSZ5sHChD7FVWBsor2EToYPgedYqamc="))
          .isEmpty();
    }
  }

  @Test
  void malformedMessagesAre08P01() {
    Scram s = new Scram("x", SALT, "abc");
    assertThatThrownBy(() -> s.serverFirst("p=tls-server-end-point,,n=,r=x"))
        .isInstanceOf(PgException.class)
        .satisfies(e -> assertThat(((PgException) e).sqlState()).isEqualTo("08P01"));
    assertThatThrownBy(() -> s.serverFinal("c=biws,r=x,p=AAAA")).isInstanceOf(PgException.class);
  }

  @Test
  void md5AnswerMatchesCapturedBytes() {
    byte[] salt = HexFormat.of().parseHex("398aa875");
    assertThat(PgAuthenticator.md5Answer("md5user", "md5pass", salt))
        .isEqualTo("md520906bd300c1007a6f99909b0f017c23");
  }

  @Test
  void numericBinaryMatchesPostgresBytes() {
    assertThat(HexFormat.of().formatHex(PgCodec.encodeNumeric(new BigDecimal("-12.3400"))))
        .isEqualTo("000200004000000400" + "0c0d48");
    assertThat(HexFormat.of().formatHex(PgCodec.encodeNumeric(new BigDecimal("123456789.000001"))))
        .isEqualTo("00050002000000060001092" + "91a85000000" + "64");
    assertThat(HexFormat.of().formatHex(PgCodec.encodeNumeric(BigDecimal.ZERO)))
        .isEqualTo("0000000000000000");
    for (String v : new String[] {"-12.3400", "1.50", "0", "123456789.000001", "12.345"}) {
      byte[] b = PgCodec.encodeNumeric(new BigDecimal(v));
      assertThat(PgCodec.decodeNumeric(ByteBuffer.wrap(b))).isEqualTo(new BigDecimal(v));
    }
  }
}
