-- Reference data for one seed: 300 listed instruments on eight venues. Names and base prices are the
-- same for every seed; the phases of the two price waves depend on the seed.
WITH
  toUInt64({seed}) AS seed,
  ['XNYS', 'XNAS', 'XLON', 'XETR', 'XPAR', 'XTKS', 'XSWX', 'XHKG'] AS venues,
  ['USD', 'USD', 'GBP', 'EUR', 'EUR', 'JPY', 'CHF', 'HKD'] AS venue_currency,
  [1., 1., 1., 1., 1., 150., 1., 8.] AS venue_price_factor,
  18446744073709551616. AS two64
SELECT
  toUInt16(number) AS instrument_id,
  concat(venues[number % 8 + 1], ':',
    char(65 + cityHash64('ticker', number) % 26),
    char(65 + intDiv(cityHash64('ticker', number), 26) % 26),
    char(65 + intDiv(cityHash64('ticker', number), 676) % 26),
    char(65 + intDiv(cityHash64('ticker', number), 17576) % 26)) AS instrument,
  venues[number % 8 + 1] AS venue,
  venue_currency[number % 8 + 1] AS currency,
  (10 + cityHash64('base', number) % 490) * venue_price_factor[number % 8 + 1] AS base_price,
  toUInt8(4 + number % 9) AS period_days,
  2 * pi() * cityHash64(seed, 10, number) / two64 AS phase_slow,
  2 * pi() * cityHash64(seed, 11, number) / two64 AS phase_fast
FROM numbers(300)
