import type { Hand } from '@hasta/contracts/palm';

/** The texts of spec §2.12 for a registration state, verbatim. */

export interface HandsRegistered {
  left: boolean;
  right: boolean;
}

/** 0 %, 50 % (one hand) or 100 % (both). */
export function registrationProgress(hands: HandsRegistered): 0 | 50 | 100 {
  if (hands.left && hands.right) return 100;
  return hands.left || hands.right ? 50 : 0;
}

export function registrationStatusText(hands: HandsRegistered): string {
  if (hands.left && hands.right) return 'Both hands registered ✓';
  if (hands.left) return 'Left hand registered ✓ - You can register right hand or continue';
  if (hands.right) return 'Right hand registered ✓ - You can register left hand or continue';
  return 'Choose which hand(s) you want to register';
}

export const handTitle = (hand: Hand): string => (hand === 'left' ? 'Left' : 'Right');

/** A hand's button: Register, or disabled once registered ('Already Registered' once both are). */
export function handButtonLabel(hand: Hand, hands: HandsRegistered): string {
  if (hands.left && hands.right) return 'Already Registered';
  return hands[hand] ? `${handTitle(hand)} Hand ✓ Registered` : `Register ${handTitle(hand)} Hand`;
}

/** Shown once a hand is registered: Continue, or Return once both are; to /admin for an admin. */
export function continueLabel(hands: HandsRegistered, admin: boolean): string | null {
  if (!hands.left && !hands.right) return null;
  const verb = hands.left && hands.right ? 'Return' : 'Continue';
  return `${verb} to ${admin ? 'Admin' : 'Dashboard'}`;
}

export function successTexts(
  hand: Hand,
  admin: boolean,
): { title: string; detail: string; redirect: string } {
  return {
    title: 'Registration Complete!',
    detail: `${handTitle(hand)} hand has been registered successfully.`,
    redirect: admin ? 'Redirecting to admin dashboard...' : 'Redirecting to dashboard...',
  };
}

export function scanningBanner(hand: Hand): { title: string; instruction: string } {
  return {
    title: `Registering your ${hand.toUpperCase()} hand`,
    instruction: `Place your ${hand} hand on the scanner`,
  };
}

/** The query parameters of spec §2.12: admin_mode (true), user_id, user_email and hand. */
export interface RegisterParams {
  adminMode: boolean;
  userId: string | null;
  userEmail: string | null;
  hand: Hand | null;
}

export function readRegisterParams(params: URLSearchParams): RegisterParams {
  const text = (name: string): string | null => {
    const value = params.get(name)?.trim() ?? '';
    return value === '' ? null : value;
  };
  const hand = text('hand');
  return {
    adminMode: params.get('admin_mode') === 'true',
    userId: text('user_id'),
    userEmail: text('user_email'),
    hand: hand === 'left' || hand === 'right' ? hand : null,
  };
}
