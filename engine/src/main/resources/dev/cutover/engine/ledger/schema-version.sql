-- Which version of Cutover's own tables the working database holds: written once the scripts of that version
-- have run, so that later commands read one row instead of running DDL. {db} is the working database, quoted.

-- step: create the schema version table
CREATE TABLE IF NOT EXISTS {db}.schema_version (version String, at DateTime64(3, 'UTC'), by String, tool String)
ENGINE = MergeTree ORDER BY at;
