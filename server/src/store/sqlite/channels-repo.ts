import type { BusinessHours } from '@svc/protocol';
import { hoursTakeChats } from '../../lib/business-hours.ts';
import { randomToken } from '../../lib/secrets.ts';
import type { Db } from './db.ts';
import type { ChannelRecord } from '../records.ts';
import { channelPatchColumns, toChannel, type ChannelPatch, type ChannelRow, type NewChannel, type ChannelsRepo } from '../channels.ts';

const select = `
  SELECT c.*, bp.provider_id AS bot_provider_public_id,
    (SELECT json_group_array(agent_id) FROM (SELECT agent_id FROM channel_agents WHERE channel_id = c.id ORDER BY agent_id)) AS agent_ids_json
  FROM channels c LEFT JOIN bot_providers bp ON bp.id = c.bot_provider_id
  WHERE c.deleted_at IS NULL`;

export function createChannelsRepo(db: Db): ChannelsRepo {
  const q = {
    insert: db.prepare(
      `INSERT INTO channels (public_id, kind, name, random_string, webhook_url, chunked, safe_domains_json, webhook_events_json, signing_secret, created_at, callback_json)
       VALUES (@publicId, @kind, @name, @randomString, @webhookUrl, @chunked, @safeDomains, @webhookEvents, @signingSecret, @createdAt, @callback)`,
    ),
    byId: db.prepare<[number], ChannelRow>(`${select} AND c.id = ?`),
    byPublicId: db.prepare<[string], ChannelRow>(`${select} AND c.public_id = ?`),
    all: db.prepare<[], ChannelRow>(`${select} ORDER BY c.id`),
    withBot: db.prepare<[number], ChannelRow>(`${select} AND c.bot_provider_id = ? ORDER BY c.id`),
    withAutoClose: db.prepare<[], { id: number; auto_close_ms: number }>(
      'SELECT id, auto_close_ms FROM channels WHERE auto_close_ms IS NOT NULL AND deleted_at IS NULL ORDER BY id',
    ),
    clearAgents: db.prepare('DELETE FROM channel_agents WHERE channel_id = ?'),
    addAgent: db.prepare('INSERT OR IGNORE INTO channel_agents (channel_id, agent_id) VALUES (?, ?)'),
    softDelete: db.prepare('UPDATE channels SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL'),
    hours: db.prepare<[number], string>('SELECT hours_json FROM channel_business_hours WHERE channel_id = ?').pluck(),
    setHours: db.prepare(
      `INSERT INTO channel_business_hours (channel_id, hours_json, updated_at) VALUES (?, ?, ?)
       ON CONFLICT(channel_id) DO UPDATE SET hours_json = excluded.hours_json, updated_at = excluded.updated_at`,
    ),
    clearHours: db.prepare('DELETE FROM channel_business_hours WHERE channel_id = ?'),
    withHours: db.prepare<[], number>('SELECT channel_id FROM channel_business_hours').pluck(),
    identity: db.prepare<[number], { identity_secret: string | null; require_verified_users: number }>(
      'SELECT identity_secret, require_verified_users FROM channels WHERE id = ?',
    ),
    setIdentitySecret: db.prepare('UPDATE channels SET identity_secret = ? WHERE id = ?'),
    setRequireVerified: db.prepare('UPDATE channels SET require_verified_users = ? WHERE id = ?'),
    transcripts: db.prepare<[number], { transcript_archive_email: string | null; transcript_to_customer: number }>(
      'SELECT transcript_archive_email, transcript_to_customer FROM channels WHERE id = ?',
    ),
    online: db
      .prepare<[number], number>(
        `SELECT EXISTS (SELECT 1 FROM channel_agents ca JOIN agents a ON a.id = ca.agent_id
         WHERE ca.channel_id = ? AND a.status = 'online' AND a.active = 1)`,
      )
      .pluck(),
  };
  const hoursOf = (id: number): BusinessHours | null => {
    const json = q.hours.get(id);
    return json ? (JSON.parse(json) as BusinessHours) : null;
  };
  const setAgents = (channelId: number, agentIds: number[]) => {
    q.clearAgents.run(channelId);
    for (const agentId of agentIds) q.addAgent.run(channelId, agentId);
  };

  const insert = db.transaction((c: NewChannel) => {
    const id = Number(
      q.insert.run({
        ...c,
        chunked: c.chunked ? 1 : 0,
        safeDomains: JSON.stringify(c.safeDomains),
        webhookEvents: JSON.stringify(c.webhookEvents),
        callback: c.callback ? JSON.stringify(c.callback) : null,
        createdAt: Date.now(),
      }).lastInsertRowid,
    );
    setAgents(id, c.agentIds);
    return id;
  });

  const update = db.transaction((id: number, patch: ChannelPatch) => {
    const set = channelPatchColumns(patch);
    if (set.length > 0)
      db.prepare(`UPDATE channels SET ${set.map(([k]) => `${k} = @${k}`).join(', ')} WHERE id = @id AND deleted_at IS NULL`).run({
        ...Object.fromEntries(set),
        id,
      });
    if (patch.agentIds !== undefined) setAgents(id, patch.agentIds);
  });

  return {
    async create(channel: NewChannel): Promise<ChannelRecord> {
      return toChannel(q.byId.get(insert(channel))!);
    },
    async findById(id: number): Promise<ChannelRecord | undefined> {
      const row = q.byId.get(id);
      return row && toChannel(row);
    },
    async findByPublicId(publicId: string): Promise<ChannelRecord | undefined> {
      const row = q.byPublicId.get(publicId);
      return row && toChannel(row);
    },
    async withBot(providerRowId: number): Promise<ChannelRecord[]> {
      return q.withBot.all(providerRowId).map(toChannel);
    },
    async withAutoClose(): Promise<{ id: number; autoCloseMs: number }[]> {
      return q.withAutoClose.all().map((r) => ({ id: r.id, autoCloseMs: r.auto_close_ms }));
    },
    async list(): Promise<ChannelRecord[]> {
      return q.all.all().map(toChannel);
    },
    async update(id: number, patch: ChannelPatch): Promise<ChannelRecord | undefined> {
      update(id, patch);
      return this.findById(id);
    },
    async delete(id: number): Promise<boolean> {
      return q.softDelete.run(Date.now(), id).changes === 1;
    },
    async status(id: number, now = new Date()): Promise<0 | 1> {
      return q.online.get(id) === 1 && hoursTakeChats(hoursOf(id), now) ? 1 : 0;
    },
    async businessHours(id: number): Promise<BusinessHours | null> {
      return hoursOf(id);
    },
    async setBusinessHours(id: number, hours: BusinessHours | null): Promise<void> {
      if (hours) q.setHours.run(id, JSON.stringify(hours), Date.now());
      else q.clearHours.run(id);
    },
    async withBusinessHours(): Promise<number[]> {
      return q.withHours.all();
    },
    async identity(id: number): Promise<{ secret: string; required: boolean }> {
      const row = q.identity.get(id)!;
      let secret = row.identity_secret;
      if (secret === null) {
        secret = randomToken(32);
        q.setIdentitySecret.run(secret, id);
      }
      return { secret, required: row.require_verified_users === 1 };
    },
    async rotateIdentitySecret(id: number): Promise<void> {
      q.setIdentitySecret.run(randomToken(32), id);
    },
    async requireVerifiedUsers(id: number, required: boolean): Promise<void> {
      q.setRequireVerified.run(required ? 1 : 0, id);
    },
    async transcripts(id: number): Promise<{ archiveEmail: string | null; toCustomer: boolean }> {
      const row = q.transcripts.get(id)!;
      return { archiveEmail: row.transcript_archive_email, toCustomer: row.transcript_to_customer === 1 };
    },
    async setTranscripts(id: number, patch: { archiveEmail?: string | null; toCustomer?: boolean }): Promise<void> {
      if (patch.archiveEmail !== undefined)
        db.prepare('UPDATE channels SET transcript_archive_email = ? WHERE id = ?').run(patch.archiveEmail, id);
      if (patch.toCustomer !== undefined)
        db.prepare('UPDATE channels SET transcript_to_customer = ? WHERE id = ?').run(patch.toCustomer ? 1 : 0, id);
    },
  };
}
