import type { AppearanceInput, TriggerRules } from '@svc/protocol';
import { e2eEnv } from '../support/e2e-env.ts';
import { requestJson } from '../support/http-json.ts';
import type { WidgetWorkspace } from '../support/widget-fixtures.ts';

/** The owner sets the look and language of the widget channel through the admin API, as the admin panel does. */
export async function setAppearance(widget: WidgetWorkspace, appearance: AppearanceInput): Promise<void> {
  const { baseUrl, adminToken } = e2eEnv();
  await requestJson(`${baseUrl}/api/v1/channels/${widget.channel.id}/appearance`, { method: 'PUT', token: adminToken, body: appearance });
}

/** The owner sets the channel's default trigger rules through the admin API. */
export async function setTriggerRules(widget: WidgetWorkspace, rules: TriggerRules): Promise<void> {
  const { baseUrl, adminToken } = e2eEnv();
  await requestJson(`${baseUrl}/api/v1/channels/${widget.channel.id}/triggers`, { method: 'PUT', token: adminToken, body: rules });
}

/** The offline messages the channel's agent reads (`GET /api/v1/offline-messages`). */
export async function offlineMessages(widget: WidgetWorkspace): Promise<{ name: string; email: string; message: string }[]> {
  const token = (widget.agent as unknown as { token: string }).token;
  const answer = await requestJson<{ offline_messages: { name: string; email: string; message: string }[] }>(
    `${e2eEnv().baseUrl}/api/v1/offline-messages`,
    { method: 'GET', token },
  );
  return answer.offline_messages;
}
