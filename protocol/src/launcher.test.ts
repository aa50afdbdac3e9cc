import { describe, expect, it } from 'vitest';
import { resolveAppearance } from './appearance.ts';
import { launcherLook } from './launcher.ts';

const vars = (look: ReturnType<typeof launcherLook>) => Object.fromEntries(look.vars);

describe("the launcher's look", () => {
  it('puts the launcher and its window on the side and at the offsets the owner chose', () => {
    expect(vars(launcherLook(resolveAppearance({})))).toMatchObject({
      '--svc-r': '20px',
      '--svc-l': 'auto',
      '--svc-y': '20px',
      '--svc-frame-r': '0',
      '--svc-frame-l': 'auto',
    });
    expect(vars(launcherLook(resolveAppearance({ side: 'left', offset_x: 0, offset_y: 120 })))).toMatchObject({
      '--svc-l': '0px',
      '--svc-r': 'auto',
      '--svc-y': '120px',
      '--svc-frame-l': '0',
      '--svc-frame-r': 'auto',
    });
  });

  it('gives the accent and the text colour chosen for it', () => {
    expect(vars(launcherLook(resolveAppearance({ accent_color: '#FFD400' })))).toMatchObject({
      '--svc-accent': '#ffd400',
      '--svc-on-accent': '#000000',
    });
  });

  it("keeps the owner's words and values out of the markup and the stylesheet", () => {
    const label = '<img src=x onerror=alert(1)>';
    const look = launcherLook(resolveAppearance({ launcher_label: label, accent_color: '#123456', offset_x: 77 }));
    expect(look.label).toBe(label);
    for (const text of [look.html, look.css]) {
      expect(text).not.toContain('<img');
      expect(text).not.toContain('#123456');
      expect(text).not.toContain('77px');
    }
    // A shown label names the button; without one the button keeps its own name.
    expect(look.html).not.toContain('aria-label');
    expect(launcherLook(resolveAppearance({})).html).toContain('aria-label="Open chat"');
  });

  it('has no style element or style attribute for a strict page policy to refuse', () => {
    const { html } = launcherLook(resolveAppearance({ launcher_label: 'Chat' }), true);
    expect(html).not.toMatch(/<style|style=/i);
    expect(html).toContain('<div class=w hidden>');
  });
});
