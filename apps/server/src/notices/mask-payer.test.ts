import { describe, expect, it } from 'vitest';
import { maskAddress, maskPayerAddress, nameInitial } from './notify-owner';

describe('how a palm payment’s receiver sees its payer', () => {
  it.each([
    ['asha@example.in', 'a•••@e•••'],
    ['a@b.in', 'a•••@b•••'],
    ['+919876543210', '••••3210'],
    ['ñandu@ñu.es', 'ñ•••@ñ•••'],
  ])('masks %s as %s', (address, masked) => {
    expect(maskPayerAddress(address)).toBe(masked);
  });

  it('shows a receiver less than the owner sees of their own address, and never the domain', () => {
    expect(maskAddress('asha@example.in')).toBe('as•••@example.in');
    expect(maskPayerAddress('asha@example.in')).not.toContain('example');
  });

  it.each([
    ['Asha Verma', 'A.'],
    ['  ravi', 'R.'],
    ['आशा', 'आ.'],
    ['', null],
  ])('gives the initial of %j as %j', (name, initial) => {
    expect(nameInitial(name)).toBe(initial);
  });
});
