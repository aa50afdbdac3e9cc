import { z } from 'zod';
import { fileMediaTypes, httpUrlSchema, type MediaFields, type MessageType } from './media.ts';
import { callbackAvailabilitySchema, type CallbackAvailability, type CallRequestAnswer, type VisitorCallView } from './calls.ts';
import { EMAIL_PATTERN } from './contact-rules.ts';
import { codePointLength } from './text.ts';
import { triggerRuleSchema } from './triggers.ts';
import { widgetAppearanceSchema } from './appearance.ts';
import { launcherLookSchema } from './launcher.ts';

/** The socket.io namespace of widget visitors; the handshake names the widget channel (its public id). */
export const VISITOR_NAMESPACE = '/visitors';

export const visitorHandshakeSchema = z.object({
  widget_id: z.string().min(1).max(64),
  visitor_token: z.string().min(1).max(128).optional(),
});
export type VisitorHandshake = z.infer<typeof visitorHandshakeSchema>;

/** Longest text a visitor may send in one message, in code points (the Chat API's limit too). */
export const VISITOR_TEXT_MAX = 1000;
/** The longest draft a typing preview carries, in code points (issue 24). */
export const TYPING_PREVIEW_MAX = 1000;

// ---- what the page and the widget send (all untrusted: spec 5.5) ----
const shortText = (max: number) => z.string().trim().max(max);

/** spec 4.4 setContactInfo: name, email, phone, description. */
export const contactInfoSchema = z
  .object({ name: shortText(200), email: shortText(320), phone: shortText(100), description: shortText(2000) })
  .partial()
  .strip();
export type ContactInfo = z.infer<typeof contactInfoSchema>;

/** spec 2.3 field: content (tags neutralized), title, link, key. */
export const customDataFieldSchema = z
  .object({ content: shortText(2000), title: shortText(200), link: shortText(2048), key: shortText(200) })
  .partial()
  .strip();
export const customDataSchema = z.array(customDataFieldSchema).max(50);
export type CustomDataField = z.infer<typeof customDataFieldSchema>;

export const pageInfoSchema = z
  .object({
    url: shortText(2048),
    title: shortText(500),
    referrer: shortText(2048),
    utm: z
      .object({ source: shortText(200), medium: shortText(200), campaign: shortText(200), content: shortText(200), term: shortText(200) })
      .partial()
      .strip(),
    user_agent: shortText(500),
  })
  .partial()
  .strip();
export type PageInfo = z.infer<typeof pageInfoSchema>;

/** A file the visitor uploaded to the service first (`/widget-api/<widget_id>/uploads`). */
export const visitorAttachmentSchema = z.object({
  type: z.enum(fileMediaTypes),
  file: httpUrlSchema,
  file_name: z.string().max(512),
  file_size: z.number().int().positive(),
});
export type VisitorAttachment = z.infer<typeof visitorAttachmentSchema>;

export const visitorMessageSchema = z
  .object({
    /** Chosen by the widget; a message sent twice with one id is stored once (exactly once across reconnects). */
    client_msg_id: z.string().min(8).max(64),
    text: z
      .string()
      .refine((t) => codePointLength(t) <= VISITOR_TEXT_MAX, `must be at most ${VISITOR_TEXT_MAX} characters`)
      .optional(),
    attachment: visitorAttachmentSchema.optional(),
    /** Set when the visitor clicked a bot button: the text is the button's (spec 2.2 button_id). */
    button_id: z.string().min(1).max(200).optional(),
  })
  .refine((m) => (m.text !== undefined && m.text.trim().length > 0) || m.attachment !== undefined, 'a message needs text or an attachment');
export type VisitorMessageRequest = z.infer<typeof visitorMessageSchema>;

export const userTokenSchema = z.string().trim().min(1).max(256);

/**
 * setUserToken's token, with the site server's signature of it when it has one (verified visitors):
 * hex HMAC-SHA256 of the token with the channel's identity secret. A bare string is a token without one.
 */
export const signedUserTokenSchema = z.union([
  userTokenSchema.transform((token) => ({ token, signature: undefined as string | undefined })),
  z.object({ token: userTokenSchema, signature: z.string().trim().max(256).optional() }),
]);
export interface SignedUserToken {
  token: string;
  signature?: string;
}

/** showProactiveInvitation, or a trigger, showed the visitor this text: agents see it as context (like sender.invite). */
export const invitationSchema = z.object({
  text: z.string().trim().min(1).max(1000),
  department_id: z.number().int().positive().optional(),
});
export type Invitation = z.infer<typeof invitationSchema>;

// ---- what the server tells the widget ----
export interface VisitorMessageView extends MediaFields {
  id: number;
  /** The chat it belongs to: a new id after `chat:closed` means a new chat. */
  chat_id: number;
  author: 'visitor' | 'agent' | 'bot' | 'system';
  /** Name and avatar of the agent who wrote an agent message. */
  agent?: { name: string; photo: string | null };
  type: MessageType;
  text?: string;
  created_at: string;
  client_msg_id?: string;
}

export interface WidgetSession {
  visitor_id: string;
  /** Kept by the widget (localStorage) to come back as the same visitor; never shown to the page. */
  visitor_token: string;
  visitor_number: number;
  status: 'online' | 'offline';
  contact: ContactInfo;
  chat: {
    id: number;
    state: 'open' | 'bot' | 'closed';
    agent: { name: string; photo: string | null } | null;
    /** The newest messages (at most 50), oldest first. */
    messages: VisitorMessageView[];
    /** Older messages exist: `messages:older` pages back through them. */
    older: boolean;
  } | null; /** What isCallbackEnabled answers for this visitor right now (spec 4.4), kept current by `callback` events. */
  callback: CallbackAvailability;
  /** The visitor's callback in progress, if any. */
  call: VisitorCallView | null;
  /** Agents see what the visitor types before it is sent (the channel's typing_preview): the widget says so. */
  typing_preview: boolean;
}

