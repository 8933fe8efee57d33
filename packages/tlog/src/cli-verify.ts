/** Entry point of `hasta-verify` (bin/hasta-verify.mjs): verifies a receipt file and exits 0 (OK) or 1. */
import { readTextFile } from './read-text-node';
import { runVerifyCommand } from './verify-command';

const result = await runVerifyCommand(process.argv.slice(2), readTextFile);
for (const line of result.lines) console.log(line);
process.exitCode = result.exitCode;
