-- Written by hand: drizzle-kit cannot generate virtual tables (see server/catalog/search-index.ts).
-- The catalogue's full-text index of every event's words; the catalogue projection keeps it.
CREATE VIRTUAL TABLE `events_search` USING fts5(
	`event_id` UNINDEXED,
	`title`,
	`description`,
	`location`,
	`category`,
	tokenize = 'unicode61 remove_diacritics 2',
	prefix = '2 3'
);
--> statement-breakpoint
-- The events that exist before this migration, indexed once.
INSERT INTO `events_search` (`event_id`, `title`, `description`, `location`, `category`)
	SELECT `id`, `title`, `description`, `location`, `category` FROM `events` ORDER BY `rowid`;
