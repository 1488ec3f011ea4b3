-- Hit counts per connection as well: every ingest batch adds its rule matches to the day's row in
-- its own transaction, and a row shared by all batches made concurrent batches wait on each
-- other's commit. Each database connection (one transaction at a time) now has a row of its own;
-- readers sum over them as they already sum over days.
ALTER TABLE rule_hits ADD COLUMN shard integer NOT NULL DEFAULT 0;
ALTER TABLE rule_hits DROP CONSTRAINT rule_hits_pkey;
ALTER TABLE rule_hits ADD PRIMARY KEY (rule_id, company_id, day, shard);
