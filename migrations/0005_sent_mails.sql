CREATE TABLE `sent_mails` (
	`job_id` text PRIMARY KEY NOT NULL,
	`sent_at` text NOT NULL
);
--> statement-breakpoint
-- Mails of facts recorded before this table existed were sent the old way: the repair of owed
-- mails looks only at facts from this moment on.
INSERT INTO `sent_mails` (`job_id`, `sent_at`) VALUES ('~recorded-since', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
