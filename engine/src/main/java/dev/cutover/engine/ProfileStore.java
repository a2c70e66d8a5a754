package dev.cutover.engine;

import dev.cutover.engine.api.InvalidInputException;
import dev.cutover.engine.api.SavedProfile;
import dev.cutover.engine.embedded.UserDirectories;
import dev.cutover.engine.spec.YamlErrors;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.snakeyaml.engine.v2.api.Dump;
import org.snakeyaml.engine.v2.api.DumpSettings;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.common.FlowStyle;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;

/**
 * Saved connection profiles in one YAML file, by default {@code ~/.config/cutover/profiles.yaml}.
 * The file holds no password, only where each password comes from; a file that carries a
 * {@code password} key is refused rather than read. It is written whole to a temporary file readable
 * by its owner only and moved into place, so that a crash leaves the old list or the new one.
 */
public final class ProfileStore {

  private static final String HEADER = """
      # Cutover's saved connection profiles. No password is ever stored here: password_from says
      # where it comes from at connect: none, ask (a prompt), env (the variable in password_ref)
      # or file (the first line of the file in password_ref, readable by you only).
      """;
  private static final Set<String> KEYS = Set.of("name", "jdbc_url", "user", "database", "password_from",
      "password_ref", "hooks");

  private final Path file;

  public ProfileStore(Path file) {
    this.file = file;
  }

  /** The store of this user: {@code $XDG_CONFIG_HOME/cutover/profiles.yaml}. */
  public static ProfileStore forUser() {
    return new ProfileStore(UserDirectories.config().resolve("profiles.yaml"));
  }

  public Path file() {
    return file;
  }

  /** The saved profiles, sorted by name; none when the file does not exist yet. */
  public List<SavedProfile> list() {
    if (!Files.exists(file)) {
      return List.of();
    }
    String yaml;
    try {
      yaml = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new InvalidInputException("profiles", "The profiles file " + file + " cannot be read (" + e.getMessage()
          + "); check its owner and permissions.");
    }
    Object root;
    try {
      root = new Load(LoadSettings.builder().setLabel(file.toString()).setAllowDuplicateKeys(false).build())
          .loadFromString(yaml);
    } catch (YamlEngineException e) {
      throw new InvalidInputException("profiles", "The profiles file " + file + " is not valid YAML ("
          + YamlErrors.describe(e) + "); fix it or move it away to start a new list.");
    }
    if (root == null) {
      return List.of();
    }
    if (!(root instanceof Map<?, ?> map) || !(map.get("profiles") instanceof List<?> entries)) {
      throw new InvalidInputException("profiles", "The profiles file " + file + " must hold a list under "
          + "'profiles:'; fix it or move it away to start a new list.");
    }
    List<SavedProfile> profiles = new ArrayList<>();
    int index = 0;
    for (Object entry : entries) {
      index++;
      profiles.add(parse(entry, index));
    }
    checkUnique(profiles);
    profiles.sort(Comparator.comparing(p -> p.name().toLowerCase(java.util.Locale.ROOT)));
    return List.copyOf(profiles);
  }

  public Optional<SavedProfile> find(String name) {
    return list().stream().filter(p -> p.name().equalsIgnoreCase(name.strip())).findFirst();
  }

  /**
   * Saves a profile; {@code previousName} is the name it had when it is edited (it may be renamed), or
   * empty for a new one. A new profile may not take the name of another.
   */
  public void save(SavedProfile profile, Optional<String> previousName) {
    List<SavedProfile> profiles = new ArrayList<>(list());
    previousName.ifPresent(old -> profiles.removeIf(p -> p.name().equalsIgnoreCase(old)));
    if (profiles.stream().anyMatch(p -> p.name().equalsIgnoreCase(profile.name()))) {
      throw new InvalidInputException("profile-name", "A profile named '" + profile.name() + "' exists already; "
          + "choose another name or edit that profile.");
    }
    profiles.add(profile);
    write(profiles);
  }

  /** Removes the profile of that name; nothing happens when there is none. */
  public void delete(String name) {
    List<SavedProfile> profiles = new ArrayList<>(list());
    if (profiles.removeIf(p -> p.name().equalsIgnoreCase(name))) {
      write(profiles);
    }
  }

