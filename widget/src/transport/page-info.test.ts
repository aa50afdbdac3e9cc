import { describe, expect, it } from 'vitest';
import { pageInfo } from './page-info.ts';

describe('page info (spec 2.3 page, session utm_json)', () => {
  it('takes the utm parameters of the page URL', () => {
    const info = pageInfo({ url: 'https://shop.example/tea?utm_source=news&utm_campaign=spring&x=1', title: 'Tea', referrer: '' }, 'UA/1');
    expect(info).toEqual({
      url: 'https://shop.example/tea?utm_source=news&utm_campaign=spring&x=1',
      title: 'Tea',
      referrer: '',
      utm: { source: 'news', campaign: 'spring' },
      user_agent: 'UA/1',
    });
  });

  it('cuts long values to what the server accepts', () => {
    expect(pageInfo({ url: 'not a url', title: 't'.repeat(600), referrer: '' }, 'u').title).toHaveLength(500);
  });
});
