/**
 * Calls (spec 2.3 call, 4.4 startCall / isCallbackEnabled): the reasons page scripts compare, spelt exactly as
 * the spec spells them ("unavaiable" included), and the result the service computes for a channel.
 */
export const CALLBACK_DISABLED = 'Callback disabled';
export const CALLBACK_UNAVAILABLE = 'Callback unavaiable';

/** isCallbackEnabled's answer; `detail` says why in words (outside the schedule, a call already going on...). */
export type CallbackAvailability =
  { result: 'ok' } | { result: 'fail'; reason: typeof CALLBACK_DISABLED | typeof CALLBACK_UNAVAILABLE; detail: string };

/** startCall's answer: the availability, or a number that is not a phone number. */
export type StartCallResult = CallbackAvailability | { result: 'fail'; reason: 'Invalid phone number' };
