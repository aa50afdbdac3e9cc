import { BLOCK_DAYS, durationBucketSql } from './schema-report-rollups.ts';

/** Which chats a report counts: created in [from, to) (milliseconds), optionally of one channel, department or agent. */
export interface ReportFilter {
  from: number;
  to: number;
  channelId?: number;
  departmentId?: number;
  /** Chats in which this agent sent at least one message. */
  agentId?: number;
  /** The report's time zone as offsets from UTC (ms): `offsets[0]` before `switches[0]`, `offsets[i]` from
   * `switches[i - 1]` on. A day is numbered by `floor((created_at + offset) / 86400000)`. */
  offsets: number[];
  switches: number[];
}

/** How many chats had a duration in each bucket (`durationBucketSql`), named by its lowest whole second. */
export type Histogram = { seconds: number; count: number }[];

export interface ReportAggregates {
  byDay: { day: number; chats: number; missed: number; positive: number; negative: number }[];
  firstResponse: Histogram;
  resolution: Histogram;
  byAgent: { agentId: number; name: string; chats: number; positive: number; negative: number }[];
  agentFirstResponse: { agentId: number; seconds: number; count: number }[];
}

export interface ReportsRepo {
  /**
   * The aggregates of a report, each computed by the database: from the rollups (schema-report-rollups.ts)
   * where they serve the filter (`rollupsServe`), else, or when `exact` is asked for, from the indexed report
   * columns of `chats`. Both give the same answer; the property test compares them.
   */
  aggregate(filter: ReportFilter, options?: { exact?: boolean }): Promise<ReportAggregates>;
}

const HOUR = 3_600_000;
const DAY = 86_400_000;

/**
 * True when the rollups answer the report: they count chats per UTC hour and have no agent filter, so the
 * period and every offset of its time zone must fall on whole hours (not Asia/Kolkata's +05:30) and no agent be
 * asked for.
 */
export function rollupsServe(filter: ReportFilter): boolean {
  const wholeHours = [filter.from, filter.to, ...filter.offsets, ...filter.switches].every((ms) => ms % HOUR === 0);
  return wholeHours && filter.agentId === undefined;
}

/** One statement of a report with its parameters, in the dialect's placeholders. */
export interface ReportStatement {
  sql: string;
  params: unknown[];
}

/** What a dialect runs for a report (in one read transaction, in order) and how the rows become its aggregates. */
export interface ReportPlan {
  statements: ReportStatement[];
  combine(rows: unknown[][]): ReportAggregates;
}

/** The statements of a report and how to read their rows: `placeholder` writes the dialect's n-th parameter,
 * `chats` is how the dialect names the table of chats read by the exact queries, aliased `ch`. */
export function planReport(filter: ReportFilter, placeholder: (n: number) => string, chats: string, exact = false): ReportPlan {
  if (exact || !rollupsServe(filter)) {
    const q = reportQueries(filter, placeholder, chats);
    return {
      statements: [
        { sql: q.byDay, params: q.params },
        { sql: q.firstResponse, params: q.filterParams },
        { sql: q.resolution, params: q.filterParams },
        { sql: q.byAgent, params: q.filterParams },
        { sql: q.agentFirstResponse, params: q.filterParams },
      ],
      combine: (rows) => ({
        byDay: rows[0] as ReportAggregates['byDay'],
        firstResponse: rows[1] as Histogram,
        resolution: rows[2] as Histogram,
        byAgent: rows[3] as ReportAggregates['byAgent'],
        agentFirstResponse: rows[4] as ReportAggregates['agentFirstResponse'],
      }),
    };
  }
  return planFromRollups(filter, placeholder, chats);
}

/**
 * The days' counts from the hour rows of the period. Agents' counts and the histograms from the 32-day blocks
 * inside the period's whole UTC days and the day rows of the days around them; for the hours of the period
 * outside its whole UTC days (a zone's midnight is not UTC's), agents' counts from their hour rows and the
 * histograms from the exact queries over those hours' chats.
 */
