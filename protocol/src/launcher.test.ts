import { describe, expect, it } from 'vitest';
import { resolveAppearance, type WidgetAppearance } from './appearance.ts';
import { launcherLook } from './launcher.ts';

/** The custom properties the stylesheet gives the launcher's host element. */
const vars = (look: ReturnType<typeof launcherLook>) =>
  Object.fromEntries(
    /^:host\{([^}]*)\}/
      .exec(look.css)![1]!
      .split(';')
      .map((declaration) => declaration.split(':')),
  );

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

  it("shows the owner's label as text, never as markup, and keeps it out of the stylesheet", () => {
    const label = '<img src=x onerror=alert(1)> & "Chat" \'now\'';
    const look = launcherLook(resolveAppearance({ launcher_label: label }));
    for (const text of [look.html, look.css]) expect(text).not.toContain('<img');
    expect(look.html).toContain('<b>&#60;img src=x onerror=alert(1)&#62; &#38; &#34;Chat&#34; &#39;now&#39;</b>');
    // A shown label names the button; without one the button keeps its own name and shows no label.
    expect(look.html).not.toContain('aria-label');
    const iconOnly = launcherLook(resolveAppearance({})).html;
    expect(iconOnly).toContain('aria-label="Open chat"');
    expect(iconOnly).toContain('<b></b>');
  });

  it('lets only a #rrggbb colour and whole pixels into the stylesheet, whatever was stored', () => {
    const forged = { ...resolveAppearance({}), accent_color: 'red;}*{color:lime', offset_x: '1px}*{x:y' };
    const look = launcherLook(forged as unknown as WidgetAppearance);
    expect(look.css).not.toContain('lime');
    expect(look.css).not.toContain('x:y');
    expect(vars(look)).toMatchObject({ '--svc-accent': 'initial', '--svc-r': '0px' });
    // One rule for the owner's look, and it closes where it should.
    expect(look.css.indexOf('}')).toBe(look.css.indexOf('.w{') - 1);
  });

  it('has no style element or style attribute for a strict page policy to refuse', () => {
    const { html } = launcherLook(resolveAppearance({ launcher_label: 'Chat' }), true);
    expect(html).not.toMatch(/<style|style=/i);
    expect(html).toContain('<div class=w hidden>');
  });
});
