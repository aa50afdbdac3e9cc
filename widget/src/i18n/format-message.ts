/**
 * Fills a catalogue string: `{name}` takes a value as plain text (never read as markup, never read again as a
 * template), and `{count, plural, one {# file} other {# files}}` picks the branch `Intl.PluralRules` names for
 * the count in the language (`=0` matches an exact count), `#` being the count written the language's way. A
 * branch may hold placeholders, not another choice.
 */
export type MessageParams = Record<string, string | number>;

const PLURAL = /\{(\w+), plural,((?:[^{}]|\{(?:[^{}]|\{\w+\})*\})*)\}/g;
const BRANCH = /(=\d+|zero|one|two|few|many|other)\s*\{((?:[^{}]|\{\w+\})*)\}/g;
const PLACEHOLDER = /\{(\w+)\}/g;

/** The branches of a plural choice's body, by selector (`one`, `=0`...). */
export const pluralBranches = (body: string) => new Map([...body.matchAll(BRANCH)].map((m) => [m[1]!, m[2]!]));

export function formatMessage(template: string, params: MessageParams, locale: string): string {
  const chosen = template.replace(PLURAL, (_, name: string, body: string) => {
    const count = Number(params[name]);
    const branches = pluralBranches(body);
    const branch = branches.get(`=${count}`) ?? branches.get(new Intl.PluralRules(locale).select(count)) ?? branches.get('other');
    return (branch ?? '').replaceAll('#', `{${name}}`);
  });
  // One pass: what a value brings is never read as a placeholder.
  return chosen.replace(PLACEHOLDER, (whole, name: string) => {
    const value = params[name];
    return value === undefined ? whole : typeof value === 'number' ? value.toLocaleString(locale) : value;
  });
}

/** The placeholder names of a template (a plural choice's name among them), for checking translations. */
export function placeholderNames(template: string): string[] {
  const names = new Set<string>();
  const rest = template.replace(PLURAL, (_, name: string, body: string) => {
    names.add(name);
    for (const branch of pluralBranches(body).values()) placeholderNames(branch).forEach((n) => names.add(n));
    return '';
  });
  for (const m of rest.matchAll(PLACEHOLDER)) names.add(m[1]!);
  return [...names].sort();
}
