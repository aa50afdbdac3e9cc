import type { Migration, SchemaDialect } from './schema-dialect.ts';

/**
 * The bucket a duration of `seconds` (an SQL integer expression, never negative) is counted in, named by its
 * lowest value: exact to the second below 10 minutes, to the minute below 2 hours, to 10 minutes below 2 days, to
 * the hour beyond. Reports' percentiles are read from these buckets, on the rollups and on the chats alike, so a
 * histogram row per day stays small whatever the traffic.
 */
export const durationBucketSql = (seconds: string) => `(CASE WHEN ${seconds} < 600 THEN ${seconds}
  WHEN ${seconds} < 7200 THEN ${seconds} / 60 * 60
  WHEN ${seconds} < 172800 THEN ${seconds} / 600 * 600
  ELSE ${seconds} / 3600 * 3600 END)`;

export const HOUR = 3_600_000;
const DAY = 86_400_000;
/** Histograms are kept per UTC day and per block of this many days (days since 1970 divided by it). */
export const BLOCK_DAYS = 32;

const spans = `(SELECT 1 AS span UNION ALL SELECT ${BLOCK_DAYS} AS span) spans`;
export const missed = (chat: string) => `${chat}.state = 'closed' AND ${chat}.first_agent_message_at IS NULL`;
export const rated = (chat: string, rate: string, sign: number) => `CASE WHEN ${chat}.rate = '${rate}' THEN ${sign} ELSE 0 END`;
const firstResponse = (chat: string) => durationBucketSql(`((${chat}.first_agent_message_at - ${chat}.first_client_message_at) / 1000)`);
const resolution = (chat: string) => durationBucketSql(`((${chat}.closed_at - ${chat}.created_at) / 1000)`);
const startDay = (chat: string) => `${chat}.created_at / ${DAY} / spans.span * spans.span`;
export const upsert = (table: string, keys: string, sums: string[]) =>
  `ON CONFLICT (${keys}) DO UPDATE SET ${sums.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ')}`;

export const HOURS_KEY = 'hour, channel_id, department_id';
const AGENT_HOURS_KEY = 'hour, channel_id, department_id, agent_id';
const DURATIONS_KEY = 'measure, span, start_day, channel_id, department_id, seconds';
const AGENT_DAYS_KEY = 'span, start_day, channel_id, department_id, agent_id';
const AGENT_DURATIONS_KEY = 'span, start_day, channel_id, department_id, agent_id, seconds';

/** What one chat row (`chat`: NEW or OLD) adds (`sign` 1) to or takes (-1) from the chat-level rollups, by rollup. */
export function chatShares(chat: string, sign: number) {
  const where = `${chat}.channel_id, COALESCE(${chat}.department_id, 0)`;
  return {
    hours: `
    INSERT INTO report_hours (${HOURS_KEY}, chats, missed, positive, negative)
      VALUES (${chat}.created_at / ${HOUR}, ${where}, ${sign}, CASE WHEN ${missed(chat)} THEN ${sign} ELSE 0 END,
        ${rated(chat, 'positive', sign)}, ${rated(chat, 'negative', sign)})
      ${upsert('report_hours', HOURS_KEY, ['chats', 'missed', 'positive', 'negative'])};`,
    firstResponse: `
    INSERT INTO report_durations (${DURATIONS_KEY}, count)
      SELECT 'first_response', spans.span, ${startDay(chat)}, ${where}, ${firstResponse(chat)}, ${sign}
      FROM ${spans} WHERE ${chat}.first_agent_message_at >= ${chat}.first_client_message_at
      ${upsert('report_durations', DURATIONS_KEY, ['count'])};`,
    resolution: `
    INSERT INTO report_durations (${DURATIONS_KEY}, count)
      SELECT 'resolution', spans.span, ${startDay(chat)}, ${where}, ${resolution(chat)}, ${sign}
      FROM ${spans} WHERE ${chat}.closed_at IS NOT NULL
      ${upsert('report_durations', DURATIONS_KEY, ['count'])};`,
  };
}

export const chatShare = (chat: string, sign: number) => Object.values(chatShares(chat, sign)).join('');

/** What the agents of a chat add to or take from the per-agent rollups: `chat` names the chat row, `agent` the
 * chat_agents rows, `source` the table read (with its alias) and `join` how its rows match the other. */
