import type { DeliveryListView } from '@svc/protocol';
import { uniqueSuffix } from '../support/admin-api.ts';
import { expect, test } from '../support/admin-fixtures.ts';
import { Customer } from '../support/customer.ts';
import { e2eEnv } from '../support/e2e-env.ts';
import { FakeIntegrator } from '../support/fake-integrator.ts';
import { requestJson } from '../support/http-json.ts';

const refusal = { error: { code: 1, message: 'User blocked the bot' } };
/** A datetime-local value, `days` from now, in this machine's clock (the browser runs on it too). */
const localInput = (days: number) => {
  const t = new Date(Date.now() + days * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())}T${pad(t.getHours())}:${pad(t.getMinutes())}`;
};

test.describe('admin: replaying failed deliveries', () => {
  test('admin: a failed agent reply shows the receiver answer, is replayed from the log, and a range replays the rest', async ({
    admin,
    adminAgent,
    adminAgentApi,
    adminPage,
  }) => {
    const integrator = await FakeIntegrator.start();
    const channel = await admin.createChatApiChannel({
      name: `Replay ${uniqueSuffix()}`,
      webhookUrl: integrator.url,
      agentIds: [adminAgent.id],
    });
    const failed = async () =>
      (await admin.get<DeliveryListView>(`/api/v1/channels/${channel.id}/deliveries?state=failed`)).deliveries.filter(
        (d) => d.replayed_by === null,
      );
    /** Every text the integrator was sent, refused or accepted. */
    const postedTexts = () => integrator.messagesFor(channel.public_id).map((m) => ('text' in m.message ? m.message.text : undefined));
    await new Customer(channel.endpoint!, { id: 'r-1', name: 'Rita' }).say('Any news?');
    const chat = await adminAgentApi.chatWith('Any news?');
    integrator.answerWith(refusal);
    await adminAgentApi.send(chat.id, { type: 'text', text: 'First reply' });
    await expect.poll(async () => (await failed()).length).toBe(1);
    const [first] = await failed();

    await adminPage.open(adminAgent, 'Delivery log');
    const panel = adminPage.panel;
    await panel.getByLabel('Channel').selectOption(channel.name);
    const table = panel.getByRole('table', { name: 'Deliveries, newest first' });
    const row = (id: number) => table.getByRole('row').filter({ has: adminPage.page.getByText(`#${id} · chat_api`) });

    await test.step("each attempt shows the receiver's answer as text and how long it took", async () => {
      await expect(row(first!.id)).toContainText('failed');
      await expect(row(first!.id).getByLabel('Answer of attempt 1')).toHaveText(JSON.stringify(refusal));
      await expect(row(first!.id)).toContainText(/· \d+ ms/);
    });

    await test.step('the since/until filter leaves out what was created outside it', async () => {
      await panel.getByLabel('Created before').fill(localInput(-1));
      await expect(panel.getByText('No deliveries match.')).toBeVisible();
      await panel.getByLabel('Created before').fill('');
      await panel.getByLabel('Created from').fill(localInput(-1));
      await expect(row(first!.id)).toBeVisible();
    });

    await test.step('Replay sends it again to the integrator, which now accepts it', async () => {
      integrator.answerWith(null);
      await row(first!.id)
        .getByRole('button', { name: `Replay delivery ${first!.id}` })
        .click();
      const replay = table.getByRole('row').filter({ hasText: `Replays #${first!.id}` });
      await expect(panel.getByRole('status').filter({ hasText: `Delivery #${first!.id} was sent again as #` })).toBeVisible();
      await expect(async () => {
        await panel.getByRole('button', { name: 'Refresh' }).click();
        await expect(replay).toContainText('delivered', { timeout: 1000 });
      }).toPass();
      await expect(row(first!.id)).toContainText('Replayed by #');
      await expect(row(first!.id).getByRole('button', { name: /^Replay delivery/ })).toHaveCount(0);
      // Refused once, then accepted as the replay.
      expect(postedTexts().filter((text) => text === 'First reply')).toHaveLength(2);
    });

    await test.step("a refusal only the server knows (replayed meanwhile elsewhere) shows the API's message", async () => {
      integrator.answerWith(refusal);
      await adminAgentApi.send(chat.id, { type: 'text', text: 'Second reply' });
      await expect.poll(async () => (await failed()).length).toBe(1);
      const [second] = await failed();
      await panel.getByRole('button', { name: 'Refresh' }).click();
      await expect(row(second!.id)).toContainText('failed');
      integrator.answerWith(null);
      const { baseUrl, adminToken } = e2eEnv();
      await requestJson(`${baseUrl}/api/v1/channels/${channel.id}/deliveries/${second!.id}/replay`, { method: 'POST', token: adminToken });
      await row(second!.id)
        .getByRole('button', { name: `Replay delivery ${second!.id}` })
        .click();
      await expect(panel.getByRole('alert')).toHaveText('This delivery was already replayed, or its message was sent again since');
    });

    await test.step('Replay failed in range: a bad range is refused, a good one replays what failed since', async () => {
      integrator.answerWith(refusal);
      await adminAgentApi.send(chat.id, { type: 'text', text: 'Third reply' });
      await expect.poll(async () => (await failed()).length).toBe(1);
      integrator.answerWith(null);

      const form = panel.getByRole('form', { name: 'Replay failed in range' });
      await form.getByLabel('From').fill(localInput(1));
      await form.getByLabel('Until (not included)').fill(localInput(-1));
      await form.getByRole('button', { name: 'Replay failed' }).click();
      await expect(form.getByRole('alert')).toHaveText('Invalid body: until must be later than since');

      await form.getByLabel('From').fill(localInput(-1));
      await form.getByLabel('Until (not included)').fill(localInput(1));
      await form.getByLabel('Deliveries to replay').selectOption('chat_api');
      await form.getByRole('button', { name: 'Replay failed' }).click();
      await expect(form.getByRole('status')).toHaveText('Replayed 1 delivery. None are left in this range.');
      await expect.poll(async () => (await failed()).length).toBe(0);
      await expect.poll(() => postedTexts().filter((text) => text === 'Third reply').length).toBe(2);
    });
    await integrator.close();
  });
});
