package dev.tideway.compute.expr;

import dev.tideway.common.check.Checks;
import dev.tideway.common.plan.ExprNode;
import dev.tideway.common.plan.FunctionKind;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Interval;
import dev.tideway.common.types.TypeId;
import dev.tideway.compute.expr.TemporalArithmeticExpression.Shape;
import java.util.ArrayList;
import java.util.List;

/**
 * Compiles a planner's {@link ExprNode} tree into an {@link Expression}: checks every input
 * reference against the input types, picks the kernel for each function from its argument types,
 * and inserts the implicit casts the kernels need (both operands of {@code +} or {@code =} to one
 * type, {@code concat} arguments to text, DATE to TIMESTAMP for the time functions). The result of
 * every node is cast to the type the planner declared, so the planner's types always hold.
 *
 * <p>A function that does not exist for its argument types fails here, naming the function and the
 * types, not when the first chunk arrives. Stateless.
 */
public final class ExprCompiler {
  private ExprCompiler() {}

  /** Compiles {@code node} over rows of {@code inputTypes}; fails naming the offending node. */
  public static Expression compile(ExprNode node, List<DataType> inputTypes) {
    Expression e = compileNode(node, inputTypes);
    return coerce(e, node.returnType());
  }

  /**
   * Compiles {@code node} for a streaming job: a row whose value fails to evaluate gets NULL and
   * its error goes to {@code errors} ({@link ExprErrorSink#STRICT} propagates it instead).
   */
  public static Expression compile(ExprNode node, List<DataType> inputTypes, ExprErrorSink errors) {
    Expression e = compile(node, inputTypes);
    if (errors == ExprErrorSink.STRICT || e instanceof InputRefExpression) {
      return e;
    }
    return e instanceof LiteralExpression ? e : new NonStrictExpression(e, errors);
  }

  /** Compiles each of {@code nodes}. */
  public static List<Expression> compileAll(List<ExprNode> nodes, List<DataType> inputTypes) {
    return compileAll(nodes, inputTypes, ExprErrorSink.STRICT);
  }

  /**
   * Compiles each of {@code nodes} for a streaming job (see {@link #compile(ExprNode, List,
   * ExprErrorSink)}).
   */
  public static List<Expression> compileAll(
      List<ExprNode> nodes, List<DataType> inputTypes, ExprErrorSink errors) {
    List<Expression> out = new ArrayList<>(nodes.size());
    for (ExprNode n : nodes) {
      out.add(compile(n, inputTypes, errors));
    }
    return out;
  }

  private static Expression compileNode(ExprNode node, List<DataType> inputTypes) {
    if (node instanceof ExprNode.InputRef ref) {
      Checks.checkArgument(
          ref.index() < inputTypes.size(),
          "input ref $%s out of [0, %s) of %s",
          ref.index(),
          inputTypes.size(),
          inputTypes);
      Checks.checkArgument(
          inputTypes.get(ref.index()).id() == ref.type().id(),
          "input ref $%s has type %s but the input column is %s",
          ref.index(),
          ref.type(),
          inputTypes.get(ref.index()));
      return new InputRefExpression(ref.index(), inputTypes.get(ref.index()));
    }
    if (node instanceof ExprNode.Literal lit) {
      return new LiteralExpression(lit.value(), lit.type());
    }
    if (node instanceof ExprNode.Cast cast) {
      return coerce(compile(cast.input(), inputTypes), cast.targetType());
    }
    ExprNode.FunctionCall call = (ExprNode.FunctionCall) node;
    List<Expression> args = new ArrayList<>();
    for (ExprNode a : call.args()) {
      args.add(compile(a, inputTypes));
    }
    return compileCall(call, args);
  }