function planFromRollups(filter: ReportFilter, placeholder: (n: number) => string, chats: string): ReportPlan {
  const statement = (build: (p: (value: number) => string) => string): ReportStatement => {
    const params: unknown[] = [];
    const sql = build((value) => {
      params.push(value);
      return placeholder(params.length);
    });
    return { sql, params };
  };
  const dims = (p: (value: number) => string) =>
    (filter.channelId === undefined ? '' : ` AND r.channel_id = ${p(filter.channelId)}`) +
    (filter.departmentId === undefined ? '' : ` AND r.department_id = ${p(filter.departmentId)}`);
  const firstDay = Math.ceil(filter.from / DAY);
  const endDay = Math.max(firstDay, Math.floor(filter.to / DAY));
  const firstBlock = Math.ceil(firstDay / BLOCK_DAYS) * BLOCK_DAYS;
  const endBlock = Math.max(firstBlock, Math.floor(endDay / BLOCK_DAYS) * BLOCK_DAYS);
  const spans: [span: number, from: number, to: number][] =
    firstBlock < endBlock
      ? [
          [BLOCK_DAYS, firstBlock, endBlock],
          [1, firstDay, firstBlock],
          [1, endBlock, endDay],
        ]
      : [[1, firstDay, endDay]];
  const edges: [from: number, to: number][] =
    firstDay < endDay
      ? [
          [filter.from, firstDay * DAY],
          [endDay * DAY, filter.to],
        ]
      : [[filter.from, filter.to]];
  /** The rows of `table` whose span and days fall in the period's whole UTC days, `select` read from each. */
  const dayParts = (p: (value: number) => string, table: string, select: string, where = '') =>
    spans
      .filter(([, from, to]) => from < to)
      .map(
        ([span, from, to]) => `SELECT ${select} FROM ${table} r
          WHERE ${where}r.span = ${p(span)} AND r.start_day >= ${p(from)} AND r.start_day < ${p(to)}${dims(p)}`,
      );
  const histogram = (table: string, where: string, byAgent = false) =>
    statement((p) => {
      const parts = dayParts(p, table, `r.seconds${byAgent ? ', r.agent_id' : ''}, r.count`, where);
      if (parts.length === 0) parts.push(`SELECT 0 AS seconds${byAgent ? ', 0 AS agent_id' : ''}, 0 AS count WHERE 1 = 0`);
      const group = byAgent ? 'agent_id, seconds' : 'seconds';
      return `SELECT ${byAgent ? 'agent_id AS "agentId", ' : ''}seconds, CAST(SUM(count) AS BIGINT) AS count
        FROM (${parts.join(' UNION ALL ')}) parts GROUP BY ${group} HAVING SUM(count) > 0 ORDER BY ${group}`;
    });
  const hours = (p: (value: number) => string, from = filter.from, to = filter.to) =>
    `r.hour >= ${p(from / HOUR)} AND r.hour < ${p(to / HOUR)}${dims(p)}`;
  const statements = [
    statement((p) => {
      const where = hours(p);
      return `SELECT (r.hour * ${HOUR} + ${offsetSql(filter, p, `r.hour * ${HOUR}`)}) / ${DAY} AS day,
          CAST(SUM(r.chats) AS BIGINT) AS chats, CAST(SUM(r.missed) AS BIGINT) AS missed,
          CAST(SUM(r.positive) AS BIGINT) AS positive, CAST(SUM(r.negative) AS BIGINT) AS negative
        FROM report_hours r WHERE ${where} GROUP BY 1 HAVING SUM(r.chats) > 0 ORDER BY 1`;
    }),
    histogram('report_durations', `r.measure = 'first_response' AND `),
    histogram('report_durations', `r.measure = 'resolution' AND `),
    statement((p) => {
      const counts = 'r.agent_id, r.chats, r.positive, r.negative';
      const parts = [
        ...dayParts(p, 'report_agent_days', counts),
        ...edges
          .filter(([from, to]) => from < to)
          .map(([from, to]) => `SELECT ${counts} FROM report_agent_hours r WHERE ${hours(p, from, to)}`),
      ];
      return `SELECT g.agent_id AS "agentId", a.name, g.chats, g.positive, g.negative
        FROM (SELECT agent_id, CAST(SUM(chats) AS BIGINT) AS chats, CAST(SUM(positive) AS BIGINT) AS positive,
            CAST(SUM(negative) AS BIGINT) AS negative
          FROM (${parts.join(' UNION ALL ')}) parts GROUP BY agent_id HAVING SUM(chats) > 0) g
        JOIN agents a ON a.id = g.agent_id ORDER BY g.agent_id`;
    }),
    histogram('report_agent_durations', '', true),
  ];
  for (const [from, to] of edges.filter(([from, to]) => from < to)) {
    const q = reportQueries({ ...filter, from, to }, placeholder, chats);
    statements.push(
      { sql: q.firstResponse, params: q.filterParams },
      { sql: q.resolution, params: q.filterParams },
      { sql: q.agentFirstResponse, params: q.filterParams },
    );
  }
  return {
    statements,
    combine(rows) {
      const edgeRows = rows.slice(5);
      const measure = (i: number) => [rows[i] as Histogram, ...edgeRows.filter((_, j) => j % 3 === i - 1)] as Histogram[];
      return {
        byDay: rows[0] as ReportAggregates['byDay'],
        firstResponse: mergeHistograms(measure(1).flat()),
        resolution: mergeHistograms(measure(2).flat()),
        byAgent: rows[3] as ReportAggregates['byAgent'],
        agentFirstResponse: mergeAgentHistograms(
          [rows[4], ...edgeRows.filter((_, j) => j % 3 === 2)].flat() as ReportAggregates['agentFirstResponse'],
        ),
      };
    },
  };
}

