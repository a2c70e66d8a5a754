package dev.cutover.engine.spec;

import dev.cutover.engine.sql.SqlLexer;
import dev.cutover.engine.sql.SqlLexer.Token;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The ClickHouse functions that make a transform give other rows when an hour is computed again.
 * Only calls in code count: a {@code now()} in a comment or a string calls nothing. Names match
 * whatever their case, as ClickHouse accepts {@code NOW()}, and also when written as a quoted
 * identifier ({@code `now`()}).
 */
public final class Determinism {

  /**
   * Functions whose result changes from one run to the next whatever the data: the clock, random
   * numbers and identifiers, the position of a row in the blocks the server happens to read, the
   * query's own id. A spec must allow each one it calls with a reason ({@code allow_nondeterministic});
   * an expected-difference rule may call none of them, allowed or not, as it must judge a key the same
   * way every time.
   */
  public static final List<String> REFUSED = List.of(
      // the clock
      "now", "now64", "nowInBlock", "nowInBlock64", "today", "yesterday", "current_timestamp", "localtimestamp",
      "UTCTimestamp", "UTC_timestamp", "curdate", "current_date", "uptime",
      // random numbers, strings and identifiers
      "rand", "rand32", "rand64", "randConstant", "randUniform", "randNormal", "randLogNormal", "randExponential",
      "randChiSquared", "randStudentT", "randFisherF", "randBernoulli", "randBinomial", "randNegativeBinomial",
      "randPoisson", "randCanonical", "randomString", "randomFixedString", "randomPrintableASCII", "randomStringUTF8",
      "fuzzBits", "generateUUIDv4", "generateUUIDv7", "generateSnowflakeID", "generateSerialID", "generateRandom",
      "generateRandomStructure",
      // where a row happens to sit among the blocks read, and the query itself
      "rowNumberInBlock", "rowNumberInAllBlocks", "blockNumber", "blockSize", "runningDifference",
      "runningDifferenceStartingWithFirstValue", "runningAccumulate", "neighbor", "currentQueryID",
      "current_query_id", "serverUUID");

  /**
   * Aggregates that are deterministic only when the value they pick is the same on every row of a
   * group (or the rows arrive in one order): preflight warns and computes a sample hour twice.
   */
  public static final List<String> ORDER_DEPENDENT = List.of("any", "anyLast", "any_value", "first_value",
      "last_value", "groupArray", "groupUniqArray", "topK", "groupArraySample");

  /** One call of a listed function, at a character index of the transform. */
  public record Call(String function, int index) {}

  private static final Map<String, String> CANONICAL = new LinkedHashMap<>();

  static {
    for (String name : REFUSED) {
      CANONICAL.put(name.toLowerCase(Locale.ROOT), name);
    }
    for (String name : ORDER_DEPENDENT) {
      CANONICAL.put(name.toLowerCase(Locale.ROOT), name);
    }
  }

  private static final Pattern CALL = Pattern.compile("(?<![A-Za-z0-9_$.])([A-Za-z_][A-Za-z0-9_]*)\\s*\\(");

  private Determinism() {}

  /** The listed function of this name, spelled as ClickHouse lists it; empty when it is not listed. */
  public static java.util.Optional<String> canonical(String name) {
    return java.util.Optional.ofNullable(CANONICAL.get(name.toLowerCase(Locale.ROOT)));
  }

  /** Every call in {@code sql}'s code of a function in {@code names}, in order. */
  public static List<Call> calls(String sql, Collection<String> names) {
    Matcher m = CALL.matcher(codeView(sql));
    List<Call> out = new ArrayList<>();
    while (m.find()) {
      String name = CANONICAL.get(m.group(1).toLowerCase(Locale.ROOT));
      if (name != null && names.contains(name)) {
        out.add(new Call(name, m.start(1)));
      }
    }
    return out;
  }

  /**
   * The text with comments and quoted text blanked, index for index; a quoted identifier that is a
   * plain name keeps the name, since {@code `now`()} calls now.
   */
  private static String codeView(String sql) {
    StringBuilder out = new StringBuilder(sql);
    for (Token t : SqlLexer.tokens(sql)) {
      if (t.kind() == SqlLexer.Kind.CODE) {
        continue;
      }
      String inside = t.kind() == SqlLexer.Kind.QUOTED_IDENTIFIER && t.closed() && t.end() - t.start() > 2
          ? sql.substring(t.start() + 1, t.end() - 1) : "";
      boolean name = inside.matches("[A-Za-z_][A-Za-z0-9_]*");
      for (int i = t.start(); i < t.end(); i++) {
        out.setCharAt(i, name && i > t.start() && i < t.end() - 1 ? sql.charAt(i) : ' ');
      }
    }
    return out.toString();
  }
}
