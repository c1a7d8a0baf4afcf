-- 0006: provably fair deals (docs/FAIRNESS.md "In the bot"); as ../0006_fair_deals.sql.
-- Each deal keeps the commitment made public before its cut, its seed (secret while the
-- deal is open, revealed once it is over), its cuts and who cut (NULL: the bot). The
-- table keeps the seed drawn for its next deal and that seed's commitment. All are
-- written in the same transaction as the deal (or the deal's end) they belong to.
ALTER TABLE deals ADD COLUMN commitment TEXT;   -- SHA-256 of the seed, 64 hex digits
ALTER TABLE deals ADD COLUMN seed TEXT;         -- 64 hex digits (32 bytes)
ALTER TABLE deals ADD COLUMN cuts TEXT CHECK (cuts IS NULL OR cuts::json IS NOT NULL);  -- hex strings
ALTER TABLE deals ADD COLUMN cut_by BIGINT;     -- the member whose press cut; NULL: the bot
ALTER TABLE tables ADD COLUMN next_seed TEXT;
ALTER TABLE tables ADD COLUMN next_commitment TEXT;
-- for statistics: the category of each final hand (four, tricon, sequence, flush, pair,
-- point, none; NULL for deals finished before this migration), and whether the seat's
-- knock ended play
ALTER TABLE deal_hands ADD COLUMN category TEXT;
ALTER TABLE deal_hands ADD COLUMN knocked INTEGER NOT NULL DEFAULT 0 CHECK (knocked IN (0, 1));

-- what was committed and cut never changes afterwards
CREATE TRIGGER deals_proof_fixed BEFORE UPDATE OF commitment, seed, cuts, cut_by ON deals
FOR EACH ROW EXECUTE FUNCTION
    commerce_refuse('deals: commitment, seed, cuts and cut_by are immutable');