function mergeHistograms(rows: Histogram): Histogram {
  const counts = new Map<number, number>();
  for (const r of rows) counts.set(r.seconds, (counts.get(r.seconds) ?? 0) + r.count);
  return [...counts].map(([seconds, count]) => ({ seconds, count })).sort((a, b) => a.seconds - b.seconds);
}

function mergeAgentHistograms(rows: ReportAggregates['agentFirstResponse']): ReportAggregates['agentFirstResponse'] {
  const counts = new Map<string, { agentId: number; seconds: number; count: number }>();
  for (const r of rows) {
    const key = `${r.agentId}:${r.seconds}`;
    const known = counts.get(key);
    if (known) known.count += r.count;
    else counts.set(key, { ...r });
  }
  return [...counts.values()].sort((a, b) => a.agentId - b.agentId || a.seconds - b.seconds);
}

/** The offset of the report's zone (ms) at the instant `at` (an SQL expression), as SQL. */
function offsetSql(filter: ReportFilter, p: (value: number) => string, at: string): string {
  const cases = filter.switches.map((switchAt, i) => `WHEN ${at} < ${p(switchAt)} THEN ${p(filter.offsets[i]!)}`).join(' ');
  return cases ? `CASE ${cases} ELSE ${p(filter.offsets.at(-1)!)} END` : p(filter.offsets[0]!);
}

/** The exact report's SQL over the chats themselves, the same in both dialects but for how a parameter is written. */
/** `chats` is how the dialect names the table read, aliased `ch` (SQLite is told which index to read). */
export function reportQueries(filter: ReportFilter, placeholder: (n: number) => string, chats = 'chats ch') {
  const params: unknown[] = [];
  const p = (value: number) => {
    params.push(value);
    return placeholder(params.length);
  };
  const where = [`ch.created_at >= ${p(filter.from)}`, `ch.created_at < ${p(filter.to)}`];
  if (filter.channelId !== undefined) where.push(`ch.channel_id = ${p(filter.channelId)}`);
  if (filter.departmentId !== undefined) where.push(`ch.department_id = ${p(filter.departmentId)}`);
  if (filter.agentId !== undefined)
    where.push(`EXISTS (SELECT 1 FROM chat_agents x WHERE x.chat_id = ch.id AND x.agent_id = ${p(filter.agentId)})`);
  // Only the days' query reads the offsets, which come last: the others bind the filter's parameters alone.
  const filterParams = params.length;
  const offset = offsetSql(filter, p, 'ch.created_at');
  const conditions = where.join(' AND ');
  const missed = `ch.state = 'closed' AND ch.first_agent_message_at IS NULL`;
  const firstResponse = `ch.first_agent_message_at >= ch.first_client_message_at`;
  return {
    /** The parameters of `byDay`. */
    params,
    /** The parameters of every other query. */
    filterParams: params.slice(0, filterParams),
    byDay: `SELECT (ch.created_at + ${offset}) / 86400000 AS day, COUNT(*) AS chats,
        COUNT(CASE WHEN ${missed} THEN 1 END) AS missed,
        COUNT(CASE WHEN ch.rate = 'positive' THEN 1 END) AS positive,
        COUNT(CASE WHEN ch.rate = 'negative' THEN 1 END) AS negative
      FROM ${chats} WHERE ${conditions} GROUP BY 1 ORDER BY 1`,
    firstResponse: `SELECT ${durationBucketSql('((ch.first_agent_message_at - ch.first_client_message_at) / 1000)')} AS seconds, COUNT(*) AS count
      FROM ${chats} WHERE ${conditions} AND ${firstResponse} GROUP BY 1 ORDER BY 1`,
    resolution: `SELECT ${durationBucketSql('((ch.closed_at - ch.created_at) / 1000)')} AS seconds, COUNT(*) AS count
      FROM ${chats} WHERE ${conditions} AND ch.closed_at IS NOT NULL GROUP BY 1 ORDER BY 1`,
    byAgent: `SELECT ca.agent_id AS "agentId", a.name, COUNT(*) AS chats,
        COUNT(CASE WHEN ch.rate = 'positive' THEN 1 END) AS positive,
        COUNT(CASE WHEN ch.rate = 'negative' THEN 1 END) AS negative
      FROM ${chats} JOIN chat_agents ca ON ca.chat_id = ch.id JOIN agents a ON a.id = ca.agent_id
      WHERE ${conditions} GROUP BY ca.agent_id, a.name ORDER BY ca.agent_id`,
    agentFirstResponse: `SELECT ca.agent_id AS "agentId", ${durationBucketSql('((ca.first_message_at - ch.first_client_message_at) / 1000)')} AS seconds, COUNT(*) AS count
      FROM ${chats} JOIN chat_agents ca ON ca.chat_id = ch.id
      WHERE ${conditions} AND ca.first_message_at >= ch.first_client_message_at GROUP BY 1, 2 ORDER BY 1, 2`,
  };
}
