package dev.cutover.engine.api;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What of an operator's input may be repeated in a sentence, a log or a file. Input that can carry a
 * credential (a JDBC URL, a driver's message about one, an option's value) is shown through here;
 * the contents of files named by the operator are never shown at all.
 *
 * <pre>{@code
 * Redaction.url("jdbc:clickhous://ops:hunter2@db.internal:8123/pnl?password=x#password=y")
 *     // "jdbc:clickhous://***@db.internal:8123/pnl?password=***#***"
 * }</pre>
 */
public final class Redaction {

  /** What stands in for anything not shown. */
  public static final String MASK = "***";

  /** Secrets shorter than this are not searched for in free text: they would mask ordinary words. */
  public static final int SHORTEST_SECRET = 4;

  private static final Pattern SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+.:-]{0,40}");
  private static final Pattern HOST_PORT = Pattern.compile("[A-Za-z0-9._%\\[\\]:-]{1,300}");
  private static final Pattern DATABASE = Pattern.compile("[A-Za-z0-9_.-]{0,128}");
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
  private static final Pattern PLAIN_VALUE = Pattern.compile("[A-Za-z0-9_./:,+-]{0,300}");
  private static final Pattern SECRET_NAME = Pattern.compile("(?i).*(pass|pwd|secret|token|key|auth|cred|user).*");
  private static final Pattern USERINFO = Pattern.compile("(://)[^\\s'\"<>]*@");
  private static final Pattern SECRET_PARAMETER = Pattern.compile(
      "(?i)([A-Za-z0-9_.-]*(?:password|passwd|pwd|secret|token)[A-Za-z0-9_.-]*=)([^&;#\\s'\"<>,)]+)");

  private Redaction() {}

  /**
   * A URL as it may be shown: its scheme, host, port and database, the names of its parameters and
   * the values of harmless ones (such as {@code ssl=true}); {@value #MASK} for any user information
   * ({@code user:password@}), for the value of any parameter whose name speaks of a password, secret,
   * token, key or user, for a fragment, and for any part that is not shaped as a URL's part should
   * be. Text with no {@code scheme://} in it is not shown at all.
   */
  public static String url(String url) {
    if (url == null || url.isBlank()) {
      return "";
    }
    String text = url.strip();
    int schemeEnd = text.indexOf("://");
    if (schemeEnd < 0) {
      return MASK;
    }
    StringBuilder out = new StringBuilder();
    String scheme = text.substring(0, schemeEnd);
    out.append(SCHEME.matcher(scheme).matches() ? scheme : MASK).append("://");
    String rest = text.substring(schemeEnd + 3);
    // Everything up to the last '@' is user information, whatever characters the password holds.
    int at = rest.lastIndexOf('@');
    if (at >= 0) {
      out.append(MASK).append('@');
      rest = rest.substring(at + 1);
    }
    int fragment = rest.indexOf('#');
    String tail = fragment < 0 ? "" : "#" + MASK;
    rest = fragment < 0 ? rest : rest.substring(0, fragment);
    int query = rest.indexOf('?');
    String parameters = query < 0 ? null : rest.substring(query + 1);
    rest = query < 0 ? rest : rest.substring(0, query);
    int slash = rest.indexOf('/');
    String authority = slash < 0 ? rest : rest.substring(0, slash);
    out.append(HOST_PORT.matcher(authority).matches() ? authority : MASK);
    if (slash >= 0) {
      String path = rest.substring(slash + 1);
      out.append('/').append(DATABASE.matcher(path).matches() ? path : MASK);
    }
    if (parameters != null) {
      out.append('?').append(parameters(parameters));
    }
    return out.append(tail).toString();
  }

  private static String parameters(String query) {
    List<String> shown = new ArrayList<>();
    for (String pair : query.split("[&;]", -1)) {
      int eq = pair.indexOf('=');
      String name = eq < 0 ? pair : pair.substring(0, eq);
      String value = eq < 0 ? null : pair.substring(eq + 1);
      if (!NAME.matcher(name).matches()) {
        shown.add(MASK);
        continue;
      }
      boolean plain = value != null && !SECRET_NAME.matcher(name).matches() && PLAIN_VALUE.matcher(value).matches();
      shown.add(value == null ? name : name + "=" + (plain ? value : MASK));
    }
    return String.join("&", shown);
  }

  /**
   * Free text (a driver's or a library's message, a stack trace) with credentials masked: user
   * information in any URL, the value of any {@code password=}, {@code secret=} or {@code token=}
   * parameter, and every occurrence of the given secrets at least {@value #SHORTEST_SECRET}
   * characters long.
   */
  public static String text(String text, Collection<String> secrets) {
    if (text == null) {
      return null;
    }
    String out = text;
    List<String> known = secrets.stream().filter(s -> s != null && s.length() >= SHORTEST_SECRET)
        .sorted(Comparator.comparingInt(String::length).reversed()).toList();
    for (String secret : known) {
      out = out.replace(secret, MASK);
    }
    out = USERINFO.matcher(out).replaceAll(Matcher.quoteReplacement("://" + MASK + "@"));
    return SECRET_PARAMETER.matcher(out).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + MASK));
  }

  /** As {@link #text(String, Collection)} with no known secret. */
  public static String text(String text) {
    return text(text, List.of());
  }

  /**
   * The values on a command line that are secrets by their place: the value of any option whose name
   * speaks of a password, secret or token ({@code --password X}, {@code --token=X}), which Cutover
   * never takes but an operator may type. The names of environment variables ({@code --password-env})
   * are not secrets.
   */
  public static List<String> commandLineSecrets(List<String> args) {
    List<String> secrets = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (!arg.startsWith("-")) {
        continue;
      }
      int eq = arg.indexOf('=');
      String name = (eq < 0 ? arg : arg.substring(0, eq)).toLowerCase(Locale.ROOT);
      if (!name.matches("-{1,2}[a-z-]*(pass|pwd|secret|token)[a-z-]*") || name.endsWith("-env")
          || name.equals("--ask-password")) {
        continue;
      }
      if (eq >= 0) {
        secrets.add(arg.substring(eq + 1));
      } else if (i + 1 < args.size() && !args.get(i + 1).startsWith("-")) {
        secrets.add(args.get(i + 1));
      }
    }
    return secrets;
  }
}
