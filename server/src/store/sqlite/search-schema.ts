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
