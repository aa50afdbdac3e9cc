import { describe, expect, it } from 'vitest';
import { appearanceInputSchema, contrastRatio, DEFAULT_ACCENT_COLOR, resolveAppearance, textColorOn } from '../src/appearance.ts';

const hex = (r: number, g: number, b: number) => `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;

describe('the text colour on an accent (textColorOn)', () => {
  it('reaches a contrast of at least 4.5:1 on every colour of a sweep of the RGB cube', () => {
    const steps = [0, 17, 51, 85, 102, 119, 136, 153, 170, 204, 238, 255];
    let worst = Infinity;
    for (const r of steps)
      for (const g of steps)
        for (const b of steps) {
          const accent = hex(r, g, b);
          const ratio = contrastRatio(accent, textColorOn(accent));
          worst = Math.min(worst, ratio);
          expect(ratio, accent).toBeGreaterThanOrEqual(4.5);
        }
    // mid grey is the hardest case: neither black nor white has much more than 4.5:1 there
    expect(worst).toBeLessThan(5.5);
  });

  it('puts white on dark and saturated blue accents, black on light and yellow ones', () => {
    expect(textColorOn('#000000')).toBe('#ffffff');
    expect(textColorOn(DEFAULT_ACCENT_COLOR)).toBe('#ffffff');
    expect(textColorOn('#ffffff')).toBe('#000000');
    expect(textColorOn('#ffd400')).toBe('#000000');
    expect(textColorOn('#00ff00')).toBe('#000000');
  });

  it('matches the WCAG ratios of known pairs', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });
});

describe('a stored appearance', () => {
  it('has every default filled in when nothing was stored', () => {
    expect(resolveAppearance({})).toEqual({
      accent_color: DEFAULT_ACCENT_COLOR,
      accent_text: '#ffffff',
      side: 'right',
      offset_x: 20,
      offset_y: 20,
      launcher_label: null,
      title: null,
      greeting: null,
      language: 'auto',
      texts: {},
    });
  });

  it.each([
    [{ accent_color: 'red;}' }, 'accent_color'],
    [{ accent_color: '#12345' }, 'accent_color'],
    [{ side: 'top' }, 'side'],
    [{ offset_x: 201 }, 'offset_x'],
    [{ title: 'x'.repeat(10_240) }, 'title'],
    [{ language: 'xx' }, 'language'],
    [{ texts: { de: { 'Not a key': 'x' } } }, 'texts'],
    [{ colour: '#ffffff' }, ''],
  ])('refuses %j at %s', (input, field) => {
    const result = appearanceInputSchema.safeParse(input);
    expect(result.success).toBe(false);
    if (field) expect(result.error!.issues[0]!.path[0]).toBe(field);
  });
});
