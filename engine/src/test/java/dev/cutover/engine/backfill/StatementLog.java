package dev.cutover.engine.backfill;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.List;
import javax.sql.DataSource;

/**
 * A data source that runs everything on the real one and keeps the text of each statement prepared on
 * it: for tests that count what the engine sends to the server.
 */
final class StatementLog {

  private StatementLog() {}

  static DataSource of(DataSource real, List<String> sent) {
    return (DataSource) Proxy.newProxyInstance(StatementLog.class.getClassLoader(), new Class<?>[] {DataSource.class},
        (proxy, method, args) -> {
          Object result = invoke(method, real, args);
          return result instanceof Connection c ? connection(c, sent) : result;
        });
  }

  private static Connection connection(Connection real, List<String> sent) {
    return (Connection) Proxy.newProxyInstance(StatementLog.class.getClassLoader(), new Class<?>[] {Connection.class},
        (proxy, method, args) -> {
          if (method.getName().startsWith("prepare") && args != null && args[0] instanceof String text) {
            sent.add(text);
          }
          return invoke(method, real, args);
        });
  }

  private static Object invoke(java.lang.reflect.Method method, Object target, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
