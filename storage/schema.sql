-- MONET's head schema, written by `python -m storage.write_schema` from the
-- migrations (storage/migrations/versions). Do not edit by hand.

CREATE TABLE alembic_version (
	version_num VARCHAR(32) NOT NULL, 
	CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
);

CREATE TABLE event (
	id INTEGER NOT NULL, 
	ts VARCHAR NOT NULL, 
	name VARCHAR NOT NULL, 
	detail_json VARCHAR NOT NULL, 
	PRIMARY KEY (id)
);

CREATE INDEX ix_event_name ON event (name);

CREATE TABLE promptstate (
	id INTEGER NOT NULL, 
	fingerprint VARCHAR NOT NULL, 
	pinned_text VARCHAR NOT NULL, 
	context_text VARCHAR NOT NULL, 
	pinned_tokens INTEGER NOT NULL, 
	context_tokens INTEGER NOT NULL, 
	ti_text VARCHAR NOT NULL, 
	ti_tokens INTEGER NOT NULL, 
	ti_rendered_day VARCHAR NOT NULL, 
	ti_pending_ids_json VARCHAR NOT NULL, 
	prompt_day VARCHAR NOT NULL, 
	prompt_thread_id INTEGER, 
	current_day VARCHAR NOT NULL, 
	current_thread_id INTEGER, 
	current_tab VARCHAR NOT NULL, 
	librarian_last_run_ts VARCHAR NOT NULL, memory_version INTEGER DEFAULT '0' NOT NULL, memory_rendered INTEGER DEFAULT '0' NOT NULL, ti_head_text VARCHAR DEFAULT '' NOT NULL, 
	PRIMARY KEY (id)
);

CREATE TABLE setting (
	"key" VARCHAR NOT NULL, 
	value_json VARCHAR NOT NULL, 
	PRIMARY KEY ("key")
);

CREATE TABLE thread (
	id INTEGER NOT NULL, 
	kind VARCHAR NOT NULL, 
	day VARCHAR, 
	title VARCHAR NOT NULL, 
	created_ts VARCHAR NOT NULL, 
	raw_from_message_id INTEGER NOT NULL, 
	PRIMARY KEY (id)
);

CREATE INDEX ix_thread_day ON thread (day);

CREATE INDEX ix_thread_kind ON thread (kind);

CREATE TABLE fold (
	id INTEGER NOT NULL, 
	kind VARCHAR NOT NULL, 
	day VARCHAR NOT NULL, 
	thread_id INTEGER, 
	created_ts VARCHAR NOT NULL, 
	segment_count INTEGER NOT NULL, 
	resolved_ts VARCHAR, 
	PRIMARY KEY (id), 
	FOREIGN KEY(thread_id) REFERENCES thread (id)
);

CREATE TABLE segment (
	id INTEGER NOT NULL, 
	thread_id INTEGER NOT NULL, 
	fold_id INTEGER, 
	day VARCHAR NOT NULL, 
	tab VARCHAR NOT NULL, 
	first_message_id INTEGER NOT NULL, 
	last_message_id INTEGER NOT NULL, 
	start_ts VARCHAR NOT NULL, 
	end_ts VARCHAR NOT NULL, 
	tokens INTEGER NOT NULL, 
	PRIMARY KEY (id), 
	FOREIGN KEY(fold_id) REFERENCES fold (id), 
	FOREIGN KEY(thread_id) REFERENCES thread (id)
);

CREATE INDEX ix_segment_day ON segment (day);

CREATE INDEX ix_segment_fold_id ON segment (fold_id);

CREATE INDEX ix_segment_thread_id ON segment (thread_id);

CREATE TABLE message (
	id INTEGER NOT NULL, 
	thread_id INTEGER NOT NULL, 
	day VARCHAR NOT NULL, 
	tab VARCHAR NOT NULL, 
	tab_label VARCHAR NOT NULL, 
	role VARCHAR NOT NULL, 
	text VARCHAR NOT NULL, 
	content_json VARCHAR, 
	ts VARCHAR NOT NULL, 
	token_estimate INTEGER NOT NULL, 
	status VARCHAR NOT NULL, 
	segment_id INTEGER, hidden BOOLEAN DEFAULT '0' NOT NULL, rev INTEGER DEFAULT '0' NOT NULL, 
	PRIMARY KEY (id), 
	FOREIGN KEY(segment_id) REFERENCES segment (id), 
	FOREIGN KEY(thread_id) REFERENCES thread (id)
);

CREATE INDEX ix_message_day ON message (day);

CREATE INDEX ix_message_segment_id ON message (segment_id);

CREATE INDEX ix_message_thread_id ON message (thread_id);

