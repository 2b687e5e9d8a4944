<#--
  Tideway's productions, included into Calcite's Parser.jj (see config.fmpp for where each one is
  hooked in). The AST classes they build live in dev.tideway.sql.parser.
-->

// PostgreSQL's regular-expression operators (~, ~*, !~, !~*) need these two tokens;
// "!=" still lexes as one token (longest match).
<DEFAULT, DQID, BTID> TOKEN :
{
    < NEGATE: "!" >
|   < TILDE: "~" >
}

/** PostgreSQL's {@code expr :: type}, an infix CAST (hooked in as an extra binary expression). */
void InfixCast(List<Object> list, ExprContext exprContext, Span s) :
{
    final SqlDataTypeSpec dt;
}
{
    <INFIX_CAST> {
        checkNonQueryExpression(exprContext);
    }
    dt = DataType() {
        list.add(new SqlParserUtil.ToTreeListItem(SqlLibraryOperators.INFIX_CAST, s.pos()));
        list.add(dt);
    }
}

boolean TwIfNotExists() :
{
}
{
    LOOKAHEAD(3) <IF> <NOT> <EXISTS> { return true; }
|
    { return false; }
}

boolean TwIfExists() :
{
}
{
    LOOKAHEAD(2) <IF> <EXISTS> { return true; }
|
    { return false; }
}

/** {@code ( element, ... )} of CREATE TABLE / CREATE SOURCE. */
SqlNodeList TwTableElements() :
{
    final Span s;
    final List<SqlNode> list = new ArrayList<SqlNode>();
}
{
    <LPAREN> { s = span(); }
    TwTableElement(list)
    ( <COMMA> TwTableElement(list) )*
    <RPAREN> {
        return new SqlNodeList(list, s.end(this));
    }
}

/**
 * A column ({@code name type [NOT NULL | NULL | PRIMARY KEY | UNIQUE | DEFAULT expr]...}) or a
 * table-level {@code [CONSTRAINT c] PRIMARY KEY | UNIQUE (cols)}. A column-level PRIMARY KEY or
 * UNIQUE adds a table-level constraint on that column right after it, so both forms give the same
 * tree. (UNIQUE is parsed so that the frontend can name it as unsupported.)
 */
void TwTableElement(List<SqlNode> list) :
{
    final SqlIdentifier id;
    final SqlDataTypeSpec type;
    boolean nullable = true;
    boolean primaryKey = false;
    boolean unique = false;
    SqlNode e = null;
    SqlIdentifier name = null;
    final SqlNodeList columns;
    final Span s = Span.of();
    final Span pk;
}
{
    id = SimpleIdentifier()
    type = DataType()
    (
        <NOT> <NULL> { nullable = false; }
    |
        <NULL> { nullable = true; }
    |
        <PRIMARY> <KEY> { primaryKey = true; nullable = false; }
    |
        <UNIQUE> { unique = true; }
    |
        <DEFAULT_> e = Expression(ExprContext.ACCEPT_SUB_QUERY)
    )*
    {
        list.add(
            SqlDdlNodes.column(s.add(id).end(this), id, type.withNullable(nullable), e,
                e != null ? ColumnStrategy.DEFAULT
                    : nullable ? ColumnStrategy.NULLABLE : ColumnStrategy.NOT_NULLABLE));
        if (primaryKey) {
            list.add(
                SqlDdlNodes.primary(id.getParserPosition(), null,
                    new SqlNodeList(Collections.<SqlNode>singletonList(id),
                        id.getParserPosition())));
        }
        if (unique) {
            list.add(
                SqlDdlNodes.unique(id.getParserPosition(), null,
                    new SqlNodeList(Collections.<SqlNode>singletonList(id),
                        id.getParserPosition())));
        }
    }
|
    [ <CONSTRAINT> { s.add(this); } name = SimpleIdentifier() ]
    (
        <PRIMARY> { s.add(this); } <KEY>
        columns = ParenthesizedSimpleIdentifierList() {
            list.add(SqlDdlNodes.primary(s.end(columns), name, columns));
        }
    |
        <UNIQUE> { s.add(this); }
        columns = ParenthesizedSimpleIdentifierList() {
            list.add(SqlDdlNodes.unique(s.end(columns), name, columns));
        }
    )
}

