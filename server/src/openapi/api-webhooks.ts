import {
  chatAcceptedAnswerSchema,
  chatApiOutboundSchema,
  chatApiReplySchema,
  serviceEventSchemas,
  webhookEventNames,
  webhookPayloadSchemas,
  webhookResultSchema,
} from '@svc/protocol';
import type { z } from 'zod';

/** Tags of what the service sends, apart from the APIs it answers: a reader looks up who receives it. */
export const webhookTags = {
  integrator: 'Sent to integrators (Chat API)',
  botProvider: 'Sent to bot providers (Bot API)',
  siteOwner: 'Sent to site owners (server webhooks)',
} as const;

type ToJsonSchema = (schema: z.ZodType, io: 'input' | 'output') => Record<string, unknown>;

// Standard Webhooks (standardwebhooks.com): what a receiver verifies with the channel's signing_secret.
const signatureHeaders = [
  { name: 'webhook-id', description: 'Unique per event, the same on every attempt and replay: the key to drop duplicates.' },
  { name: 'webhook-timestamp', description: 'Unix seconds of this attempt.' },
  {
    name: 'webhook-signature',
    description: "`v1,<base64 HMAC-SHA256 of id.timestamp.body>` made with the channel's `signing_secret` (admin API).",
  },
].map((h) => ({ ...h, in: 'header', required: true, schema: { type: 'string' } }));

function post(
  toJson: ToJsonSchema,
  o: { summary: string; description: string; body: z.ZodType; answer: z.ZodType; signed: boolean; tag: string },
) {
  return {
    post: {
      tags: [o.tag],
      summary: o.summary,
      description: o.description,
      ...(o.signed ? { parameters: signatureHeaders } : {}),
      // What we send is what the receiver reads: the output of our schemas.
      requestBody: { required: true, content: { 'application/json': { schema: toJson(o.body, 'output') } } },
      // What the receiver answers is read liberally: the input side.
      responses: { 200: { description: 'Taken', content: { 'application/json': { schema: toJson(o.answer, 'input') } } } },
    },
  };
}

/** OpenAPI 3.1 `webhooks`: every request the service sends, named by who receives it. */
export function apiWebhooks(toJson: ToJsonSchema): Record<string, unknown> {
  const hooks: Record<string, unknown> = {
    'chat-api-message': post(toJson, {
      tag: webhookTags.integrator,
      summary: 'An agent or bot message, or a typing change, to the integrator',
      description:
        "POSTed to the channel's `webhook_url` + `/<CHANNEL_PUBLIC_ID>` (spec 4.1), retried SVC_DELIVERY_ATTEMPTS times; " +
        'only 200 with `{"result":"ok"}` counts as delivered.',
      body: chatApiOutboundSchema,
      answer: chatApiReplySchema,
      signed: true,
    }),
  };
  for (const [event, schema] of Object.entries(serviceEventSchemas)) {
    hooks[`bot-${event}`] = post(toJson, {
      tag: webhookTags.botProvider,
      summary: `${event} to the bot provider`,
      description:
        "POSTed to the provider's `endpoint` + `/<token>` (spec 6.1); with `Authorization: Bearer <access token>` when the provider " +
        'was registered with `auth`. `site_id`, `agents_online`, `sender` and `channel` are additions for providers written for the original service.',
      body: schema,
      answer: webhookResultSchema.partial(),
      signed: false,
    });
  }
  for (const event of webhookEventNames) {
    hooks[event] = post(toJson, {
      tag: webhookTags.siteOwner,
      summary: `${event}: server webhook to the site owner`,
      description: "POSTed to a widget channel's `webhook_url` when the event is among its `webhook_events` (spec 6.2).",
      body: webhookPayloadSchemas[event],
      answer: event === 'chat_accepted' ? chatAcceptedAnswerSchema : webhookResultSchema,
      signed: true,
    });
  }
  return hooks;
}
