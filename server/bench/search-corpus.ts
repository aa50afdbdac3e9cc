// The history search-bench.ts searches: chats of customers with names, e-mails and phones, and messages whose words
// follow a Zipf-like law (a few words in most messages, most words rare), some French and Russian among them.
import type { Db } from '../src/store/sqlite/db.ts';
import type { PgDb } from '../src/store/postgres/pg-db.ts';

const CHANNELS = 10;
/** The agent searching is a member of the first half of the channels: the other half's hits must be skipped. */
const AGENT_CHANNELS = 5;
const AGENT_ID = 1;
const BATCH = 5_000;

// Most frequent first: the rank decides how often a word is written.
const COMMON = `order please thanks hello the my is it a to you and for of in where when can not have package
  delivery was help today with this that refund invoice broken size colour return address payment card account
  week tomorrow again shipping number still email phone store price discount code wrong missing late box
  exchange cancel update status tracking receipt replace warranty product item tea cup sugar`
  .split(/\s+/)
  .filter(Boolean);
const FOREIGN = ['café', 'crème', 'заказ', 'доставка', 'спасибо', 'καφές'];
const FIRST = ['Anna', 'Olga', 'Zoë', 'Marek', 'José', 'Ivan', 'Mia', 'Noah', 'Léa', 'Omar', 'Sven', 'Ana'];
const SYLLABLES =
  'ba be bi bo bu ka ke ki ko ku la le li lo lu ma me mi mo mu na ne ni no nu ra re ri ro ru sa se si so su ta te ti to tu va ve vi vo vu za ze zi zo zu'.split(
    ' ',
  );

/** A small deterministic generator (mulberry32): the same corpus on every run and in both stores. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const syllableWord = (n: number, length: number) => {
  let word = '';
  for (let i = 0; i < length; i++) {
    word += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  }
  return word;
};

interface MessageRow {
  id: number;
  chatId: number;
  author: string;
  text: string;
  createdAt: number;
}

export interface SearchCorpus {
  chats: number;
  /** Words written in a handful of messages each, some in the agent's channels. */
  rareWords: string[];
  /** Surnames of customers, each shared by a few, some in the agent's channels. */
  surnames: string[];
  /** Writes the corpus into a migrated SQLite file, triggers and all; answers the searching agent's id. */
  writeSqlite(db: Db): number;
  writePostgres(db: PgDb): Promise<number>;
}

