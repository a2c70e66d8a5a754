-- Cutover's own state in the working database: the runs, the ledger of hours each run wrote, and the
-- audit trail. {db} is the working database, quoted. Every statement may run again on tables of an
-- earlier version: CREATE … IF NOT EXISTS, then ADD COLUMN IF NOT EXISTS for what came later.

-- step: create the runs table
CREATE TABLE IF NOT EXISTS {db}.runs (
  id String, repair_id String, spec_name String, spec_hash String, target String,
  range_from DateTime('UTC'), range_to DateTime('UTC'), boundary DateTime('UTC'), parameters String,
  os_user String, host String, pid UInt64, tool_version String, created DateTime64(3, 'UTC'),
  heartbeat DateTime64(3, 'UTC'), state String, message String, step UInt64, version UInt64)
ENGINE = ReplacingMergeTree(version) ORDER BY id;

-- Runs recorded before repairs existed belong to none.
-- step: add the repair to the runs table
ALTER TABLE {db}.runs ADD COLUMN IF NOT EXISTS repair_id String AFTER id;

-- Runs recorded before state changes were compare-and-set are at step 0.
-- step: add the step to the runs table
ALTER TABLE {db}.runs ADD COLUMN IF NOT EXISTS step UInt64 AFTER message;

-- step: create the ledger table
CREATE TABLE IF NOT EXISTS {db}.ledger (
  run_id String, hour DateTime('UTC'), state String, rows UInt64, checksum Int64, attempts UInt32,
  at DateTime64(3, 'UTC'), error String, version UInt64)
ENGINE = ReplacingMergeTree(version) ORDER BY (run_id, hour);

-- step: create the audit table
CREATE TABLE IF NOT EXISTS {db}.audit (
  at DateTime64(3, 'UTC'), actor String, host String, subject String, action String, detail String)
ENGINE = MergeTree ORDER BY (at, subject);
