-- 0016: a member plays a day's deal once, whichever server they play it in (issue 24; the
-- same cards are dealt in every server, so a second game would be played knowing every
-- hand; docs/DAILY.md "Once, in one server"). The rule is the database's, so two servers'
-- /commerce daily at the same instant cannot both begin.
CREATE UNIQUE INDEX daily_plays_once_a_day ON daily_plays (day, member_id);
