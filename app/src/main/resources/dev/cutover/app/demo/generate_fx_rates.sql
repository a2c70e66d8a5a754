-- USD value of one unit of each currency, fixed at the whole hours [first_time, first_time + hours).
WITH
  toUInt64({seed}) AS seed,
  {first_time} AS first_time,
  toUInt32({hours}) AS hours,
  ['USD', 'GBP', 'EUR', 'JPY', 'CHF', 'HKD'] AS currencies,
  [1., 1.27, 1.08, 0.0067, 1.12, 0.128] AS usd_base,
  18446744073709551616. AS two64
SELECT rate_time, currency, usd_rate
FROM (
  SELECT
    first_time + toIntervalHour(intDiv(number, 6)) AS rate_time,
    number % 6 AS c,
    currencies[c + 1] AS currency,
    toUnixTimestamp(rate_time) AS ts,
    if(c = 0, toDecimal64(1, 8), toDecimal64(round(usd_base[c + 1] * (1
        + 0.03 * sin(2 * pi() * ts / (86400 * (11 + 3 * c)) + 2 * pi() * cityHash64(seed, 20, c) / two64)
        + 0.004 * sin(2 * pi() * ts / 77760 + 2 * pi() * cityHash64(seed, 21, c) / two64)), 8), 8)) AS usd_rate
  FROM numbers(hours * 6)
)
