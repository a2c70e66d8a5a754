package dev.cutover.engine.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cutover.engine.api.EngineProgress;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.io.TempDirFactory;

/**
 * An embedded server whose data lies on tmpfs reads its files by plain pread: tmpfs refuses the read
 * that would not block, which ClickHouse's default tries first, so every read of every file went to a
 * reader thread and back (a carry from v1 four times slower). On a disk the server keeps its default.
 */
class PlainReadsTest {

  private static final Path SHARED_MEMORY = Path.of("/dev/shm");

  @TempDir Path onDisk;

  @Test
  void aServerWithItsDataOnTmpfsReadsByPlainPreadWhateverItsAccess(@TempDir(factory = SharedMemory.class) Path restricted,
      @TempDir(factory = SharedMemory.class) Path open) throws Exception {
    assumeTrue(fileSystem(restricted).equals("tmpfs"), "/dev/shm is not a tmpfs here");
    try {
      assertEquals("pread", readMethod(restricted, ServerAccess.restricted()));
      assertEquals("pread", readMethod(open, ServerAccess.open()));
    } finally {
      EmbeddedServer.stopRunning(restricted, "the test is done");
      EmbeddedServer.stopRunning(open, "the test is done");
    }
  }

  @Test
  void aServerWithItsDataOnADiskKeepsTheServersDefault() throws Exception {
    assumeTrue(!fileSystem(onDisk).equals("tmpfs"), "the temporary folder is on tmpfs here");
    try {
      assertEquals("pread_threadpool", readMethod(onDisk, ServerAccess.restricted()));
    } finally {
      EmbeddedServer.stopRunning(onDisk, "the test is done");
    }
  }

  private static String readMethod(Path dir, ServerAccess access) throws SQLException {
    EmbeddedServer server = EmbeddedServer.startOrJoin(dir, EngineLibrary.fromEnvironment(), access, EngineProgress.NONE);
    try (Connection c = DriverManager.getConnection(server.jdbcUrl(), server.user(),
            new String(server.password().resolve()));
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT getSetting('local_filesystem_read_method')")) {
      rs.next();
      return rs.getString(1);
    } finally {
      server.close();
    }
  }

  private static String fileSystem(Path path) throws IOException {
    return Files.getFileStore(path).type();
  }

  /** A temporary folder on /dev/shm, where there is one; JUnit removes it after the test. */
  static final class SharedMemory implements TempDirFactory {
    @Override
    public Path createTempDirectory(AnnotatedElementContext element, ExtensionContext context) throws IOException {
      return Files.isDirectory(SHARED_MEMORY) ? Files.createTempDirectory(SHARED_MEMORY, "cutover-plain-reads-")
          : Files.createTempDirectory("cutover-plain-reads-");
    }
  }
}
