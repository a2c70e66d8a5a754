package dev.cutover.app.demo;

/** The two versions of the hourly PnL logic: v1 as it ran for six months (with the fee bug), v2 corrected. */
public enum PnlVersion {
  V1("v1", "pnl_v1.sql"),
  V2("v2", "pnl_v2.sql");

  private final String label;
  private final String transformResource;

  PnlVersion(String label, String transformResource) {
    this.label = label;
    this.transformResource = transformResource;
  }

  /** {@code v1} or {@code v2}, as stored in the demo's write log. */
  public String label() {
    return label;
  }

  /** The transform: a SELECT of the target's columns for the hours in {@code [window_start, window_end)}. */
  public SqlTemplate transform() {
    return SqlTemplate.resource(transformResource);
  }
}
