import { describe, expect, it } from 'vitest';
import { parseBotMarkdown } from '../src/bot-markdown.ts';

describe('bot markdown', () => {
  it('parses links, bold and italic', () => {
    expect(parseBotMarkdown('**Delivery** takes *2 days*, see [tracking](https://x.example/t).')).toEqual([
      { kind: 'bold', children: [{ kind: 'text', text: 'Delivery' }] },
      { kind: 'text', text: ' takes ' },
      { kind: 'italic', children: [{ kind: 'text', text: '2 days' }] },
      { kind: 'text', text: ', see ' },
      { kind: 'link', href: 'https://x.example/t', children: [{ kind: 'text', text: 'tracking' }] },
      { kind: 'text', text: '.' },
    ]);
  });

  it('keeps everything else, HTML included, as plain text', () => {
    expect(parseBotMarkdown('<img src=x onerror=alert(1)> # title `code`')).toEqual([
      { kind: 'text', text: '<img src=x onerror=alert(1)> # title `code`' },
    ]);
  });

  it('never links anything but http(s)', () => {
    expect(parseBotMarkdown('[click](javascript:alert(1))')).toEqual([{ kind: 'text', text: '[click](javascript:alert(1))' }]);
  });

  it('leaves snake_case words alone', () => {
    expect(parseBotMarkdown('use my_var_name here')).toEqual([{ kind: 'text', text: 'use my_var_name here' }]);
  });
});