  private SavedProfile parse(Object entry, int index) {
    String where = "Profile " + index + " in " + file;
    if (!(entry instanceof Map<?, ?> fields)) {
      throw new InvalidInputException("profiles", where + " is not a mapping of name, jdbc_url, user, database and "
          + "password_from; fix it or move the file away.");
    }
    for (Object key : fields.keySet()) {
      String k = String.valueOf(key);
      if (k.toLowerCase(java.util.Locale.ROOT).contains("password") && !k.equals("password_from")
          && !k.equals("password_ref")) {
        throw new InvalidInputException("profiles", where + " holds a key '" + k + "'; Cutover never reads a "
            + "password from this file. Remove it and set password_from to ask, env or file.");
      }
      if (!KEYS.contains(k)) {
        throw new InvalidInputException("profiles", where + " holds an unknown key '" + k + "'; the keys are "
            + String.join(", ", KEYS.stream().sorted().toList()) + ".");
      }
    }
    try {
      @SuppressWarnings("unchecked")
      Map<String, Object> holder = (Map<String, Object>) fields;
      return SavedProfile.of(text(fields, "name"), text(fields, "jdbc_url"), text(fields, "user"),
          text(fields, "database"), SavedProfile.parsePassword(text(fields, "password_from")),
          text(fields, "password_ref")).withHooks(dev.cutover.engine.spec.HookFields.of(holder,
              file.toString()));
    } catch (InvalidInputException e) {
      throw new InvalidInputException("profiles", where + ": " + e.getMessage());
    }
  }

  private static String text(Map<?, ?> fields, String key) {
    Object value = fields.get(key);
    return value == null ? "" : String.valueOf(value);
  }

  private void checkUnique(List<SavedProfile> profiles) {
    Set<String> seen = new java.util.HashSet<>();
    for (SavedProfile p : profiles) {
      if (!seen.add(p.name().toLowerCase(java.util.Locale.ROOT))) {
        throw new InvalidInputException("profiles", "The profiles file " + file + " names '" + p.name() + "' twice; "
            + "rename or remove one of them.");
      }
    }
  }

  private void write(List<SavedProfile> profiles) {
    List<Map<String, Object>> entries = profiles.stream()
        .sorted(Comparator.comparing(p -> p.name().toLowerCase(java.util.Locale.ROOT)))
        .map(ProfileStore::fields).toList();
    String yaml = HEADER + new Dump(DumpSettings.builder().setDefaultFlowStyle(FlowStyle.BLOCK).build())
        .dumpToString(Map.of("profiles", entries));
    boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    try {
      Path dir = file.toAbsolutePath().getParent();
      if (!Files.isDirectory(dir)) {
        if (posix) {
          Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } else {
          Files.createDirectories(dir);
        }
      }
      Path temporary = posix
          ? Files.createTempFile(dir, ".profiles-", ".yaml",
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
          : Files.createTempFile(dir, ".profiles-", ".yaml");
      try {
        Files.writeString(temporary, yaml, StandardCharsets.UTF_8);
        try {
          Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
        }
      } finally {
        Files.deleteIfExists(temporary);
      }
    } catch (IOException e) {
      throw new InvalidInputException("profiles", "The profiles file " + file + " cannot be written ("
          + e.getMessage() + "); check that its folder exists and belongs to you.");
    }
  }

  private static Map<String, Object> fields(SavedProfile p) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", p.name());
    m.put("jdbc_url", p.jdbcUrl());
    m.put("user", p.user());
    m.put("database", p.database());
    m.put("password_from", p.password().saved());
    if (!p.passwordReference().isEmpty()) {
      m.put("password_ref", p.passwordReference());
    }
    // A profile's hooks are written back as read, so that editing the profile in the console keeps them.
    if (!p.hooks().isEmpty()) {
      m.put("hooks", p.hooks().stream().map(h -> {
        Map<String, Object> hook = new LinkedHashMap<>();
        hook.put("on", h.on().key());
        hook.put("command", h.command());
        hook.put("timeout", h.timeout().toSeconds() + "s");
        return hook;
      }).toList());
    }
    return m;
  }
}
