import { requestJson } from './http-json.ts';

export interface Sender {
  id: string | number;
  name?: string;
  phone?: string;
  email?: string;
  photo?: string;
  url?: string;
  invite?: string;
}

/** A customer of the integrating system, writing through the channel's Chat API endpoint (spec 4.1). */
export class Customer {
  constructor(
    private readonly endpoint: string,
    readonly sender: Sender,
  ) {}

  /** Any spec 2.1 message: `{type:'photo', file, ...}`, `{type:'location', latitude, longitude}`... */
  send(message: { type: string } & Record<string, unknown>): Promise<{ result: string; chat_id?: number; message_id?: number }> {
    return requestJson(this.endpoint, { method: 'POST', body: { sender: this.sender, message } });
  }

  say(text: string) {
    return this.send({ type: 'text', text });
  }

  typein() {
    return this.send({ type: 'typein' });
  }

  typeout() {
    return this.send({ type: 'typeout' });
  }
}
