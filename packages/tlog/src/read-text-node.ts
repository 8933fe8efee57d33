/** The one Node-only piece of the package: reading the receipt file for the CLI. */
import { readFile } from 'node:fs/promises';

export function readTextFile(path: string): Promise<string> {
  return readFile(path, 'utf8');
}
