import type { Hand } from '@hasta/contracts/palm';
import { indiaTimeText } from '../notices/notify-owner';

/**
 * What a person is told about their palm (issue 21): what happened, which hand, when, and what to do if it
 * was not them. Sent with notifyOwner (their own phone, else email); never a palm feature nor anyone else's
 * contact details.
 */
export interface PalmNotice {
  subject: string;
  body: string;
}

const handName = (hand: Hand) => (hand === 'left' ? 'left hand' : 'right hand');
const handsName = (hands: readonly Hand[]) =>
  hands.length === 2 ? 'both hands' : hands.length === 1 ? `your ${handName(hands[0]!)}` : 'your palm';

const NOT_YOU =
  'If this was not you, open Hasta, withdraw your palm consent in the Consent tab, change your password, and contact Hasta support at once.';

export function enrolmentNotice(input: { hand: Hand; at: Date; byAdmin: boolean }): PalmNotice {
  const how = input.byAdmin ? ', with your approval of a registration an admin at Hasta started,' : '';
  return {
    subject: 'A palm was registered on your Hasta account',
    body: `A palm was registered on your Hasta account${how} for your ${handName(input.hand)} on ${indiaTimeText(input.at)}. It can now pay from your wallet. ${NOT_YOU}`,
  };
}

export function withdrawalNotice(input: { hands: readonly Hand[]; at: Date }): PalmNotice {
  return {
    subject: 'Palm consent withdrawn on your Hasta account',
    body: `Palm consent was withdrawn for ${handsName(input.hands)} on ${indiaTimeText(input.at)}: palm payments from your account are stopped. If this was not you, change your password and contact Hasta support at once.`,
  };
}

export function erasureNotice(input: { hands: readonly Hand[]; at: Date }): PalmNotice {
  return {
    subject: 'Palm data erased from your Hasta account',
    body: `The palm data of ${handsName(input.hands)} was erased from your Hasta account on ${indiaTimeText(input.at)}. If this was not you, change your password and contact Hasta support at once.`,
  };
}

export function unfreezeNotice(input: { at: Date }): PalmNotice {
  return {
    subject: 'Palm pay is on again on your Hasta account',
    body: `Palm pay was turned back on for your Hasta account on ${indiaTimeText(input.at)}. ${NOT_YOU}`,
  };
}

/** The code for an admin-assisted registration, to the owner: who started it, which hand, what to do. */
export function enrolmentRequestMessage(input: { hand: Hand; code: string; origin: string }): PalmNotice {
  return {
    subject: 'Approve a palm registration on your Hasta account',
    body: `An admin at Hasta started registering a palm on your Hasta account for your ${handName(input.hand)}. To approve it, sign in at ${input.origin}/user-dashboard and enter the code ${input.code}. It expires in 10 minutes. If you are not with a Hasta admin registering your palm right now, do not share this code: decline the request and contact Hasta support.`,
  };
}
