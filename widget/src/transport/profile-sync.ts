import type { Ack, ContactInfo, CustomDataField, Invitation, PageInfo, SignedUserToken } from '@svc/protocol';
import type { VisitorSocket } from './visitor-socket.ts';

export interface Profile {
  contact: ContactInfo;
  customData: CustomDataField[];
  userToken: SignedUserToken;
  /** The latest invitation shown to the visitor (agents see it as context). */
  invitation: Invitation;
}

/**
 * What the page (svc_api) and the visitor (the contacts form) tell about the visitor, sent to the server when
 * connected: each kind is sent again after a reconnect until the server has acknowledged its latest value.
 * The page view goes with every connection. The server validates all of it (spec 5.5: untrusted).
 */
export function startProfileSync(
  socket: VisitorSocket,
  initialPage: PageInfo,
  acknowledged: <K extends keyof Profile>(kind: K, value: Profile[K]) => void,
) {
  let page = initialPage;
  const pending: Partial<Profile> = {};
  const waiting: { [K in keyof Profile]?: (ok: boolean) => void } = {};
  let ready = false;
  const emitters: { [K in keyof Profile]: (value: Profile[K], ack: Ack) => void } = {
    contact: (value, ack) => socket.emit('contact:set', value, ack),
    customData: (value, ack) => socket.emit('custom-data:set', value, ack),
    userToken: (value, ack) => socket.emit('user-token:set', value, ack),
    invitation: (value, ack) => socket.emit('invitation:shown', value, ack),
  };

  function send<K extends keyof Profile>(kind: K) {
    const value = pending[kind];
    if (value === undefined || !ready) return;
    const done: Ack = (answer) => {
      if (pending[kind] !== value) return;
      delete pending[kind];
      if (answer.ok) acknowledged(kind, value);
      waiting[kind]?.(answer.ok);
      delete waiting[kind];
    };
    emitters[kind](value, done);
  }

  socket.on('session', () => {
    ready = true;
    socket.emit('page:view', page);
    for (const kind of Object.keys(pending) as (keyof Profile)[]) send(kind);
  });
  socket.on('disconnect', () => {
    ready = false;
  });

  return {
    /** Sends `value` (now, or once connected); `done` learns whether the server took it. */
    set<K extends keyof Profile>(kind: K, value: Profile[K], done?: (ok: boolean) => void) {
      pending[kind] = value;
      waiting[kind] = done;
      send(kind);
    },
    /** The visitor moved to another page of a single-page app: sent now, and with every later connection. */
    pageView(next: PageInfo) {
      page = next;
      if (ready) socket.emit('page:view', page);
    },
    /** The contact being sent, not yet acknowledged: the page API answers with it already. */
    pendingContact: (): ContactInfo => pending.contact ?? {},
  };
}
