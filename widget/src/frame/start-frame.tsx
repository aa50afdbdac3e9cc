import type { ContactInfo, EmitPageEvent, Invitation, PageEvent, WidgetSettings, UploadView } from '@svc/protocol';
import { render } from 'preact';
import type { FrameInit, FrameState, FrameToHost } from '../bridge/messages.ts';
import { startCallbacks } from '../features/callback-form/callback-state.ts';
import { createTypingReporter } from '../features/typing/visitor-typing.ts';
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
import { linkHost } from './host-link.ts';
import { savedState } from './saved-state.ts';
import { createViewController } from './view-controller.ts';
import type { Announcement, ConnectionState, WidgetModel } from './widget-model.ts';
import { wireSocket } from './wire-socket.ts';

/**
 * The chat frame's composition root: the stores, the connection, the link to the loader and the UI, all
 * created here once and passed in.
 */
export function startFrame(init: FrameInit, port: MessagePort, win: Window, root: HTMLElement): void {
  // The frame is served at <base>/widget/frame.html: the service is at <base>/.
  const serviceUrl = new URL('..', win.location.href);

  const conversation = createStore({ ...emptyConversation, status: init.status });
  const outbox = createStore(restoreOutbox(init.saved?.outbox ?? null));
  const view = createStore<View>('closed');
  const connection = createStore<ConnectionState>('connecting');
  const unread = createStore(0);
  const title = createStore('Chat');
  const announcement = createStore<Announcement | null>(null);
  // The loader's messages arrive as tasks, after this function has built everything they use.
  const toHost = linkHost(port, {
    act: (action) => act(action),
    'contact:set': (contact) => {
      profile.set('contact', contact);
      report();
    },
    'custom-data:set': (fields) => profile.set('customData', fields),
    'user-token:set': (token) => profile.set('userToken', token),
    saved: (value) => saved.receive(value),
    invite: (invitation) => invite(invitation),
    // startCall: the loader checked the number and the availability it knew; the service checks again.
    'call:start': (phone) => void callbacks.request(phone),
    // The triggers script on the page runs the rules; the frame has nothing to do with them.
    rules: () => undefined,
  });
  const fire = (event: FrameToHost['fire']) => toHost('fire', event);
  const saved = savedState(init.saved, (value) => toHost('save', value));

  const socket = connectVisitorSocket(serviceUrl, init.widget_id, () => saved.get('visitor'));
  const emit: EmitPageEvent = (name, data) => toHost('event', { name, data } as PageEvent);
  wireSocket(socket, { conversation, outbox, connection, unread, view, announcement }, saved, fire, emit);
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
  const typing = createTypingReporter((state) => socket.connected && socket.emit('typing', { state }));
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
    };
    const json = JSON.stringify(state);
    if (json === reported) return;
    reported = json;
    toHost('state', state);
  };
  for (const store of [conversation, view, unread] as const) store.subscribe(report);
  callbacks.store.subscribe(report);

  void fetch(new URL(`widget-api/${encodeURIComponent(init.widget_id)}/settings`, serviceUrl))
    .then((r) => (r.ok ? (r.json() as Promise<WidgetSettings>) : undefined))
    .then((settings) => settings && title.set(settings.name))
    .catch(() => undefined);

  // A request of the visitor's: false when the service refused it, or did not answer within 10 s, or is not reachable.
  const granted = (request: (timed: ReturnType<typeof socket.timeout>) => Promise<{ ok: boolean }>) =>
    socket.connected
      ? request(socket.timeout(10_000))
          .then((answer) => answer.ok)
          .catch(() => false)
      : Promise.resolve(false);

  const model: WidgetModel = {
    conversation,
    outbox,
    view,
    connection,
    title,
    announcement,
    act,
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
      if (!token) return 'Not connected yet; try again in a moment.';
      const url = new URL(`widget-api/${encodeURIComponent(init.widget_id)}/uploads?name=${encodeURIComponent(file.name)}`, serviceUrl);
      try {
        const res = await fetch(url, {
          method: 'POST',
          body: file,
          headers: { 'x-visitor-token': token, 'content-type': file.type || 'application/octet-stream' },
        });
        const answer = (await res.json().catch(() => undefined)) as (UploadView & { error?: { message?: string } }) | undefined;
        if (!res.ok || !answer) return answer?.error?.message ?? `The file was not accepted (HTTP ${res.status}).`;
        const attachment = { type: answer.type, file: answer.file, file_name: answer.file_name, file_size: answer.file_size };
        outbox.set((o) => enqueue(o, { client_msg_id: newClientMsgId(), text: caption, attachment, created_at: new Date().toISOString() }));
        typing.stop();
        sender.flush();
        return null;
      } catch {
        return 'The file could not be sent; check your connection.';
      }
    },
    rate: (rate) => granted((timed) => timed.emitWithAck('chat:rate', { rate })),
    requestAgent: () => granted((timed) => timed.emitWithAck('agent:request')),
    endChat: () => granted((timed) => timed.emitWithAck('chat:end')),
    retry(id) {
      outbox.set((o) => requeue(o, id));
      sender.flush();
    },
    typing: (hasText) => typing.input(hasText),
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
        if (res.ok) return null;
        const answer = (await res.json().catch(() => undefined)) as { error?: { message?: string } } | undefined;
        return answer?.error?.message ?? `The message was not accepted (HTTP ${res.status}).`;
      } catch {
        return 'No connection to the chat service; try again in a moment.';
      }
    },
  };
  render(<App model={model} />, root);

  report();
  // The window was open on the site's previous page (this tab): open it again.
  const restored = saved.get('view');
  if (restored === 'chat' || restored === 'call') act(restored);
}
