import { expect, test } from '../support/fixtures.ts';

const XSS_IMG = '<img src=x onerror=window.__xss=1>';
const XSS_SCRIPT = '<script>window.__xss=1</script>';

test.describe('console: what the other party sends', () => {
  test('console: HTML in sender.name and message text renders as literal text and never runs', async ({ workspace, consolePage }) => {
    const { agent } = workspace;
    const page = consolePage.page;
    const mallory = workspace.customer({ name: XSS_IMG, url: 'javascript:window.__xss=1', invite: XSS_SCRIPT });
    await consolePage.login(agent.email, agent.password);

    await mallory.say(XSS_SCRIPT);
    await mallory.say(XSS_IMG);
    await expect(consolePage.chat(XSS_IMG)).toBeVisible();
    await consolePage.openChat(XSS_IMG);

    await test.step('the payloads are shown as text', async () => {
      await expect(consolePage.messages.getByText(XSS_SCRIPT, { exact: true })).toBeVisible();
      // The client's name above each of the two messages, and the text of the second one.
      await expect(consolePage.messages.getByText(XSS_IMG, { exact: true })).toHaveCount(3);
      // In the inbox: the client's name and the preview of the last message.
      await expect(consolePage.inbox.getByText(XSS_IMG, { exact: true })).toHaveCount(2);
      await expect(consolePage.clientDetails.getByText(XSS_SCRIPT)).toBeAttached();
    });

    await test.step('nothing was turned into markup and nothing ran', async () => {
      await expect(page.locator('img[src="x"]')).toHaveCount(0);
      await expect(page.locator('#app script')).toHaveCount(0);
      await expect(page.locator('a[href^="javascript:"]')).toHaveCount(0);
      expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
    });
  });

  test('console: every message type of spec 2.1 is shown as people expect', async ({ workspace, consolePage }) => {
    const { agent, integrator } = workspace;
    const files = integrator.fileBase;
    const page = consolePage.page;
    const eve = workspace.customer({
      name: 'Eve Media',
      photo: `${files}/avatar.png`,
      url: 'https://shop.example.com/cart',
      phone: '+1 555 0100',
    });
    await eve.say('Here is everything');
    await eve.send({
      type: 'photo',
      file: `${files}/full.png`,
      thumb: `${files}/thumb.png`,
      file_name: 'receipt.png',
      file_size: 2048,
      text: 'My receipt',
    });
    await eve.send({ type: 'sticker', file: `${files}/sticker.png`, file_size: 100 });
    await eve.send({ type: 'video', file: `${files}/clip.mp4`, file_name: 'clip.mp4', file_size: 3_145_728, duration: 65 });
    await eve.send({
      type: 'audio',
      file: `${files}/song.mp3`,
      file_name: 'song.mp3',
      file_size: 4096,
      performer: 'The Band',
      title: 'Hit',
    });
    await eve.send({ type: 'voice', file: `${files}/voice.ogg`, file_size: 512 });
    await eve.send({ type: 'document', file: `${files}/manual.pdf`, file_name: 'manual.pdf', file_size: 1536 });
    await eve.send({ type: 'location', latitude: 48.858372, longitude: 2.294481, text: 'I am here' });
    await consolePage.login(agent.email, agent.password);
    await consolePage.openChat('Eve Media');
    await expect(consolePage.messages.getByRole('listitem')).toHaveCount(8);

    await test.step('photo and sticker are images, the thumbnail first, linking to the file', async () => {
      const photo = consolePage.message('My receipt').getByRole('img', { name: 'receipt.png' });
      await expect(photo).toHaveAttribute('src', `${files}/thumb.png`);
      await expect(consolePage.message('My receipt').getByRole('link', { name: 'receipt.png' })).toHaveAttribute(
        'href',
        `${files}/full.png`,
      );
      await expect(consolePage.messages.locator(`img[src="${files}/sticker.png"]`)).toBeVisible();
    });

    await test.step('video, audio and voice get players', async () => {
      await expect(consolePage.messages.locator(`video[src="${files}/clip.mp4"][controls]`)).toBeAttached();
      await expect(consolePage.messages.locator('audio[controls]')).toHaveCount(2);
      await expect(consolePage.message('The Band – Hit')).toBeVisible();
      await expect(consolePage.message('clip.mp4')).toContainText('3 MB · 1:05');
    });

    await test.step('a document is a download link with its name and size', async () => {
      const link = consolePage.messages.getByRole('link', { name: 'manual.pdf' });
      await expect(link).toHaveAttribute('href', `${files}/manual.pdf`);
      await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(consolePage.message('manual.pdf')).toContainText('(1.5 KB)');
    });

    await test.step('a location shows its coordinates and an OpenStreetMap link, with its caption', async () => {
      const location = consolePage.message('I am here');
      await expect(location).toContainText('48.85837, 2.29448');
      await expect(location.getByRole('link', { name: 'Open in OpenStreetMap' })).toHaveAttribute(
        'href',
        /^https:\/\/www\.openstreetmap\.org\/\?mlat=48\.858372&mlon=2\.294481/,
      );
    });

    await test.step('the side panel shows who the client is', async () => {
      const details = consolePage.clientDetails;
      await expect(details.getByText('+1 555 0100')).toBeAttached();
      await expect(details.getByRole('link', { name: 'https://shop.example.com/cart' })).toHaveAttribute('rel', 'noopener noreferrer');
      await expect(details.locator(`img[src="${files}/avatar.png"]`)).toBeAttached();
    });

    const path = test.info().outputPath('console-media.png');
    await page.screenshot({ path, fullPage: true });
    await test.info().attach('console-media', { path, contentType: 'image/png' });
  });
});
