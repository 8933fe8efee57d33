import type { Hand } from '@hasta/contracts/palm';

import { palmScan } from '../../../locales/en/palm-scan';

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

/** Looks a registration text up (the page passes i18next's; the default reads the English catalogue). */
export type RegisterTextKey = keyof typeof palmScan.register;
export type TranslateRegister = (key: RegisterTextKey) => string;
const english: TranslateRegister = (key) => palmScan.register[key];

export function registrationStatusText(hands: HandsRegistered, t: TranslateRegister = english): string {
  if (hands.left && hands.right) return t('statusBoth');
  if (hands.left) return t('statusLeft');
  if (hands.right) return t('statusRight');
  return t('statusNone');
}

export const handTitle = (hand: Hand): string => (hand === 'left' ? 'Left' : 'Right');

/** A hand's button: Register, or disabled once registered ('Already Registered' once both are). */
export function handButtonLabel(hand: Hand, hands: HandsRegistered, t: TranslateRegister = english): string {
  if (hands.left && hands.right) return t('alreadyRegistered');
  if (hand === 'left') return hands.left ? t('leftRegistered') : t('registerLeft');
  return hands.right ? t('rightRegistered') : t('registerRight');
}

/** Shown once a hand is registered: Continue, or Return once both are; to /admin for an admin. */
export function continueLabel(
  hands: HandsRegistered,
  admin: boolean,
  t: TranslateRegister = english,
): string | null {
  if (!hands.left && !hands.right) return null;
  if (hands.left && hands.right) return admin ? t('returnAdmin') : t('returnDashboard');
  return admin ? t('continueAdmin') : t('continueDashboard');
}

export function successTexts(
  hand: Hand,
  admin: boolean,
  t: TranslateRegister = english,
): { title: string; detail: string; redirect: string } {
  return {
    title: t('complete'),
    detail: hand === 'left' ? t('detailLeft') : t('detailRight'),
    redirect: admin ? t('redirectAdmin') : t('redirect'),
  };
}

export function scanningBanner(
  hand: Hand,
  t: TranslateRegister = english,
): { title: string; instruction: string } {
  return hand === 'left'
    ? { title: t('scanningLeft'), instruction: t('placeLeft') }
    : { title: t('scanningRight'), instruction: t('placeRight') };
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
