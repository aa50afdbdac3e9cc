import type { BusinessHours } from '@svc/protocol';
import { hoursTakeChats } from '../../lib/business-hours.ts';
import { randomToken } from '../../lib/secrets.ts';
import { channelPatchColumns, toChannel, type ChannelPatch, type ChannelRow, type ChannelsRepo } from '../channels.ts';
import type { PgDb, PgSql } from './pg-db.ts';

const select = `
  SELECT c.*, bp.provider_id AS bot_provider_public_id,
    COALESCE((SELECT json_agg(agent_id ORDER BY agent_id) FROM channel_agents WHERE channel_id = c.id), '[]')::text AS agent_ids_json
  FROM channels c LEFT JOIN bot_providers bp ON bp.id = c.bot_provider_id
  WHERE c.deleted_at IS NULL`;

const parseHours = (json: string | null | undefined) => (json ? (JSON.parse(json) as BusinessHours) : null);

/** The channel's agent list replaced whole. The caller holds the channel's row lock, so replacements of one channel queue. */
async function replaceAgents(sql: PgSql, channelId: number, agentIds: number[]) {
  await sql.run('DELETE FROM channel_agents WHERE channel_id = $1', [channelId]);
  if (agentIds.length === 0) return;
  await sql.run(
    `INSERT INTO channel_agents (channel_id, agent_id) SELECT $1, agent_id FROM unnest($2::bigint[]) AS agent_id
     ON CONFLICT DO NOTHING`,
    [channelId, agentIds],
  );
}

async function applyPatch(sql: PgSql, id: number, patch: ChannelPatch) {
  const set = channelPatchColumns(patch);
  if (set.length > 0)
    await sql.run(`UPDATE channels SET ${set.map(([k], i) => `${k} = $${i + 2}`).join(', ')} WHERE id = $1 AND deleted_at IS NULL`, [
      id,
      ...set.map(([, v]) => v),
    ]);
  if (patch.agentIds === undefined) return;
  // Without the lock two nodes replacing the same channel's agents would end with the union of both lists.
  await sql.run('SELECT 1 FROM channels WHERE id = $1 FOR UPDATE', [id]);
  await replaceAgents(sql, id, patch.agentIds);
}

