import type { Frame, Page } from '@playwright/test';
import { expect, test } from '../support/widget-fixtures.ts';

/** The chat frame itself, to ask it what has keyboard focus. */
function chatFrame(page: Page): Frame {
  const frame = page.frames().find((f) => f.url().includes('/widget/frame.html'));
  if (!frame) throw new Error('the chat frame is not loaded');
  return frame;
}

interface Focused {
  name: string;
  x: number;
  y: number;
  /** The focus ring as drawn (for the hidden file input: on its label). */
  outline: string;
  ring: string;
}

/** What has focus in the chat frame: its accessible name, where it is and how its focus is drawn; null outside. */
function focused(page: Page): Promise<Focused | null> {
  return chatFrame(page).evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body || !document.hasFocus()) return null;
    const drawn = el.matches('input[type=file]') ? el.closest('label')! : el;
    const box = drawn.getBoundingClientRect();
    const style = getComputedStyle(drawn);
    return {
      name: el.getAttribute('aria-label') ?? el.textContent ?? '',
      x: box.x,
      y: box.y,
      outline: `${style.outlineStyle} ${style.outlineWidth}`,
      ring: style.boxShadow,
    };
  });
}

test.describe('widget: keyboard only', () => {
  test('widget: a whole chat with the keyboard alone: Space opens, Tab follows the layout with a visible focus, the reply is announced, Esc closes', async ({
    widget,
    widgetPage,
    page,
  }) => {
    const announcements = widgetPage.frame.getByTestId('announcements');
    await widgetPage.goto(widget.site.url);

    await test.step('Tab reaches the launcher, Space opens the chat in the text box', async () => {
      await page.keyboard.press('Tab');
      await expect(widgetPage.launcher).toBeFocused();
      await page.keyboard.press('Space');
      await expect(widgetPage.textbox).toBeFocused();
    });

    await test.step('typed and sent with Enter; the reply is announced once, without the history', async () => {
      await page.keyboard.type('Hello, with the keyboard only');
      await page.keyboard.press('Enter');
      await expect(widgetPage.message('Hello, with the keyboard only').getByText('Sent')).toBeVisible();
      const chat = await widget.agentApi.chatWith('Hello, with the keyboard only');
      await widget.agentApi.say(chat.id, 'Welcome! How can I help?');
      await expect(announcements).toHaveText('Alex Agent: Welcome! How can I help?');
      await widget.agentApi.say(chat.id, 'We answer within minutes.');
      await expect(announcements).toHaveText('Alex Agent: We answer within minutes.');
      await expect(widgetPage.messages).toHaveAttribute('aria-live', 'off');
      await expect(announcements).toHaveAttribute('aria-live', 'polite');
    });

    await test.step('Tab goes through the window top to bottom, each control with a visible focus ring', async () => {
      await widgetPage.textbox.fill('A draft');
      await widgetPage.header.getByRole('button', { name: 'Request a call back' }).focus();
      const order: Focused[] = [];
      for (let at = await focused(page); at && order.length < 12; at = await focused(page)) {
        order.push(at);
        await page.keyboard.press('Tab');
      }
      expect(order.map((f) => f.name)).toEqual([
        'Request a call back',
        'Your contact details',
        'End chat',
        'Minimize chat',
        'Messages',
        'Type your message',
        'Attach a file',
        'Send message',
      ]);
      for (const [i, f] of order.entries()) {
        expect(f.outline, `${f.name} shows its focus`).toBe('solid 2px');
        expect(f.ring, `${f.name} shows its focus`).toContain('4px');
        // Reading order: each next control is further down, or on the same row further right.
        const before = order[i - 1];
        if (before)
          expect(f.y > before.y + 4 || (Math.abs(f.y - before.y) <= 12 && f.x > before.x), `${f.name} after ${before.name}`).toBe(true);
      }
    });

    await test.step("on the site's next page the history comes back without being read out again", async () => {
      await page.goto(`${widget.site.url}/other-page`);
      await expect(widgetPage.message('We answer within minutes.')).toBeVisible();
      await expect(announcements).toHaveText('');
    });

    await test.step('Esc closes the chat and gives the focus back to the launcher', async () => {
      await widgetPage.textbox.focus();
      await page.keyboard.press('Escape');
      await expect(widgetPage.frameElement).toBeHidden();
      await expect(widgetPage.launcher).toBeFocused();
      await expect(widgetPage.launcher).toHaveAttribute('aria-expanded', 'false');
    });
  });
});

test.describe('widget: motion', () => {
  test('widget: new messages slide in and the log scrolls smoothly by default', async ({ widget, widgetPage }) => {
    await widgetPage.goto(widget.site.url);
    await widgetPage.open();
    await widgetPage.say('Moving along');
    const message = widgetPage.message('Moving along');
    await expect(message).toHaveCSS('animation-duration', '0.18s');
    await expect(widgetPage.messages).toHaveCSS('scroll-behavior', 'smooth');
  });

  test.describe('with prefers-reduced-motion: reduce', () => {
    test.use({ reducedMotion: 'reduce' });

    test('widget: nothing moves: no animation, no transition, no smooth scrolling', async ({ widget, widgetPage }) => {
      await widgetPage.goto(widget.site.url);
      await widgetPage.open();
      await widgetPage.say('Standing still');
      const message = widgetPage.message('Standing still');
      await expect(message).toHaveCSS('animation-duration', '0s');
      await expect(widgetPage.messages).toHaveCSS('scroll-behavior', 'auto');
      const moving = await chatFrame(widgetPage.page).evaluate(
        () =>
          Array.from(document.querySelectorAll('*'))
            .map((el) => getComputedStyle(el))
            .filter(
              (s) => s.animationDuration.split(', ').some((d) => d !== '0s') || s.transitionDuration.split(', ').some((d) => d !== '0s'),
            ).length,
      );
      expect(moving).toBe(0);
    });
  });
});
