import type { BotEventsView, BotProviderView } from '@svc/protocol';
import { uniqueSuffix } from '../support/admin-api.ts';
import { expect, test } from '../support/admin-fixtures.ts';
import { Customer } from '../support/customer.ts';
import { FakeBot } from '../support/widget-fake-bot.ts';

test.describe('admin: bots', () => {
  test('admin: a provider is registered, attached to a channel, its events are shown, and it is detached', async ({
    admin,
    adminAgent,
    adminAgentApi,
    adminPage,
  }) => {
    const bot = await FakeBot.start((event: { chat_id: string }) => ({
      event: 'BOT_MESSAGE',
      id: `re-${uniqueSuffix()}`,
      chat_id: event.chat_id,
      message: { type: 'TEXT', text: 'Hello, I am a bot' },
    }));
    const providerName = `Acme Bots ${uniqueSuffix()}`;
    const channel = await admin.createChatApiChannel({
      name: `Bot shop ${uniqueSuffix()}`,
      webhookUrl: 'http://127.0.0.1:9/x',
      agentIds: [adminAgent.id],
    });
    await adminPage.open(adminAgent, 'Bots');

    await test.step('register a provider, with OAuth credentials whose secret is never shown', async () => {
      const form = adminPage.panel.getByRole('form', { name: 'Register a bot provider' });
      await form.getByLabel('Provider name').fill(providerName);
      await form.getByLabel('Bot endpoint').fill('ftp://bots.example.com');
      await form.getByRole('button', { name: 'Register provider' }).click();
      await expect(form.getByRole('alert')).toHaveText('Invalid body: endpoint: must be an http:// or https:// URL');

      await form.getByLabel('Bot endpoint').fill(bot.url);
      await form.getByLabel('Protect with OAuth 2.0 client credentials').check();
      await form.getByLabel('Token URL').fill(`${bot.url}/token`);
      await form.getByLabel('Client id').fill('svc-client');
      await form.getByLabel('Client secret').fill('very-secret');
      await form.getByRole('button', { name: 'Register provider' }).click();
      const provider = adminPage.panel.getByRole('list', { name: 'Bot providers' }).getByRole('listitem', { name: providerName });
      await expect(provider).toContainText(bot.url);
      await expect(provider).toContainText('client svc-client');
      await expect(adminPage.panel.getByText('very-secret')).toHaveCount(0);
      const registered = (await admin.get<{ bot_providers: BotProviderView[] }>('/api/v1/bot-providers')).bot_providers.find(
        (p) => p.name === providerName,
      )!;
      await expect(provider).toContainText(registered.bot_url);
    });

    // The OAuth provider above would need a token endpoint: attach a plain one for the exchange.
    const plainName = `Plain Bots ${uniqueSuffix()}`;
    await adminPage.panel.getByLabel('Protect with OAuth 2.0 client credentials').uncheck();
    await adminPage.panel.getByLabel('Provider name').fill(plainName);
    await adminPage.panel.getByLabel('Bot endpoint').fill(bot.url);
    await adminPage.panel.getByRole('button', { name: 'Register provider' }).click();
    await expect(adminPage.panel.getByRole('listitem', { name: plainName })).toBeVisible();

    await test.step('attach it to the channel', async () => {
      const form = adminPage.panel.getByRole('form', { name: 'Attach a bot to a channel' });
      await form.getByLabel('Channel', { exact: true }).selectOption(channel.name);
      await form.getByLabel('Bot provider').selectOption(plainName);
      await form.getByLabel('Channel token').fill('shop-token');
      await form.getByRole('button', { name: 'Attach bot' }).click();
      await expect(
        adminPage.panel.getByRole('list', { name: 'Channels with a bot' }).getByRole('listitem', { name: channel.name }),
      ).toContainText(plainName);
      expect((await admin.getChannel(channel.id)).bot).toMatchObject({ token: 'shop-token' });
    });

    let chatId = 0;
    await test.step("a chat's bot events: what was sent and what came back", async () => {
      await new Customer(channel.endpoint!, { id: 'b-1', name: 'Bo Customer' }).say('Hi bot');
      await expect
        .poll(async () => (chatId = (await adminAgentApi.chats('bot')).find((c) => c.channel_id === channel.id)?.id ?? 0))
        .toBeGreaterThan(0);
      await expect
        .poll(async () => (await admin.get<BotEventsView>(`/api/v1/chats/${chatId}/bot-events`)).sent[0]?.state)
        .toBe('delivered');
      await adminPage.panel.getByLabel('Chat id').fill(String(chatId));
      await adminPage.panel.getByRole('button', { name: 'Show bot events' }).click();
      const events = adminPage.panel.getByRole('region', { name: `Bot events of chat ${chatId}` });
      await expect(events.getByRole('table', { name: 'Events sent to the bot' })).toContainText('CLIENT_MESSAGE');
      await expect(events.getByRole('table', { name: 'Events sent to the bot' })).toContainText('HTTP 200');
      await expect(events.getByRole('table', { name: 'Events received from the bot' })).toContainText('Hello, I am a bot');
    });

    await test.step("the delivery log's bot rows lead to the same events", async () => {
      await adminPage.show('Delivery log');
      await adminPage.panel.getByLabel('Channel').selectOption(channel.name);
      await adminPage.panel.getByLabel('Kind').selectOption('bot');
      await adminPage.panel
        .getByRole('button', { name: `Bot events of chat ${chatId}` })
        .first()
        .click();
      await expect(
        adminPage.panel.getByRole('navigation', { name: 'Manage sections' }).getByRole('button', { name: 'Bots' }),
      ).toHaveAttribute('aria-current', 'page');
      const events = adminPage.panel.getByRole('region', { name: `Bot events of chat ${chatId}` });
      await expect(events.getByRole('table', { name: 'Events sent to the bot' })).toContainText('CLIENT_MESSAGE');
    });

    await test.step('an unknown chat shows the API message', async () => {
      await adminPage.panel.getByLabel('Chat id').fill('99999999');
      await adminPage.panel.getByRole('button', { name: 'Show bot events' }).click();
      await expect(adminPage.panel.getByRole('form', { name: 'Bot events of a chat' }).getByRole('alert')).toHaveText('No such chat');
    });

    await test.step('detach it', async () => {
      await adminPage.panel.getByRole('button', { name: `Detach the bot from ${channel.name}` }).click();
      await expect(adminPage.panel.getByRole('button', { name: `Detach the bot from ${channel.name}` })).toHaveCount(0);
      expect((await admin.getChannel(channel.id)).bot).toBeNull();
    });
    await bot.close();
  });
});