CREATE TABLE timelineentry (
	id INTEGER NOT NULL, 
	level VARCHAR NOT NULL, 
	segment_id INTEGER, 
	parent_id INTEGER, 
	day_from VARCHAR NOT NULL, 
	day_to VARCHAR NOT NULL, 
	start_ts VARCHAR NOT NULL, 
	end_ts VARCHAR NOT NULL, 
	tabs VARCHAR NOT NULL, 
	first_message_id INTEGER NOT NULL, 
	summary VARCHAR, 
	summary_source VARCHAR, 
	summarized_ts VARCHAR, 
	attempts INTEGER NOT NULL, claimed_by VARCHAR, claimed_until VARCHAR, last_error VARCHAR, rev INTEGER DEFAULT '0' NOT NULL, 
	PRIMARY KEY (id), 
	FOREIGN KEY(parent_id) REFERENCES timelineentry (id), 
	FOREIGN KEY(segment_id) REFERENCES segment (id)
);

CREATE INDEX ix_timelineentry_day_from ON timelineentry (day_from);

CREATE INDEX ix_timelineentry_first_message_id ON timelineentry (first_message_id);

CREATE INDEX ix_timelineentry_level ON timelineentry (level);

CREATE INDEX ix_timelineentry_parent_id ON timelineentry (parent_id);

CREATE INDEX ix_timelineentry_segment_id ON timelineentry (segment_id);

CREATE TABLE usagerecord (
	id INTEGER NOT NULL, 
	ts VARCHAR NOT NULL, 
	day VARCHAR NOT NULL, 
	purpose VARCHAR NOT NULL, 
	model VARCHAR NOT NULL, 
	source VARCHAR NOT NULL, 
	input_tokens INTEGER NOT NULL, 
	cache_write_5m INTEGER NOT NULL, 
	cache_write_1h INTEGER NOT NULL, 
	cache_read INTEGER NOT NULL, 
	output_tokens INTEGER NOT NULL, 
	dollars FLOAT NOT NULL, 
	estimated_input INTEGER NOT NULL, turn_ttl VARCHAR DEFAULT '' NOT NULL, 
	PRIMARY KEY (id)
);

CREATE INDEX ix_usagerecord_day ON usagerecord (day);

CREATE INDEX ix_usagerecord_purpose ON usagerecord (purpose);

CREATE TABLE contextsummary (
	id INTEGER NOT NULL, 
	created_ts VARCHAR NOT NULL, 
	day VARCHAR NOT NULL, 
	text VARCHAR NOT NULL, 
	source VARCHAR NOT NULL, 
	persona_count INTEGER NOT NULL, 
	recent_count INTEGER NOT NULL, 
	PRIMARY KEY (id)
);

CREATE INDEX ix_contextsummary_day ON contextsummary (day);

CREATE TABLE presummary (
	id INTEGER NOT NULL, 
	first_message_id INTEGER NOT NULL, 
	last_message_id INTEGER NOT NULL, 
	summary VARCHAR NOT NULL, 
	source VARCHAR NOT NULL, 
	created_ts VARCHAR NOT NULL, 
	PRIMARY KEY (id), 
	CONSTRAINT uq_presummary_run UNIQUE (first_message_id, last_message_id)
);

CREATE INDEX ix_presummary_first_message_id ON presummary (first_message_id);

CREATE VIRTUAL TABLE message_fts USING fts5(text, content='message', content_rowid='id', tokenize='trigram');

CREATE TRIGGER message_fts_ai AFTER INSERT ON message BEGIN INSERT INTO message_fts(rowid, text) VALUES (new.id, new.text); END;

CREATE TRIGGER message_fts_ad AFTER DELETE ON message BEGIN INSERT INTO message_fts(message_fts, rowid, text) VALUES ('delete', old.id, old.text); END;

CREATE TRIGGER message_fts_au AFTER UPDATE OF text ON message BEGIN INSERT INTO message_fts(message_fts, rowid, text) VALUES ('delete', old.id, old.text); INSERT INTO message_fts(rowid, text) VALUES (new.id, new.text); END;

CREATE TABLE memoryitem (
	id INTEGER NOT NULL, 
	fact VARCHAR NOT NULL, 
	kind VARCHAR NOT NULL, 
	"key" VARCHAR NOT NULL, 
	source_message_ids VARCHAR NOT NULL, 
	confidence FLOAT NOT NULL, 
	created_ts VARCHAR NOT NULL, 
	expires_ts VARCHAR, 
	status VARCHAR NOT NULL, 
	supersedes_id INTEGER, 
	PRIMARY KEY (id)
);

CREATE INDEX ix_memoryitem_key ON memoryitem ("key");

CREATE INDEX ix_memoryitem_status ON memoryitem (status);

CREATE VIRTUAL TABLE message_fts_vocab USING fts5vocab(message_fts, 'row');

CREATE INDEX ix_message_tail2 ON message (lower(substr(text, -2)));

CREATE TRIGGER message_rev_new AFTER INSERT ON message BEGIN UPDATE message SET rev = random() >> 2 WHERE id = new.id; END;

CREATE TRIGGER timelineentry_rev_new AFTER INSERT ON timelineentry BEGIN UPDATE timelineentry SET rev = random() >> 2 WHERE id = new.id; END;

