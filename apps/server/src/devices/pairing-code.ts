import { createHmac, randomInt } from 'node:crypto';
import { PAIRING_CODE_ALPHABET, PAIRING_CODE_LENGTH } from '@hasta/contracts/devices';

/** A new pairing code from the CSPRNG, uniformly over PAIRING_CODE_ALPHABET. */
export function newPairingCode(): string {
  let code = '';
  for (let index = 0; index < PAIRING_CODE_LENGTH; index += 1)
    code += PAIRING_CODE_ALPHABET[randomInt(0, PAIRING_CODE_ALPHABET.length)];
  return code;
}

/** A pairing code's keyed hash: a stolen table cannot be tried through 31^8 codes without the secret. */
export function pairingCodeHash(secret: string, code: string): string {
  return createHmac('sha256', secret).update(`device-pairing\0${code}`).digest('hex');
}
