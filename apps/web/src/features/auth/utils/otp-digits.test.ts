import { describe, expect, it } from 'vitest';

import { EMPTY_CODE, codeOf, fillDigits } from './otp-digits';

describe('fillDigits', () => {
  it('fills every box from a pasted code, wherever it was pasted, and focuses the last', () => {
    expect(fillDigits(EMPTY_CODE, 3, ' 123-456 ')).toEqual({
      digits: ['1', '2', '3', '4', '5', '6'],
      focus: 5,
    });
    expect(fillDigits(EMPTY_CODE, 0, '1234567')).toEqual({
      digits: ['1', '2', '3', '4', '5', '6'],
      focus: 5,
    });
  });

  it('puts a partial entry from the box it landed in and moves on', () => {
    expect(fillDigits(EMPTY_CODE, 2, '7')).toEqual({ digits: ['', '', '7', '', '', ''], focus: 3 });
    expect(fillDigits(['1', '', '', '', '', ''], 1, '89')).toEqual({
      digits: ['1', '8', '9', '', '', ''],
      focus: 3,
    });
    expect(fillDigits(EMPTY_CODE, 5, '4')).toEqual({ digits: ['', '', '', '', '', '4'], focus: 5 });
  });

  it('ignores anything but digits', () => {
    expect(fillDigits(EMPTY_CODE, 2, 'abc')).toEqual({ digits: [...EMPTY_CODE], focus: 2 });
    expect(codeOf(fillDigits(EMPTY_CODE, 0, 'a1b2').digits)).toBe('12');
  });
});
