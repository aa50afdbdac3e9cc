import type { AgentView } from '@svc/protocol';
import { uniqueSuffix } from '../support/admin-api.ts';
import { expect, test } from '../support/admin-fixtures.ts';
import { e2eEnv } from '../support/e2e-env.ts';

const agentsAnswer = (token: string) =>
  fetch(`${e2eEnv().baseUrl}/api/v1/chats?state=open`, { headers: { authorization: `Bearer ${token}` } });

test.describe('admin: agents', () => {
  test('admin: an agent is invited with a role and channels, changed, deactivated (its token answers 401) and reactivated', async ({
    admin,
    adminAgent,
    adminPage,
  }) => {
    const channel = await admin.createChatApiChannel({ name: `Desk ${uniqueSuffix()}`, webhookUrl: 'http://127.0.0.1:9/x', agentIds: [] });
    const email = `maria-${uniqueSuffix()}@example.com`;
    const name = `Maria ${uniqueSuffix()}`;
    await adminPage.open(adminAgent, 'Agents');
    const list = adminPage.panel.getByRole('list', { name: 'Agents' });
    const form = adminPage.panel.getByRole('form', { name: 'Invite an agent' });

    await test.step('invite: our check first, then the agent appears with its channel', async () => {
      await form.getByLabel('Name').fill(name);
      await form.getByLabel('E-mail').fill(email);
      await form.getByLabel('Password').fill('short');
      await form.getByRole('button', { name: 'Create agent' }).click();
      await expect(form.getByRole('alert')).toHaveText('Invalid body: password: must have at least 8 characters');
      await form.getByLabel('Password').fill('a long password');
      await form.getByRole('checkbox', { name: new RegExp(channel.name) }).check();
      await form.getByRole('button', { name: 'Create agent' }).click();
      await expect(list.getByRole('listitem', { name })).toContainText(`Channels: ${channel.name}`);
      await expect(list.getByRole('listitem', { name })).toContainText(email);
      await expect(list.getByRole('listitem', { name })).toContainText('Offline');
    });

    const created = (await admin.get<{ agents: AgentView[] }>('/api/v1/agents')).agents.find((a) => a.email === email)!;
    const login = await fetch(`${e2eEnv().baseUrl}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'a long password' }),
    });
    const { token } = (await login.json()) as { token: string };
    expect((await agentsAnswer(token)).status).toBe(200);

    await test.step('make it an admin without channels', async () => {
      await list.getByRole('button', { name: `Edit ${name}` }).click();
      const edit = list.getByRole('form', { name: `Edit ${name}` });
      await edit.getByLabel('Role').selectOption('admin');
      await edit.getByRole('checkbox', { name: new RegExp(channel.name) }).uncheck();
      await edit.getByRole('button', { name: 'Save agent' }).click();
      await expect(list.getByRole('listitem', { name })).toContainText('Channels: none');
      expect(await admin.get(`/api/v1/agents/${created.id}`)).toMatchObject({ role: 'admin', channel_ids: [] });
    });

    await test.step('deactivate: its token stops working at once', async () => {
      await list.getByRole('listitem', { name }).getByRole('button', { name: 'Deactivate' }).click();
      await expect(list.getByRole('listitem', { name })).toContainText('Deactivated');
      expect((await agentsAnswer(token)).status).toBe(401);
    });

    await test.step('reactivate', async () => {
      await list.getByRole('listitem', { name }).getByRole('button', { name: 'Reactivate' }).click();
      await expect(list.getByRole('listitem', { name }).getByRole('button', { name: 'Deactivate' })).toBeVisible();
      expect(await admin.get(`/api/v1/agents/${created.id}`)).toMatchObject({ active: true });
    });
  });

  test('admin: an admin cannot demote or deactivate itself: the API message is shown', async ({ admin, adminAgent, adminPage }) => {
    await adminPage.open(adminAgent, 'Agents');
    const me = adminPage.panel
      .getByRole('list', { name: 'Agents' })
      .getByRole('listitem', { name: adminAgent.name })
      .filter({ hasText: '(you)' });
    const refusal = 'An admin cannot take away its own admin role or deactivate itself';

    await me.getByRole('button', { name: 'Deactivate' }).click();
    await expect(me.getByRole('alert')).toHaveText(refusal);

    await me.getByRole('button', { name: `Edit ${adminAgent.name}` }).click();
    await me.getByLabel('Role').selectOption('agent');
    await me.getByRole('button', { name: 'Save agent' }).click();
    await expect(me.getByRole('alert')).toHaveText(refusal);
    expect(await admin.get(`/api/v1/agents/${adminAgent.id}`)).toMatchObject({ role: 'admin', active: true });
  });
});
