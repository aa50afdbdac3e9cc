/** Quotes a value for a POSIX shell. */
const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/**
 * Commands an integrator can paste to try a new Chat API channel: a customer's text message (spec 2.1) posted
 * to the endpoint, and the channel status (spec 4.1: 0 or 1).
 *
 * @example
 * chatApiCurlExample('https://svc.example/chat-api/r/p', 'https://svc.example/chat-api/r/p/status');
 */
export function chatApiCurlExample(endpoint: string, statusUrl: string): string {
  const message = { sender: { id: 'customer-1', name: 'Ann Customer' }, message: { type: 'text', text: 'Hello!' } };
  return [
    `curl -X POST ${shellQuote(endpoint)} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d ${shellQuote(JSON.stringify(message))}`,
    '',
    `curl ${shellQuote(statusUrl)}`,
  ].join('\n');
}
