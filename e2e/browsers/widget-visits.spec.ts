import fs from 'node:fs';
import { dirname } from 'node:path';
import { offlineMessages } from './channel-settings.ts';
import { expect, test } from './fixtures.ts';
import { LAUNCHER, MINIMIZE, TEXTBOX } from './widget-visitor.ts';

/** A file of the visitor's disk, for the file picker: written to the test's output folder. */
function fileOnDisk(name: string, content: string | Buffer): string {
  const path = test.info().outputPath(name);
  fs.mkdirSync(dirname(path), { recursive: true });
  fs.writeFileSync(path, content);
  return path;
}

// A 1x1 PNG, as a visitor's photo.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

test.describe('widget: offline form', () => {
  test('widget: with no agent online the visitor leaves a message in the offline form and the agent has it', async ({
    widget,
    visitor,
  }) => {
    await widget.agentApi.setPresence('offline');
    await visitor.goto(widget.site.url);
    await visitor.tab.click('page', 'button');
    await expect
      .poll(() => visitor.inChat(`document.querySelector('form.offline-form h2')?.textContent ?? null`))
      .toBe('No one is online right now');
    await visitor.tab.type('chat', 'form.offline-form textarea', 'Do you ship to Norway?');
    await visitor.clickNamed('chat', 'button', 'Send message');
    await visitor.expectInChat('[role=alert]', 'Please leave an e-mail address or a phone number so we can answer.');
    await visitor.tab.type('chat', 'form.offline-form input[type=text]', 'Ola');
    await visitor.tab.type('chat', 'form.offline-form input[type=email]', 'ola@example.com');
    await visitor.clickNamed('chat', 'button', 'Send message');
    await visitor.expectInChat('[role=status]', 'We got your message and will answer at ola@example.com');
    await expect
      .poll(() => offlineMessages(widget))
      .toContainEqual(expect.objectContaining({ name: 'Ola', email: 'ola@example.com', message: 'Do you ship to Norway?' }));
  });
});

test.describe('widget: attachments', () => {
  test('widget: a photo the visitor attaches with a caption shows in the chat and reaches the agent', async ({ widget, visitor }) => {
    await visitor.goto(widget.site.url);
    await visitor.open();
    await visitor.say('Hello, here is the broken item');
    await visitor.tab.type('chat', TEXTBOX, 'Photo of the damage');
    await visitor.attachFile(fileOnDisk('damage.png', Buffer.from(PNG, 'base64')));
    await expect
      .poll(() =>
        visitor.inChat(
          `[...document.querySelectorAll('[role=log] li')].some((li) => li.textContent.includes('Photo of the damage') && li.querySelector('img')?.complete)`,
        ),
      )
      .toBe(true);
    const chat = await widget.agentApi.chatWith('Hello, here is the broken item');
    await expect
      .poll(async () => (await widget.agentApi.messages(chat.id)).find((m) => m.type === 'photo'))
      .toMatchObject({
        type: 'photo',
        file_name: 'damage.png',
        file_size: Buffer.from(PNG, 'base64').length,
        text: 'Photo of the damage',
        author: 'client',
      });
  });

  test('widget: a file of a refused type is explained to the visitor and not sent', async ({ widget, visitor }) => {
    await visitor.goto(widget.site.url);
    await visitor.open();
    await visitor.say('Can I send you a page?');
    await visitor.attachFile(fileOnDisk('page.html', '<script>1</script>'));
    await visitor.expectInChat('[role=status]', 'This kind of file is not accepted here.');
    const chat = await widget.agentApi.chatWith('Can I send you a page?');
    expect((await widget.agentApi.messages(chat.id)).map((m) => m.type)).toEqual(['text']);
  });
});

test.describe('widget: rating', () => {
  test('widget: when the agent closes the chat the visitor rates it once, and the agent sees the rating', async ({ widget, visitor }) => {
    await visitor.goto(widget.site.url);
    await visitor.open();
    await visitor.say('Do you ship to Norway?');
    const chat = await widget.agentApi.chatWith('Do you ship to Norway?');
    await widget.agentApi.say(chat.id, 'Yes, in 3 days.');
    await visitor.expectMessage('Yes, in 3 days.');
    expect(await visitor.inChat(`!!document.querySelector('button.rate')`)).toBe(false);
    await widget.agentApi.close(chat.id);
    await visitor.expectMessage('The chat has ended. Write again to start a new one.');
    await visitor.clickNamed('chat', 'button', 'Rate this conversation as good');
    await visitor.expectMessage('Thanks for your feedback.');
    expect(await visitor.inChat(`!!document.querySelector('button.rate')`)).toBe(false);
    await expect.poll(async () => (await widget.agentApi.chat(chat.id)).rate).toBe('positive');
  });
});

test.describe('widget: end chat', () => {
  test('widget: the visitor ends the chat from the header after a confirmation, then rates it, and the agent sees both', async ({
    widget,
    visitor,
  }) => {
    await visitor.goto(widget.site.url);
    await visitor.open();
    await visitor.say('Is the shop open on Sunday?');
    const chat = await widget.agentApi.chatWith('Is the shop open on Sunday?');
    await widget.agentApi.say(chat.id, 'From 10 to 16.');
    await visitor.expectMessage('From 10 to 16.');
    await visitor.tab.click('chat', 'button[aria-label="End chat"]');
    await visitor.clickNamed('chat', '[role=group] button', 'Keep chatting');
    await expect.poll(() => visitor.inChat(`!!document.querySelector('[role=group] button')`)).toBe(false);
    expect((await widget.agentApi.chat(chat.id)).state).not.toBe('closed');
    await visitor.tab.click('chat', 'button[aria-label="End chat"]');
    await visitor.clickNamed('chat', '[role=group] button', 'End chat');
    await visitor.expectMessage('The chat has ended. Write again to start a new one.');
    await expect.poll(async () => (await widget.agentApi.chat(chat.id)).state).toBe('closed');
    await visitor.clickNamed('chat', 'button', 'Rate this conversation as bad');
    await visitor.expectMessage('Thanks for your feedback.');
    await expect.poll(async () => (await widget.agentApi.chat(chat.id)).rate).toBe('negative');
  });
});

test.describe('widget: mouse', () => {
  test('widget: the launcher opens and closes the chat by mouse, and so does the minimize button in the window', async ({
    widget,
    visitor,
  }) => {
    await visitor.goto(widget.site.url);
    await visitor.open();
    await expect.poll(() => visitor.calls('svc_onOpen')).toHaveLength(1);
    await visitor.tab.click('chat', MINIMIZE);
    await expect.poll(() => visitor.chatShown()).toBe(false);
    await expect.poll(() => visitor.launcherLabel()).toBe('Open chat');
    await visitor.open();
    await visitor.tab.click('page', LAUNCHER);
    await expect.poll(() => visitor.chatShown()).toBe(false);
    await expect.poll(() => visitor.calls('svc_onClose')).toHaveLength(2);
  });
});
