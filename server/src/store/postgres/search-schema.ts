/**
 * The search index in PostgreSQL's words: GIN indexes over `to_tsvector('simple', search_words(...))` of
 * `messages.text` and of the client's name, e-mail and phone. An expression index is kept in step by the database
 * on every insert, update and delete (erasure and retention included) and is built over the existing rows.
 *
 * `search_words` folds what the `simple` configuration would not: the case of every script (ICU's root locale,
 * since a database made with the C locale lowercases only ASCII), Latin diacritics (the `unaccent` extension, a
 * trusted one since PostgreSQL 13, used only when it can be created without a superuser), and ASCII punctuation
 * becomes a space so that `anna@example.com` is the words `anna`, `example`, `com` (the default parser would keep
 * it as one e-mail token), as in SQLite.
 */
export const postgresSearchIndexes = `
  DO $setup$
  BEGIN
    CREATE EXTENSION IF NOT EXISTS unaccent;
  EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'search: unaccent is not available (%), diacritics are kept', SQLERRM;
  END $setup$;

  DO $setup$
  DECLARE
    folded text := 'lower(t)';
    unaccent_schema text;
  BEGIN
    IF EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu') THEN
      folded := 'lower(t COLLATE "und-x-icu")';
    END IF;
    SELECT n.nspname INTO unaccent_schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
      WHERE e.extname = 'unaccent';
    IF unaccent_schema IS NOT NULL THEN
      folded := format('%I.unaccent(%L::regdictionary, %s)', unaccent_schema, unaccent_schema || '.unaccent', folded);
    END IF;
    EXECUTE format(
      'CREATE FUNCTION search_words(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS %L',
      format('SELECT regexp_replace(%s, %L, '' '', ''g'')', folded, '[!-/:-@[-\`{-~]+')
    );
  END $setup$;

  CREATE INDEX messages_search ON messages USING gin (to_tsvector('simple', search_words(COALESCE(text, ''))));
  CREATE INDEX clients_search ON clients USING gin
    (to_tsvector('simple', search_words(COALESCE(name, '') || ' ' || COALESCE(email, '') || ' ' || COALESCE(phone, ''))));
`;

/**
 * `search_words` again, computing the same text in PL/pgSQL. Written in SQL, the function cannot be inlined (its
 * `unaccent` is only STABLE), so every call ran the SQL-function executor: parse, plan and start its one SELECT,
 * once for each message written (its index entry) and each row a search rechecks. PL/pgSQL evaluates the same
 * expression directly, with what it prepares kept per connection: about 150,000 fewer instructions per message
 * stored (callgrind, one backend). The body is the SQL function's own expression, taken from the catalog, so the
 * folding stays whatever version 19 chose on this server and the existing index entries stay valid.
 */
export const postgresSearchWordsInPlpgsql = `
  DO $plpgsql$
  DECLARE
    body text := (SELECT prosrc FROM pg_proc WHERE oid = 'search_words(text)'::regprocedure);
  BEGIN
    IF body NOT LIKE 'SELECT %' THEN
      RAISE EXCEPTION 'search_words is not the SQL function version 19 made: %', body;
    END IF;
    EXECUTE format(
      'CREATE OR REPLACE FUNCTION search_words(t text) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE STRICT AS %L',
      'BEGIN RETURN ' || substr(body, length('SELECT ') + 1) || '; END'
    );
  END $plpgsql$;
`;
