import type {
  ContactInfo,
  EmitPageEvent,
  Invitation,
  PageEvent,
  WidgetAppearance,
  WidgetLocale,
  WidgetSettings,
  UploadView,
} from '@svc/protocol';
import { UPLOAD_LIMIT_BYTES } from '@svc/protocol/upload-rules';
import { render } from 'preact';
import type { FrameInit, FrameState, FrameToHost } from '../bridge/messages.ts';
import { startCallbacks } from '../features/callback-form/callback-state.ts';
import { createDraftSender } from '../features/typing/typing-preview.ts';
import { createTypingReporter } from '../features/typing/visitor-typing.ts';
import { chooseLocale } from '../i18n/choose-locale.ts';
import type { Catalogue } from '../i18n/catalogue.ts';
import { loadCatalogue } from '../i18n/load-catalogue.ts';
import { createTexts, ownerText, type Texts } from '../i18n/texts.ts';
import { newClientMsgId } from '../lib/client-msg-id.ts';
import { emptyConversation, reduceConversation } from '../state/conversation.ts';
import { createStore } from '../state/store.ts';
import type { View } from '../state/view-state.ts';
import { enqueue, requeue, restoreOutbox } from '../transport/outbox.ts';
import { pageInfo } from '../transport/page-info.ts';
import { startProfileSync } from '../transport/profile-sync.ts';
import { startSender } from '../transport/sender.ts';
import { connectVisitorSocket } from '../transport/visitor-socket.ts';
import { App } from '../ui/App.tsx';
import { applyLook } from '../ui/apply-look.ts';
import { preloadFeatures } from '../ui/lazy-features.ts';
import { linkHost } from './host-link.ts';
import { savedState } from './saved-state.ts';
import { createViewController } from './view-controller.ts';
import type { Announcement, ConnectionState, WidgetModel } from './widget-model.ts';
import { wireSocket } from './wire-socket.ts';

/**
 * The chat frame's composition root: the stores, the connection, the link to the loader and the UI, all
 * created here once and passed in.
 */
/** How long the frame waits for its settings before it shows the chat in the visitor's browser language. */
const SETTINGS_WAIT_MS = 10_000;

/** Without settings: the visitor's browser language, the catalogue's words, our own colours (styles.css). */
const NO_APPEARANCE: Pick<WidgetAppearance, 'language' | 'texts' | 'title' | 'greeting' | 'launcher_label'> = {
  language: 'auto',
  texts: {},
  title: null,
  greeting: null,
  launcher_label: null,
};

/**
 * The language's catalogue; when its chunk cannot be fetched (the network dropped as the frame started),
 * tried again every few seconds: the UI needs its words, and the connection comes back by itself.
 */
async function loadCatalogueSurely(locale: WidgetLocale): Promise<Catalogue> {
  for (;;) {
    try {
      return await loadCatalogue(locale);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, CATALOGUE_RETRY_MS));
    }
  }
}
const CATALOGUE_RETRY_MS = 3_000;

/** The launcher's accessible name in the visitor's language, for the embed script to paint. */
const launcherLabel = ({ t }: Texts, open: boolean, unread: number) =>
  open ? t('window.minimize') : unread ? t('launcher.open_unread', { count: unread }) : t('launcher.open');

