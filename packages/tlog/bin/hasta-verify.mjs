#!/usr/bin/env node
// Runs the TypeScript sources directly (decision 002: no build step).
import { register } from 'tsx/esm/api';

register();
await import('../src/cli-verify.ts');
