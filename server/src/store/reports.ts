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

/** How many chats had each whole number of seconds. */
export type Histogram = { seconds: number; count: number }[];

export interface ReportAggregates {
  byDay: { day: number; chats: number; missed: number; positive: number; negative: number }[];
  firstResponse: Histogram;
  resolution: Histogram;
  byAgent: { agentId: number; name: string; chats: number; positive: number; negative: number }[];
  agentFirstResponse: { agentId: number; seconds: number; count: number }[];
}

export interface ReportsRepo {
  /** The aggregates of a report, each computed by the database over the indexed report columns of `chats`. */
  aggregate(filter: ReportFilter): Promise<ReportAggregates>;
}

/** The report's SQL, the same in both dialects but for how a parameter is written. */
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
  const cases = filter.switches.map((at, i) => `WHEN ch.created_at < ${p(at)} THEN ${p(filter.offsets[i]!)}`).join(' ');
  const offset = cases ? `CASE ${cases} ELSE ${p(filter.offsets.at(-1)!)} END` : p(filter.offsets[0]!);
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
    firstResponse: `SELECT (ch.first_agent_message_at - ch.first_client_message_at) / 1000 AS seconds, COUNT(*) AS count
      FROM ${chats} WHERE ${conditions} AND ${firstResponse} GROUP BY 1 ORDER BY 1`,
    resolution: `SELECT (ch.closed_at - ch.created_at) / 1000 AS seconds, COUNT(*) AS count
      FROM ${chats} WHERE ${conditions} AND ch.closed_at IS NOT NULL GROUP BY 1 ORDER BY 1`,
    byAgent: `SELECT ca.agent_id AS "agentId", a.name, COUNT(*) AS chats,
        COUNT(CASE WHEN ch.rate = 'positive' THEN 1 END) AS positive,
        COUNT(CASE WHEN ch.rate = 'negative' THEN 1 END) AS negative
      FROM ${chats} JOIN chat_agents ca ON ca.chat_id = ch.id JOIN agents a ON a.id = ca.agent_id
      WHERE ${conditions} GROUP BY ca.agent_id, a.name ORDER BY ca.agent_id`,
    agentFirstResponse: `SELECT ca.agent_id AS "agentId", (ca.first_message_at - ch.first_client_message_at) / 1000 AS seconds, COUNT(*) AS count
      FROM ${chats} JOIN chat_agents ca ON ca.chat_id = ch.id
      WHERE ${conditions} AND ca.first_message_at >= ch.first_client_message_at GROUP BY 1, 2 ORDER BY 1, 2`,
  };
}
