import { describe, expect, it } from 'vitest';

import { padAmount, pressPadKey } from './amount-pad';
import type { PadKey } from './amount-pad';

const type = (keys: PadKey[]): string => keys.reduce(pressPadKey, '');

describe('the terminal amount pad', () => {
  it('types rupees and paise', () => {
    expect(type(['2', '5', '0'])).toBe('250');
    expect(type(['1', '2', '.', '5'])).toBe('12.5');
    expect(type(['.', '5'])).toBe('0.5');
  });

  it('refuses a second point, a third decimal, leading zeros and an eighth rupee digit', () => {
    expect(type(['1', '.', '.', '5'])).toBe('1.5');
    expect(type(['1', '.', '2', '5', '9'])).toBe('1.25');
    expect(type(['0', '0', '7'])).toBe('7');
    expect(type(['1', '2', '3', '4', '5', '6', '7', '8'])).toBe('1234567');
  });

  it('deletes and clears', () => {
    expect(type(['1', '2', 'back'])).toBe('1');
    expect(type(['1', '2', 'clear'])).toBe('');
    expect(type(['back'])).toBe('');
  });

  it('gives an amount only above zero, as paise and the text sent', () => {
    expect(padAmount('250')).toEqual({ paise: 25000n, text: '250' });
    expect(padAmount('12.5')).toEqual({ paise: 1250n, text: '12.5' });
    expect(padAmount('12.')).toEqual({ paise: 1200n, text: '12' });
    expect(padAmount('')).toBeNull();
    expect(padAmount('0')).toBeNull();
    expect(padAmount('0.00')).toBeNull();
  });
});
