-- Network and endpoint events keep their normalised form and the record as it arrived as json
-- rather than jsonb: stored as sent (validated only), which makes a bulk insert several times
-- cheaper; nothing filters inside them through an index, and json answers the same operators
-- the list pages use (#>>).
ALTER TABLE network_events ALTER COLUMN event TYPE json, ALTER COLUMN raw TYPE json;
ALTER TABLE endpoint_events ALTER COLUMN event TYPE json, ALTER COLUMN raw TYPE json;
