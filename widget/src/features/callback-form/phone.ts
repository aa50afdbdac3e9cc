/**
 * A phone number as people type it: digits with an optional leading +, spaces, dots, dashes and brackets, and
 * 6 to 15 digits in all (E.164 allows 15).
 */
export function isPhoneNumber(value: string): boolean {
  const trimmed = value.trim();
  if (!/^\+?[\d\s().-]+$/.test(trimmed)) return false;
  const digits = trimmed.replace(/\D/g, '').length;
  return digits >= 6 && digits <= 15;
}