CREATE TRIGGER timelineentry_rev AFTER UPDATE OF level, segment_id, parent_id, day_from, day_to, start_ts, end_ts, tabs, first_message_id, summary ON timelineentry BEGIN UPDATE timelineentry SET rev = random() >> 2 WHERE id = new.id; END;

CREATE TRIGGER message_rev AFTER UPDATE OF thread_id, day, tab, tab_label, role, text, content_json, ts, token_estimate, status, segment_id, hidden ON message BEGIN UPDATE message SET rev = random() >> 2 WHERE id = new.id; END;

CREATE INDEX ix_message_raw_day ON message (day) WHERE segment_id IS NULL;

CREATE INDEX ix_message_raw_thread ON message (thread_id) WHERE segment_id IS NULL;

CREATE INDEX ix_fold_unresolved ON fold (id) WHERE resolved_ts IS NULL;

CREATE INDEX ix_timelineentry_pending ON timelineentry (level, id) WHERE summary IS NULL;

CREATE VIRTUAL TABLE message_grams USING fts5(grams, content='', tokenize='ascii');

CREATE TRIGGER message_grams_ai AFTER INSERT ON message WHEN new.role IN ('user', 'assistant') BEGIN INSERT INTO message_grams(rowid, grams) VALUES (new.id, monet_grams(CAST(new.text AS BLOB))); END;

CREATE TRIGGER message_grams_ad AFTER DELETE ON message WHEN old.role IN ('user', 'assistant') BEGIN INSERT INTO message_grams(message_grams, rowid, grams) VALUES ('delete', old.id, monet_grams(CAST(old.text AS BLOB))); END;

CREATE TRIGGER message_grams_au AFTER UPDATE OF text ON message WHEN old.role IN ('user', 'assistant') BEGIN INSERT INTO message_grams(message_grams, rowid, grams) VALUES ('delete', old.id, monet_grams(CAST(old.text AS BLOB))); INSERT INTO message_grams(rowid, grams) VALUES (new.id, monet_grams(CAST(new.text AS BLOB))); END;

CREATE TABLE message_vector (
	id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, 
	message_id INTEGER NOT NULL, 
	piece INTEGER NOT NULL, 
	model VARCHAR NOT NULL, 
	bits BLOB NOT NULL, 
	vec BLOB NOT NULL
);

CREATE UNIQUE INDEX ix_message_vector_message ON message_vector (message_id, model, piece);

CREATE INDEX ix_message_vector_model ON message_vector (model, id);

CREATE VIRTUAL TABLE message_grams_vocab USING fts5vocab(message_grams, 'row');

CREATE TRIGGER message_vector_ad AFTER DELETE ON message BEGIN DELETE FROM message_vector WHERE message_id = old.id; END;

CREATE TRIGGER message_vector_au AFTER UPDATE OF text, hidden ON message WHEN new.text IS NOT old.text OR new.hidden BEGIN DELETE FROM message_vector WHERE message_id = old.id; END;

CREATE TABLE reply_version (
	id INTEGER NOT NULL, 
	user_message_id INTEGER NOT NULL, 
	number INTEGER NOT NULL, 
	text VARCHAR NOT NULL, 
	ts VARCHAR NOT NULL, 
	current BOOLEAN DEFAULT '0' NOT NULL, 
	PRIMARY KEY (id)
);

CREATE UNIQUE INDEX ix_reply_version_user ON reply_version (user_message_id, number);

CREATE TRIGGER reply_version_ad AFTER DELETE ON message BEGIN DELETE FROM reply_version WHERE user_message_id = old.id; END;

CREATE TABLE attachment (
	id INTEGER NOT NULL, 
	message_id INTEGER NOT NULL, 
	position INTEGER NOT NULL, 
	name VARCHAR NOT NULL, 
	media_type VARCHAR NOT NULL, 
	size INTEGER NOT NULL, 
	sha256 VARCHAR NOT NULL, 
	sent_media_type VARCHAR NOT NULL, 
	sent_sha256 VARCHAR NOT NULL, 
	width INTEGER DEFAULT '0' NOT NULL, 
	height INTEGER DEFAULT '0' NOT NULL, 
	pages INTEGER DEFAULT '0' NOT NULL, 
	tokens INTEGER DEFAULT '0' NOT NULL, 
	PRIMARY KEY (id)
);

CREATE UNIQUE INDEX ix_attachment_message ON attachment (message_id, position);

CREATE INDEX ix_attachment_sha ON attachment (sha256);

CREATE TRIGGER attachment_ad AFTER DELETE ON message BEGIN DELETE FROM attachment WHERE message_id = old.id; END;

CREATE TABLE id_floor (name VARCHAR NOT NULL PRIMARY KEY, top INTEGER NOT NULL);

CREATE TRIGGER message_id_floor AFTER DELETE ON message BEGIN INSERT INTO id_floor (name, top) VALUES ('message', OLD.id) ON CONFLICT (name) DO UPDATE SET top = max(top, excluded.top); END;

