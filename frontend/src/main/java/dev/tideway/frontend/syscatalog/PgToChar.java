package dev.tideway.frontend.syscatalog;

import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.SqlState;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDateTime;
import java.time.format.TextStyle;
import java.time.temporal.ChronoField;
import java.time.temporal.IsoFields;
import java.util.Locale;

/**
 * PostgreSQL's {@code to_char} templates: for date/time values the common patterns ({@code YYYY},
 * {@code MM}, {@code DD}, {@code HH24}, {@code HH12}, {@code MI}, {@code SS}, {@code MS}, {@code
 * US}, {@code AM}, {@code Mon}, {@code Month}, {@code Dy}, {@code Day}, {@code DDD}, {@code D},
 * {@code IW}, {@code WW}, {@code Q}, {@code TZ}, the {@code FM} prefix, {@code "quoted"} text); for
 * numbers the digit patterns {@code 9}, {@code 0}, {@code .}/{@code D}, {@code ,}/{@code G}, {@code
 * FM}, {@code S}, {@code MI} and {@code PR}. Pure functions.
 */
final class PgToChar {
  private PgToChar() {}

  /** {@code to_char(timestamp, template)}, the value in UTC. */
  static String format(LocalDateTime t, String template) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < template.length()) {
      boolean fm = template.startsWith("FM", i) || template.startsWith("fm", i);
      if (fm) {
        i += 2;
      }
      char c = template.charAt(i);
      if (c == '"') {
        int end = template.indexOf('"', i + 1);
        end = end < 0 ? template.length() : end;
        out.append(template, i + 1, end);
        i = end + 1;
        continue;
      }
      String rest = template.substring(i);
      String upper = rest.toUpperCase(Locale.ROOT);
      int hour12 = t.getHour() % 12 == 0 ? 12 : t.getHour() % 12;
      String[][] patterns = {
        {"HH24", pad(t.getHour(), 2, fm)},
        {"HH12", pad(hour12, 2, fm)},
        {"HH", pad(hour12, 2, fm)},
        {"MI", pad(t.getMinute(), 2, fm)},
        {"SSSS", String.valueOf(t.toLocalTime().toSecondOfDay())},
        {"SS", pad(t.getSecond(), 2, fm)},
        {"MS", pad(t.getNano() / 1_000_000, 3, fm)},
        {"US", pad(t.getNano() / 1_000, 6, fm)},
        {"YYYY", pad(t.getYear(), 4, fm)},
        {"YYY", pad(t.getYear() % 1000, 3, fm)},
        {"YY", pad(t.getYear() % 100, 2, fm)},
        {"IW", pad(t.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR), 2, fm)},
        {"WW", pad((t.getDayOfYear() - 1) / 7 + 1, 2, fm)},
        {"DDD", pad(t.getDayOfYear(), 3, fm)},
        {"DD", pad(t.getDayOfMonth(), 2, fm)},
        {"MM", pad(t.getMonthValue(), 2, fm)},
        {"TZ", "UTC"},
        {"Q", String.valueOf(t.get(IsoFields.QUARTER_OF_YEAR))},
        {"D", String.valueOf(t.get(ChronoField.DAY_OF_WEEK) % 7 + 1)},
        {"Y", String.valueOf(t.getYear() % 10)},
      };
      String matched = words(t, rest, fm, out);
      for (int k = 0; matched == null && k < patterns.length; k++) {
        String[] p = patterns[k];
        if (upper.startsWith(p[0])) {
          out.append(p[1]);
          matched = p[0];
        }
      }
      if (matched != null) {
        i += matched.length();
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }

  /** Month and day names and the meridiem, in the case the template spells them; or null. */
  private static String words(LocalDateTime t, String rest, boolean fm, StringBuilder out) {
    String[] names = {"MONTH", "MON", "DAY", "DY", "AM", "PM", "A.M.", "P.M."};
    for (String n : names) {
      if (!rest.toUpperCase(Locale.ROOT).startsWith(n)) {
        continue;
      }
      String spelled = rest.substring(0, n.length());
      String word =
          switch (n) {
            case "MONTH" -> t.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH);
            case "MON" -> t.getMonth().getDisplayName(TextStyle.SHORT, Locale.ENGLISH);
            case "DAY" -> t.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH);
            case "DY" -> t.getDayOfWeek().getDisplayName(TextStyle.SHORT, Locale.ENGLISH);
            case "AM", "PM" -> t.getHour() < 12 ? "AM" : "PM";
            default -> t.getHour() < 12 ? "A.M." : "P.M.";
          };
      if ((n.equals("MONTH") || n.equals("DAY")) && !fm) {
        word = String.format("%-9s", word);
      }
      if (spelled.equals(spelled.toUpperCase(Locale.ROOT))) {
        word = word.toUpperCase(Locale.ROOT);
      } else if (spelled.equals(spelled.toLowerCase(Locale.ROOT))) {
        word = word.toLowerCase(Locale.ROOT);
      }
      out.append(word);
      return n;
    }
    return null;
  }

  private static String pad(int v, int width, boolean fm) {
    String s = String.valueOf(v);
    return fm || s.length() >= width ? s : "0".repeat(width - s.length()) + s;
  }

  /** {@code to_char(number, template)}. */
  static String format(BigDecimal v, String template) {
    String t = template;
    boolean fm = t.toUpperCase(Locale.ROOT).startsWith("FM");
    if (fm) {
      t = t.substring(2);
    }
    String up = t.toUpperCase(Locale.ROOT);
    boolean pr = up.endsWith("PR");
    boolean mi = up.endsWith("MI");
    boolean leadS = up.startsWith("S");
    if (pr || mi) {
      t = t.substring(0, t.length() - 2);
    }
    if (leadS) {
      t = t.substring(1);
    }
    int point = indexOfPoint(t);
    String intPart = point < 0 ? t : t.substring(0, point);
    String fracPart = point < 0 ? "" : t.substring(point + 1);
    int fracDigits = (int) fracPart.chars().filter(ch -> ch == '9' || ch == '0').count();
    int intDigits = (int) intPart.chars().filter(ch -> ch == '9' || ch == '0').count();
    if (intDigits + fracDigits == 0) {
      throw PgException.error(
          SqlState.INVALID_PARAMETER_VALUE, "invalid number format \"" + template + "\"");
    }
    BigDecimal r = v.abs().setScale(fracDigits, RoundingMode.HALF_UP);
    String digits = r.toPlainString();
    String ip = fracDigits > 0 ? digits.substring(0, digits.indexOf('.')) : digits;
    String fp = fracDigits > 0 ? digits.substring(digits.indexOf('.') + 1) : "";
    if (ip.equals("0")) {
      ip = "";
    }
    StringBuilder out = new StringBuilder();
    if (ip.length() > intDigits) {
      // too many digits: PostgreSQL prints '#' in every digit position
      out.append(intPart.replaceAll("[90]", "#").replaceAll("[,G]", ","));
      if (point >= 0) {
        out.append('.').append("#".repeat(fracDigits));
      }
      return sign(out.toString(), v, leadS, mi, pr);
    }
    int firstZero = intPart.indexOf('0');
    int k = ip.length() - 1;
    StringBuilder ib = new StringBuilder();
    for (int j = intPart.length() - 1; j >= 0; j--) {
      char ch = intPart.charAt(j);
      if (ch == '9' || ch == '0') {
        boolean forcedZero = firstZero >= 0 && j >= firstZero;
        boolean onlyDigit = j == intPart.length() - 1 && fracDigits == 0 && ip.isEmpty();
        if (k >= 0) {
          ib.append(ip.charAt(k--));
        } else if (forcedZero || onlyDigit) {
          ib.append('0');
        } else {
          ib.append(' ');
        }
      } else if (ch == ',' || ch == 'G' || ch == 'g') {
        ib.append(k >= 0 || (firstZero >= 0 && j > firstZero) ? ',' : ' ');
      } else {
        ib.append(ch);
      }
    }
    out.append(ib.reverse());
    if (point >= 0) {
      out.append('.');
      int f = 0;
      StringBuilder fb = new StringBuilder();
      int keep = 0; // FM drops trailing zeros in 9 positions only; 0 positions always print
      for (char ch : fracPart.toCharArray()) {
        if (ch == '9' || ch == '0') {
          char d = fp.charAt(f++);
          fb.append(d);
          if (!fm || ch == '0' || d != '0') {
            keep = fb.length();
          }
        } else {
          fb.append(ch);
          keep = fb.length();
        }
      }
      out.append(fm ? fb.substring(0, keep) : fb);
    }
    String s = sign(out.toString(), v, leadS, mi, pr);
    return fm ? s.trim() : s;
  }

  private static int indexOfPoint(String t) {
    for (int i = 0; i < t.length(); i++) {
      char c = t.charAt(i);
      if (c == '.' || c == 'D' || c == 'd') {
        return i;
      }
    }
    return -1;
  }

  /** The sign where the template asks for it; by default a leading '-' or ' '. */
  private static String sign(String body, BigDecimal v, boolean leadS, boolean mi, boolean pr) {
    boolean neg = v.signum() < 0;
    if (pr) {
      return neg ? "<" + body.trim() + ">" : " " + body + " ";
    }
    if (mi) {
      return body + (neg ? "-" : " ");
    }
    String trimmed = body.stripLeading();
    String lead = body.substring(0, body.length() - trimmed.length());
    String s = leadS ? (neg ? "-" : "+") : (neg ? "-" : " ");
    return lead + s + trimmed;
  }
}
