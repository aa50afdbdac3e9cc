// The package's types as an app uses them; `pnpm typecheck` compiles this file, so a change of the page API
// that breaks such a use, or that lets a wrong call through, fails the build.
import { loadSvcWidget, type PageEvents, type SvcApi } from '../src/index.ts';

export async function startChat(): Promise<SvcApi> {
  const svcApi = await loadSvcWidget({ widgetId: '0RhnQVEhoR_Q', baseUrl: 'https://chat.example.com', timeoutMs: 10_000 });
  svcApi.setContactInfo({ name: 'Ann Lee', email: 'ann@example.com' });
  const stop = svcApi.on('message:received', (message: PageEvents['message:received']) => message.text?.toUpperCase());
  stop();
  svcApi.open({ start: 'call' });
  window.svc_onChangeState = (state) => state.startsWith('chat');
  return svcApi;
}

export async function mistakes(): Promise<void> {
  // @ts-expect-error -- the widget id is required
  await loadSvcWidget({ baseUrl: 'https://chat.example.com' });
  // @ts-expect-error -- the option is widgetId, not widget_id
  await loadSvcWidget({ widget_id: '0RhnQVEhoR_Q', baseUrl: 'https://chat.example.com' });
  const svcApi = await loadSvcWidget({ widgetId: '0RhnQVEhoR_Q', baseUrl: 'https://chat.example.com' });
  // @ts-expect-error -- open takes {start}, not a string
  svcApi.open('call');
  // @ts-expect-error -- there is no such event
  svcApi.on('message', () => undefined);
  // @ts-expect-error -- a visitor's contact has no age
  svcApi.setContactInfo({ name: 'Ann', age: 31 });
}
