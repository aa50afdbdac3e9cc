import type { Migration, SchemaDialect } from './schema-dialect.ts';
import { chatShares, HOUR, HOURS_KEY, missed, rated, upsert } from './schema-report-rollups.ts';

const STRIPED_KEY = `${HOURS_KEY}, stripe`;

/** The chat's share of its hour's counts, in the stripe its id falls in (`sign` 1 adds it, -1 takes it out). */
export function hoursShare(d: Pick<SchemaDialect, 'hotRowStripes'>, chat: string, sign: number) {
  return `
    INSERT INTO report_hours (${STRIPED_KEY}, chats, missed, positive, negative)
      VALUES (${chat}.created_at / ${HOUR}, ${chat}.channel_id, COALESCE(${chat}.department_id, 0), ${chat}.id % ${d.hotRowStripes},
        ${sign}, CASE WHEN ${missed(chat)} THEN ${sign} ELSE 0 END, ${rated(chat, 'positive', sign)}, ${rated(chat, 'negative', sign)})
      ${upsert('report_hours', STRIPED_KEY, ['chats', 'missed', 'positive', 'negative'])};`;
}

/** The columns whose update may move a chat's share of report_hours, and when it does (SQL over OLD and NEW). */
export const HOURS_UPDATE_COLUMNS = 'UPDATE OF created_at, channel_id, department_id, state, first_agent_message_at, rate';
export const hoursShareMoved = (d: Pick<SchemaDialect, 'differ'>) => {
  const changed = (...columns: string[]) => columns.map((c) => d.differ(`OLD.${c}`, `NEW.${c}`)).join(' OR ');
  return `${changed('created_at', 'channel_id', 'department_id')} OR ${d.differ(missed('OLD'), missed('NEW'))} OR ${changed('rate')}`;
};

const chatShare = (d: SchemaDialect, chat: string, sign: number) => {
  const { firstResponse, resolution } = chatShares(chat, sign);
  return hoursShare(d, chat, sign) + firstResponse + resolution;
};

/**
 * Every new chat of a channel and department in an hour added itself to one row of report_hours, so concurrent
 * new chats waited on that row's lock, each until the one before had committed (PostgreSQL flushed them one at a
 * time). The hour's counts are now spread over stripes (chat id modulo the dialect's `hotRowStripes`): chats
 * created together have consecutive ids and update different rows. Reports sum the rows of an hour as before, so
 * their answers do not change. The triggers that write report_hours are replaced by ones that name the stripe.
 */
export const reportHoursStripesMigration: Migration = {
  version: 22,
  name: 'report hours in stripes',
  sql: (d) => `
    ${d.dropRowTrigger('chats_report_insert', 'chats')}
    ${d.dropRowTrigger('chats_report_hours_update', 'chats')}
    ${d.dropRowTrigger('chats_report_delete', 'chats')}
    CREATE TABLE report_hours_striped (
      hour ${d.integer} NOT NULL,
      channel_id ${d.integer} NOT NULL,
      department_id ${d.integer} NOT NULL,
      stripe ${d.integer} NOT NULL,
      chats ${d.integer} NOT NULL,
      missed ${d.integer} NOT NULL,
      positive ${d.integer} NOT NULL,
      negative ${d.integer} NOT NULL,
      PRIMARY KEY (${STRIPED_KEY})
    ) ${d.keyOrderedTable};
    INSERT INTO report_hours_striped (${STRIPED_KEY}, chats, missed, positive, negative)
      SELECT ${HOURS_KEY}, 0, chats, missed, positive, negative FROM report_hours;
    DROP TABLE report_hours;
    ALTER TABLE report_hours_striped RENAME TO report_hours;
    ${d.afterRowTrigger('chats_report_insert', 'INSERT', 'chats', chatShare(d, 'NEW', 1))}
    ${d.afterRowTrigger(
      'chats_report_hours_update',
      HOURS_UPDATE_COLUMNS,
      'chats',
      hoursShare(d, 'OLD', -1) + hoursShare(d, 'NEW', 1),
      hoursShareMoved(d),
    )}
    ${d.afterRowTrigger('chats_report_delete', 'DELETE', 'chats', chatShare(d, 'OLD', -1))}
  `,
};