  private static Expression compileCall(ExprNode.FunctionCall call, List<Expression> args) {
    FunctionKind kind = call.kind();
    DataType rt = call.returnType();
    return switch (kind) {
      case ADD, SUBTRACT, MULTIPLY, DIVIDE, MODULUS -> arithmetic(kind, args, rt);
      case NEGATE, ABS -> {
        Expression a = args.get(0);
        require(kind, args, Vectors.isNumeric(a.returnType().id()) || isInterval(a));
        yield new UnaryArithmeticExpression(kind, coerce(a, rt), rt);
      }
      case EQUAL, NOT_EQUAL, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL -> {
        DataType common = commonType(kind, args);
        yield new ComparisonExpression(
            kind, coerce(args.get(0), common), coerce(args.get(1), common));
      }
      case AND, OR -> {
        args.forEach(a -> require(kind, args, isBool(a)));
        yield new LogicalExpression(kind == FunctionKind.AND, args);
      }
      case NOT, IS_TRUE, IS_FALSE -> {
        require(kind, args, isBool(args.get(0)));
        yield new BooleanTestExpression(kind, args.get(0));
      }
      case IS_NULL, IS_NOT_NULL -> new BooleanTestExpression(kind, args.get(0));
      case CASE -> caseWhen(args, rt);
      case COALESCE -> new CoalesceExpression(coerceAll(args, rt), rt);
      case CONCAT ->
          new StringExpression(kind, coerceAll(args, DataType.VARCHAR), DataType.VARCHAR);
      case LOWER, UPPER -> {
        require(kind, args, isText(args.get(0)));
        yield new StringExpression(kind, args, DataType.VARCHAR);
      }
      case LENGTH -> {
        require(kind, args, isText(args.get(0)) && Vectors.isIntegral(rt.id()));
        yield new StringExpression(kind, args, rt);
      }
      case SUBSTRING -> {
        require(kind, args, isText(args.get(0)));
        List<Expression> a = new ArrayList<>(args);
        for (int i = 1; i < a.size(); i++) {
          require(kind, args, Vectors.isIntegral(a.get(i).returnType().id()));
          a.set(i, coerce(a.get(i), DataType.BIGINT));
        }
        yield new StringExpression(kind, a, DataType.VARCHAR);
      }
      case LIKE -> {
        require(kind, args, isText(args.get(0)) && isText(args.get(1)));
        yield new LikeExpression(args.get(0), args.get(1));
      }
      case EXTRACT, DATE_TRUNC -> timeField(kind, args, rt);
      case TUMBLE_START -> tumbleStart(args);
      case ROUND, FLOOR, CEIL, SIGN -> {
        require(kind, args, Vectors.isNumeric(args.get(0).returnType().id()));
        require(kind, args, Vectors.isNumeric(rt.id()));
        List<Expression> a = new ArrayList<>(List.of(coerce(args.get(0), rt)));
        if (args.size() > 1) {
          require(kind, args, Vectors.isIntegral(args.get(1).returnType().id()));
          a.add(coerce(args.get(1), DataType.BIGINT));
        }
        yield new MathExpression(kind, a, rt);
      }
      case SQRT, POWER, EXP, LN, LOG10 -> {
        args.forEach(x -> require(kind, args, Vectors.isNumeric(x.returnType().id())));
        yield coerce(
            new MathExpression(kind, coerceAll(args, DataType.DOUBLE), DataType.DOUBLE), rt);
      }
      case POSITION -> {
        require(kind, args, isText(args.get(0)) && isText(args.get(1)));
        require(kind, args, Vectors.isIntegral(rt.id()));
        yield new StringExpression(kind, args, rt);
      }
      case REPLACE, TRIM -> {
        args.forEach(x -> require(kind, args, isText(x)));
        yield new StringExpression(kind, args, DataType.VARCHAR);
      }
    };
  }

