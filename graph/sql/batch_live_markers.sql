-- batch_live_markers: does the owner have any live suppression marker? Columns: live.
-- Without one, screening an assertion can neither reject it nor lift anything, so it is skipped.
SELECT EXISTS (SELECT 1 FROM suppression_markers WHERE owner_sub = wm_owner() AND lifted_at IS NULL) AS live
