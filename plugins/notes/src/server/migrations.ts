import type { Migration } from '@portal/core';

/** The notes plugin's tables. Applied once each, in id order; never edit one that has shipped: add the next. */
export const migrations: Migration[] = [
  {
    id: '0001_notes',
    sql: `
CREATE TABLE notes (
  note_id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  member_id integer NOT NULL,
  note_text text NOT NULL,
  note_type_id integer NOT NULL DEFAULT 1,
  reply_to_id integer REFERENCES notes (note_id),
  author_user_id text,
  author_name text NOT NULL,
  author_kind text NOT NULL CHECK (author_kind IN ('Member', 'Staff')),
  -- When the member opened a staff reply; NULL while unread. Member notes are read from the start.
  read_at timestamptz,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notes_member_created_idx ON notes (member_id, created_at DESC, note_id DESC);
CREATE INDEX notes_reply_idx ON notes (reply_to_id) WHERE reply_to_id IS NOT NULL;
CREATE INDEX notes_unread_idx ON notes (member_id) WHERE author_kind = 'Staff' AND read_at IS NULL;

CREATE TABLE note_attachments (
  attachment_id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  note_id integer NOT NULL REFERENCES notes (note_id),
  file_name text NOT NULL,
  content_type text NOT NULL,
  size integer NOT NULL,
  file_key text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX note_attachments_note_idx ON note_attachments (note_id, attachment_id);
`,
  },
  {
    // Support's side of reading: when a staff user first opened (or answered) a member note; NULL while new to staff.
    // A nullable column without a default (no table rewrite); the member notes already answered by staff count as read,
    // the unanswered ones stay new so support sees them.
    id: '0002_notes_staff_read',
    sql: `
ALTER TABLE notes ADD COLUMN staff_read_at timestamptz;
UPDATE notes m SET staff_read_at = now()
  WHERE m.author_kind = 'Member'
    AND EXISTS (SELECT 1 FROM notes s WHERE s.member_id = m.member_id AND s.author_kind = 'Staff' AND s.created_at >= m.created_at
                AND coalesce(s.reply_to_id, s.note_id) = coalesce(m.reply_to_id, m.note_id));
CREATE INDEX notes_staff_unread_idx ON notes (member_id) WHERE author_kind = 'Member' AND staff_read_at IS NULL;
`,
  },
];
