import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DomainEvents } from '../src/conversations/domain-events.ts';
import { createDepartmentService, type DepartmentService } from '../src/departments/department-service.ts';
import { AppError } from '../src/http/errors.ts';
import { openStore } from '../src/store/open-store.ts';
import type { Store } from '../src/store/store.ts';
import { freshTestDb } from './support/test-db.ts';

let dir: string;
let store: Store;
let departments: DepartmentService;
let channelId: number;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-dept-'));
  store = await openStore({ db: await freshTestDb(dir), sync: 'normal' });
  departments = createDepartmentService({ store, events: new DomainEvents() });
  const channel = await store.channels.create({
    publicId: 'wdg1',
    kind: 'widget',
    name: 'Shop',
    randomString: 'r'.repeat(24),
    webhookUrl: null,
    chunked: false,
    safeDomains: [],
    webhookEvents: [],
    agentIds: [],
    signingSecret: 'whsec_test',
  });
  channelId = channel.id;
});
afterEach(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** What the widget gateway does when a visitor writes: find or open the visitor's chat with the message. */
async function visitorWrites(visitorKey: string, text: string) {
  const result = await store.chats.appendClientMessage({
    channelId,
    client: { key: visitorKey, id: visitorKey, profile: {} },
    botProviderRowId: null,
    message: { type: 'text', text, media: {}, externalId: null },
  });
  if (result.replayed) throw new Error('unexpected replay');
  return result.chat;
}

describe('setVisitorDepartment', () => {
  it("opens the visitor's next chat in the department, and only that one", async () => {
    const dept = await departments.create({ name: 'Sales', agent_ids: [] });
    const visitor = await store.visitors.create(channelId, 'v_next', 'token-hash-1');
    await departments.setVisitorDepartment(visitor.id, dept.id);

    const first = await visitorWrites('v_next', 'Hello');
    expect(first.department).toEqual({ id: dept.id, name: 'Sales' });
    expect((await visitorWrites('v_next', 'Still me')).id).toBe(first.id);

    await store.chats.close(first.id, false);
    const second = await visitorWrites('v_next', 'Back again');
    expect(second.id).not.toBe(first.id);
    expect(second.department).toBeNull();
  });

  it('refuses an unknown department with a clear 400 and an unknown visitor with a 404', async () => {
    const visitor = await store.visitors.create(channelId, 'v_bad', 'token-hash-2');
    const unknown = await departments.setVisitorDepartment(visitor.id, 424242).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(AppError);
    expect(unknown).toMatchObject({ code: 'invalid_request', message: 'department_id: no department with id 424242' });
    const dept = await departments.create({ name: 'Support', agent_ids: [] });
    await expect(departments.setVisitorDepartment(999_999, dept.id)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('forgets the asked-for department when the department is deleted before the visitor writes', async () => {
    const dept = await departments.create({ name: 'Gone soon', agent_ids: [] });
    const visitor = await store.visitors.create(channelId, 'v_gone', 'token-hash-3');
    await departments.setVisitorDepartment(visitor.id, dept.id);
    await departments.delete(dept.id);
    expect((await visitorWrites('v_gone', 'Hi')).department).toBeNull();
  });
});

describe('setChatDepartment', () => {
  it('puts a chat in a department and takes it out again; an unknown chat is a 404', async () => {
    const dept = await departments.create({ name: 'Billing', agent_ids: [] });
    const chat = await visitorWrites('v_chat', 'Invoice?');
    expect((await departments.setChatDepartment(chat.id, dept.id)).department).toEqual({ id: dept.id, name: 'Billing' });
    expect((await departments.setChatDepartment(chat.id, null)).department).toBeNull();
    await expect(departments.setChatDepartment(999_999, dept.id)).rejects.toMatchObject({ code: 'not_found' });
  });
});