/** {@code ( key = value, ... )}; a key may be dotted with any words ({@code nexmark.table.type}). */
SqlNodeList TwWithOptions() :
{
    final Span s;
    final List<SqlNode> list = new ArrayList<SqlNode>();
}
{
    <LPAREN> { s = span(); }
    [
        TwOption(list)
        ( <COMMA> TwOption(list) )*
    ]
    <RPAREN> {
        return new SqlNodeList(list, s.end(this));
    }
}

void TwOption(List<SqlNode> list) :
{
    final SqlNode key;
    final SqlNode value;
}
{
    key = TwOptionKey() <EQ>
    (
        value = Literal()
    |
        value = SimpleIdentifier()
    )
    {
        list.add(key);
        list.add(value);
    }
}

/**
 * An option key, as a string literal: a name followed by {@code .word} parts, where a word may be
 * reserved ({@code nexmark.table.type}, {@code datagen.rows.per.second}), or a string
 * ({@code 'a.b'}). Unquoted parts are lower-cased.
 */
SqlNode TwOptionKey() :
{
    final StringBuilder key = new StringBuilder();
    final Span s;
    final SqlIdentifier first;
    final String quoted;
}
{
    (
        first = SimpleIdentifier() {
            s = span();
            key.append(first.getSimple());
        }
        (
            <DOT> {
                key.append('.').append(getNextToken().image.toLowerCase(Locale.ROOT));
            }
        )*
    |
        quoted = SimpleStringLiteral() {
            s = span();
            key.append(quoted);
        }
    )
    {
        return SqlLiteral.createCharString(key.toString(), s.end(this));
    }
}

/**
 * {@code FORMAT x ENCODE y [(options)]} (RisingWave's connector encoding), as two identifiers and,
 * when written, the options' list.
 */
SqlNodeList TwFormatEncode() :
{
    final Span s;
    final SqlIdentifier encode;
    SqlNodeList encodeOptions = null;
    SqlIdentifier format;
}
{
    <FORMAT> { s = span(); }
    (
        format = SimpleIdentifier()
    |
        <UPSERT> { format = new SqlIdentifier("upsert", getPos()); }
    )
    <ENCODE> encode = SimpleIdentifier()
    [ encodeOptions = TwWithOptions() ]
    {
        return encodeOptions == null
            ? new SqlNodeList(Arrays.<SqlNode>asList(format, encode), s.end(this))
            : new SqlNodeList(Arrays.<SqlNode>asList(format, encode, encodeOptions), s.end(this));
    }
}

/** {@code INCLUDE what [AS name]} of a connector source: a pair (what as a literal, name or null). */
void TwInclude(List<SqlNode> out) :
{
    final Span s;
    final String what;
    SqlIdentifier alias = null;
}
{
    <INCLUDE> { s = span(); what = getNextToken().image.toLowerCase(Locale.ROOT); }
    [ <AS> alias = SimpleIdentifier() ]
    {
        out.add(new SqlNodeList(Arrays.<SqlNode>asList(
            SqlLiteral.createCharString(what, s.end(this)), alias), s.end(this)));
    }
}

/**
 * {@code CREATE TABLE [IF NOT EXISTS] name [(elements)] [APPEND ONLY] [WITH (options)]
 * [FORMAT x ENCODE y] [AS query]}.
 */
