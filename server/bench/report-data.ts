import type { Db } from '../src/store/sqlite/db.ts';

export interface ReportDataShape {
  chats: number;
  /** The chats are spread evenly over this many days before `end`. */
  days: number;
  end: number;
  agents: number;
}

/**
 * Writes a generated history straight into a SQLite file (the service's own schema): chats with their report
 * facts, ratings and the agents who wrote in them, as intake would have left them. Deterministic, so two runs
 * measure the same data.
 */
export function writeReportData(db: Db, shape: ReportDataShape): { channelId: number } {
  const now = Date.now();
  let seed = 42;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const channelId = Number(
    db
      .prepare(
        `INSERT INTO channels (public_id, kind, name, random_string, signing_secret, created_at) VALUES ('bench', 'chat_api', 'Bench', 'r', 's', ?)`,
      )
      .run(now).lastInsertRowid,
  );
  const agentIds: number[] = [];
  const insertAgent = db.prepare(`INSERT INTO agents (name, email, password_hash, created_at) VALUES (?, ?, 'x', ?)`);
  for (let i = 0; i < shape.agents; i++) agentIds.push(Number(insertAgent.run(`Agent ${i}`, `agent${i}@bench.test`, now).lastInsertRowid));
  const insertClient = db.prepare(
    `INSERT INTO clients (channel_id, external_key, external_id_json, created_at, updated_at) VALUES (?, ?, '1', ?, ?)`,
  );
  const insertChat = db.prepare(
    `INSERT INTO chats (channel_id, client_id, state, assigned_agent_id, created_at, closed_at, first_client_message_at, first_agent_message_at, rate)
     VALUES (?, ?, 'closed', ?, ?, ?, ?, ?, ?)`,
  );
  const insertChatAgent = db.prepare('INSERT INTO chat_agents (chat_id, agent_id, first_message_at) VALUES (?, ?, ?)');
  const clients = Math.max(1, Math.ceil(shape.chats / 10));
  const start = shape.end - shape.days * 86_400_000;
  const step = (shape.end - start) / shape.chats;
  const batch = 50_000;
  for (let from = 0; from < shape.chats; from += batch) {
    db.transaction(() => {
      for (let i = from; i < Math.min(shape.chats, from + batch); i++) {
        const clientId = i < clients ? Number(insertClient.run(channelId, `c${i}`, now, now).lastInsertRowid) : (i % clients) + 1;
        const createdAt = Math.floor(start + i * step);
        const firstClient = createdAt + 1000;
        const missed = random() < 0.1;
        const agentId = agentIds[Math.floor(random() * agentIds.length)]!;
        const firstAgent = missed ? null : firstClient + Math.floor(random() * 600_000);
        const closedAt = createdAt + 60_000 + Math.floor(random() * 3_600_000);
        const r = random();
        const rate = missed || r > 0.3 ? null : r < 0.25 ? 'positive' : 'negative';
        const chatId = Number(
          insertChat.run(channelId, clientId, missed ? null : agentId, createdAt, closedAt, firstClient, firstAgent, rate).lastInsertRowid,
        );
        if (firstAgent !== null) insertChatAgent.run(chatId, agentId, firstAgent);
      }
    })();
  }
  return { channelId };
}
