import type { ChannelView, ChatView } from '@svc/protocol';
import { uniqueSuffix } from '../support/admin-api.ts';
import { expect, test } from '../support/admin-fixtures.ts';
import { FakeIntegrator } from '../support/fake-integrator.ts';

test.describe('admin: Chat API channels', () => {
  test('admin: a plain agent sees no Manage entry; an admin does', async ({ admin, adminAgent, adminPage }) => {
    const plain = await admin.createAgent('Pat Plain');
    await adminPage.console.login(plain.email, plain.password);
    await expect(adminPage.manageButton).toHaveCount(0);
    await adminPage.console.logout();

    await adminPage.console.login(adminAgent.email, adminAgent.password);
    await expect(adminPage.manageButton).toBeVisible();
  });

  test('admin: names from other parties are shown as text, never as markup', async ({ admin, adminAgent, adminPage }) => {
    const name = `<img src=x onerror="window.__owned=1"> <b>Bold</b> ${uniqueSuffix()}`;
    await admin.createChatApiChannel({ name, webhookUrl: 'http://127.0.0.1:9/x', agentIds: [] });
    await adminPage.open(adminAgent);
    await expect(adminPage.channelLink(name)).toContainText(name);
    await adminPage.channelLink(name).click();
    await expect(adminPage.panel.getByRole('heading', { name, level: 3 })).toBeVisible();
    await expect(adminPage.panel.locator('img, b')).toHaveCount(0);
    expect(await adminPage.page.evaluate(() => (window as { __owned?: number }).__owned)).toBeUndefined();
  });

  test('admin: Add channel -> Chat API -> Connect gives an endpoint that takes a customer message', async ({
    adminAgent,
    adminAgentApi,
    adminPage,
  }) => {
    const integrator = await FakeIntegrator.start();
    const name = `Mobile app ${uniqueSuffix()}`;
    await adminPage.open(adminAgent);

    await test.step('connect the channel with the form', async () => {
      await adminPage.panel.getByRole('button', { name: 'Add channel' }).click();
      await adminPage.panel.getByRole('button', { name: /^Chat API/ }).click();
      await adminPage.panel.getByLabel('Channel name').fill(name);
      await adminPage.panel.getByLabel('Webhook URL of your system').fill(integrator.url);
      await adminPage.panel.getByLabel('Send replies with chunked encoding').check();
      await adminPage.panel.getByRole('checkbox', { name: new RegExp(adminAgent.email) }).check();
      await adminPage.panel.getByRole('button', { name: 'Connect' }).click();
      await expect(adminPage.panel.getByRole('heading', { name, level: 3 })).toBeVisible();
    });

    const endpoint = await adminPage.copyValue('Endpoint');
    const statusUrl = await adminPage.copyValue('Status URL');
    await test.step('the endpoint, status URL and curl example are shown', async () => {
      expect(endpoint).toMatch(/\/chat-api\/[\w-]{32}\/[\w-]{12}$/);
      expect(statusUrl).toBe(`${endpoint}/status`);
      const curl = await adminPage.copyValue('Try it with curl');
      expect(curl).toContain(`curl -X POST '${endpoint}'`);
      expect(curl).toContain(`curl '${statusUrl}'`);
    });

    await test.step('a message posted to the endpoint arrives as a chat for the agent', async () => {
      const answer = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sender: { id: 'c-1', name: 'Carla Customer' }, message: { type: 'text', text: 'Hello from the app' } }),
      });
      expect(answer.status).toBe(200);
      let chat: ChatView | undefined;
      await expect
        .poll(async () => (chat = (await adminAgentApi.chats()).find((c) => c.channel_name === name))?.last_message?.text)
        .toBe('Hello from the app');
      expect(chat?.client.display_name).toBe('Carla Customer');
      expect(await (await fetch(statusUrl)).text()).toMatch(/^[01]$/);
    });

    await test.step('copy puts the endpoint on the clipboard, or selects it', async () => {
      await adminPage.panel.getByRole('button', { name: 'Copy Endpoint' }).click();
      await expect(adminPage.panel.getByRole('status').filter({ hasText: /Copied|Selected/ })).toBeVisible();
    });
    await integrator.close();
  });

  test('admin: the form shows our check and the API refusal as the API words them', async ({ adminAgent, adminPage }) => {
    await adminPage.open(adminAgent);
    await adminPage.panel.getByRole('button', { name: 'Add channel' }).click();
    await adminPage.panel.getByRole('button', { name: /^Chat API/ }).click();
    await adminPage.panel.getByLabel('Channel name').fill('Refused');

    await adminPage.panel.getByLabel('Webhook URL of your system').fill('not a url');
    await adminPage.panel.getByRole('button', { name: 'Connect' }).click();
    await expect(adminPage.alert()).toHaveText('Invalid body: webhook_url: must be an http:// or https:// URL');

    // A public address over plain http passes the schema; the server's URL policy refuses it.
    await adminPage.panel.getByLabel('Webhook URL of your system').fill('http://8.8.8.8/hook');
    await adminPage.panel.getByRole('button', { name: 'Connect' }).click();
    await expect(adminPage.alert()).toHaveText('webhook_url must use https:// for a public address');
  });

  test('admin: the signing secret is hidden, shown on demand and rotated after a confirmation', async ({
    admin,
    adminAgent,
    adminPage,
  }) => {
    const channel = await admin.createChatApiChannel({
      name: `Secret ${uniqueSuffix()}`,
      webhookUrl: 'http://127.0.0.1:9/x',
      agentIds: [],
    });
    await adminPage.open(adminAgent);
    await adminPage.channelLink(channel.name).click();

    await expect(adminPage.panel.getByText(channel.signing_secret)).toHaveCount(0);
    await expect(adminPage.panel.getByLabel('Signing secret', { exact: true })).toHaveCount(0);
    await adminPage.panel.getByRole('button', { name: 'Show signing secret' }).click();
    expect(await adminPage.copyValue('Signing secret')).toBe(channel.signing_secret);

    await adminPage.confirm('Rotate signing secret', 'Rotate now');
    await expect(adminPage.panel.getByLabel('Signing secret', { exact: true })).not.toHaveValue(channel.signing_secret);
    const rotated = await admin.getChannel(channel.id);
    expect(await adminPage.copyValue('Signing secret')).toBe(rotated.signing_secret);
  });

  test('admin: a Chat API channel is edited, then deleted after a confirmation', async ({ admin, adminAgent, adminPage }) => {
    const channel = await admin.createChatApiChannel({ name: `Old ${uniqueSuffix()}`, webhookUrl: 'http://127.0.0.1:9/x', agentIds: [] });
    await adminPage.open(adminAgent);
    await adminPage.channelLink(channel.name).click();

    const renamed = `Renamed ${uniqueSuffix()}`;
    await adminPage.panel.getByLabel('Channel name').fill(renamed);
    await adminPage.panel.getByLabel('Send replies with chunked encoding').check();
    await adminPage.panel.getByRole('button', { name: 'Save changes' }).click();
    await expect(adminPage.panel.getByRole('heading', { name: renamed, level: 3 })).toBeVisible();
    const saved = await admin.getChannel(channel.id);
    expect(saved).toMatchObject({ name: renamed, chunked: true });

    await adminPage.confirm('Delete channel', 'Yes, delete it');
    await expect(adminPage.panel.getByRole('heading', { name: 'Channels', level: 3 })).toBeVisible();
    await expect(adminPage.channelLink(renamed)).toHaveCount(0);
    await expect(admin.getChannel(channel.id)).rejects.toThrow(/answered 404/);
    expect((await admin.get<{ channels: ChannelView[] }>('/api/v1/channels')).channels.some((c) => c.id === channel.id)).toBe(false);
  });
});
