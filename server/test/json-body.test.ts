import { parsePartyJson } from '@svc/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseBodyJson } from '../src/http/json-body.ts';
import { hostileJson, propertyRuns, propertySeed } from './support/party-arbitraries.ts';

/** What a body parse gave: the value, or the error it threw. */
const outcome = (parse: (text: string) => unknown, text: string) => {
  try {
    return { value: parse(text) };
  } catch (err) {
    return { error: (err as Error).constructor.name, message: (err as Error).message };
  }
};

// The Chat API reads bodies with parseBodyJson, which skips the text rule's copy where it cannot change anything:
// whatever the text, a request must get what parsePartyJson gives (the same value, or the same refusal).
describe('body JSON', () => {
  it('gives what parsePartyJson gives, for JSON with hostile strings (escapes and raw) and for text that is no JSON', () => {
    const unescaped = (text: string) => text.replace(/\\\\./g, '');
    const texts = fc.oneof(
      hostileJson.map((v) => JSON.stringify(v) ?? 'null'),
      hostileJson.map((v) => unescaped(JSON.stringify(v) ?? 'null')),
      fc.string(),
    );
    // As jsonBody has it: decoded from the request's UTF-8 bytes, which never gives a lone surrogate.
    const asRead = (text: string) => Buffer.from(text, 'utf8').toString('utf8');
    fc.assert(
      fc.property(texts.map(asRead), (text) => {
        expect(outcome(parseBodyJson, text)).toEqual(outcome(parsePartyJson, text));
      }),
      { numRuns: propertyRuns * 5, seed: propertySeed },
    );
  });

  it('refuses nesting past 64 levels as parsePartyJson does, counting no bracket inside a string', () => {
    const depths = fc.integer({ min: 1, max: 90 });
    const nested = (levels: number, filler: string) => `${'{"a":['.repeat(levels)}"${filler}"${']}'.repeat(levels)}`;
    fc.assert(
      fc.property(depths, fc.constantFrom('', '[[[', ']]]', '{x', '}'), (levels, filler) => {
        const text = nested(levels, filler);
        expect(outcome(parseBodyJson, text)).toEqual(outcome(parsePartyJson, text));
      }),
      { numRuns: propertyRuns, seed: propertySeed },
    );
  });
});
