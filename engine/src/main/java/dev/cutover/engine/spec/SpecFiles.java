package dev.cutover.engine.spec;

import dev.cutover.engine.api.InvalidInputException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Reads a spec or transform file as people write them: a regular file of at most {@link #MAX_BYTES},
 * in UTF-8. Anything else is refused before its contents are read, in a sentence that names the
 * file, what it is and the fix, and never quotes what the file holds (a path typed by mistake may
 * name a secret). A directory, a FIFO or a device is never opened, so nothing blocks or streams
 * forever.
 */
public final class SpecFiles {

  /** The largest spec or transform file: 1 MiB. Real ones are a few KiB. */
  public static final int MAX_BYTES = 1 << 20;

  private SpecFiles() {}

  /**
   * The text of {@code file}; {@code what} names it in sentences ("spec file", "transform file") and
   * {@code field} is the field refusals report.
   */
  public static String read(Path file, String what, String field) {
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(file, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      throw new InvalidInputException(field, "The " + what + " " + file + " does not exist; check the path.");
    } catch (IOException | SecurityException e) {
      throw new InvalidInputException(field, "The " + what + " " + file + " cannot be read (" + reason(e)
          + "); check the path and that you may read it.");
    }
    if (!attributes.isRegularFile()) {
      throw new InvalidInputException(field, "The " + what + " " + file + " is " + kind(file, attributes)
          + ", not a regular file; give the path of the " + what + " itself.");
    }
    if (attributes.size() > MAX_BYTES) {
      throw tooLarge(file, what, field, attributes.size());
    }
    byte[] bytes;
    try (InputStream in = Files.newInputStream(file)) {
      // The file may have grown since its size was read: never take more than the limit and one byte.
      bytes = in.readNBytes(MAX_BYTES + 1);
    } catch (IOException | SecurityException e) {
      throw new InvalidInputException(field, "The " + what + " " + file + " cannot be read (" + reason(e)
          + "); check the path and that you may read it.");
    }
    if (bytes.length > MAX_BYTES) {
      throw tooLarge(file, what, field, bytes.length);
    }
    return decode(bytes, "The " + what + " " + file, field);
  }

  /**
   * Strict UTF-8: a byte that is not UTF-8 (a Latin-1 'é', a binary file) is refused with its line
   * and byte offset. A leading byte-order mark is dropped.
   */
  static String decode(byte[] bytes, String subject, String field) {
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length);
    CoderResult result = decoder.decode(in, out, true);
    if (result.isUnderflow()) {
      result = decoder.flush(out);
    }
    if (result.isError()) {
      int offset = in.position();
      int line = 1;
      for (int i = 0; i < offset; i++) {
        if (bytes[i] == '\n') {
          line++;
        }
      }
      throw new InvalidInputException(field, subject + " is not UTF-8: the byte at offset " + offset + " (line "
          + line + ") is 0x" + String.format("%02X", bytes[offset] & 0xff) + ", which UTF-8 does not allow there; "
          + "save the file as UTF-8 (a Latin-1 or Windows editor setting writes such bytes).");
    }
    out.flip();
    String text = out.toString();
    return text.startsWith("\uFEFF") ? text.substring(1) : text;
  }

  private static InvalidInputException tooLarge(Path file, String what, String field, long size) {
    return new InvalidInputException(field, "The " + what + " " + file + " holds " + size + " bytes, more than the "
        + "limit of " + MAX_BYTES + " bytes (1 MiB); a spec and its transform are a few KiB, so check that the path "
        + "names the right file.");
  }

  private static String kind(Path file, BasicFileAttributes attributes) {
    if (attributes.isDirectory()) {
      return "a directory";
    }
    try {
      Object type = Files.getAttribute(file, "unix:mode");
      if (type instanceof Integer mode) {
        return switch (mode & 0170000) {
          case 0010000 -> "a named pipe (FIFO)";
          case 0020000 -> "a character device";
          case 0060000 -> "a block device";
          case 0140000 -> "a socket";
          default -> "a special file";
        };
      }
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException | SecurityException e) {
      // The kind is only for the sentence; "a special file" says enough.
    }
    return "a special file";
  }

  private static String reason(Exception e) {
    if (e instanceof java.nio.file.AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null) {
      return f.getReason().toLowerCase(java.util.Locale.ROOT);
    }
    return e.getClass().getSimpleName().replace("Exception", "").replaceAll("([a-z])([A-Z])", "$1 $2")
        .toLowerCase(java.util.Locale.ROOT);
  }

}
