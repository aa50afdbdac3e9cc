import { e2eEnv } from '../support/e2e-env.ts';
import { expect, test } from '../support/widget-fixtures.ts';

test.describe('console: offline messages', () => {
  test('console: a message left through the offline form appears live in the Offline tab, as text', async ({ widget, consolePage }) => {
    await consolePage.login(widget.agent.email, widget.agent.password);
    const message = 'Please call me about order 77 <img src=x onerror="window.__xss=1">';
    const res = await fetch(`${e2eEnv().baseUrl}/widget-api/${widget.channel.public_id}/offline-messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Olly Offline', phone: '+47 555 01 234', message }),
    });
    expect(res.status).toBe(201);

    await consolePage.page.getByRole('tab', { name: /Offline/ }).click();
    const item = consolePage.page.getByRole('listitem').filter({ hasText: 'Olly Offline' });
    await expect(item).toContainText(message);
    await expect(item).toContainText('+47 555 01 234');
    await expect(item.locator('img')).toHaveCount(0);
    expect(await consolePage.page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  });
});
