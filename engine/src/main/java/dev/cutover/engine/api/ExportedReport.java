package dev.cutover.engine.api;

import java.nio.file.Path;

/** The files a report export wrote: the page for reviewers and the CSV of every key beside it. */
public record ExportedReport(Path html, Path csv) {}
