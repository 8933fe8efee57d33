import type { AdminUserRow } from '@hasta/contracts/auth';
// eslint-disable-next-line import-x/default -- CommonJS: module.exports is the default import (the types only declare a namespace)
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';

import { USERS_CSV_COLUMNS, usersCsv } from './users-csv';

const row = (overrides: Partial<AdminUserRow>): AdminUserRow => ({
  id: '5f0c2f7e-1111-4222-8333-944444444444',
  username: 'Asha Verma',
  email: 'asha@example.in',
  phone: null,
  role: 'user',
  balance: '1234.50',
  balance_paise: '123450',
  left_palm_registered: false,
  right_palm_registered: false,
  left_palm_hash: null,
  right_palm_hash: null,
  created_at: '2026-03-01T10:00:00.123Z',
  ...overrides,
});

const readBack = (text: string) => Papa.parse<Record<string, string>>(text, { header: true });

describe('usersCsv', () => {
  it('writes the columns of spec §7 with YES/NO palms and a 10-character date', () => {
    const parsed = readBack(
      usersCsv([
        row({ left_palm_registered: true, left_palm_hash: 'registered' }),
        row({
          id: 'b',
          email: null,
          role: 'merchant',
          right_palm_registered: true,
          right_palm_hash: 'registered',
        }),
      ]),
    );
    expect(parsed.errors).toEqual([]);
    expect(parsed.meta.fields).toEqual([...USERS_CSV_COLUMNS]);
    expect(parsed.data).toEqual([
      {
        ID: '5f0c2f7e-1111-4222-8333-944444444444',
        Name: 'Asha Verma',
        Email: 'asha@example.in',
        Balance: '1234.50',
        Role: 'user',
        'Left Palm': 'YES',
        'Right Palm': 'NO',
        Created: '2026-03-01',
      },
      {
        ID: 'b',
        Name: 'Asha Verma',
        Email: '',
        Balance: '1234.50',
        Role: 'merchant',
        'Left Palm': 'NO',
        'Right Palm': 'YES',
        Created: '2026-03-01',
      },
    ]);
  });

  it('keeps commas, quotes and line breaks in names', () => {
    const names = ['Nair, Meera "M"', 'O\'Brien, "Jr."', 'Line\nbreak', '"', ',', 'मीरा, नायर'];
    const parsed = readBack(usersCsv(names.map((username) => row({ username }))));
    expect(parsed.errors).toEqual([]);
    expect(parsed.data.map((record) => record['Name'])).toEqual(names);
  });

  it('defuses names that a spreadsheet would run as formulas', () => {
    const parsed = readBack(
      usersCsv([row({ username: '=HYPERLINK("http://x")' }), row({ username: '@SUM' })]),
    );
    expect(parsed.data.map((record) => record['Name'])).toEqual(['\'=HYPERLINK("http://x")', "'@SUM"]);
  });

  it('writes only the header for no users', () => {
    expect(usersCsv([])).toBe(`${USERS_CSV_COLUMNS.join(',')}\r\n`);
  });
});
