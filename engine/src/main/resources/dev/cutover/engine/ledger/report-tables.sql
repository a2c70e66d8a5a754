-- Stored reconciliations, acknowledgements and swaps in the working database. {db} is the working
-- database, quoted. Every statement may run again on tables of an earlier version.

-- step: create the reconciliations table
CREATE TABLE IF NOT EXISTS {db}.reconciliations (
  id String, target String, spec String, created DateTime64(3, 'UTC'), window_from DateTime('UTC'),
  window_to DateTime('UTC'), boundary DateTime('UTC'), verdict String, hours UInt64, differing_hours UInt64,
  expected_keys UInt64, unexpected_keys UInt64, acknowledged UInt64, coverage_issues UInt64, by String)
ENGINE = MergeTree ORDER BY (target, created);

-- Added with repairs: which repair, over which hours, under which spec.
-- step: extend the reconciliations table
ALTER TABLE {db}.reconciliations ADD COLUMN IF NOT EXISTS scope String, ADD COLUMN IF NOT EXISTS repair_id String,
  ADD COLUMN IF NOT EXISTS spec_hash String;

-- step: create the reconciliation hours table
CREATE TABLE IF NOT EXISTS {db}.reconciliation_hours (
  id String, hour DateTime('UTC'), owner String, status String, rows_v1 UInt64, rows_v2 UInt64,
  measures Array(String), totals_v1 Array(Float64), totals_v2 Array(Float64))
ENGINE = MergeTree ORDER BY (id, hour);

-- Added with repairs: what each hour held.
-- step: extend the reconciliation hours table
ALTER TABLE {db}.reconciliation_hours ADD COLUMN IF NOT EXISTS checksum_v1 Int64, ADD COLUMN IF NOT EXISTS checksum_v2 Int64,
  ADD COLUMN IF NOT EXISTS keys_v1 UInt64, ADD COLUMN IF NOT EXISTS keys_v2 UInt64,
  ADD COLUMN IF NOT EXISTS compared UInt8 DEFAULT 1;

-- Added so that a stored reconciliation reads back whole: whether its key list was cut.
-- step: extend the reconciliations table
ALTER TABLE {db}.reconciliations ADD COLUMN IF NOT EXISTS keys_truncated UInt8;

-- step: create the reconciliation coverage table
CREATE TABLE IF NOT EXISTS {db}.reconciliation_coverage (id String, hour DateTime('UTC'), kind String, detail String)
ENGINE = MergeTree ORDER BY (id, hour);

-- step: create the reconciliation keys table
CREATE TABLE IF NOT EXISTS {db}.reconciliation_keys (
  id String, hour DateTime('UTC'), key Array(String), kind String, rule String, measures Array(String),
  v1 Array(Float64), v2 Array(Float64))
ENGINE = MergeTree ORDER BY (id, hour);

-- step: extend the reconciliation keys table
ALTER TABLE {db}.reconciliation_keys ADD COLUMN IF NOT EXISTS rows_v1 UInt64, ADD COLUMN IF NOT EXISTS rows_v2 UInt64;

-- step: create the reconciliation counts table
CREATE TABLE IF NOT EXISTS {db}.reconciliation_counts (id String, hour DateTime('UTC'), class String, keys UInt64)
ENGINE = MergeTree ORDER BY (id, hour);

-- step: create the acknowledgements table
CREATE TABLE IF NOT EXISTS {db}.acknowledgements (
  target String, hour DateTime('UTC'), key Array(String), reason String, by String, at DateTime64(3, 'UTC'))
ENGINE = MergeTree ORDER BY (target, hour);

-- step: extend the acknowledgements table
ALTER TABLE {db}.acknowledgements ADD COLUMN IF NOT EXISTS repair_id String;

-- step: create the swaps table
CREATE TABLE IF NOT EXISTS {db}.swaps (
  target String, action String, at DateTime64(3, 'UTC'), by String, statement String, detail String)
ENGINE = MergeTree ORDER BY (target, at);

-- Added so that an acknowledgement is bound to what was seen: the fingerprint of the unexpected differences
-- it accepted, as JSON; empty for one recorded before (which then accepts nothing).
-- step: extend the acknowledgements table
ALTER TABLE {db}.acknowledgements ADD COLUMN IF NOT EXISTS seen String;

-- An acknowledgement taken back, with a reason: it accepts nothing from then on.
-- step: create the acknowledgement withdrawals table
CREATE TABLE IF NOT EXISTS {db}.acknowledgement_withdrawals (
  target String, repair_id String, hour DateTime('UTC'), key Array(String), reason String, by String,
  at DateTime64(3, 'UTC'))
ENGINE = MergeTree ORDER BY (target, repair_id, hour);

-- The acknowledgements a reconciliation found lapsed, and why: its verdict reads back as it was made.
-- step: create the reconciliation lapsed table
CREATE TABLE IF NOT EXISTS {db}.reconciliation_lapsed (id String, hour DateTime('UTC'), key Array(String), detail String)
ENGINE = MergeTree ORDER BY (id, hour);

-- A reconciliation stores its verdict before what only its report shows (a sample of explained keys, v1's totals
-- of the hours carried in the same files): whether that follows, those totals, and which reports it completed.
-- Until then the report is not listed.
-- step: extend the reconciliations table
ALTER TABLE {db}.reconciliations ADD COLUMN IF NOT EXISTS follows UInt8;

-- step: create the reconciliation carried totals table
CREATE TABLE IF NOT EXISTS {db}.reconciliation_carried_totals (
  id String, hour DateTime('UTC'), measures Array(String), totals Array(Float64))
ENGINE = MergeTree ORDER BY (id, hour);

-- step: create the reconciliation completed table
CREATE TABLE IF NOT EXISTS {db}.reconciliation_completed (id String, at DateTime64(3, 'UTC'))
ENGINE = MergeTree ORDER BY id;
