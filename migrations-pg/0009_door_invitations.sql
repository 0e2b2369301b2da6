CREATE TABLE "door_invitations" (
	"invitation_id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"email" text,
	"account_id" text,
	"status" text NOT NULL,
	"invited_at" text NOT NULL,
	"accepted_at" text
);
--> statement-breakpoint
CREATE INDEX "door_invitations_event" ON "door_invitations" USING btree ("event_id","invited_at");--> statement-breakpoint
CREATE INDEX "door_invitations_email" ON "door_invitations" USING btree ("email");--> statement-breakpoint
CREATE INDEX "door_invitations_account" ON "door_invitations" USING btree ("account_id","event_id");--> statement-breakpoint
-- Backfill: the door staff of before invitations, as invitations to the accounts they named (their
-- ids the accounts'), to be accepted: what the projection makes of their DoorStaffAdded facts.
INSERT INTO "door_invitations" ("invitation_id", "event_id", "email", "account_id", "status", "invited_at", "accepted_at")
SELECT "account_id", "event_id", NULL, "account_id", 'invited', "added_at", NULL FROM "door_staff";--> statement-breakpoint
DROP TABLE "door_staff" CASCADE;