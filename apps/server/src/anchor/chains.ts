/** The chains the server may anchor on, by the names ANCHOR_CHAIN takes (viem's names; decision 015). */
export const ANCHOR_CHAIN_NAMES = ['polygon', 'polygonAmoy', 'celo', 'celoSepolia'] as const;
export type AnchorChainName = (typeof ANCHOR_CHAIN_NAMES)[number];
