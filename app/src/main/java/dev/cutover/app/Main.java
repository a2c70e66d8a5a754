package dev.cutover.app;

import dev.cutover.app.cli.AbandonCommand;
import dev.cutover.app.cli.AckCommand;
import dev.cutover.app.cli.BackfillCommand;
import dev.cutover.app.cli.CheckCommand;
import dev.cutover.app.cli.CleanupCommand;
import dev.cutover.app.cli.ConnectionOptions;
import dev.cutover.app.cli.ConnectionSettings;
import dev.cutover.app.cli.ExitCodes;
import dev.cutover.app.cli.PlanCommand;
import dev.cutover.app.cli.PreflightCommand;
import dev.cutover.app.cli.ReconcileCommand;
import dev.cutover.app.cli.RetentionCommand;
import dev.cutover.app.cli.SampleCommand;
import dev.cutover.app.cli.ServerCommand;
import dev.cutover.app.cli.SpecOptions;
import dev.cutover.app.cli.StatusCommand;
import dev.cutover.app.cli.SwapCommands;
import dev.cutover.app.demo.DemoCommand;
import dev.cutover.engine.ProfileStore;
import dev.cutover.engine.Session;
import dev.cutover.engine.api.CutoverException;
import dev.cutover.engine.api.Redaction;
import dev.cutover.engine.api.SavedProfile;
import dev.cutover.ui.ConsoleStartup;
import dev.cutover.ui.CutoverConsole;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** The {@code cutover} command: the console by default, and the headless commands. */
@Command(name = "cutover", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
    description = {
        "Repair an hourly-partitioned ClickHouse table while its live job keeps running: backfill corrected "
            + "history, reconcile, and switch consumers in one atomic step.",
        "",
        "Without a command, opens the console on the embedded ClickHouse (or on --jdbc-url)."},
    subcommands = {CheckCommand.class, ServerCommand.class, PlanCommand.class, PreflightCommand.class,
        SampleCommand.class, BackfillCommand.class, StatusCommand.class, ReconcileCommand.class, AckCommand.class,
        SwapCommands.CutoverCommand.class, SwapCommands.RollbackCommand.class, RetentionCommand.class, AbandonCommand.class,
        dev.cutover.app.cli.DeployLiveCommand.class, dev.cutover.app.cli.DeclareLiveCommand.class,
        dev.cutover.app.cli.ClusterCommand.class,
        CleanupCommand.class, DemoCommand.class, CommandLine.HelpCommand.class},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        "0:success", "1:internal error", "2:bad input", "3:could not connect, or the server is unsuitable",
        "4:the embedded engine could not be fetched or started", "5:a statement failed on the server",
        "6:a check found a blocking problem, or a step was refused", "7:the console cannot open a window (no desktop session, or no GTK 3)",
        "8:another process holds the repair or the target; try again later",
        "130:interrupted"})
public final class Main implements Callable<Integer> {

  @Mixin ConnectionOptions connection;
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec self;

  public static void main(String[] args) {
    // What this process is, for the embedded server's log of who uses it: cutover backfill, cutover console, …
    System.exit(run(command -> System.setProperty("cutover.command", command), args));
  }

  static int run(String... args) {
    return run(command -> { }, args);
  }

