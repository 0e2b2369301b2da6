-- Written by hand: a seat that becomes taken or free again sets its character in its row's record
-- (seat_rows.taken: 'x' taken, '#' blocked, '.' free, at the seat's slot) and the row's count of
-- free seats is counted again from the record, in the statement that moves the seat. The
-- projection (server/seating/project.ts) then updates the seats alone on SQLite, instead of reading
-- where they are and writing each row's record after. The app refuses to start without it.
CREATE TRIGGER `seats_row_record` AFTER UPDATE OF `status` ON `seats`
WHEN (OLD.`status` = 'free') <> (NEW.`status` = 'free')
BEGIN
	UPDATE `seat_rows`
	SET `taken` = substr(`taken`, 1, NEW.`slot`)
			|| (CASE WHEN NEW.`status` <> 'free' THEN 'x' WHEN NEW.`blocked` THEN '#' ELSE '.' END)
			|| substr(`taken`, NEW.`slot` + 2),
		`free` = length(substr(`taken`, 1, NEW.`slot`)
			|| (CASE WHEN NEW.`status` <> 'free' THEN 'x' WHEN NEW.`blocked` THEN '#' ELSE '.' END)
			|| substr(`taken`, NEW.`slot` + 2))
			- length(replace(substr(`taken`, 1, NEW.`slot`)
			|| (CASE WHEN NEW.`status` <> 'free' THEN 'x' WHEN NEW.`blocked` THEN '#' ELSE '.' END)
			|| substr(`taken`, NEW.`slot` + 2), '.', ''))
	WHERE `event_id` = NEW.`event_id` AND `ticket_type_id` = NEW.`ticket_type_id`
		AND `row_label` = NEW.`row_label`;
END;
