import { expect, test } from '../support/fixtures.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

test.describe('console: attachments', () => {
  test('console: an agent attaches an image; it shows as a photo and reaches the integrator as a photo message', async ({
    workspace,
    consolePage,
    page,
  }) => {
    const { agent, channel, integrator } = workspace;
    const ann = workspace.customer({ id: 77, name: 'Ann Files' });
    await consolePage.login(agent.email, agent.password);
    await ann.say('Can you send me the size chart?');
    await consolePage.openChat('Ann Files');

    await test.step('the file is uploaded and sent with the typed caption', async () => {
      await page.getByRole('textbox', { name: /Reply to/ }).fill('Here it is');
      await page.getByLabel('Attach a file').setInputFiles({ name: 'size chart.png', mimeType: 'image/png', buffer: PNG });
      await expect(page.locator('img[src*="/files/"]')).toBeVisible();
    });

    await test.step('the integrator receives a photo message with the file, its name, size and caption', async () => {
      await expect.poll(() => integrator.messagesFor(channel.public_id).length).toBe(1);
      const [sent] = integrator.messagesFor(channel.public_id);
      expect(sent!.message).toMatchObject({ type: 'photo', file_name: 'size chart.png', file_size: PNG.length, text: 'Here it is' });
      expect(String((sent!.message as { file?: string }).file)).toMatch(/\/files\/[\w-]{24}\/size%20chart\.png$/);
    });
  });
});
