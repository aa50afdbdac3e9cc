import { describe, expect, it } from 'vitest';
import { fillPlaceholders } from './fill-placeholders.ts';

describe('saved reply placeholders', () => {
  it("fills in the client's and the agent's names, every time they appear", () => {
    expect(
      fillPlaceholders('Hi {client.name}, {agent.name} here. Bye {client.name}!', { 'client.name': 'Nina', 'agent.name': 'Bob' }),
    ).toBe('Hi Nina, Bob here. Bye Nina!');
  });

  it('leaves an unknown placeholder, and the client name of a nameless client, as typed', () => {
    expect(fillPlaceholders('Order {order.id} for {client.name}', { 'client.name': null, 'agent.name': 'Bob' })).toBe(
      'Order {order.id} for {client.name}',
    );
  });

  it('puts a name in literally, even one that looks like a placeholder or markup', () => {
    expect(fillPlaceholders('Hi {client.name}', { 'client.name': '{agent.name} <b>$&</b>', 'agent.name': 'Bob' })).toBe(
      'Hi {agent.name} <b>$&</b>',
    );
  });
});
