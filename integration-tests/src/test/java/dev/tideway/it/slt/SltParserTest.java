package dev.tideway.it.slt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.it.slt.SltRecord.Location;
import dev.tideway.it.slt.SltRecord.SortMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SltParserTest {
  private static List<SltRecord> parse(String text) {
    return SltParser.parse("t.slt", text, Optional.empty());
  }

  @Test
  void statementsQueriesAndControlRecordsWithTheirLines() {
    List<SltRecord> r =
        parse(
            """
            # a comment
            statement ok
            CREATE TABLE t (a INT,
              b VARCHAR);

            statement count 2
            INSERT INTO t VALUES (1, 'x'), (2, 'y')

            flush

            query IT rowsort
            SELECT a, b FROM t
            ----
            1 x
            2  y

            sleep 250ms

            control sortmode valuesort

            halt
            """);
    assertThat(r)
        .containsExactly(
            new SltRecord.Statement(
                new Location("t.slt", 2),
                "CREATE TABLE t (a INT,\n  b VARCHAR)",
                new SltRecord.Ok(OptionalLong.empty())),
            new SltRecord.Statement(
                new Location("t.slt", 6),
                "INSERT INTO t VALUES (1, 'x'), (2, 'y')",
                new SltRecord.Ok(OptionalLong.of(2))),
            new SltRecord.Flush(new Location("t.slt", 9)),
            new SltRecord.Query(
                new Location("t.slt", 11),
                "IT",
                Optional.of(SortMode.ROWSORT),
                "SELECT a, b FROM t",
                List.of("1 x", "2  y"),
                new SltRecord.Ok(OptionalLong.empty()),
                0,
                0),
            new SltRecord.Sleep(new Location("t.slt", 17), 250),
            new SltRecord.SortModeControl(new Location("t.slt", 19), SortMode.VALUESORT),
            new SltRecord.Halt(new Location("t.slt", 21)));
  }

  @Test
  void errorsWithRegexOrExpectedTextBlock() {
    List<SltRecord> r =
        parse(
            """
            statement error relation "nosuch" does not exist
            SELECT * FROM nosuch

            statement error
            CREATE VIEW v AS SELECT 1
            ----
            CREATE VIEW is not supported

            query error SQLSTATE 42601
            SELEC 1
            """);
    SltRecord.Statement s0 = (SltRecord.Statement) r.get(0);
    SltRecord.Error e0 = (SltRecord.Error) s0.expect();
    assertThat(e0.pattern().orElseThrow().pattern())
        .isEqualTo("relation \"nosuch\" does not exist");
    assertThat(e0.text()).isEmpty();
    SltRecord.Error e1 = (SltRecord.Error) ((SltRecord.Statement) r.get(1)).expect();
    assertThat(e1.pattern()).isEmpty();
    assertThat(e1.text()).contains("CREATE VIEW is not supported");
    SltRecord.Query q = (SltRecord.Query) r.get(2);
    assertThat(q.location().line()).isEqualTo(9);
    assertThat(((SltRecord.Error) q.expect()).pattern().orElseThrow().pattern())
        .isEqualTo("SQLSTATE 42601");
  }

  @Test
  void queryWithoutResultBlockExpectsNoRowsAndRetryIsParsed() {
    SltRecord.Query q =
        (SltRecord.Query)
            parse("query I nosort mylabel retry 3 backoff 1.5s\nSELECT 1 WHERE false\n").get(0);
    assertThat(q.expected()).isEmpty();
    assertThat(q.sortMode()).contains(SortMode.NOSORT);
    assertThat(q.retries()).isEqualTo(3);
    assertThat(q.backoffMillis()).isEqualTo(1500);
  }

  @Test
  void skipifAndOnlyifSelectRecordsByEngine() {
    List<SltRecord> r =
        parse(
            """
            skipif tideway
            statement ok
            SELECT 'skipped'

            onlyif postgres
            statement ok
            SELECT 'also skipped'

            onlyif tideway
            statement ok
            SELECT 'kept'

            skipif postgres
            statement ok
            SELECT 'kept too'
            """);
    assertThat(r)
        .extracting(x -> ((SltRecord.Statement) x).sql())
        .containsExactly("SELECT 'kept'", "SELECT 'kept too'");
  }

  @Test
  void includeExpandsGlobsRelativeToTheFileKeepingIncludedLocations(@TempDir Path dir)
      throws Exception {
    Files.createDirectories(dir.resolve("inc"));
    Files.writeString(dir.resolve("inc/a.slt"), "statement ok\nSELECT 'a'\n");
    Files.writeString(dir.resolve("inc/b.slt"), "\n\nstatement ok\nSELECT 'b'\n");
    Files.writeString(dir.resolve("main.slt"), "include inc/*.slt\n\nstatement ok\nSELECT 'm'\n");
    List<SltRecord> r = SltParser.parseFile(dir.resolve("main.slt"));
    assertThat(r)
        .extracting(x -> x.location().toString().replace(dir.toString(), "D"))
        .containsExactly("D/inc/a.slt:1", "D/inc/b.slt:3", "D/main.slt:3");
    Files.writeString(dir.resolve("loop.slt"), "include loop.slt\n");
    assertThatThrownBy(() -> SltParser.parseFile(dir.resolve("loop.slt")))
        .hasMessageContaining("nested more than 16 deep");
    Files.writeString(dir.resolve("none.slt"), "include nothing/*.slt\n");
    assertThatThrownBy(() -> SltParser.parseFile(dir.resolve("none.slt")))
        .hasMessageContaining("none.slt:1");
  }

  @Test
  void malformedFilesNameFileAndLine() {
    assertThatThrownBy(() -> parse("statement ok\nSELECT 1\n\nfrobnicate now\n"))
        .isInstanceOf(SltParser.SltParseException.class)
        .hasMessage("t.slt:4: unknown record type \"frobnicate\" in: frobnicate now");
    assertThatThrownBy(() -> parse("statement maybe\nSELECT 1\n"))
        .hasMessageStartingWith("t.slt:1: statement needs ok, error or count");
    assertThatThrownBy(() -> parse("statement ok\n\n"))
        .hasMessageStartingWith("t.slt:2: record without SQL");
    assertThatThrownBy(() -> parse("query 1\nSELECT 1\n"))
        .hasMessageContaining("column types must be letters");
    assertThatThrownBy(() -> parse("sleep soon\n")).hasMessageContaining("bad duration soon");
    assertThatThrownBy(() -> parse("statement error (unclosed\nSELECT 1\n"))
        .hasMessageContaining("bad error regex");
    assertThatThrownBy(() -> parse("statement ok\nSELECT 1\n----\n1\n"))
        .hasMessageContaining("statement ok with a ---- block");
  }
}
