-- 0003: remember each deal's showdown message, so a showdown that a crash kept
-- from being posted is posted after the restart (issue 3); as ../0003_showdown_message.sql.
ALTER TABLE deals ADD COLUMN showdown_message_id BIGINT;
