package dev.tideway.frontend.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * Moves column-level {@code PRIMARY KEY} constraints of a {@code CREATE TABLE} into one table-level
 * {@code PRIMARY KEY (cols)} (Calcite's DDL grammar only knows the latter).
 */
final class CreateTableRewrite {
  private CreateTableRewrite() {}

  static List<Token> apply(List<Token> t) {
    List<Integer> words = new ArrayList<>();
    for (int i = 0; i < t.size() && words.size() < 2; i++) {
      if (!t.get(i).isTrivia()) {
        words.add(i);
      }
    }
    if (words.size() < 2
        || !t.get(words.get(0)).isWord("CREATE")
        || !t.get(words.get(1)).isWord("TABLE")) {
      return t;
    }
    int open = -1;
    for (int i = words.get(1); i < t.size(); i++) {
      if (t.get(i).kind() == Token.Kind.LPAREN) {
        open = i;
        break;
      }
    }
    if (open < 0) {
      return t;
    }
    List<Token> out = new ArrayList<>(t.subList(0, open + 1));
    List<String> pkCols = new ArrayList<>();
    int depth = 0;
    int elementStart = open + 1;
    for (int i = open + 1; i < t.size(); i++) {
      Token.Kind k = t.get(i).kind();
      if (k == Token.Kind.LPAREN) {
        depth++;
      } else if ((k == Token.Kind.COMMA && depth == 0) || (k == Token.Kind.RPAREN && depth == 0)) {
        element(t.subList(elementStart, i), out, pkCols);
        if (k == Token.Kind.RPAREN) {
          if (!pkCols.isEmpty()) {
            out.add(
                new Token(
                    Token.Kind.SPACE, ", PRIMARY KEY (" + String.join(", ", pkCols) + ")", i));
          }
          out.addAll(t.subList(i, t.size()));
          return out;
        }
        out.add(t.get(i));
        elementStart = i + 1;
      } else if (k == Token.Kind.RPAREN) {
        depth--;
      }
    }
    return t;
  }

  private static void element(List<Token> el, List<Token> out, List<String> pkCols) {
    Token first = el.stream().filter(x -> !x.isTrivia()).findFirst().orElse(null);
    if (first == null
        || first.isWord("PRIMARY")
        || first.isWord("CONSTRAINT")
        || first.isWord("UNIQUE")) {
      out.addAll(el);
      return;
    }
    for (int i = 0; i < el.size(); i++) {
      if (el.get(i).isWord("PRIMARY")) {
        int j = i + 1;
        while (j < el.size() && el.get(j).isTrivia()) {
          j++;
        }
        if (j < el.size() && el.get(j).isWord("KEY")) {
          pkCols.add(first.text());
          out.addAll(el.subList(0, i));
          out.addAll(el.subList(j + 1, el.size()));
          return;
        }
      }
    }
    out.addAll(el);
  }
}