  private static Expression arithmetic(FunctionKind kind, List<Expression> args, DataType rt) {
    Expression a = args.get(0);
    Expression b = args.get(1);
    TypeId ta = a.returnType().id();
    TypeId tb = b.returnType().id();
    if (Vectors.isNumeric(ta) && Vectors.isNumeric(tb)) {
      require(kind, args, Vectors.isNumeric(rt.id()));
      if (rt.id() == TypeId.DECIMAL) {
        // numeric arithmetic is exact on the operands as they are (PostgreSQL's numeric has no
        // precision of its own): a modulus's declared type may not hold its dividend
        DataType any = DataType.DECIMAL;
        return coerce(new ArithmeticExpression(kind, coerce(a, any), coerce(b, any), any), rt);
      }
      if (kind == FunctionKind.MODULUS && Vectors.isIntegral(rt.id())) {
        // the planner types a modulus as its divisor (bigint % int is int): the dividend must
        // not be narrowed first, the remainder always fits
        DataType wide = DataType.BIGINT;
        return coerce(new ArithmeticExpression(kind, coerce(a, wide), coerce(b, wide), wide), rt);
      }
      return new ArithmeticExpression(kind, coerce(a, rt), coerce(b, rt), rt);
    }
    boolean add = kind == FunctionKind.ADD;
    boolean sub = kind == FunctionKind.SUBTRACT;
    require(kind, args, add || sub);
    if (add && ta == TypeId.INTERVAL && tb != TypeId.INTERVAL) {
      return arithmetic(kind, List.of(b, a), rt); // interval + t = t + interval
    }
    if (add && Vectors.isIntegral(ta) && tb == TypeId.DATE) {
      return arithmetic(kind, List.of(b, a), rt);
    }
    if ((ta == TypeId.TIMESTAMP || ta == TypeId.TIMESTAMPTZ) && tb == TypeId.INTERVAL) {
      return new TemporalArithmeticExpression(Shape.TIMESTAMP_INTERVAL, sub, a, b, a.returnType());
    }
    if (ta == TypeId.DATE && tb == TypeId.INTERVAL) {
      return new TemporalArithmeticExpression(
          Shape.TIMESTAMP_INTERVAL, sub, coerce(a, DataType.TIMESTAMP), b, DataType.TIMESTAMP);
    }
    if (ta == TypeId.TIME && tb == TypeId.INTERVAL) {
      return new TemporalArithmeticExpression(Shape.TIME_INTERVAL, sub, a, b, DataType.TIME);
    }
    if (ta == TypeId.DATE && Vectors.isIntegral(tb)) {
      return new TemporalArithmeticExpression(
          Shape.DATE_INT, sub, a, coerce(b, DataType.INT), DataType.DATE);
    }
    if (sub && ta == TypeId.DATE && tb == TypeId.DATE) {
      return new TemporalArithmeticExpression(Shape.DATE_DATE, true, a, b, DataType.INT);
    }
    if (sub && ta == tb && (ta == TypeId.TIMESTAMP || ta == TypeId.TIMESTAMPTZ)) {
      return new TemporalArithmeticExpression(
          Shape.TIMESTAMP_TIMESTAMP, true, a, b, DataType.INTERVAL);
    }
    require(kind, args, ta == TypeId.INTERVAL && tb == TypeId.INTERVAL);
    return new TemporalArithmeticExpression(Shape.INTERVAL_INTERVAL, sub, a, b, DataType.INTERVAL);
  }

  private static Expression caseWhen(List<Expression> args, DataType rt) {
    List<Expression> conds = new ArrayList<>();
    List<Expression> values = new ArrayList<>();
    int pairs = args.size() / 2;
    for (int k = 0; k < pairs; k++) {
      require(FunctionKind.CASE, args, isBool(args.get(2 * k)));
      conds.add(args.get(2 * k));
      values.add(coerce(args.get(2 * k + 1), rt));
    }
    Expression otherwise = args.size() % 2 == 1 ? coerce(args.get(args.size() - 1), rt) : null;
    return new CaseExpression(conds, values, otherwise, rt);
  }

  private static Expression timeField(FunctionKind kind, List<Expression> args, DataType rt) {
    require(kind, args, args.get(0) instanceof LiteralExpression l && l.value() instanceof String);
    TimeField field;
    try {
      field = TimeField.parse(kind.name(), (String) ((LiteralExpression) args.get(0)).value());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(e.getMessage() + " (" + signature(kind, args) + ")", e);
    }
    Expression t = timestampArg(kind, args, args.get(1), true);
    if (kind == FunctionKind.EXTRACT) {
      require(kind, args, Vectors.isNumeric(rt.id()));
      require(kind, args, t.returnType().id() != TypeId.TIME || field.ofTime);
      return new TimeExpression(TimeExpression.Kind.EXTRACT, field, 0, t, rt);
    }
    require(kind, args, t.returnType().id() != TypeId.TIME);
    require(kind, args, field != TimeField.DOW && field != TimeField.ISODOW);
    require(kind, args, field != TimeField.DOY && field != TimeField.EPOCH);
    return new TimeExpression(TimeExpression.Kind.DATE_TRUNC, field, 0, t, t.returnType());
  }

