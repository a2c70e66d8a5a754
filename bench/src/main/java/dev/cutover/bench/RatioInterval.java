package dev.cutover.bench;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * How far the ratio of two p99s moves by chance alone. The p99 of a hundred closed hours is their second
 * slowest, so one run's ratio is set by a few samples. A percentile bootstrap: both sides resampled with
 * replacement, the ratio of their p99s taken each time, and the middle 90% of those ratios kept. The seed
 * is fixed, so that the same samples always give the same interval.
 */
record RatioInterval(double low, double high) {

  private static final int RESAMPLES = 2000;
  private static final long SEED = 20261203L;

  /** The interval of p99({@code beside}) / p99({@code alone}); both must hold samples. */
  static RatioInterval ofP99(List<Double> beside, List<Double> alone) {
    double[] b = beside.stream().mapToDouble(Double::doubleValue).toArray();
    double[] a = alone.stream().mapToDouble(Double::doubleValue).toArray();
    SplittableRandom random = new SplittableRandom(SEED);
    double[] ratios = new double[RESAMPLES];
    for (int i = 0; i < RESAMPLES; i++) {
      ratios[i] = p99(resample(b, random)) / p99(resample(a, random));
    }
    Arrays.sort(ratios);
    return new RatioInterval(ratios[(int) (RESAMPLES * 0.05)], ratios[(int) (RESAMPLES * 0.95) - 1]);
  }

  private static double[] resample(double[] values, SplittableRandom random) {
    double[] out = new double[values.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = values[random.nextInt(values.length)];
    }
    Arrays.sort(out);
    return out;
  }

  /** The p99 of sorted values, as {@link Report#percentile} takes it. */
  private static double p99(double[] sorted) {
    int index = (int) Math.ceil(0.99 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }

  @Override
  public String toString() {
    return String.format("%.2f× to %.2f×", low, high);
  }
}
