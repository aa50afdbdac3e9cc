/**
 * A phone number as people type it, the service's own rule (protocol isCallPhoneNumber, the page API's
 * isPhoneNumber): an optional +, then 7 to 15 digits once spaces, dots, dashes and brackets are removed.
 */
export function isPhoneNumber(value: string): boolean {
  return /^\+?\d{7,15}$/.test(value.trim().replace(/[\s().-]/g, ''));
}
