import { amountMinimumMessage, balanceLimitMessage, messages as catalogue } from '@hasta/contracts/messages';
import type { MessageKey } from '@hasta/contracts/messages';

/** The catalogue's texts with a value inside, by name, with `{{value}}` where the value goes. */
export type MessagePatternKey = 'balanceLimit' | 'amountMinimum';

/** The product's message catalogue (spec §5, §8), verbatim from the contracts: the English of every message. */
export const messages: Record<MessageKey | MessagePatternKey, string> = {
  ...catalogue,
  balanceLimit: balanceLimitMessage('{{value}}'),
  amountMinimum: amountMinimumMessage('{{value}}'),
};
