import type { AdminUserRow } from '@hasta/contracts/auth';
import { CSV_DATE_CHARS } from '@hasta/contracts/constants';
// eslint-disable-next-line import-x/default -- CommonJS: module.exports is the default import (the types only declare a namespace)
import Papa from 'papaparse';

/** The users export of spec §7: these columns, in this order, in a file named users.csv. */
export const USERS_CSV_COLUMNS = [
  'ID',
  'Name',
  'Email',
  'Balance',
  'Role',
  'Left Palm',
  'Right Palm',
  'Created',
] as const;
export const USERS_CSV_FILE_NAME = 'users.csv';

const yesNo = (registered: boolean): 'YES' | 'NO' => (registered ? 'YES' : 'NO');

/**
 * The CSV text. Papa quotes any field holding a comma, quote or line break, so names survive as typed;
 * `escapeFormulae` prefixes a quote to fields starting with = + - @ (or tab/CR), so a name cannot run as a
 * spreadsheet formula. Balance is the rupee decimal ("1234.50"); Created is the date part of the ISO time.
 */
export function usersCsv(users: readonly AdminUserRow[]): string {
  return Papa.unparse(
    {
      fields: [...USERS_CSV_COLUMNS],
      data: users.map((user) => [
        user.id,
        user.username,
        user.email ?? '',
        user.balance,
        user.role,
        yesNo(user.left_palm_hash !== null),
        yesNo(user.right_palm_hash !== null),
        user.created_at.slice(0, CSV_DATE_CHARS),
      ]),
    },
    { escapeFormulae: true, newline: '\r\n' },
  );
}

/**
 * Saves text as a file through a temporary link. The byte-order mark makes spreadsheet programs read the
 * file as UTF-8 (names in Hindi and other scripts); CSV readers such as Papa skip it.
 */
export function downloadCsv(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob(['\uFEFF', text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has been handled: some browsers read the URL asynchronously.
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
}
