import type { PageInfo } from '@svc/protocol';
import type { FrameInit } from '../bridge/messages.ts';

const UTM_KEYS = ['source', 'medium', 'campaign', 'content', 'term'] as const;

/** spec 2.3 page and session: the page the visitor is on, its utm_* parameters and the browser. */
export function pageInfo(page: FrameInit['page'], userAgent: string): PageInfo {
  const utm: NonNullable<PageInfo['utm']> = {};
  try {
    const params = new URL(page.url).searchParams;
    for (const key of UTM_KEYS) {
      const value = params.get(`utm_${key}`);
      if (value) utm[key] = value.slice(0, 200);
    }
  } catch {
    // Not a URL: no utm data.
  }
  return {
    url: page.url.slice(0, 2048),
    title: page.title.slice(0, 500),
    referrer: page.referrer.slice(0, 2048),
    utm,
    user_agent: userAgent.slice(0, 500),
  };
}
