import { uniqueSuffix } from '../support/admin-api.ts';
import { expect, test } from '../support/admin-fixtures.ts';
import { Customer } from '../support/customer.ts';
import { FakeIntegrator } from '../support/fake-integrator.ts';
import { AgentApi } from '../support/widget-agent.ts';
import { e2eEnv } from '../support/e2e-env.ts';

test.describe('admin: delivery log', () => {
  test("admin: a channel's delivery log lists an agent reply with its attempt, and filters by state", async ({
    admin,
    adminAgent,
    adminPage,
  }) => {
    const integrator = await FakeIntegrator.start();
    const channel = await admin.createChatApiChannel({
      name: `Log ${uniqueSuffix()}`,
      webhookUrl: integrator.url,
      agentIds: [adminAgent.id],
    });
    const { chat_id } = await new Customer(channel.endpoint!, { id: 'd-1', name: 'Dee' }).say('Where is my order?');
    const agentApi = new AgentApi(e2eEnv().baseUrl, adminAgent.token);
    let chatId = chat_id ?? 0;
    if (!chatId) chatId = (await agentApi.chatWith('Where is my order?')).id;
    await fetch(`${e2eEnv().baseUrl}/api/v1/chats/${chatId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminAgent.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'text', text: 'On its way' }),
    });
    await expect.poll(() => integrator.messagesFor(channel.public_id).length).toBe(1);

    await adminPage.open(adminAgent, 'Delivery log');
    await adminPage.panel.getByLabel('Channel').selectOption(channel.name);
    const table = adminPage.panel.getByRole('table', { name: 'Deliveries, newest first' });
    const row = table.getByRole('row').filter({ hasText: `chat ${chatId}` });
    await expect(row).toContainText('delivered');
    await expect(row).toContainText('HTTP 200');
    await expect(row).toContainText(`${integrator.url}/${channel.public_id}`);
    await row.getByText('Payload').click();
    await expect(row).toContainText('On its way');

    await adminPage.panel.getByLabel('State').selectOption('failed');
    await expect(adminPage.panel.getByText('No deliveries match.')).toBeVisible();
    await adminPage.panel.getByLabel('State').selectOption('delivered');
    await expect(row).toBeVisible();
    await integrator.close();
  });
});
