import type { DeliveryHandler } from '../delivery/delivery-worker.ts';
import type { UrlPolicy } from '../lib/outbound-url.ts';
import { postJson } from '../lib/post-json.ts';
import { signatureHeaders } from '../lib/webhook-signature.ts';
import { payloadJson } from '../store/deliveries.ts';
import type { ChannelLookupCache } from '../channels/channel-lookup-cache.ts';

export const WEBHOOK_DELIVERY = 'webhook';
/** At least once, with backoff: 5 retries, the first `retryMs` after the first attempt (10 s by default), each
 * later one six times longer (1 min, 6 min, 36 min, 3.6 h). */
export const WEBHOOK_RETRIES = 5;

/**
 * One attempt of a server webhook (spec 4.3, 6.2), signed like the Chat API's deliveries. Any answer with a
 * `result` is final (ok, OK, FAILURE or an error text: the owner has spoken); timeouts, refused connections
 * and 5xx are tried again with backoff; another answer without a result fails.
 */
export function webhookSender(deps: {
  channels: Pick<ChannelLookupCache, 'byId'>;
  timeoutMs: number;
  retryMs: number;
  urlPolicy: UrlPolicy;
}): DeliveryHandler {
  return async (delivery, log) => {
    const channel = await deps.channels.byId(delivery.channelId);
    if (!channel?.webhookUrl) return { result: 'failed', status: null, error: 'The channel has no webhook URL any more' };
    const body = payloadJson(delivery);
    const retry = (status: number | null, error: string) => ({
      result: 'retry' as const,
      status,
      error,
      retryAt: Date.now() + deps.retryMs * 6 ** delivery.attempts,
    });
    let response;
    try {
      response = await postJson(channel.webhookUrl, body, {
        timeoutMs: deps.timeoutMs,
        headers: signatureHeaders(channel.signingSecret, delivery.eventId, body),
        policy: deps.urlPolicy,
      });
    } catch (err) {
      return retry(null, `the owner's server did not answer (${(err as Error).message})`);
    }
    log.answer = response.body;
    if (response.status >= 500) return retry(response.status, `the owner's server answered HTTP ${response.status}`);
    const result = resultOf(response.body);
    if (result === undefined) return { result: 'failed', status: response.status, error: `HTTP ${response.status} without a result` };
    if (/^ok$/i.test(result)) return { result: 'delivered', status: response.status };
    return { result: 'failed', status: response.status, error: `The owner's server answered: ${result}` };
  };
}

function resultOf(body: string): string | undefined {
  try {
    const result = (JSON.parse(body) as { result?: unknown } | null)?.result;
    return typeof result === 'string' ? result : undefined;
  } catch {
    return undefined;
  }
}
