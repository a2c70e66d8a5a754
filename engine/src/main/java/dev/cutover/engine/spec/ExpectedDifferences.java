package dev.cutover.engine.spec;

import dev.cutover.engine.api.Identifier;
import dev.cutover.engine.api.TableSpec.ExpectedDifference;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A spec's {@code expected_differences}: the rules that say where v2 may differ from v1 and by how
 * much. Each names measures of the spec only, and says what it expects: a delta per measure, a check,
 * or both. Their expressions are checked by the server later, against the tables.
 */
final class ExpectedDifferences {

  private static final Pattern VERSION_COLUMN =
      Pattern.compile("(?<![A-Za-z0-9_`])v[12]\\.`?([A-Za-z_][A-Za-z0-9_]*)`?(?![A-Za-z0-9_])");

  private ExpectedDifferences() {}

  static List<ExpectedDifference> read(Fields f, List<Identifier> measures) {
    List<ExpectedDifference> out = new ArrayList<>();
    Set<String> ruleNames = new LinkedHashSet<>();
    for (Fields r : f.optionalList("expected_differences")) {
      r.allowOnly(Set.of("name", "where", "delta", "check", "tolerance", "why"));
      // where, delta and check speak of v1.column and v2.column: the key's row as each version has it.
      String name = r.text("name");
      if (!ruleNames.add(name)) {
        throw r.error("name", name, "a name not used by another rule");
      }
      Map<Identifier, String> delta = new LinkedHashMap<>();
      Fields d = r.optionalChild("delta");
      for (String key : d.keys()) {
        Identifier measure = Identifier.simple(d.path(key), key);
        if (!measures.contains(measure)) {
          throw d.error(key, key, "one of the measures " + measures);
        }
        delta.put(measure, d.expression(key));
      }
      List<String> checks = r.expressions("check");
      if (delta.isEmpty() && checks.isEmpty()) {
        throw r.error("delta", "missing", "at least one measure with its expected v2 - v1 expression, or a check "
            + "such as 'v2.clicks <= v1.clicks'");
      }
      Set<String> named = new HashSet<>();
      checks.forEach(c -> named.addAll(columns(c)));
      List<Identifier> checked = measures.stream().filter(m -> named.contains(m.name())).toList();
      Optional<java.math.BigDecimal> tolerance = r.keys().contains("tolerance")
          ? Optional.of(r.tolerance("tolerance")) : Optional.empty();
      out.add(new ExpectedDifference(name, r.optionalExpression("where", "1"), delta, checks, checked, tolerance,
          r.text("why")));
    }
    return out;
  }

  /** The columns an expression names as {@code v1.column} or {@code v2.column}, in one pass. */
  static Set<String> columns(String expression) {
    Set<String> out = new HashSet<>();
    Matcher m = VERSION_COLUMN.matcher(expression);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }
}