  /**
   * Runs the command line; {@code named} hears the command it runs, as the parser found it ({@link #commandName}),
   * before it runs.
   */
  static int run(java.util.function.Consumer<String> named, String... args) {
    CommandLine cli = new CommandLine(new Main());
    // A database or profile may be named like a command (cutover is one): an option's value is never a command.
    cli.setAllowSubcommandsAsOptionParameters(true);
    // Every sentence printed about a failure goes through here: no password it may quote reaches the terminal.
    List<String> secrets = secrets(List.of(args));
    cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
      if (e instanceof CutoverException known) {
        commandLine.getErr().println(Redaction.text("error: " + known.getMessage() + optionHint(known, commandLine),
            secrets));
        return ExitCodes.of(known);
      }
      if (e instanceof InterruptedException) {
        commandLine.getErr().println("interrupted");
        return ExitCodes.INTERRUPTED;
      }
      StringWriter trace = new StringWriter();
      e.printStackTrace(new PrintWriter(trace));
      commandLine.getErr().println(Redaction.text("internal error: " + e + " (please report it with the log above)",
          secrets));
      commandLine.getErr().print(Redaction.text(trace.toString(), secrets));
      return ExitCodes.INTERNAL;
    });
    cli.setParameterExceptionHandler((e, unmatched) -> {
      e.getCommandLine().getErr().println(Redaction.text("error: " + e.getMessage() + ". See '"
          + e.getCommandLine().getCommandSpec().qualifiedName() + " --help'.", secrets));
      return ExitCodes.INPUT;
    });
    cli.setExecutionStrategy(parsed -> {
      Main main = (Main) parsed.commandSpec().userObject();
      CommandLine.ParseResult leaf = parsed;
      while (leaf.hasSubcommand()) {
        leaf = leaf.subcommand();
      }
      named.accept(commandName(parsed));
      if (leaf != parsed && main.connection.given()) {
        java.util.Optional<ConnectionOptions> own = connectionOf(leaf.commandSpec());
        if (own.isEmpty()) {
          throw new CommandLine.ParameterException(leaf.commandSpec().commandLine(), "'"
              + leaf.commandSpec().qualifiedName() + "' does not connect: leave out the connection options");
        }
        try {
          own.get().inherit(main.connection);
        } catch (CutoverException twice) {
          throw new CommandLine.ParameterException(leaf.commandSpec().commandLine(), twice.getMessage()
              .replaceFirst("\\.$", ""));
        }
      }
      return new CommandLine.RunLast().execute(parsed);
    });
    return cli.execute(args);
  }

  /**
   * The command a parsed command line runs, in words: {@code cutover backfill}, {@code cutover demo seed}, {@code
   * cutover console} when none is named. Read from the parser, so options before the command ({@code cutover
   * --data-dir D check}) and values that look like commands are never taken for it.
   */
  static String commandName(CommandLine.ParseResult parsed) {
    CommandLine.ParseResult leaf = parsed;
    while (leaf.hasSubcommand()) {
      leaf = leaf.subcommand();
    }
    return leaf == parsed ? parsed.commandSpec().name() + " console" : leaf.commandSpec().qualifiedName(" ");
  }

  /** The connection options of a command, where it has them (as its own mixin or a mixin's). */
  private static java.util.Optional<ConnectionOptions> connectionOf(CommandLine.Model.CommandSpec command) {
    if (command.userObject() instanceof ConnectionOptions options) {
      return java.util.Optional.of(options);
    }
    return command.mixins().values().stream().map(Main::connectionOf).flatMap(java.util.Optional::stream).findFirst();
  }

  /**
   * What must never be printed: the password in the variable the command reads it from (CUTOVER_PASSWORD or the
   * one --password-env names), and the value of any password-like option typed by mistake.
   */
  static List<String> secrets(List<String> args) {
    List<String> secrets = new ArrayList<>(Redaction.commandLineSecrets(args));
    List<String> variables = new ArrayList<>(List.of(ConnectionOptions.DEFAULT_PASSWORD_VARIABLE));
    for (int i = 0; i < args.size(); i++) {
      if (args.get(i).equals("--password-env") && i + 1 < args.size()) {
        variables.add(args.get(i + 1));
      } else if (args.get(i).startsWith("--password-env=")) {
        variables.add(args.get(i).substring("--password-env=".length()));
      }
    }
    profilePasswordVariable(args).ifPresent(variables::add);
    for (String variable : variables) {
      String value = variable.isEmpty() ? null : System.getenv(variable);
      if (value != null) {
        secrets.add(value);
        secrets.add(value.strip());
      }
    }
    return List.copyOf(secrets);
  }

  /** The variable a saved profile named by --profile or CUTOVER_PROFILE reads its password from, if it does. */
  private static java.util.Optional<String> profilePasswordVariable(List<String> args) {
    String name = System.getenv(ConnectionSettings.PROFILE_VARIABLE);
    for (int i = 0; i < args.size(); i++) {
      if (args.get(i).equals("--profile") && i + 1 < args.size()) {
        name = args.get(i + 1);
      } else if (args.get(i).startsWith("--profile=")) {
        name = args.get(i).substring("--profile=".length());
      }
    }
    if (name == null || name.isBlank()) {
      return java.util.Optional.empty();
    }
    try {
      return ProfileStore.forUser().find(name).filter(p -> p.password() == SavedProfile.Password.ENVIRONMENT)
          .map(SavedProfile::passwordReference);
    } catch (CutoverException unreadable) {
      return java.util.Optional.empty(); // the command refuses the profiles file itself, in a sentence
    }
  }

  /**
   * The engine speaks of a start, a boundary or a reason, not of options; on the command line the
   * option that holds the refused value, or that lifts a refusal, is named after the sentence, when
   * the command has one.
   */
  private static final java.util.Set<String> HINTED = java.util.Set.of("confirm", "reason", "from", "to", "hours",
      "user", "concurrency", "batch-hours", "max-threads", "priority", "attempts", "server-wait", "force",
      "acknowledge", "nice", "rest-percent", "data-dir");

  static String optionHint(CutoverException e, CommandLine commandLine) {
    if (e.getMessage().contains("--")) {
      return "";
    }
    List<String> fields = switch (e) {
      case dev.cutover.engine.api.InvalidInputException invalid -> List.of(invalid.field());
      case dev.cutover.engine.api.StepRefusedException refused -> refused.fields();
      default -> List.of();
    };
    List<String> options = fields.stream().filter(HINTED::contains).map(f -> f.equals("hours") ? "hour" : f)
        .map(f -> commandLine.getCommandSpec().findOption("--" + f)).filter(java.util.Objects::nonNull)
        .map(CommandLine.Model.OptionSpec::longestName).toList();
    return options.isEmpty() ? "" : " (option" + (options.size() == 1 ? " " : "s ") + String.join(", ", options) + ")";
  }

  @Override
  public Integer call() {
    connection.settings(); // bad input (an empty --data-dir, an empty XDG_DATA_HOME) is refused before anything else
    if (connection.localCluster()) {
      connection.localShards(); // a number of shards the local cluster cannot start is refused before any window
    }
    var noDisplay = DesktopSession.missing(System::getenv, DesktopSession.launcher());
    if (noDisplay.isPresent()) {
      self.commandLine().getErr().println("error: " + noDisplay.get());
      return ExitCodes.NO_DESKTOP;
    }
    try {
      return console();
    } catch (UnsupportedOperationException e) {
      String sentence = DesktopSession.windowFailure(e.getMessage(), System.getenv("DISPLAY"), DesktopSession.launcher())
          .orElseThrow(() -> e);
      self.commandLine().getErr().println("error: " + sentence);
      return ExitCodes.NO_DESKTOP;
    }
  }

  private int console() {
    if (connection.localCluster()) {
      // The embedded local cluster: the console opens the demo's sharded spec.
      int shards = connection.localShards();
      java.nio.file.Path root = connection.claimedClusterRoot();
      CutoverConsole.launch(new ConsoleStartup("embedded local cluster of " + shards + " shards (data: " + root + ")",
          progress -> Session.cluster(root, shards, progress)).withDefaultSpec(SpecOptions.demoClusterSpec())
          .withDemo(new ClusterDemoConsole(root, shards)));
      return ExitCodes.OK;
    }
    boolean embedded = connection.embedded();
    String target = embedded
        ? "embedded ClickHouse (data: " + connection.dataDirectory() + ")"
        : Redaction.url(connection.profile().jdbcUrl()) + " as " + connection.profile().user();
    ConsoleStartup startup = new ConsoleStartup(target, progress -> embedded
        ? Session.embedded(connection.dataDirectory(), progress)
        : Session.connect(connection.profile()));
    if (!embedded) {
      CutoverConsole.launch(startup);
      return ExitCodes.OK;
    }
    // On the embedded default the demo world is the default: its spec, and the buttons of its live job and
    // its corrected writer. Nothing of it starts until the operator presses one.
    try (DemoConsole demo = new DemoConsole(connection.dataDirectory())) {
      CutoverConsole.launch(startup.withDefaultSpec(SpecOptions.demoSpec()).withDemo(demo));
    }
    return ExitCodes.OK;
  }

  /** The version from the jar's manifest, or "development" when run from classes. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Main.class.getPackage().getImplementationVersion();
      return new String[] {"cutover " + (v == null ? "development" : v)};
    }
  }
}
