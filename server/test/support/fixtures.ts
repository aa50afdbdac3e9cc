import type { ApiClient } from './test-server.ts';
import { ADMIN_TOKEN } from './test-server.ts';

let agentCounter = 0;

export interface TestAgent {
  id: number;
  name: string;
  email: string;
  password: string;
  token: string;
}

/** Creates an agent through the admin API. */
export async function createAgent(
  api: ApiClient,
  overrides: Partial<{ name: string; email: string; password: string }> = {},
): Promise<TestAgent> {
  agentCounter += 1;
  const input = {
    name: overrides.name ?? `Agent ${agentCounter}`,
    email: overrides.email ?? `agent${agentCounter}-${Date.now()}@example.com`,
    password: overrides.password ?? 'correct horse battery',
  };
  const res = await api.post('/api/v1/agents', input, ADMIN_TOKEN);
  if (res.status !== 201) throw new Error(`agent creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { ...input, id: res.body.id, token: res.body.token };
}

export interface TestChannel {
  id: number;
  public_id: string;
  endpoint: string;
  status_url: string;
  [key: string]: unknown;
}

/** Creates a Chat API channel through the admin API. */
export async function createChatApiChannel(
  api: ApiClient,
  input: { webhook_url: string; agent_ids: number[]; name?: string; chunked?: boolean },
): Promise<TestChannel> {
  const res = await api.post(
    '/api/v1/channels',
    { kind: 'chat_api', name: input.name ?? 'Test app', chunked: false, ...input },
    ADMIN_TOKEN,
  );
  if (res.status !== 201) throw new Error(`channel creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A customer message as an integrating system would post it (spec 2.1). */
export async function postCustomerMessage(
  api: ApiClient,
  endpoint: string,
  senderId: string | number,
  text: string,
  sender: Record<string, unknown> = {},
) {
  return api.post(endpoint, { sender: { id: senderId, ...sender }, message: { type: 'text', text } });
}
