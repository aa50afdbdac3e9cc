/**
 * The search index in SQLite's words: FTS5 tables over `messages.text` and the client's name, e-mail and phone
 * that read their text from those tables (external content: the words are indexed, the text is not stored twice).
 * Triggers keep them in step on every insert, change and delete (erasure and retention included); `rebuild`
 * indexes the rows that exist when the migration runs. `remove_diacritics 2`: `cafe` finds `café`, and the
 * unicode61 tokenizer folds the case of every script, not only Latin. `secure-delete`: a deleted row's words leave
 * the index at once (an erased customer's words are not kept in old segments until a merge).
 */
export const sqliteSearchIndexes = `
  CREATE VIRTUAL TABLE messages_search USING fts5(text, content = 'messages', content_rowid = 'id',
    tokenize = "unicode61 remove_diacritics 2");
  CREATE TRIGGER messages_search_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_search (rowid, text) VALUES (NEW.id, NEW.text);
  END;
  CREATE TRIGGER messages_search_delete AFTER DELETE ON messages BEGIN
    INSERT INTO messages_search (messages_search, rowid, text) VALUES ('delete', OLD.id, OLD.text);
  END;
  CREATE TRIGGER messages_search_update AFTER UPDATE OF text ON messages BEGIN
    INSERT INTO messages_search (messages_search, rowid, text) VALUES ('delete', OLD.id, OLD.text);
    INSERT INTO messages_search (rowid, text) VALUES (NEW.id, NEW.text);
  END;
  INSERT INTO messages_search (messages_search, rank) VALUES ('secure-delete', 1);
  INSERT INTO messages_search (messages_search) VALUES ('rebuild');

  CREATE VIRTUAL TABLE clients_search USING fts5(name, email, phone, content = 'clients', content_rowid = 'id',
    tokenize = "unicode61 remove_diacritics 2");
  CREATE TRIGGER clients_search_insert AFTER INSERT ON clients BEGIN
    INSERT INTO clients_search (rowid, name, email, phone) VALUES (NEW.id, NEW.name, NEW.email, NEW.phone);
  END;
  CREATE TRIGGER clients_search_delete AFTER DELETE ON clients BEGIN
    INSERT INTO clients_search (clients_search, rowid, name, email, phone) VALUES ('delete', OLD.id, OLD.name, OLD.email, OLD.phone);
  END;
  CREATE TRIGGER clients_search_update AFTER UPDATE OF name, email, phone ON clients BEGIN
    INSERT INTO clients_search (clients_search, rowid, name, email, phone) VALUES ('delete', OLD.id, OLD.name, OLD.email, OLD.phone);
    INSERT INTO clients_search (rowid, name, email, phone) VALUES (NEW.id, NEW.name, NEW.email, NEW.phone);
  END;
  INSERT INTO clients_search (clients_search, rank) VALUES ('secure-delete', 1);
  INSERT INTO clients_search (clients_search) VALUES ('rebuild');
`;

/**
 * Messages indexed once per group commit instead of by a trigger per row (issue 16). FTS5 writes the words it
 * holds out as a segment of the index at every statement savepoint, and an INSERT into `messages` opens one (its
 * trigger writes to another table): a segment per message, which the index then had to merge, most of a stored
 * message's cost. One `INSERT ... SELECT` of the new rows per commit (`messageSearchIndex`) writes one segment.
 * A row is in the index once `messages_search_docsize` has its id (FTS5 writes one there per row it indexes), so
 * a change or deletion of a row not indexed yet has nothing to take out, and the next catch-up reads its text.
 */
export const sqliteMessageSearchInBatches = `
  DROP TRIGGER messages_search_insert;
  DROP TRIGGER messages_search_delete;
  CREATE TRIGGER messages_search_delete AFTER DELETE ON messages
  WHEN EXISTS (SELECT 1 FROM messages_search_docsize WHERE id = OLD.id) BEGIN
    INSERT INTO messages_search (messages_search, rowid, text) VALUES ('delete', OLD.id, OLD.text);
  END;
  DROP TRIGGER messages_search_update;
  CREATE TRIGGER messages_search_update AFTER UPDATE OF text ON messages
  WHEN EXISTS (SELECT 1 FROM messages_search_docsize WHERE id = OLD.id) BEGIN
    INSERT INTO messages_search (messages_search, rowid, text) VALUES ('delete', OLD.id, OLD.text);
    INSERT INTO messages_search (rowid, text) VALUES (NEW.id, NEW.text);
  END;
`;