SqlCreate TwCreateTable(Span s, boolean replace) :
{
    final boolean ifNotExists;
    final SqlIdentifier id;
    SqlNodeList elements = null;
    boolean appendOnly = false;
    SqlNodeList with = null;
    SqlNodeList formatEncode = null;
    SqlNode query = null;
}
{
    <TABLE> ifNotExists = TwIfNotExists() id = CompoundIdentifier()
    [ elements = TwTableElements() ]
    [ <APPEND> <ONLY> { appendOnly = true; } ]
    [ <WITH> with = TwWithOptions() ]
    [ formatEncode = TwFormatEncode() ]
    [ <AS> query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY) ]
    {
        return new SqlTwCreateTable(s.end(this), replace, ifNotExists, id, elements, appendOnly,
            with, formatEncode, query);
    }
}

/** {@code CREATE SOURCE [IF NOT EXISTS] name [(columns)] [WITH (options)] [FORMAT x ENCODE y]}. */
SqlCreate TwCreateSource(Span s, boolean replace) :
{
    final boolean ifNotExists;
    final SqlIdentifier id;
    SqlNodeList elements = null;
    SqlNodeList with = null;
    SqlNodeList formatEncode = null;
    final List<SqlNode> includes = new ArrayList<SqlNode>();
}
{
    <SOURCE> ifNotExists = TwIfNotExists() id = CompoundIdentifier()
    [ elements = TwTableElements() ]
    ( TwInclude(includes) )*
    [ <WITH> with = TwWithOptions() ]
    [ formatEncode = TwFormatEncode() ]
    {
        return new SqlTwCreateSource(s.end(this), replace, ifNotExists, id, elements,
            new SqlNodeList(includes, s.end(this)), with, formatEncode);
    }
}

/**
 * {@code CREATE SINK [IF NOT EXISTS] name FROM relation | AS query [WITH (options)] [FORMAT x
 * ENCODE y [(options)]]}.
 */
SqlCreate TwCreateSink(Span s, boolean replace) :
{
    final boolean ifNotExists;
    final SqlIdentifier id;
    SqlIdentifier from = null;
    SqlNode query = null;
    SqlNodeList with = null;
    SqlNodeList formatEncode = null;
}
{
    <SINK> ifNotExists = TwIfNotExists() id = CompoundIdentifier()
    (
        <FROM> from = CompoundIdentifier()
    |
        <AS> query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY)
    )
    [ <WITH> with = TwWithOptions() ]
    [ formatEncode = TwFormatEncode() ]
    {
        return new SqlTwCreateSink(s.end(this), replace, ifNotExists, id, from, query, with,
            formatEncode);
    }
}

/** {@code CREATE MATERIALIZED VIEW [IF NOT EXISTS] name [(columns)] AS query}. */
SqlCreate TwCreateMaterializedView(Span s, boolean replace) :
{
    final boolean ifNotExists;
    final SqlIdentifier id;
    SqlNodeList columns = null;
    final SqlNode query;
}
{
    <MATERIALIZED> <VIEW> ifNotExists = TwIfNotExists() id = CompoundIdentifier()
    [ columns = ParenthesizedSimpleIdentifierList() ]
    <AS> query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY) {
        return SqlDdlNodes.createMaterializedView(s.end(this), replace, ifNotExists, id, columns,
            query);
    }
}

/** {@code CREATE VIEW [IF NOT EXISTS] name [(columns)] AS query}. */
SqlCreate TwCreateView(Span s, boolean replace) :
{
    final SqlIdentifier id;
    SqlNodeList columns = null;
    final SqlNode query;
}
{
    <VIEW> TwIfNotExists() id = CompoundIdentifier()
    [ columns = ParenthesizedSimpleIdentifierList() ]
    <AS> query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY) {
        return SqlDdlNodes.createView(s.end(this), replace, id, columns, query);
    }
}