function agentShare(chat: string, agent: string, source: string, join: string, sign: number): string {
  const where = `${chat}.channel_id, COALESCE(${chat}.department_id, 0), ${agent}.agent_id`;
  return `
    INSERT INTO report_agent_hours (${AGENT_HOURS_KEY}, chats, positive, negative)
      SELECT ${chat}.created_at / ${HOUR}, ${where}, ${sign}, ${rated(chat, 'positive', sign)}, ${rated(chat, 'negative', sign)}
      FROM ${source} WHERE ${join}
      ${upsert('report_agent_hours', AGENT_HOURS_KEY, ['chats', 'positive', 'negative'])};
    INSERT INTO report_agent_days (${AGENT_DAYS_KEY}, chats, positive, negative)
      SELECT spans.span, ${startDay(chat)}, ${where}, ${sign}, ${rated(chat, 'positive', sign)}, ${rated(chat, 'negative', sign)}
      FROM ${source}, ${spans} WHERE ${join}
      ${upsert('report_agent_days', AGENT_DAYS_KEY, ['chats', 'positive', 'negative'])};
    INSERT INTO report_agent_durations (${AGENT_DURATIONS_KEY}, count)
      SELECT spans.span, ${startDay(chat)}, ${where},
        ${durationBucketSql(`((${agent}.first_message_at - ${chat}.first_client_message_at) / 1000)`)}, ${sign}
      FROM ${source}, ${spans} WHERE ${join} AND ${agent}.first_message_at >= ${chat}.first_client_message_at
      ${upsert('report_agent_durations', AGENT_DURATIONS_KEY, ['count'])};`;
}

/**
 * An update of a chat moves its share between rows of a rollup only when what that rollup reads of it changed:
 * the frequent updates (a first message, a close) touch two or three rollups, not all of them.
 */
function chatUpdateTriggers(d: SchemaDialect): string {
  const changed = (...columns: string[]) => columns.map((c) => d.differ(`OLD.${c}`, `NEW.${c}`)).join(' OR ');
  const keys = ['created_at', 'channel_id', 'department_id'];
  const [before, after] = [chatShares('OLD', -1), chatShares('NEW', 1)];
  const agents = (chat: string, sign: number) => agentShare(chat, 'ca', 'chat_agents ca', `ca.chat_id = ${chat}.id`, sign);
  const trigger = (name: string, columns: string[], when: string, statements: string) =>
    d.afterRowTrigger(name, `UPDATE OF ${[...keys, ...columns].join(', ')}`, 'chats', statements, `${changed(...keys)} OR ${when}`);
  return [
    trigger(
      'chats_report_hours_update',
      ['state', 'first_agent_message_at', 'rate'],
      `${d.differ(missed('OLD'), missed('NEW'))} OR ${changed('rate')}`,
      before.hours + after.hours,
    ),
    trigger(
      'chats_report_first_response_update',
      ['first_client_message_at', 'first_agent_message_at'],
      changed('first_client_message_at', 'first_agent_message_at'),
      before.firstResponse + after.firstResponse,
    ),
    trigger('chats_report_resolution_update', ['closed_at'], changed('closed_at'), before.resolution + after.resolution),
    trigger(
      'chats_report_agents_update',
      ['rate', 'first_client_message_at'],
      changed('rate', 'first_client_message_at'),
      agents('OLD', -1) + agents('NEW', 1),
    ),
  ].join('\n');
}

/**
 * Reports over long periods read rollups instead of chats: counts per UTC hour, channel and department (and
 * agent, whose counts are also kept per UTC day and 32-day block), and histograms of the response and resolution
 * times per UTC day and per 32-day block. Triggers on `chats` and `chat_agents` keep them in the same transaction
 * as the change (an update takes the row's old share out and puts the new one in; an erased chat leaves them);
 * existing chats are counted in. A department of none is stored as 0 so it can be part of a key. Rows whose
 * counts fall to 0 stay: reports skip them.
 */
