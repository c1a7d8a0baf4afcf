-- 0011: the language of a guild's public messages and pictures (issue 23; bot/i18n):
-- en, de, fr or es, or '' for the guild's own Discord locale (guild.preferred_locale).
ALTER TABLE guild_settings ADD COLUMN language TEXT NOT NULL DEFAULT ''
    CHECK (language IN ('', 'en', 'de', 'fr', 'es'));