/** {@code DROP TABLE | MATERIALIZED VIEW | VIEW | SOURCE [IF EXISTS] name [CASCADE | RESTRICT]}. */
SqlDrop TwDrop(Span s, boolean replace) :
{
    final SqlTwDrop.Kind kind;
    final boolean ifExists;
    final SqlIdentifier id;
    boolean cascade = false;
}
{
    (
        <TABLE> { kind = SqlTwDrop.Kind.TABLE; }
    |
        <MATERIALIZED> <VIEW> { kind = SqlTwDrop.Kind.MATERIALIZED_VIEW; }
    |
        <VIEW> { kind = SqlTwDrop.Kind.VIEW; }
    |
        <SOURCE> { kind = SqlTwDrop.Kind.SOURCE; }
    |
        <SINK> { kind = SqlTwDrop.Kind.SINK; }
    )
    ifExists = TwIfExists() id = CompoundIdentifier()
    [
        <CASCADE> { cascade = true; }
    |
        <RESTRICT>
    ]
    {
        return new SqlTwDrop(s.end(this), kind, ifExists, id, cascade);
    }
}

/** {@code SHOW word [word...]}: TABLES, MATERIALIZED VIEWS, SOURCES, JOBS, a parameter, ALL. */
SqlNode TwShow() :
{
    final Span s;
    final List<SqlNode> words = new ArrayList<SqlNode>();
    SqlIdentifier w;
}
{
    <SHOW> { s = span(); }
    (
        w = CompoundIdentifier() { words.add(w); }
    |
        <ALL> { words.add(new SqlIdentifier("all", getPos())); }
    |
        <TIME> <ZONE> { words.add(new SqlIdentifier("timezone", getPos())); }
    |
        // SHOW CREATE TABLE | MATERIALIZED VIEW | SOURCE | SINK name (VIEW is no reserved word)
        <CREATE> { words.add(new SqlIdentifier("create", getPos())); }
    |
        <TABLE> { words.add(new SqlIdentifier("table", getPos())); }
    )+
    {
        return new SqlTwCommand(s.end(this), SqlTwCommand.Verb.SHOW,
            new SqlNodeList(words, s.end(this)));
    }
}

/** {@code CANCEL JOB[S] id, ...} (the frontend rejects an empty list with its own message). */
SqlNode TwCancelJobs() :
{
    final Span s;
    final List<SqlNode> ids = new ArrayList<SqlNode>();
    SqlNode n;
}
{
    <CANCEL> { s = span(); } ( <JOBS> | <JOB> )
    [
        n = UnsignedNumericLiteral() { ids.add(n); }
        ( <COMMA> n = UnsignedNumericLiteral() { ids.add(n); } )*
    ]
    {
        return new SqlTwCommand(s.end(this), SqlTwCommand.Verb.CANCEL_JOBS,
            new SqlNodeList(ids, s.end(this)));
    }
}

/** {@code FLUSH}: wait for the next checkpoint. */
SqlNode TwFlush() :
{
}
{
    <FLUSH> {
        return new SqlTwCommand(getPos(), SqlTwCommand.Verb.FLUSH, SqlNodeList.EMPTY);
    }
}

/**
 * {@code EXPLAIN statement} (RisingWave's form). {@code EXPLAIN PLAN FOR ...} stays Calcite's
 * SqlExplain: a query is only taken when it starts with SELECT, WITH, VALUES, TABLE or "(".
 */
SqlNode TwExplain() :
{
    final Span s;
    final SqlNode stmt;
}
{
    <EXPLAIN> { s = span(); }
    (
        stmt = SqlCreate()
    |
        stmt = SqlInsert()
    |
        stmt = SqlDelete()
    |
        stmt = SqlUpdate()
    |
        LOOKAHEAD({ getToken(1).kind == SELECT || getToken(1).kind == WITH
            || getToken(1).kind == VALUES || getToken(1).kind == TABLE
            || getToken(1).kind == LPAREN })
        stmt = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY)
    )
    {
        return new SqlTwCommand(s.end(this), SqlTwCommand.Verb.EXPLAIN,
            new SqlNodeList(Collections.singletonList(stmt), stmt.getParserPosition()));
    }
}

