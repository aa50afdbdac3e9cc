import { VISITOR_NAMESPACE, type VisitorClientEvents, type VisitorServerEvents, type WidgetSession } from '@svc/protocol';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, type TestAgent } from './support/fixtures.ts';
import { startSmtpSink } from './support/smtp-sink.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

let t: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let agent: TestAgent;
let widget: { id: number; public_id: string };
const sockets: Socket[] = [];

const until = async <T>(read: () => Promise<T> | T, ok: (v: T) => boolean): Promise<T> => {
  for (let i = 0; i < 100; i += 1) {
    const v = await read();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('timed out');
};

/** A visitor who gives their e-mail, writes, is answered, and whose chat the agent then closes. */
async function finishedChat(email: string, text: string) {
  const socket: Socket<VisitorServerEvents, VisitorClientEvents> = io(`${t.base}${VISITOR_NAMESPACE}`, {
    auth: { widget_id: widget.public_id },
    transports: ['websocket'],
    reconnection: false,
  });
  sockets.push(socket);
  const session = await new Promise<WidgetSession>((resolve) => socket.once('session', resolve));
  await socket.emitWithAck('contact:set', { name: 'Nina <b>Nordmann</b>', email });
  await socket.emitWithAck('message:send', { client_msg_id: `m-${Math.random().toString(36).slice(2, 12)}`, text });
  const chat = (await t.api.get('/api/v1/chats?state=open', agent.token)).body.chats.find((c: any) => c.client.id === session.visitor_id);
  await t.api.post(`/api/v1/chats/${chat.id}/messages`, { type: 'text', text: 'It ships tomorrow.' }, agent.token);
  await t.api.post(`/api/v1/chats/${chat.id}/close`, {}, agent.token);
  return chat.id as number;
}

beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await startTestServer({ SVC_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, SVC_SMTP_FROM: 'Tea shop <chat@tea.example>' });
  agent = await createAgent(t.api, { name: 'Alex' });
  widget = (await t.api.post('/api/v1/channels', { kind: 'widget', name: 'Tea shop', agent_ids: [agent.id] }, ADMIN_TOKEN)).body;
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.dispose();
  await smtp.close();
});

describe('chat transcripts by e-mail', () => {
  it('sends a finished chat to the customer, as plain text with the contact details', async () => {
    expect((await t.api.get(`/api/v1/channels/${widget.id}/transcripts`, ADMIN_TOKEN)).body).toEqual({
      archive_email: null,
      to_customer: true,
      smtp_configured: true,
    });
    const chatId = await finishedChat('nina@example.com', 'Where is my oolong?');
    const [mail] = await until(
      () => smtp.mails.filter((m) => m.to.includes('nina@example.com')),
      (m) => m.length === 1,
    );
    expect(mail!.from).toBe('chat@tea.example');
    expect(mail!.raw).toContain('Subject: Your chat with Tea shop');
    expect(mail!.raw).toContain('Content-Type: text/plain');
    expect(mail!.raw).toContain('Name: Nina <b>Nordmann</b>');
    expect(mail!.raw).toContain('E-mail: nina@example.com');
    expect(mail!.raw).toMatch(/\] Nina <b>Nordmann<\/b>: Where is my oolong\?/);
    expect(mail!.raw).toMatch(/\] Alex: It ships tomorrow\./);
    // The mail server accepted the mail before the worker records the attempt.
    const sent = await until(
      async () =>
        (await t.api.get(`/api/v1/channels/${widget.id}/deliveries?kind=email`, ADMIN_TOKEN)).body.deliveries.find(
          (d: any) => d.chat_id === chatId,
        ),
      (d) => d?.state !== 'pending',
    );
    expect(sent).toMatchObject({ state: 'delivered', url: 'mailto:nina@example.com' });
  });

  it('also sends every finished chat to the archive address; not to the customer when that is turned off', async () => {
    const res = await t.api.patch(
      `/api/v1/channels/${widget.id}/transcripts`,
      { archive_email: 'archive@tea.example', to_customer: false },
      ADMIN_TOKEN,
    );
    expect(res.body).toEqual({ archive_email: 'archive@tea.example', to_customer: false, smtp_configured: true });
    const before = smtp.mails.length;
    const chatId = await finishedChat('ola@example.com', 'Do you have matcha?');
    const [mail] = await until(
      () => smtp.mails.slice(before),
      (m) => m.length >= 1,
    );
    expect(mail!.to).toEqual(['archive@tea.example']);
    expect(mail!.raw).toContain(`Subject: Chat #${chatId}: Your chat with Tea shop`);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.mails.slice(before).flatMap((m) => m.to)).not.toContain('ola@example.com');
  });

  it('logs a refused address as a failed delivery with the mail server’s answer', async () => {
    await t.api.patch(`/api/v1/channels/${widget.id}/transcripts`, { archive_email: null, to_customer: true }, ADMIN_TOKEN);
    const chatId = await finishedChat('nobody@refused.example', 'Hello?');
    const failed = await until(
      async () =>
        (await t.api.get(`/api/v1/channels/${widget.id}/deliveries?kind=email&state=failed`, ADMIN_TOKEN)).body.deliveries.find(
          (d: any) => d.chat_id === chatId,
        ),
      (d) => d !== undefined,
    );
    expect(failed.last_error).toMatch(/^The mail server refused/);
  });

  it('refuses settings that break the rules', async () => {
    const res = await t.api.patch(`/api/v1/channels/${widget.id}/transcripts`, { archive_email: 'not-an-address' }, ADMIN_TOKEN);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('archive_email: must be an e-mail address');
    expect((await t.api.patch(`/api/v1/channels/${widget.id}/transcripts`, { cc: 'x@y.z' }, ADMIN_TOKEN)).status).toBe(400);
    expect((await t.api.get('/api/v1/channels/99999/transcripts', ADMIN_TOKEN)).status).toBe(404);
  });
});
