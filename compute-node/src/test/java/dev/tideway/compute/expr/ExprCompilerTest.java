package dev.tideway.compute.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.common.chunk.Chunks;
import dev.tideway.common.chunk.ColumnVector;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.plan.ExprNode;
import dev.tideway.common.plan.FunctionKind;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Interval;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExprCompilerTest {
  static ExprNode ref(int i, DataType t) {
    return new ExprNode.InputRef(i, t);
  }

  static ExprNode lit(Object v, DataType t) {
    return new ExprNode.Literal(v, t);
  }

  static ExprNode call(FunctionKind k, DataType rt, ExprNode... args) {
    return ExprNode.FunctionCall.of(k, rt, args);
  }

  /** Evaluates {@code node} over the visible rows of the chunk; hidden rows give "hidden". */
  static List<Object> eval(String chunk, ExprNode node) {
    StreamChunk c = Chunks.parse(chunk);
    ColumnVector v = ExprCompiler.compile(node, c.types()).eval(c);
    assertThat(v.size()).isEqualTo(c.size());
    assertThat(v.type()).isEqualTo(node.returnType());
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < c.size(); i++) {
      out.add(c.isVisible(i) ? v.get(i) : "hidden");
    }
    return out;
  }

  @Test
  void integerArithmeticPropagatesNullsAndChecksOverflow() {
    String chunk =
        """
          int int
        + 1   2
        + .   3
        + 2147483647 .
        """;
    ExprNode add = call(FunctionKind.ADD, DataType.INT, ref(0, DataType.INT), ref(1, DataType.INT));
    assertThat(eval(chunk, add)).containsExactly(3, null, null);

    String over =
        """
          int int
        + 2147483647 1
        """;
    assertThatThrownBy(() -> eval(over, add))
        .isInstanceOf(ExprException.class)
        .hasMessageContaining("integer out of range")
        .hasMessageContaining("ADD(2147483647::integer, 1::integer)")
        .extracting(e -> ((ExprException) e).sqlState())
        .isEqualTo("22003");

    ExprNode mul =
        call(
            FunctionKind.MULTIPLY,
            DataType.BIGINT,
            ref(0, DataType.BIGINT),
            lit(2L, DataType.BIGINT));
    assertThat(eval("+ 4611686018427387903\n+ -4611686018427387904", mul))
        .containsExactly(9223372036854775806L, Long.MIN_VALUE);
    assertThatThrownBy(() -> eval("+ 4611686018427387904", mul))
        .hasMessageContaining("bigint out of range");
  }

  @Test
  void mixedOperandsAreCastToTheResultType() {
    ExprNode e =
        call(FunctionKind.ADD, DataType.DOUBLE, ref(0, DataType.INT), ref(1, DataType.DOUBLE));
    assertThat(eval("int double\n+ 1 0.5", e)).containsExactly(1.5);
    ExprNode d =
        call(
            FunctionKind.MULTIPLY,
            DataType.DECIMAL,
            lit(new BigDecimal("0.908"), DataType.DECIMAL),
            ref(0, DataType.BIGINT));
    assertThat(eval("+ 1000\n+ .", d)).containsExactly(new BigDecimal("908.000"), null);
  }

  @Test
  void divisionByZeroFailsOnlyForVisibleRows() {
    ExprNode div =
        call(
            FunctionKind.DIVIDE, DataType.BIGINT, ref(0, DataType.BIGINT), ref(1, DataType.BIGINT));
    assertThat(eval("+ 7 2\n+ -7 2\n+ 1 0 D", div)).containsExactly(3L, -3L, "hidden");
    assertThatThrownBy(() -> eval("+ 7 0", div))
        .isInstanceOf(ExprException.class)
        .hasMessage("division by zero: DIVIDE(7::bigint, 0::bigint)");
    ExprNode fdiv =
        call(
            FunctionKind.DIVIDE, DataType.DOUBLE, ref(0, DataType.DOUBLE), ref(1, DataType.DOUBLE));
    assertThatThrownBy(() -> eval("+ 1.5 0.0", fdiv)).hasMessageContaining("division by zero");
    ExprNode mod =
        call(
            FunctionKind.MODULUS,
            DataType.BIGINT,
            ref(0, DataType.BIGINT),
            lit(123L, DataType.BIGINT));
    assertThat(eval("+ 246\n+ 250\n+ -5", mod)).containsExactly(0L, 4L, -5L);
  }

  @Test
  void andOrFollowThreeValuedLogic() {
    String truth =
        """
          boolean boolean
        + t t
        + t f
        + t .
        + f f
        + f .
        + . .
        """;
    ExprNode a = ref(0, DataType.BOOLEAN);
    ExprNode b = ref(1, DataType.BOOLEAN);
    assertThat(eval(truth, call(FunctionKind.AND, DataType.BOOLEAN, a, b)))
        .containsExactly(true, false, null, false, false, null);
    assertThat(eval(truth, call(FunctionKind.OR, DataType.BOOLEAN, a, b)))
        .containsExactly(true, true, true, false, null, null);
    assertThat(eval(truth, call(FunctionKind.NOT, DataType.BOOLEAN, b)))
        .containsExactly(false, true, null, true, null, null);
    assertThat(eval(truth, call(FunctionKind.IS_NULL, DataType.BOOLEAN, b)))
        .containsExactly(false, false, true, false, true, true);
    assertThat(eval(truth, call(FunctionKind.IS_NOT_NULL, DataType.BOOLEAN, b)))
        .containsExactly(true, true, false, true, false, false);
    assertThat(eval(truth, call(FunctionKind.IS_TRUE, DataType.BOOLEAN, b)))
        .containsExactly(true, false, false, false, false, false);
    assertThat(eval(truth, call(FunctionKind.IS_FALSE, DataType.BOOLEAN, b)))
        .containsExactly(false, true, false, true, false, false);
  }

  @Test
  void andSkipsRowsAlreadyDecidedSoGuardsWork() {
    // x <> 0 AND 10 / x > 1
    ExprNode x = ref(0, DataType.BIGINT);
    ExprNode guard =
        call(
            FunctionKind.AND,
            DataType.BOOLEAN,
            call(FunctionKind.NOT_EQUAL, DataType.BOOLEAN, x, lit(0L, DataType.BIGINT)),
            call(
                FunctionKind.GREATER_THAN,
                DataType.BOOLEAN,
                call(FunctionKind.DIVIDE, DataType.BIGINT, lit(10L, DataType.BIGINT), x),
                lit(1L, DataType.BIGINT)));
    assertThat(eval("+ 0\n+ 5\n+ 20\n+ .", guard)).containsExactly(false, true, false, null);
  }

  @Test
  void comparisonsCastToTheCommonTypeAndOrderNaNLast() {
    ExprNode lt =
        call(
            FunctionKind.LESS_THAN,
            DataType.BOOLEAN,
            ref(0, DataType.INT),
            ref(1, DataType.DOUBLE));
    assertThat(eval("int double\n+ 1 1.5\n+ 2 1.5\n+ 1 NaN\n+ . 1", lt))
        .containsExactly(true, false, true, null);
    ExprNode eq =
        call(
            FunctionKind.EQUAL,
            DataType.BOOLEAN,
            ref(0, DataType.VARCHAR),
            lit("b", DataType.VARCHAR));
    assertThat(eval("+ a\n+ b\n+ .", eq)).containsExactly(false, true, null);
    ExprNode ge =
        call(
            FunctionKind.GREATER_THAN_OR_EQUAL,
            DataType.BOOLEAN,
            ref(0, DataType.TIMESTAMP),
            lit(java.time.LocalDate.of(2024, 1, 2), DataType.DATE));
    assertThat(eval("timestamp\n+ '2024-01-01 23:59:59'\n+ '2024-01-02 00:00:00'", ge))
        .containsExactly(false, true);
  }

  @Test
  void caseEvaluatesABranchOnlyForTheRowsItTakes() {
    ExprNode x = ref(0, DataType.BIGINT);
    ExprNode e =
        call(
            FunctionKind.CASE,
            DataType.BIGINT,
            call(FunctionKind.EQUAL, DataType.BOOLEAN, x, lit(0L, DataType.BIGINT)),
            lit(-1L, DataType.BIGINT),
            call(FunctionKind.GREATER_THAN, DataType.BOOLEAN, x, lit(50L, DataType.BIGINT)),
            call(FunctionKind.DIVIDE, DataType.BIGINT, lit(100L, DataType.BIGINT), x),
            x);
    assertThat(eval("+ 0\n+ 100\n+ 7\n+ .", e)).containsExactly(-1L, 1L, 7L, null);
    ExprNode noElse =
        call(
            FunctionKind.CASE,
            DataType.VARCHAR,
            call(FunctionKind.GREATER_THAN, DataType.BOOLEAN, x, lit(5L, DataType.BIGINT)),
            lit("big", DataType.VARCHAR));
    assertThat(eval("+ 9\n+ 1", noElse)).containsExactly("big", null);
  }

  @Test
  void coalesceTakesTheFirstNonNull() {
    ExprNode e =
        call(
            FunctionKind.COALESCE,
            DataType.BIGINT,
            ref(0, DataType.BIGINT),
            ref(1, DataType.INT),
            lit(0L, DataType.BIGINT));
    assertThat(eval("bigint int\n+ 1 2\n+ . 2\n+ . .", e)).containsExactly(1L, 2L, 0L);
  }

  @Test
  void castsConvertAndFailNamingValueAndTypes() {
    ExprNode toInt = new ExprNode.Cast(ref(0, DataType.VARCHAR), DataType.INT);
    assertThat(eval("+ ' 42'\n+ .", toInt)).containsExactly(42, null);
    assertThatThrownBy(() -> eval("+ abc", toInt))
        .isInstanceOf(ExprException.class)
        .hasMessageContaining("cannot cast 'abc' of type character varying to integer")
        .extracting(e -> ((ExprException) e).reason())
        .isEqualTo(ExprException.Reason.INVALID_CAST);
    ExprNode narrow = new ExprNode.Cast(ref(0, DataType.BIGINT), DataType.INT);
    assertThatThrownBy(() -> eval("+ 3000000000", narrow))
        .hasMessageContaining("integer out of range")
        .hasMessageContaining("3000000000::bigint AS integer");
    ExprNode round = new ExprNode.Cast(ref(0, DataType.DOUBLE), DataType.BIGINT);
    assertThat(eval("+ 2.5\n+ 3.5\n+ -1.7", round)).containsExactly(2L, 4L, -2L);
    assertThatThrownBy(() -> eval("double\n+ NaN", round))
        .hasMessageContaining("bigint out of range");
    ExprNode dec = new ExprNode.Cast(ref(0, DataType.DOUBLE), DataType.decimal(5, 2));
    assertThat(eval("+ 1.005\n+ 2", dec))
        .containsExactly(new BigDecimal("1.01"), new BigDecimal("2.00"));
    assertThatThrownBy(() -> eval("+ 123456.0", dec)).hasMessageContaining("numeric(5,2)");
    ExprNode text = new ExprNode.Cast(ref(0, DataType.TIMESTAMP), DataType.VARCHAR);
    assertThat(eval("timestamp\n+ '2024-03-01 10:00:00.5'", text))
        .containsExactly("2024-03-01 10:00:00.5");
    ExprNode toDate = new ExprNode.Cast(ref(0, DataType.TIMESTAMP), DataType.DATE);
    assertThat(eval("timestamp\n+ '2024-03-01 10:00:00'", toDate))
        .containsExactly(java.time.LocalDate.of(2024, 3, 1));
    assertThatThrownBy(
            () ->
                ExprCompiler.compile(
                    new ExprNode.Cast(ref(0, DataType.INTERVAL), DataType.INT),
                    List.of(DataType.INTERVAL)))
        .hasMessage("cannot cast type interval to integer");
  }

  @Test
  void stringFunctions() {
    ExprNode s = ref(0, DataType.VARCHAR);
    assertThat(eval("+ Straße\n+ .", call(FunctionKind.LENGTH, DataType.INT, s)))
        .containsExactly(6, null);
    assertThat(eval("+ 'Ab c'", call(FunctionKind.UPPER, DataType.VARCHAR, s)))
        .containsExactly("AB C");
    assertThat(eval("+ 'Ab c'", call(FunctionKind.LOWER, DataType.VARCHAR, s)))
        .containsExactly("ab c");
    ExprNode sub =
        call(
            FunctionKind.SUBSTRING,
            DataType.VARCHAR,
            s,
            ref(1, DataType.BIGINT),
            ref(2, DataType.BIGINT));
    assertThat(eval("+ Thomas 2 3\n+ Thomas 0 3\n+ Thomas 5 10\n+ Thomas 9 1", sub))
        .containsExactly("hom", "Th", "as", "");
    assertThatThrownBy(() -> eval("+ Thomas 1 -1", sub))
        .hasMessageContaining("negative substring length not allowed: -1");
    ExprNode concat =
        call(
            FunctionKind.CONCAT,
            DataType.VARCHAR,
            s,
            lit("-", DataType.VARCHAR),
            ref(1, DataType.BIGINT));
    assertThat(eval("+ a 1\n+ . 2", concat)).containsExactly("a-1", "-2");
    ExprNode like = call(FunctionKind.LIKE, DataType.BOOLEAN, s, lit("a%b\\_c_", DataType.VARCHAR));
    assertThat(eval("+ ab_cd\n+ axxb_cd\n+ abxcd\n+ ab_c\n+ .", like))
        .containsExactly(true, true, false, false, null);
  }

  /**
   * PostgreSQL's math functions: round halves away from zero for numerics and to even for floats,
   * and the domain errors of sqrt, ln and power fail the value (a view makes it NULL).
   */
  @Test
  void mathFunctionsRoundAsPostgresqlAndRefuseOutsideTheirDomain() {
    ExprNode d = ref(0, DataType.DOUBLE);
    assertThat(
            eval("double\n+ 2.5\n+ 3.5\n+ -2.5\n+ .", call(FunctionKind.ROUND, DataType.DOUBLE, d)))
        .containsExactly(2.0, 4.0, -2.0, null);
    ExprNode n = ref(0, DataType.DECIMAL);
    assertThat(
            eval(
                "decimal\n+ 2.5\n+ -2.45",
                call(FunctionKind.ROUND, DataType.DECIMAL, n, lit(1L, DataType.BIGINT))))
        .containsExactly(new BigDecimal("2.5"), new BigDecimal("-2.5"));
    assertThat(eval("decimal\n+ -2.45", call(FunctionKind.FLOOR, DataType.DECIMAL, n)))
        .containsExactly(new BigDecimal("-3"));
    ExprNode i = ref(0, DataType.INT);
    assertThat(
            eval(
                "int\n+ 15\n+ -15\n+ 14",
                call(FunctionKind.ROUND, DataType.INT, i, lit(-1L, DataType.BIGINT))))
        .containsExactly(20, -20, 10);
    assertThatThrownBy(() -> eval("double\n+ -1", call(FunctionKind.SQRT, DataType.DOUBLE, d)))
        .hasMessageContaining("cannot take square root of a negative number");
    assertThatThrownBy(() -> eval("double\n+ 0", call(FunctionKind.LN, DataType.DOUBLE, d)))
        .hasMessageContaining("cannot take logarithm of zero");
    ExprNode pow = call(FunctionKind.POWER, DataType.DOUBLE, d, lit(-1.0, DataType.DOUBLE));
    assertThat(eval("double\n+ 4", pow)).containsExactly(0.25);
    assertThatThrownBy(() -> eval("double\n+ 0", pow))
        .hasMessageContaining("zero raised to a negative power is undefined");
  }

  @Test
  void positionReplaceAndTrimCountCharactersAndSets() {
    ExprNode s = ref(0, DataType.VARCHAR);
    assertThat(
            eval(
                "+ Straße\n+ abc\n+ .",
                call(FunctionKind.POSITION, DataType.INT, lit("e", DataType.VARCHAR), s)))
        .containsExactly(6, 0, null);
    ExprNode replace =
        call(
            FunctionKind.REPLACE,
            DataType.VARCHAR,
            s,
            ref(1, DataType.VARCHAR),
            lit("-", DataType.VARCHAR));
    assertThat(eval("varchar varchar\n+ aXbX X\n+ abc ''", replace)).containsExactly("a-b-", "abc");
    ExprNode trim =
        call(
            FunctionKind.TRIM,
            DataType.VARCHAR,
            lit("both", DataType.VARCHAR),
            lit("xy", DataType.VARCHAR),
            s);
    assertThat(eval("+ xyaxbyx\n+ xyx", trim)).containsExactly("axb", "");
  }

  @Test
  void timeFunctions() {
    ExprNode ts = ref(0, DataType.TIMESTAMP);
    String rows = "timestamp\n+ '2024-02-29 13:45:30.25'\n+ '1969-12-31 23:00:00'\n+ .";
    assertThat(
            eval(
                rows,
                call(FunctionKind.EXTRACT, DataType.BIGINT, lit("hour", DataType.VARCHAR), ts)))
        .containsExactly(13L, 23L, null);
    assertThat(
            eval(rows, call(FunctionKind.EXTRACT, DataType.INT, lit("YEAR", DataType.VARCHAR), ts)))
        .containsExactly(2024, 1969, null);
    assertThat(
            eval(
                rows,
                call(FunctionKind.EXTRACT, DataType.DECIMAL, lit("second", DataType.VARCHAR), ts)))
        .containsExactly(new BigDecimal("30.250000"), new BigDecimal("0.000000"), null);
    assertThat(
            eval(rows, call(FunctionKind.EXTRACT, DataType.INT, lit("dow", DataType.VARCHAR), ts)))
        .containsExactly(4, 3, null);
    assertThat(
            eval(
                rows,
                call(
                    FunctionKind.DATE_TRUNC,
                    DataType.TIMESTAMP,
                    lit("hour", DataType.VARCHAR),
                    ts)))
        .map(String::valueOf)
        .containsExactly("2024-02-29T13:00", "1969-12-31T23:00", "null");
    assertThat(
            eval(
                rows,
                call(
                    FunctionKind.DATE_TRUNC,
                    DataType.TIMESTAMP,
                    lit("month", DataType.VARCHAR),
                    ts)))
        .map(String::valueOf)
        .containsExactly("2024-02-01T00:00", "1969-12-01T00:00", "null");
    ExprNode tumble =
        call(
            FunctionKind.TUMBLE_START,
            DataType.TIMESTAMP,
            ts,
            lit(Interval.ofMicros(10_000_000), DataType.INTERVAL));
    assertThat(eval(rows, tumble))
        .map(String::valueOf)
        .containsExactly("2024-02-29T13:45:30", "1969-12-31T23:00", "null");
    assertThatThrownBy(
            () ->
                eval(
                    rows,
                    call(
                        FunctionKind.EXTRACT,
                        DataType.INT,
                        lit("fortnight", DataType.VARCHAR),
                        ts)))
        .hasMessageContaining("unit 'fortnight' is not recognized");
  }

  @Test
  void dateTimeArithmetic() {
    ExprNode ts = ref(0, DataType.TIMESTAMP);
    ExprNode plus =
        call(
            FunctionKind.ADD,
            DataType.TIMESTAMP,
            lit(new Interval(1, 1, 3_600_000_000L), DataType.INTERVAL),
            ts);
    assertThat(eval("timestamp\n+ '2024-01-31 00:00:00'", plus))
        .map(String::valueOf)
        .containsExactly("2024-03-01T01:00");
    ExprNode diff = call(FunctionKind.SUBTRACT, DataType.INTERVAL, ts, ref(1, DataType.TIMESTAMP));
    assertThat(eval("timestamp timestamp\n+ '2024-01-02 01:00:00' '2024-01-01 00:00:00'", diff))
        .containsExactly(new Interval(0, 1, 3_600_000_000L));
    ExprNode days =
        call(FunctionKind.SUBTRACT, DataType.INT, ref(0, DataType.DATE), ref(1, DataType.DATE));
    assertThat(eval("date date\n+ 2024-03-01 2024-02-01", days)).containsExactly(29);
  }

  @Test
  void unknownSignaturesFailAtCompileTimeNamingTheTypes() {
    assertThatThrownBy(
            () ->
                ExprCompiler.compile(
                    call(
                        FunctionKind.ADD,
                        DataType.INT,
                        ref(0, DataType.INT),
                        ref(1, DataType.VARCHAR)),
                    List.of(DataType.INT, DataType.VARCHAR)))
        .hasMessage("function does not exist: ADD(integer, character varying)");
    assertThatThrownBy(
            () ->
                ExprCompiler.compile(
                    call(
                        FunctionKind.EQUAL,
                        DataType.BOOLEAN,
                        ref(0, DataType.INT),
                        ref(1, DataType.VARCHAR)),
                    List.of(DataType.INT, DataType.VARCHAR)))
        .hasMessage("operator does not exist: EQUAL(integer, character varying)");
    assertThatThrownBy(
            () ->
                ExprCompiler.compile(
                    ref(1, DataType.INT), Arrays.asList(DataType.INT, DataType.BIGINT)))
        .hasMessageContaining("input ref $1 has type integer but the input column is bigint");
  }

  @Test
  void negateAndAbs() {
    ExprNode x = ref(0, DataType.INT);
    assertThat(eval("int\n+ 5\n+ -3\n+ .", call(FunctionKind.NEGATE, DataType.INT, x)))
        .containsExactly(-5, 3, null);
    assertThat(eval("int\n+ 5\n+ -3", call(FunctionKind.ABS, DataType.INT, x)))
        .containsExactly(5, 3);
    assertThatThrownBy(() -> eval("int\n+ -2147483648", call(FunctionKind.ABS, DataType.INT, x)))
        .hasMessageContaining("integer out of range");
  }
}
