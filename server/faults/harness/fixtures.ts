import { FAULTS_ADMIN_TOKEN } from './server-process.ts';
import { must } from './http-client.ts';

export interface Agent {
  id: number;
  token: string;
}

/** An online agent, created through the admin API. */
export async function createAgent(base: string, name = 'Fault Agent'): Promise<Agent> {
  const email = `faults-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const body = await must('POST', `${base}/api/v1/agents`, 201, {
    token: FAULTS_ADMIN_TOKEN,
    body: { name, email, password: 'correct horse battery' },
  });
  await must('PUT', `${base}/api/v1/me/presence`, 200, { token: body.token, body: { status: 'online' } });
  return { id: body.id, token: body.token };
}

/** A Chat API channel whose agent replies go to `webhookUrl`; answers the endpoint's path (it survives a restart). */
export async function createChatApiChannel(base: string, webhookUrl: string, agent: Agent): Promise<string> {
  const body = await must('POST', `${base}/api/v1/channels`, 201, {
    token: FAULTS_ADMIN_TOKEN,
    body: { kind: 'chat_api', name: 'Faults app', webhook_url: webhookUrl, chunked: false, agent_ids: [agent.id] },
  });
  return new URL(body.endpoint).pathname;
}

/** A widget channel; answers its public id. */
export async function createWidgetChannel(base: string, agent: Agent): Promise<string> {
  const body = await must('POST', `${base}/api/v1/channels`, 201, {
    token: FAULTS_ADMIN_TOKEN,
    body: { kind: 'widget', name: 'Faults shop', agent_ids: [agent.id] },
  });
  return body.public_id;
}

/** An agent reply through the agent API; answers the stored message id. */
export async function sendAgentReply(base: string, agent: Agent, chatId: number, text: string): Promise<number> {
  const body = await must('POST', `${base}/api/v1/chats/${chatId}/messages`, 201, { token: agent.token, body: { type: 'text', text } });
  return body.message.id;
}

/** Every message of a chat, oldest first, through the agent API. */
export async function chatMessages(base: string, agent: Agent, chatId: number): Promise<{ id: number; author: string; text?: string }[]> {
  return (await must('GET', `${base}/api/v1/chats/${chatId}/messages`, 200, { token: agent.token })).messages;
}
