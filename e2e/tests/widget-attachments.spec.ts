import { expect, test } from '../support/widget-fixtures.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

test.describe('widget: attachments', () => {
  test('widget: a visitor attaches an image with a caption; it shows in the chat and the agent gets a photo message', async ({
    widget,
    widgetPage,
  }) => {
    await widgetPage.goto(widget.site.url);
    await widgetPage.open();
    await widgetPage.say('Hello, here is the broken item');

    await test.step('the file is uploaded and sent with the typed caption', async () => {
      await widgetPage.textbox.fill('Photo of the damage');
      await widgetPage.frame.getByLabel('Attach a file').setInputFiles({ name: 'damage.png', mimeType: 'image/png', buffer: PNG });
      await expect(widgetPage.message('Photo of the damage').locator('img')).toBeVisible();
    });

    await test.step('the agent receives it as a photo with the real name and size', async () => {
      const chat = await widget.agentApi.chatWith('Hello, here is the broken item');
      await expect
        .poll(async () => (await widget.agentApi.messages(chat.id)).find((m) => m.type === 'photo'))
        .toMatchObject({ type: 'photo', file_name: 'damage.png', file_size: PNG.length, text: 'Photo of the damage', author: 'client' });
    });

    await test.step('a file of a refused type is explained, not sent', async () => {
      await widgetPage.frame
        .getByLabel('Attach a file')
        .setInputFiles({ name: 'page.html', mimeType: 'text/html', buffer: Buffer.from('<script>1</script>') });
      await expect(widgetPage.frame.getByRole('status').filter({ hasText: 'This kind of file is not accepted here.' })).toBeVisible();
    });

    await test.step("a file over 10 MB is explained in the visitor's words without being uploaded", async () => {
      const uploads: string[] = [];
      widgetPage.page.on('request', (request) => void (request.url().includes('/uploads') && uploads.push(request.url())));
      await widgetPage.frame
        .getByLabel('Attach a file')
        .setInputFiles({ name: 'video.png', mimeType: 'image/png', buffer: Buffer.alloc(10 * 1024 * 1024 + 1) });
      await expect(
        widgetPage.frame.getByRole('status').filter({ hasText: 'The file is too large: files may be up to 10 MB.' }),
      ).toBeVisible();
      expect(uploads).toEqual([]);
    });
  });
});
