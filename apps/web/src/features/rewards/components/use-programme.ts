import {
  KIOSK_REGISTRATION_BONUS_POINTS,
  POINTS_PER_RUPEE_DEFAULT,
  POINTS_PER_SCAN,
  REDEEM_MIN_POINTS_DEFAULT,
  REFERRAL_BONUS_POINTS_DEFAULT,
  REWARD_TIERS,
  TIER_THRESHOLDS_RUPEES,
  TIER_WINDOW_MONTHS,
} from '@hasta/contracts/constants';
import type { RewardsProgramme } from '@hasta/contracts/rewards';
import { useQuery } from '@tanstack/react-query';

import { fetchProgramme, programmeQueryKey } from '../api/rewards';

/**
 * The programme's figures, once, from the contracts (spec §9's tiers, points and kiosk bonus); the
 * configurable ones (referral bonus, rate, minimum) as this server runs them, the contracts' defaults until
 * its answer arrives.
 */
export const DEFAULT_PROGRAMME: RewardsProgramme = {
  tiers: REWARD_TIERS.map((tier) => ({
    tier,
    from: `${TIER_THRESHOLDS_RUPEES[tier]}.00`,
    points_per_payment: POINTS_PER_SCAN[tier],
  })),
  tier_window_months: TIER_WINDOW_MONTHS,
  kiosk_bonus_points: KIOSK_REGISTRATION_BONUS_POINTS,
  referral_bonus_points: REFERRAL_BONUS_POINTS_DEFAULT,
  points_per_rupee: POINTS_PER_RUPEE_DEFAULT,
  redeem_min_points: REDEEM_MIN_POINTS_DEFAULT,
};

export function useProgramme(): RewardsProgramme {
  const programme = useQuery({
    queryKey: programmeQueryKey,
    queryFn: ({ signal }) => fetchProgramme(signal),
    staleTime: 5 * 60_000,
  });
  return programme.data ?? DEFAULT_PROGRAMME;
}