/** Public settings the loader fetches before the chat UI is needed: the one small request it makes. */
export const widgetSettingsSchema = z.object({
  widget_id: z.string(),
  name: z.string(),
  status: z.enum(['online', 'offline']),
  /** What isCallbackEnabled answers right now (spec 4.4). */
  callback: callbackAvailabilitySchema,
  /** The launcher's markup, stylesheet and the channel's look as CSS custom properties (protocol/src/launcher.ts). */
  launcher: launcherLookSchema,
  /** Outside business hours with the `hide` policy: the launcher and the window are not shown. */
  hidden: z.boolean(),
  /** The channel takes only signed user tokens (verified visitors): setUserToken without a signature fails. */
  verify_users: z.boolean(),
  /** The channel's default trigger rules (spec 4.4 setRules); a page may replace them. */
  rules: z.array(triggerRuleSchema),
  /** The channel's look and language, defaults filled in. */
  appearance: widgetAppearanceSchema,
});
export type WidgetSettings = z.infer<typeof widgetSettingsSchema>;

export type Ack<T = undefined> = (result: { ok: true; value?: T } | { ok: false; error: string }) => void;

export interface VisitorServerEvents {
  session: (session: WidgetSession) => void;
  'message:new': (message: VisitorMessageView) => void;
  typing: (event: { state: 'start' | 'stop'; agent: { name: string } | null }) => void;
  status: (event: { status: 'online' | 'offline' }) => void;
  'chat:accepted': (event: { agent: { name: string; photo: string | null } }) => void;
  'chat:closed': (event: { chat_id: number }) => void;
  /** The visitor's callback availability changed (a call started or ended, settings, agents' presence, the clock). */
  callback: (availability: CallbackAvailability) => void;
  /** The visitor's call changed status. */
  call: (call: VisitorCallView) => void;
}

export interface VisitorClientEvents {
  'message:send': (message: VisitorMessageRequest, ack: Ack<VisitorMessageView>) => void;
  /** `text`: the draft, read only when the channel has typing_preview (session.typing_preview). */
  typing: (event: { state: 'start' | 'stop'; text?: string }) => void;
  'contact:set': (contact: ContactInfo, ack: Ack) => void;
  'custom-data:set': (fields: CustomDataField[], ack: Ack) => void;
  'user-token:set': (token: string | SignedUserToken, ack: Ack) => void;
  'invitation:shown': (invitation: Invitation, ack: Ack) => void;
  'page:view': (page: PageInfo) => void;
  /** The visitor rates the conversation (their newest chat). */
  'chat:rate': (rating: { rate: 'positive' | 'negative' }, ack: Ack) => void;
  /** The visitor asks for a person while a bot holds the chat. */
  'agent:request': (ack: Ack) => void;
  /** The visitor ends their chat: closed as an agent's close is (chat_finished, the bot's CHAT_CLOSED, `chat:closed`). */
  'chat:end': (ack: Ack) => void;
  /** spec 4.4 startCall and the callback form: call the visitor back on this number. */
  'call:request': (request: { phone: string }, ack: (answer: CallRequestAnswer) => void) => void;
  /** A page of the visitor's chat before the message `before`, as the visitor scrolls up; `older`: more before it. */
  'messages:older': (request: OlderMessagesRequest, ack: Ack<OlderMessages>) => void;
}

export const olderMessagesSchema = z.object({ chat_id: z.number().int().positive(), before: z.number().int().positive() });
export type OlderMessagesRequest = z.infer<typeof olderMessagesSchema>;
export interface OlderMessages {
  /** Oldest first. */
  messages: VisitorMessageView[];
  older: boolean;
}

/** spec 4.4 sendOfflineMessage / the offline form: the visitor leaves a message when no agent is online. */
export const offlineMessageSchema = z
  .object({
    name: shortText(200).optional(),
    email: z
      .string()
      .trim()
      .max(320)
      .refine((v) => v === '' || EMAIL_PATTERN.test(v), 'email: not an e-mail address')
      .optional(),
    phone: z
      .string()
      .trim()
      .max(100)
      .refine((v) => v === '' || /^\+?[\d\s().-]{5,}$/.test(v), 'phone: not a phone number')
      .optional(),
    description: shortText(2000).optional(),
    message: z
      .string({ error: 'message: write a message' })
      .refine((t) => t.trim().length > 0, 'message: write a message')
      .refine((t) => codePointLength(t) <= 4000, 'message: at most 4000 characters'),
  })
  .refine((m) => Boolean(m.email || m.phone), 'email or phone: leave one so an agent can answer');
export type OfflineMessageRequest = z.infer<typeof offlineMessageSchema>;

export const offlineMessageViewSchema = z.object({
  id: z.number().int(),
  channel_id: z.number().int(),
  visitor_id: z.string().nullable(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  description: z.string().nullable(),
  message: z.string(),
  created_at: z.string(),
});
export type OfflineMessageView = z.infer<typeof offlineMessageViewSchema>;

/** The `data` of the visitors' namespace's connect_error `rate_limited` when the visitor already holds the most
 * sockets one visitor may (docs/widget.md, rate limits): the widget then says the chat is open in other tabs. */
export interface VisitorTooManyTabs {
  reason: 'too_many_tabs';
}
