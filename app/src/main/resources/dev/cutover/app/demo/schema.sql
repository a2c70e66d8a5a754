-- The demo world's raw inputs and the demo's own state; schema-job.sql or schema-mv.sql adds the derived table v1,
-- its consumers and its live writer.
-- {db} is the world's database (Atomic). Statements are separated by a semicolon at the end of a line.

-- Reference data: one row per listed instrument; its phases make each seed's prices different.
CREATE TABLE IF NOT EXISTS {db}.instruments (
  instrument_id UInt16,
  instrument LowCardinality(String),
  venue LowCardinality(String),
  currency LowCardinality(String),
  base_price Float64,
  period_days UInt8,
  phase_slow Float64,
  phase_fast Float64
) ENGINE = MergeTree ORDER BY instrument_id;

-- Raw input: every execution. A retried insert of the same block is dropped (deduplication window).
CREATE TABLE IF NOT EXISTS {db}.trades (
  trade_id UInt64,
  event_time DateTime('UTC'),
  book LowCardinality(String),
  instrument LowCardinality(String),
  side Enum8('buy' = 1, 'sell' = 2),
  quantity UInt32,
  price Decimal(18, 4),
  fee Decimal(18, 4),
  currency LowCardinality(String)
) ENGINE = MergeTree PARTITION BY toYYYYMM(event_time) ORDER BY (event_time, book, instrument, trade_id)
SETTINGS non_replicated_deduplication_window = 1000;

-- Raw input: the mark price of each instrument at the end of each hour (mark_time is the hour end).
CREATE TABLE IF NOT EXISTS {db}.marks (
  mark_time DateTime('UTC'),
  instrument LowCardinality(String),
  mark_price Decimal(18, 4)
) ENGINE = MergeTree PARTITION BY toYYYYMM(mark_time) ORDER BY (mark_time, instrument)
SETTINGS non_replicated_deduplication_window = 1000;

-- Raw input: USD value of one unit of each currency, fixed on every whole hour.
CREATE TABLE IF NOT EXISTS {db}.fx_rates (
  rate_time DateTime('UTC'),
  currency LowCardinality(String),
  usd_rate Decimal(18, 8)
) ENGINE = MergeTree PARTITION BY toYYYYMM(rate_time) ORDER BY (rate_time, currency)
SETTINGS non_replicated_deduplication_window = 1000;

-- The demo's state: an append-only log of key = value, the newest value of a key wins.
CREATE TABLE IF NOT EXISTS {db}.demo_state (
  key LowCardinality(String),
  value String,
  written_at DateTime64(6, 'UTC') DEFAULT now64(6, 'UTC')
) ENGINE = MergeTree ORDER BY (key, written_at);

-- Every hour written to pnl_v1 or pnl_v2 by the seed or the live job: which writer, how, how many rows.
CREATE TABLE IF NOT EXISTS {db}.demo_writes (
  hour DateTime('UTC'),
  version LowCardinality(String),
  writer LowCardinality(String),
  mode Enum8('replace' = 1, 'append' = 2, 'insert' = 3),
  rows UInt64,
  written_at DateTime64(6, 'UTC') DEFAULT now64(6, 'UTC')
) ENGINE = MergeTree ORDER BY (version, hour, written_at);