  private static Expression tumbleStart(List<Expression> args) {
    FunctionKind kind = FunctionKind.TUMBLE_START;
    Expression t = timestampArg(kind, args, args.get(0), false);
    require(
        kind, args, args.get(1) instanceof LiteralExpression l && l.value() instanceof Interval);
    Interval size = (Interval) ((LiteralExpression) args.get(1)).value();
    long micros = windowMicros(size);
    return new TimeExpression(TimeExpression.Kind.TUMBLE_START, null, micros, t, t.returnType());
  }

  /** The length of a window interval; fails unless it is positive and free of months. */
  public static long windowMicros(Interval size) {
    Checks.checkArgument(
        size.months() == 0, "window size must not use months (they vary in length): %s", size);
    long micros =
        Math.addExact(
            Math.multiplyExact((long) size.days(), Interval.MICROS_PER_DAY), size.micros());
    Checks.checkArgument(micros > 0, "window size must be positive, got %s", size);
    return micros;
  }

  private static Expression timestampArg(
      FunctionKind kind, List<Expression> args, Expression t, boolean allowTime) {
    TypeId id = t.returnType().id();
    if (id == TypeId.DATE) {
      return coerce(t, DataType.TIMESTAMP);
    }
    require(
        kind,
        args,
        id == TypeId.TIMESTAMP || id == TypeId.TIMESTAMPTZ || (allowTime && id == TypeId.TIME));
    return t;
  }

  /** The type both operands of a comparison are cast to; fails naming the types. */
  static DataType commonType(FunctionKind kind, List<Expression> args) {
    DataType a = args.get(0).returnType();
    DataType b = args.get(1).returnType();
    if (a.id() == b.id()) {
      return a.equals(b) ? a : DataType.of(a.id());
    }
    if (Vectors.isNumeric(a.id()) && Vectors.isNumeric(b.id())) {
      return numericRank(a.id()) >= numericRank(b.id()) ? DataType.of(a.id()) : DataType.of(b.id());
    }
    if (isDateTime(a.id()) && isDateTime(b.id())) {
      return a.id() == TypeId.TIMESTAMPTZ || b.id() == TypeId.TIMESTAMPTZ
          ? DataType.TIMESTAMPTZ
          : DataType.TIMESTAMP;
    }
    throw new IllegalArgumentException("operator does not exist: " + signature(kind, args));
  }

  private static int numericRank(TypeId t) {
    return switch (t) {
      case SMALLINT -> 1;
      case INT -> 2;
      case BIGINT -> 3;
      case DECIMAL -> 4;
      case REAL -> 5;
      default -> 6;
    };
  }

  private static boolean isDateTime(TypeId t) {
    return t == TypeId.DATE || t == TypeId.TIMESTAMP || t == TypeId.TIMESTAMPTZ;
  }

  /** {@code e} as {@code type}: itself when it already is, else a cast (which must exist). */
  static Expression coerce(Expression e, DataType type) {
    if (e.returnType().equals(type)) {
      return e;
    }
    if (e instanceof LiteralExpression l && l.value() == null) {
      return new LiteralExpression(null, type);
    }
    return new CastExpression(e, type);
  }

  private static List<Expression> coerceAll(List<Expression> args, DataType type) {
    List<Expression> out = new ArrayList<>(args.size());
    for (Expression a : args) {
      out.add(coerce(a, type));
    }
    return out;
  }

  private static void require(FunctionKind kind, List<Expression> args, boolean ok) {
    if (!ok) {
      throw new IllegalArgumentException("function does not exist: " + signature(kind, args));
    }
  }

  private static String signature(FunctionKind kind, List<Expression> args) {
    StringBuilder sb = new StringBuilder(kind.name()).append('(');
    for (int i = 0; i < args.size(); i++) {
      sb.append(i == 0 ? "" : ", ").append(args.get(i).returnType().sqlName());
    }
    return sb.append(')').toString();
  }

  private static boolean isBool(Expression e) {
    return e.returnType().id() == TypeId.BOOLEAN;
  }

  private static boolean isText(Expression e) {
    return e.returnType().id() == TypeId.VARCHAR;
  }

  private static boolean isInterval(Expression e) {
    return e.returnType().id() == TypeId.INTERVAL;
  }
}
