/**
 * npm run build:contracts: compiles the anchoring registry and writes its artifact when it changed;
 * `--check` only compares and exits 1 when the committed artifact is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { compileRegistry, REGISTRY_ARTIFACT_PATH, renderArtifact } from './compile-registry';

const check = process.argv.includes('--check');
const compiled = compileRegistry();
const text = await renderArtifact(compiled);
let current = '';
try {
  current = readFileSync(REGISTRY_ARTIFACT_PATH, 'utf8');
} catch {
  // No artifact yet: written below (or reported stale with --check).
}
if (current === text) {
  console.log(
    `LogAnchorRegistry: artifact is current (solc ${compiled.compiler}, evm ${compiled.evmVersion})`,
  );
} else if (check) {
  console.error('LogAnchorRegistry: the committed artifact is stale; run npm run build:contracts');
  process.exitCode = 1;
} else {
  writeFileSync(REGISTRY_ARTIFACT_PATH, text);
  console.log(`LogAnchorRegistry: wrote ${REGISTRY_ARTIFACT_PATH} (solc ${compiled.compiler})`);
}
