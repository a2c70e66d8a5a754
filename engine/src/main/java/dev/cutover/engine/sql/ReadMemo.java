package dev.cutover.engine.sql;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The answers of one step that only reads, each question asked of the server once: a preflight asks where the
 * live edge is, whether v2 exists or what a source's columns are from many of its checks, and on a remote
 * cluster every one of those is a round trip. A question is the same when its purpose ({@code what}), its
 * statement, its bound values and the row mapper's class are; only a mapper that captures nothing is trusted to
 * give the same rows the same answer, so a read through any other is asked again. Any write through the
 * {@link Sql} that holds this forgets every answer: what follows it is asked of the server again.
 *
 * <p>The step sees the server as it was when each question was first asked, as one consistent look rather than
 * a moving one; a step that must see a change (a wait, a poll, a proof after a write) does not read through a
 * memo.
 */
final class ReadMemo {

  private record Question(String what, String sql, List<Object> values, Class<?> row) {}

  private static final ClassValue<Boolean> CAPTURES_NOTHING = new ClassValue<>() {
    @Override
    protected Boolean computeValue(Class<?> type) {
      return Arrays.stream(type.getDeclaredFields()).allMatch(f -> Modifier.isStatic(f.getModifiers()));
    }
  };

  private final Map<Question, List<?>> answers = new ConcurrentHashMap<>();

  /** The rows of a read, from the server the first time it is asked and from memory after that. */
  @SuppressWarnings("unchecked")
  <T> List<T> answer(String what, String sql, Sql.Row<T> row, Object[] values, Supplier<List<T>> ask) {
    if (!CAPTURES_NOTHING.get(row.getClass())) {
      return ask.get();
    }
    Question question = new Question(what, sql, Arrays.asList(values.clone()), row.getClass());
    // The list asked for is the memo's own; each caller gets a copy it may change.
    List<?> known = answers.get(question);
    if (known == null) {
      known = ask.get();
      answers.putIfAbsent(question, known);
    }
    return new ArrayList<>((List<T>) known);
  }

  /** After a write: every answer may have changed. */
  void forget() {
    answers.clear();
  }
}