/**
 * {@code BEGIN [WORK | TRANSACTION] [modes] | START TRANSACTION [modes] | COMMIT | ROLLBACK [WORK |
 * TRANSACTION]}: answered as no-ops. Modes ({@code ISOLATION LEVEL ...}, {@code READ ONLY},
 * {@code [NOT] DEFERRABLE}, comma-separated) are accepted and dropped.
 */
SqlNode TwTransaction() :
{
    final Span s;
    final SqlTwCommand.Verb verb;
}
{
    (
        <BEGIN> { s = span(); verb = SqlTwCommand.Verb.BEGIN; } TwTransactionModes()
    |
        <START> { s = span(); verb = SqlTwCommand.Verb.START_TRANSACTION; } <TRANSACTION>
        TwTransactionModes()
    |
        <COMMIT> { s = span(); verb = SqlTwCommand.Verb.COMMIT; } [ <WORK> | <TRANSACTION> ]
    |
        <ROLLBACK> { s = span(); verb = SqlTwCommand.Verb.ROLLBACK; } [ <WORK> | <TRANSACTION> ]
    )
    {
        return new SqlTwCommand(s.end(this), verb, SqlNodeList.EMPTY);
    }
}

/** Words of transaction modes (and BEGIN's optional WORK/TRANSACTION), ignored. */
void TwTransactionModes() :
{
}
{
    ( SimpleIdentifier() | <ONLY> | <NOT> | <COMMA> )*
}

/** {@code ALTER MATERIALIZED VIEW name SET key = value | TO value} (backfill_rate_limit). */
SqlNode TwAlterMaterializedView() :
{
    final Span s;
    final SqlIdentifier id;
    final SqlIdentifier key;
    final SqlNode value;
}
{
    <ALTER> { s = span(); } <MATERIALIZED> <VIEW> id = CompoundIdentifier()
    <SET> key = CompoundIdentifier() ( <EQ> | <TO> ) value = TwSetValue() {
        return new SqlTwCommand(s.end(this), SqlTwCommand.Verb.ALTER_MATERIALIZED_VIEW_SET,
            new SqlNodeList(Arrays.<SqlNode>asList(id, key, value), s.end(this)));
    }
}

/**
 * Replaces Calcite's SqlSetOption: PostgreSQL's {@code SET [SESSION | LOCAL] name = value, ...},
 * {@code SET name TO value}, {@code SET TIME ZONE value}, and {@code RESET name | ALL}.
 */
SqlSetOption TwSetOption(Span s, String scope) :
{
    SqlIdentifier name;
    SqlNode value;
    final List<SqlNode> values = new ArrayList<SqlNode>();
}
{
    (
        <SET> { s.add(this); }
        [ LOOKAHEAD(2) ( <SESSION> | <LOCAL> ) ]
        (
            <TIME> <ZONE> { name = new SqlIdentifier("timezone", getPos()); }
            value = TwSetValue() { values.add(value); }
        |
            name = CompoundIdentifier()
            ( <EQ> | <TO> )
            value = TwSetValue() { values.add(value); }
            ( <COMMA> value = TwSetValue() { values.add(value); } )*
        )
        {
            return new SqlSetOption(s.end(this), scope, name,
                values.size() == 1 ? values.get(0) : new SqlNodeList(values, s.end(this)));
        }
    |
        <RESET> { s.add(this); }
        (
            name = CompoundIdentifier()
        |
            <ALL> { name = new SqlIdentifier("all", getPos()); }
        )
        {
            return new SqlSetOption(s.end(name), scope, name, null);
        }
    )
}

/** A SET value: a literal, a name, or one of the reserved words ON, DEFAULT, LOCAL. */
SqlNode TwSetValue() :
{
    final SqlNode e;
}
{
    e = Literal() { return e; }
|
    e = SimpleIdentifier() { return e; }
|
    <ON> { return new SqlIdentifier("on", getPos()); }
|
    <DEFAULT_> { return new SqlIdentifier("default", getPos()); }
|
    <LOCAL> { return new SqlIdentifier("local", getPos()); }
}