export function startFrame(init: FrameInit, port: MessagePort, win: Window, root: HTMLElement): void {
  // The frame is served at <base>/widget/frame.html: the service is at <base>/.
  const serviceUrl = new URL('..', win.location.href);

  const conversation = createStore({ ...emptyConversation, status: init.status });
  const outbox = createStore(restoreOutbox(init.saved?.outbox ?? null));
  const view = createStore<View>('closed');
  const connection = createStore<ConnectionState>('connecting');
  const unread = createStore(0);
  const announcement = createStore<Announcement | null>(null);
  const ratedChat = createStore<number | null>(null);
  const title = createStore('');
  // Set once the visitor's language is known (startUi); until then the launcher keeps its own words.
  let texts: Texts | undefined;
  // The loader's messages arrive as tasks, after this function has built everything they use.
  const toHost = linkHost(port, {
    act: (action) => act(action),
    contact: (contact) => {
      profile.set('contact', contact);
      report();
    },
    fields: (fields) => profile.set('customData', fields),
    token: (token) => profile.set('userToken', token),
    saved: (value) => saved.receive(value),
    invite: (invitation) => invite(invitation),
    // startCall: the loader checked the number and the availability it knew; the service checks again.
    call: (phone) => void callbacks.request(phone),
    // The triggers script on the page runs the rules; the frame has nothing to do with them.
    rules: () => undefined,
    page: (page) => profile.pageView(pageInfo(page, win.navigator.userAgent)),
  });
  const fire = (event: FrameToHost['fire']) => toHost('fire', event);
  const saved = savedState(init.saved, (value) => toHost('save', value));

  const socket = connectVisitorSocket(serviceUrl, init.widget_id, () => saved.get('visitor'));
  const emit: EmitPageEvent = (name, data) => toHost('event', { name, data } as PageEvent);
  const loadOlder = wireSocket(socket, { conversation, outbox, connection, unread, view, announcement }, saved, fire, emit);
  const callbacks = startCallbacks(socket, init.callback, fire);
  // spec 6.3 svc_onMessageSent: the visitor's first message of a chat.
  let sentInChat = false;
  socket.on('session', ({ chat }) => (sentInChat = !!chat?.messages.some((m) => m.author === 'visitor')));
  socket.on('chat:closed', () => (sentInChat = false));
  const sender = startSender(socket, outbox, (message) => {
    conversation.set((c) => reduceConversation(c, { type: 'message', message }));
    if (!sentInChat) fire({ name: 'svc_onMessageSent', args: [] });
    emit('message:sent', { id: message.id, type: message.type, ...(message.text ? { text: message.text } : {}) });
    sentInChat = true;
  });
  const profile = startProfileSync(socket, pageInfo(init.page, win.navigator.userAgent), (kind, value) => {
    if (kind === 'contact') conversation.set((c) => reduceConversation(c, { type: 'contact', contact: value as ContactInfo }));
  });
  const typingReporter = createTypingReporter((state) => socket.connected && socket.emit('typing', { state }));
  // Issue 24: the draft leaves the browser only when the channel shows it to agents (the session says so).
  const typingPreview = createStore(false);
  socket.on('session', (session) => typingPreview.set(session.typing_preview));
  const draft = createDraftSender((text) => socket.connected && socket.emit('typing', { state: 'start', text }));
  const typing = {
    input(text: string) {
      const hasText = !!text.trim();
      typingReporter.input(hasText);
      if (hasText && typingPreview.get()) draft.update(text);
      else draft.cancel();
    },
    stop() {
      draft.cancel();
      typingReporter.stop();
    },
  };
  const act = createViewController(view, () => conversation.get().live, fire, emit);
  // The loader opens the window itself; the invitation shows in it and reaches the agents as context.
  const invite = (invitation: Invitation) => {
    conversation.set((c) => reduceConversation(c, { type: 'invitation', text: invitation.text }));
    profile.set('invitation', invitation);
  };

  // Leaving the network is known at once; waiting for socket.io's heartbeat would take up to a minute.
  win.addEventListener('offline', () => socket.disconnect());
  win.addEventListener('online', () => socket.connected || socket.connect());
  // Two tabs that both started without a token: the later one follows the visitor the first one created.
  saved.onReceive(({ key, value }, previous) => {
    const fresh = !conversation.get().messages.length && !outbox.get().length;
    if (key === 'visitor' && value && value !== previous && fresh) socket.disconnect().connect();
  });

  outbox.subscribe((items) => saved.set('outbox', items.length ? JSON.stringify(items) : null));
  unread.subscribe((count) => emit('unread:change', { count }));
  view.subscribe((v) => {
    saved.set('view', v === 'closed' ? null : v);
    if (v !== 'closed') unread.set(0);
  });
  let reported = '';
  const report = () => {
    const c = conversation.get();
    const state: FrameState = {
      view: view.get(),
      status: c.status,
      contact: { ...c.contact, ...profile.pendingContact() },
      visitor_number: c.visitorNumber,
      unread: unread.get(),
      preload: c.live || view.get() !== 'closed',
      callback: callbacks.store.get().availability,
      label: texts && launcherLabel(texts, view.get() !== 'closed', unread.get()),
    };
    const json = JSON.stringify(state);
    if (json === reported) return;
    reported = json;
    toHost('state', state);
  };
  for (const store of [conversation, view, unread] as const) store.subscribe(report);
  callbacks.store.subscribe(report);

  const settings = fetch(new URL(`widget-api/${encodeURIComponent(init.widget_id)}/settings`, serviceUrl), {
    signal: AbortSignal.timeout(SETTINGS_WAIT_MS),
  })
    .then((r) => (r.ok ? (r.json() as Promise<WidgetSettings>) : undefined))
    .catch(() => undefined);

  // A request of the visitor's: false when the service refused it, or did not answer within 10 s, or is not reachable.
  const granted = (request: (timed: ReturnType<typeof socket.timeout>) => Promise<{ ok: boolean }>) =>
    socket.connected
      ? request(socket.timeout(10_000))
          .then((answer) => answer.ok)
          .catch(() => false)
      : Promise.resolve(false);

  // The UI appears once its language is loaded (no flash of English); the page API works meanwhile.
  void settings.then(async (found) => {
    const appearance = found?.appearance ?? NO_APPEARANCE;
    const locale = chooseLocale(appearance.language, win.navigator.languages ?? [win.navigator.language]);
    texts = createTexts(locale, await loadCatalogueSurely(locale), appearance);
    applyLook(win.document, found?.appearance ?? null, texts);
    title.set(ownerText(appearance, locale, 'header.title') ?? (found?.name || texts.t('header.title')));
    render(<App model={chatModel(texts)} />, root);
    report();
    // The forms and dialogs a visitor may open next, fetched once the window is drawn rather than with it.
    if (win.requestIdleCallback) win.requestIdleCallback(preloadFeatures);
    else win.setTimeout(preloadFeatures, 200);
  });

  /** Why the service refused a file or an offline message, in the visitor's words (its own texts are for
   * developers, in English). */
  const refusal = (texts: Texts, status: number, otherwise: 'composer.file_refused' | 'offline.refused') =>
    status === 429
      ? texts.t('errors.rate_limited')
      : status === 413
        ? texts.t('composer.file_too_big')
        : status === 400 && otherwise === 'composer.file_refused'
          ? texts.t('composer.file_type_refused')
          : texts.t(otherwise, { status });

  const chatModel = (texts: Texts): WidgetModel => ({
    conversation,
    outbox,
    view,
    connection,
    title,
    announcement,
    texts,
    act,
    loadOlder: (shown) => void loadOlder(shown),
    send(text, buttonId) {
      if (!text.trim()) return;
      const item = {
        client_msg_id: newClientMsgId(),
        text,
        created_at: new Date().toISOString(),
        ...(buttonId ? { button_id: buttonId } : {}),
      };
      outbox.set((o) => enqueue(o, item));
      typing.stop();
      sender.flush();
    },
    async attach(file, caption) {
      const token = saved.get('visitor');
      if (!token) return texts.t('composer.not_connected');
      if (file.size > UPLOAD_LIMIT_BYTES) return texts.t('composer.file_too_big');
      const url = new URL(`widget-api/${encodeURIComponent(init.widget_id)}/uploads?name=${encodeURIComponent(file.name)}`, serviceUrl);
      try {
        const res = await fetch(url, {
          method: 'POST',
          body: file,
          headers: { 'x-visitor-token': token, 'content-type': file.type || 'application/octet-stream' },
        });
        const answer = (await res.json().catch(() => undefined)) as UploadView | undefined;
        if (!res.ok || !answer) return refusal(texts, res.status, 'composer.file_refused');
        const attachment = { type: answer.type, file: answer.file, file_name: answer.file_name, file_size: answer.file_size };
        outbox.set((o) => enqueue(o, { client_msg_id: newClientMsgId(), text: caption, attachment, created_at: new Date().toISOString() }));
        typing.stop();
        sender.flush();
        return null;
      } catch {
        return texts.t('composer.file_failed');
      }
    },
    rate: (rate, chatId) =>
      granted((timed) => timed.emitWithAck('chat:rate', { rate })).then((ok) => {
        if (ok) ratedChat.set(chatId);
        return ok;
      }),
    ratedChat,
    requestAgent: () => granted((timed) => timed.emitWithAck('agent:request')),
    endChat: () => granted((timed) => timed.emitWithAck('chat:end')),
    retry(id) {
      outbox.set((o) => requeue(o, id));
      sender.flush();
    },
    typing: (text) => typing.input(text),
    typingPreview,
    callback: callbacks,
    saveContact: (contact) =>
      new Promise((resolve) => {
        profile.set('contact', contact, (ok) => {
          if (ok) fire({ name: 'svc_onIntroduction', args: [] });
          resolve(ok);
        });
        report();
      }),
    async sendOffline(message) {
      const url = new URL(`widget-api/${encodeURIComponent(init.widget_id)}/offline-messages`, serviceUrl);
      const token = saved.get('visitor');
      try {
        const res = await fetch(url, {
          method: 'POST',
          body: JSON.stringify(message),
          headers: { 'content-type': 'application/json', ...(token ? { 'x-visitor-token': token } : {}) },
        });
        return res.ok ? null : refusal(texts, res.status, 'offline.refused');
      } catch {
        return texts.t('offline.no_connection');
      }
    },
  });

  report();
  // The window was open on the site's previous page (this tab): open it again.
  const restored = saved.get('view');
  if (restored === 'chat' || restored === 'call') act(restored);
}
