import { postgresSearchWordsInPlpgsql } from './search-schema.ts';

/**
 * PostgreSQL's version 24 (SchemaDialect.lighterMessageWrites): the same results for less of the engine's CPU per
 * message, which on a small machine the engine shares with the nodes (issue 16). Each part says what it saves.
 */
export const postgresLighterMessageWrites = [postgresSearchWordsInPlpgsql].join('\n');
