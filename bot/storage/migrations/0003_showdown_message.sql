-- 0003: remember each deal's showdown message, so a showdown that a crash kept
-- from being posted is posted after the restart (issue 3).
ALTER TABLE deals ADD COLUMN showdown_message_id INTEGER;