export function createPgChannelsRepo(db: PgDb): ChannelsRepo {
  const findById = async (id: number) => {
    const row = await db.one<ChannelRow>(`${select} AND c.id = $1`, [id]);
    return row && toChannel(row);
  };

  return {
    async create(c) {
      const id = await db.tx(async (sql) => {
        const id = (await sql.value<number>(
          `INSERT INTO channels (public_id, kind, name, random_string, webhook_url, chunked, safe_domains_json, webhook_events_json, signing_secret, created_at, callback_json)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
          [
            c.publicId,
            c.kind,
            c.name,
            c.randomString,
            c.webhookUrl,
            c.chunked ? 1 : 0,
            JSON.stringify(c.safeDomains),
            JSON.stringify(c.webhookEvents),
            c.signingSecret,
            Date.now(),
            c.callback ? JSON.stringify(c.callback) : null,
          ],
        ))!;
        await replaceAgents(sql, id, c.agentIds);
        return id;
      });
      return (await findById(id))!;
    },
    findById,
    async findByPublicId(publicId) {
      const row = await db.one<ChannelRow>(`${select} AND c.public_id = $1`, [publicId]);
      return row && toChannel(row);
    },
    async withBot(providerRowId) {
      return (await db.all<ChannelRow>(`${select} AND c.bot_provider_id = $1 ORDER BY c.id`, [providerRowId])).map(toChannel);
    },
    async withAutoClose() {
      const rows = await db.all<{ id: number; auto_close_ms: number }>(
        'SELECT id, auto_close_ms FROM channels WHERE auto_close_ms IS NOT NULL AND deleted_at IS NULL ORDER BY id',
      );
      return rows.map((r) => ({ id: r.id, autoCloseMs: r.auto_close_ms }));
    },
    async list() {
      return (await db.all<ChannelRow>(`${select} ORDER BY c.id`)).map(toChannel);
    },
    async update(id, patch) {
      await db.tx((sql) => applyPatch(sql, id, patch));
      return findById(id);
    },
    async delete(id) {
      return (await db.run('UPDATE channels SET deleted_at = $1 WHERE id = $2 AND deleted_at IS NULL', [Date.now(), id])) === 1;
    },
    async status(id, now = new Date()) {
      const row = (await db.one<{ online: boolean; hours_json: string | null }>(
        `SELECT EXISTS (SELECT 1 FROM channel_agents ca JOIN agents a ON a.id = ca.agent_id
           WHERE ca.channel_id = $1 AND a.status = 'online' AND a.active = 1) AS online,
         (SELECT hours_json FROM channel_business_hours WHERE channel_id = $1) AS hours_json`,
        [id],
      ))!;
      return row.online && hoursTakeChats(parseHours(row.hours_json), now) ? 1 : 0;
    },
    async businessHours(id) {
      return parseHours(await db.value<string>('SELECT hours_json FROM channel_business_hours WHERE channel_id = $1', [id]));
    },
    async setBusinessHours(id, hours) {
      if (hours)
        await db.run(
          `INSERT INTO channel_business_hours (channel_id, hours_json, updated_at) VALUES ($1, $2, $3)
           ON CONFLICT (channel_id) DO UPDATE SET hours_json = excluded.hours_json, updated_at = excluded.updated_at`,
          [id, JSON.stringify(hours), Date.now()],
        );
      else await db.run('DELETE FROM channel_business_hours WHERE channel_id = $1', [id]);
    },
    async withBusinessHours() {
      return (await db.all<{ channel_id: number }>('SELECT channel_id FROM channel_business_hours ORDER BY channel_id')).map(
        (r) => r.channel_id,
      );
    },
    async identity(id) {
      type Identity = { identity_secret: string | null; require_verified_users: number };
      let row = (await db.one<Identity>('SELECT identity_secret, require_verified_users FROM channels WHERE id = $1', [id]))!;
      if (row.identity_secret === null) {
        // Two nodes may both find no secret: only the first write sticks, and both answer the secret stored.
        row =
          (await db.one<Identity>(
            `UPDATE channels SET identity_secret = $2 WHERE id = $1 AND identity_secret IS NULL
             RETURNING identity_secret, require_verified_users`,
            [id, randomToken(32)],
          )) ?? (await db.one<Identity>('SELECT identity_secret, require_verified_users FROM channels WHERE id = $1', [id]))!;
      }
      return { secret: row.identity_secret!, required: row.require_verified_users === 1 };
    },
    async rotateIdentitySecret(id) {
      await db.run('UPDATE channels SET identity_secret = $1 WHERE id = $2', [randomToken(32), id]);
    },
    async requireVerifiedUsers(id, required) {
      await db.run('UPDATE channels SET require_verified_users = $1 WHERE id = $2', [required ? 1 : 0, id]);
    },
    async transcripts(id) {
      const row = (await db.one<{ transcript_archive_email: string | null; transcript_to_customer: number }>(
        'SELECT transcript_archive_email, transcript_to_customer FROM channels WHERE id = $1',
        [id],
      ))!;
      return { archiveEmail: row.transcript_archive_email, toCustomer: row.transcript_to_customer === 1 };
    },
    async setTranscripts(id, patch) {
      const sets: [string, unknown][] = [];
      if (patch.archiveEmail !== undefined) sets.push(['transcript_archive_email', patch.archiveEmail]);
      if (patch.toCustomer !== undefined) sets.push(['transcript_to_customer', patch.toCustomer ? 1 : 0]);
      if (sets.length === 0) return;
      await db.run(`UPDATE channels SET ${sets.map(([k], i) => `${k} = $${i + 2}`).join(', ')} WHERE id = $1`, [
        id,
        ...sets.map(([, v]) => v),
      ]);
    },
  };
}
