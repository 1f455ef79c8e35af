-- Observations over GraphQL (recordObservations): a retried call must not store an observation
-- twice. An observation that names its source's id (external_ref) is unique per owner and instant; the
-- insert skips one the owner already holds (ON CONFLICT DO NOTHING on this index). The index must contain
-- the partition key (occurred_at) to be unique on a partitioned table; it is created on every partition,
-- those made later by wm_observed_partition included.
SET LOCAL ROLE worldmem_owner;

CREATE UNIQUE INDEX observed_events_external ON observed_events (owner_sub, external_ref, occurred_at)
    WHERE external_ref IS NOT NULL;

-- The API refuses longer ids before they get here; the table says so too.
ALTER TABLE observed_events ADD CONSTRAINT observed_events_external_ref_length
    CHECK (length(external_ref) BETWEEN 1 AND 400);
