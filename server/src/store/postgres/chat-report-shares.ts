import type { SchemaDialect } from '../schema-dialect.ts';
import { hoursShare } from '../schema-report-hours-stripes.ts';
import { chatShares } from '../schema-report-rollups.ts';

/** A chat's shares (version 22's), each duration only when the chat has it: `sign` 1 adds them, -1 takes them out. */
const sharesWhenSet = (d: Pick<SchemaDialect, 'hotRowStripes'>, chat: string, sign: number) => {
  const { firstResponse, resolution } = chatShares(chat, sign);
  return `
    ${hoursShare(d, chat, sign)}
    IF ${chat}.first_agent_message_at IS NOT NULL THEN ${firstResponse} END IF;
    IF ${chat}.closed_at IS NOT NULL THEN ${resolution} END IF;`;
};

/**
 * PostgreSQL's version 29 (SchemaDialect.chatSharesWhenSet): a chat's insert and delete triggers run the statement
 * of a duration only when the chat has that duration. Every new chat ran both durations' INSERT ... SELECT, which
 * could add no row (a new chat has no answer and is not closed) but each started an executor over report_durations
 * and its index: about 120,000 instructions per new customer (callgrind). The statements keep their own WHERE, so
 * the rows written are the same.
 */
export const postgresChatSharesWhenSet = (d: Pick<SchemaDialect, 'hotRowStripes'>) => `
  CREATE OR REPLACE FUNCTION chats_report_insert_fn() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN ${sharesWhenSet(d, 'NEW', 1)}
    RETURN NULL;
  END $$;
  CREATE OR REPLACE FUNCTION chats_report_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN ${sharesWhenSet(d, 'OLD', -1)}
    RETURN NULL;
  END $$;
`;