export const reportRollupsMigration: Migration = {
  version: 21,
  name: 'report rollups',
  sql: (d) => `
    CREATE TABLE report_hours (
      hour ${d.integer} NOT NULL,
      channel_id ${d.integer} NOT NULL,
      department_id ${d.integer} NOT NULL,
      chats ${d.integer} NOT NULL,
      missed ${d.integer} NOT NULL,
      positive ${d.integer} NOT NULL,
      negative ${d.integer} NOT NULL,
      PRIMARY KEY (${HOURS_KEY})
    ) ${d.keyOrderedTable};
    CREATE TABLE report_agent_hours (
      hour ${d.integer} NOT NULL,
      channel_id ${d.integer} NOT NULL,
      department_id ${d.integer} NOT NULL,
      agent_id ${d.integer} NOT NULL,
      chats ${d.integer} NOT NULL,
      positive ${d.integer} NOT NULL,
      negative ${d.integer} NOT NULL,
      PRIMARY KEY (${AGENT_HOURS_KEY})
    ) ${d.keyOrderedTable};
    -- the same per UTC day and per block of days: a long period reads a few of these, and hours only at its ends
    CREATE TABLE report_agent_days (
      span ${d.integer} NOT NULL,
      start_day ${d.integer} NOT NULL,
      channel_id ${d.integer} NOT NULL,
      department_id ${d.integer} NOT NULL,
      agent_id ${d.integer} NOT NULL,
      chats ${d.integer} NOT NULL,
      positive ${d.integer} NOT NULL,
      negative ${d.integer} NOT NULL,
      PRIMARY KEY (${AGENT_DAYS_KEY})
    ) ${d.keyOrderedTable};
    -- how many chats of the span's days had a duration in the bucket named by seconds (durationBucketSql)
    CREATE TABLE report_durations (
      measure TEXT NOT NULL CHECK (measure IN ('first_response', 'resolution')),
      span ${d.integer} NOT NULL,
      start_day ${d.integer} NOT NULL,
      channel_id ${d.integer} NOT NULL,
      department_id ${d.integer} NOT NULL,
      seconds ${d.integer} NOT NULL,
      count ${d.integer} NOT NULL,
      PRIMARY KEY (${DURATIONS_KEY})
    ) ${d.keyOrderedTable};
    -- each agent's first answer in the chats they wrote in
    CREATE TABLE report_agent_durations (
      span ${d.integer} NOT NULL,
      start_day ${d.integer} NOT NULL,
      channel_id ${d.integer} NOT NULL,
      department_id ${d.integer} NOT NULL,
      agent_id ${d.integer} NOT NULL,
      seconds ${d.integer} NOT NULL,
      count ${d.integer} NOT NULL,
      PRIMARY KEY (${AGENT_DURATIONS_KEY})
    ) ${d.keyOrderedTable};

    INSERT INTO report_hours (${HOURS_KEY}, chats, missed, positive, negative)
      SELECT ch.created_at / ${HOUR}, ch.channel_id, COALESCE(ch.department_id, 0), COUNT(*),
        COUNT(CASE WHEN ${missed('ch')} THEN 1 END), COUNT(CASE WHEN ch.rate = 'positive' THEN 1 END),
        COUNT(CASE WHEN ch.rate = 'negative' THEN 1 END)
      FROM chats ch GROUP BY 1, 2, 3;
    INSERT INTO report_durations (${DURATIONS_KEY}, count)
      SELECT 'first_response', spans.span, ${startDay('ch')}, ch.channel_id, COALESCE(ch.department_id, 0), ${firstResponse('ch')}, COUNT(*)
      FROM chats ch, ${spans} WHERE ch.first_agent_message_at >= ch.first_client_message_at GROUP BY 2, 3, 4, 5, 6;
    INSERT INTO report_durations (${DURATIONS_KEY}, count)
      SELECT 'resolution', spans.span, ${startDay('ch')}, ch.channel_id, COALESCE(ch.department_id, 0), ${resolution('ch')}, COUNT(*)
      FROM chats ch, ${spans} WHERE ch.closed_at IS NOT NULL GROUP BY 2, 3, 4, 5, 6;
    INSERT INTO report_agent_hours (${AGENT_HOURS_KEY}, chats, positive, negative)
      SELECT ch.created_at / ${HOUR}, ch.channel_id, COALESCE(ch.department_id, 0), ca.agent_id, COUNT(*),
        COUNT(CASE WHEN ch.rate = 'positive' THEN 1 END), COUNT(CASE WHEN ch.rate = 'negative' THEN 1 END)
      FROM chats ch JOIN chat_agents ca ON ca.chat_id = ch.id GROUP BY 1, 2, 3, 4;
    INSERT INTO report_agent_days (${AGENT_DAYS_KEY}, chats, positive, negative)
      SELECT spans.span, ${startDay('ch')}, ch.channel_id, COALESCE(ch.department_id, 0), ca.agent_id, COUNT(*),
        COUNT(CASE WHEN ch.rate = 'positive' THEN 1 END), COUNT(CASE WHEN ch.rate = 'negative' THEN 1 END)
      FROM chats ch JOIN chat_agents ca ON ca.chat_id = ch.id, ${spans} GROUP BY 1, 2, 3, 4, 5;
    INSERT INTO report_agent_durations (${AGENT_DURATIONS_KEY}, count)
      SELECT spans.span, ${startDay('ch')}, ch.channel_id, COALESCE(ch.department_id, 0), ca.agent_id,
        ${durationBucketSql('((ca.first_message_at - ch.first_client_message_at) / 1000)')}, COUNT(*)
      FROM chats ch JOIN chat_agents ca ON ca.chat_id = ch.id, ${spans}
      WHERE ca.first_message_at >= ch.first_client_message_at GROUP BY 1, 2, 3, 4, 5, 6;

    -- a chat has no chat_agents rows yet when it is inserted, and none left when it is deleted (their foreign key)
    ${d.afterRowTrigger('chats_report_insert', 'INSERT', 'chats', chatShare('NEW', 1))}
    ${chatUpdateTriggers(d)}
    ${d.afterRowTrigger('chats_report_delete', 'DELETE', 'chats', chatShare('OLD', -1))}
    ${d.afterRowTrigger('chat_agents_report_insert', 'INSERT', 'chat_agents', agentShare('ch', 'NEW', 'chats ch', 'ch.id = NEW.chat_id', 1))}
    ${d.afterRowTrigger('chat_agents_report_delete', 'DELETE', 'chat_agents', agentShare('ch', 'OLD', 'chats ch', 'ch.id = OLD.chat_id', -1))}
  `,
};
