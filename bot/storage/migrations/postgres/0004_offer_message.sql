-- 0004: remember the message that pinged a player about a pending barter or trade
-- offer, so its buttons can be removed once it is answered, even after a restart;
-- as ../0004_offer_message.sql.
ALTER TABLE tables ADD COLUMN offer_key TEXT;            -- "deal:seq" of the offer
ALTER TABLE tables ADD COLUMN offer_message_id BIGINT;
