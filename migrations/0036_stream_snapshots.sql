CREATE TABLE `stream_snapshots` (
	`stream` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`version` integer NOT NULL,
	`position` integer NOT NULL,
	`state` text NOT NULL
);