export function searchCorpus({ messages, chats }: { messages: number; chats: number }): SearchCorpus {
  const rareWords = Array.from({ length: Math.max(100, Math.round(messages / 50)) }, (_, i) => syllableWord(i * 7919 + 13, 4));
  const surnames = Array.from({ length: Math.max(20, Math.round(chats / 20)) }, (_, i) => `${syllableWord(i * 104729 + 7, 3)}ski`);

  const client = (id: number) => {
    const first = FIRST[id % FIRST.length]!;
    const surname = surnames[(id * 31) % surnames.length]!;
    return {
      name: `${first} ${surname}`,
      email: `${first.toLowerCase()}.${surname}${id}@mail.example`,
      phone: `+44 20 7946 ${String(id % 10000).padStart(4, '0')}`,
    };
  };
  const channelOf = (chatId: number) => (chatId % CHANNELS) + 1;

  function* messageRows(): Generator<MessageRow> {
    const next = random(17);
    const zipf = () => Math.floor(Math.exp(next() * Math.log(COMMON.length + 1))) - 1;
    for (let id = 1; id <= messages; id++) {
      const length = 5 + Math.floor(next() * 15);
      const words: string[] = [];
      for (let w = 0; w < length; w++) {
        const roll = next();
        words.push(
          roll < 0.03
            ? rareWords[Math.floor(next() * rareWords.length)]!
            : roll < 0.035
              ? FOREIGN[Math.floor(next() * FOREIGN.length)]!
              : COMMON[zipf()]!,
        );
      }
      const chatId = ((id - 1) % chats) + 1;
      yield {
        id,
        chatId,
        author: id % 3 === 0 ? 'agent' : 'client',
        text: `${words.join(' ')}.`,
        createdAt: 1_700_000_000_000 + id * 1000,
      };
    }
  }
  const lastMessageOf = (chatId: number) => chatId + Math.floor((messages - chatId) / chats) * chats;

  return {
    chats,
    rareWords,
    surnames,
    writeSqlite(db) {
      const channel = db.prepare(
        `INSERT INTO channels (id, public_id, kind, name, random_string, signing_secret, created_at) VALUES (?, ?, 'chat_api', ?, 'r', 's', 0)`,
      );
      const insertClient = db.prepare(
        `INSERT INTO clients (id, channel_id, external_key, external_id_json, name, email, phone, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0, 0)`,
      );
      const chat = db.prepare(
        `INSERT INTO chats (id, channel_id, client_id, state, created_at, last_message_id) VALUES (?, ?, ?, 'closed', 0, ?)`,
      );
      const message = db.prepare(
        `INSERT INTO messages (id, chat_id, author, type, text, delivery, created_at) VALUES (?, ?, ?, 'text', ?, 'delivered', ?)`,
      );
      db.transaction(() => {
        db.prepare(`INSERT INTO agents (id, name, email, password_hash, created_at) VALUES (?, 'Bench', 'bench@example.com', 'x', 0)`).run(
          AGENT_ID,
        );
        for (let c = 1; c <= CHANNELS; c++) channel.run(c, `bench-${c}`, `Channel ${c}`);
        for (let c = 1; c <= AGENT_CHANNELS; c++)
          db.prepare('INSERT INTO channel_agents (channel_id, agent_id) VALUES (?, ?)').run(c, AGENT_ID);
        for (let id = 1; id <= chats; id++) {
          const p = client(id);
          insertClient.run(id, channelOf(id), `k${id}`, `"k${id}"`, p.name, p.email, p.phone);
          chat.run(id, channelOf(id), id, lastMessageOf(id));
        }
      })();
      const batch = db.transaction((rows: MessageRow[]) => {
        for (const r of rows) message.run(r.id, r.chatId, r.author, r.text, r.createdAt);
      });
      let rows: MessageRow[] = [];
      for (const r of messageRows()) {
        rows.push(r);
        if (rows.length === BATCH * 10) {
          batch(rows);
          rows = [];
        }
      }
      batch(rows);
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.exec('ANALYZE');
      return AGENT_ID;
    },
    async writePostgres(db) {
      await db.run(`INSERT INTO agents (id, name, email, password_hash, created_at) VALUES ($1, 'Bench', 'bench@example.com', 'x', 0)`, [
        AGENT_ID,
      ]);
      for (let c = 1; c <= CHANNELS; c++)
        await db.run(
          `INSERT INTO channels (id, public_id, kind, name, random_string, signing_secret, created_at) VALUES ($1, $2, 'chat_api', $3, 'r', 's', 0)`,
          [c, `bench-${c}`, `Channel ${c}`],
        );
      for (let c = 1; c <= AGENT_CHANNELS; c++)
        await db.run('INSERT INTO channel_agents (channel_id, agent_id) VALUES ($1, $2)', [c, AGENT_ID]);
      for (let from = 1; from <= chats; from += BATCH) {
        const ids = Array.from({ length: Math.min(BATCH, chats - from + 1) }, (_, i) => from + i);
        const profiles = ids.map(client);
        await db.run(
          `INSERT INTO clients (id, channel_id, external_key, external_id_json, name, email, phone, created_at, updated_at)
           SELECT id, channel_id, 'k' || id, '"k' || id || '"', name, email, phone, 0, 0
           FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[]) AS t(id, channel_id, name, email, phone)`,
          [ids, ids.map(channelOf), profiles.map((p) => p.name), profiles.map((p) => p.email), profiles.map((p) => p.phone)],
        );
        await db.run(
          `INSERT INTO chats (id, channel_id, client_id, state, created_at)
           SELECT id, channel_id, id, 'closed', 0 FROM unnest($1::bigint[], $2::bigint[]) AS t(id, channel_id)`,
          [ids, ids.map(channelOf)],
        );
        // PostgreSQL keeps a chat's last message apart (store/postgres/chat-activity.ts)
        await db.run(
          `UPDATE chat_activity a SET last_message_id = t.last FROM unnest($1::bigint[], $2::bigint[]) AS t(id, last) WHERE a.id = t.id`,
          [ids, ids.map(lastMessageOf)],
        );
      }
      let rows: MessageRow[] = [];
      const flush = async () => {
        await db.run(
          `INSERT INTO messages (id, chat_id, author, type, text, delivery, created_at)
           SELECT id, chat_id, author, 'text', text, 'delivered', created_at
           FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::bigint[]) AS t(id, chat_id, author, text, created_at)`,
          [
            rows.map((r) => r.id),
            rows.map((r) => r.chatId),
            rows.map((r) => r.author),
            rows.map((r) => r.text),
            rows.map((r) => r.createdAt),
          ],
        );
        rows = [];
      };
      for (const r of messageRows()) {
        rows.push(r);
        if (rows.length === BATCH) await flush();
      }
      if (rows.length > 0) await flush();
      return AGENT_ID;
    },
  };
}
