import { chatApiReplySchema, parsePartyJson } from '@svc/protocol';
import { integratorUrl } from './chat-api-outbound.ts';
import type { DeliveryHandler } from '../../delivery/delivery-worker.ts';
import type { UrlPolicy } from '../../lib/outbound-url.ts';
import { postJson } from '../../lib/post-json.ts';
import { signatureHeaders } from '../../lib/webhook-signature.ts';
import { payloadJson } from '../../store/deliveries.ts';
import type { ChannelLookupCache } from '../channel-lookup-cache.ts';

/**
 * One attempt to hand a message to the integrator (spec 4.1, 7, 8). Only 200 with `{"result":"ok"}` counts;
 * an `{"error":{code,message}}` answer is final and its message is shown to the agent; timeouts, refusals
 * and other answers are tried again `intervalMs` later until the attempts are used up. Every attempt carries
 * Standard Webhooks signature headers made with the channel's secret; the spec's body is unchanged.
 */
export function chatApiSender(deps: {
  channels: Pick<ChannelLookupCache, 'byId'>;
  intervalMs: number;
  urlPolicy: UrlPolicy;
}): DeliveryHandler {
  return async (delivery, log) => {
    const channel = await deps.channels.byId(delivery.channelId);
    if (!channel) return { result: 'failed', status: null, error: 'The channel was deleted' };
    // spec 8: attempts start one interval apart, so three attempts end within 3 intervals (9 s).
    const startedAt = Date.now();
    const retry = (status: number | null, error: string) => ({
      result: 'retry' as const,
      status,
      error: delivery.attempts + 1 >= delivery.maxAttempts ? `Not delivered after ${delivery.maxAttempts} attempts: ${error}` : error,
      retryAt: startedAt + deps.intervalMs,
    });
    const body = payloadJson(delivery);
    const headers = signatureHeaders(channel.signingSecret, delivery.eventId, body);
    let response;
    try {
      // The channel's current URL: a fixed webhook_url also serves retries and resends of older rows.
      response = await postJson(integratorUrl(channel), body, {
        timeoutMs: deps.intervalMs,
        chunked: channel.chunked,
        headers,
        policy: deps.urlPolicy,
      });
    } catch (err) {
      return retry(null, `the integrator did not answer (${(err as Error).message})`);
    }
    log.answer = response.body;
    const reply = parseReply(response.body);
    if (reply && 'error' in reply) {
      const { code, message } = reply.error;
      const text = message?.trim() || `error ${code ?? 'without a message'}`;
      return { result: 'failed', status: response.status, error: `The integrator refused the message: ${text}` };
    }
    if (response.status === 200 && reply && 'result' in reply) return { result: 'delivered', status: 200 };
    return retry(response.status, `the integrator answered HTTP ${response.status} without {"result":"ok"}`);
  };
}

/** The answer almost every delivery gets, as integrators usually write it: known without parsing. */
const OK_REPLY = '{"result":"ok"}';

function parseReply(body: string) {
  if (body === OK_REPLY) return { result: 'ok' as const };
  try {
    const parsed = chatApiReplySchema.safeParse(parsePartyJson(body));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
