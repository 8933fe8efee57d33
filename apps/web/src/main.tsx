// Must stay the first import: it configures zod before any schema module runs.
import './lib/zod-config';
// Before the app's modules: sets up translations (English is bundled; see startI18n below).
import { startI18n } from './lib/i18n';
import './index.css';

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from './app/app';
import { purgeStaleAuthEntries } from './lib/auth-storage';

// Before the first render (spec §2.1): drop 'undefined'/'null' user and session entries.
purgeStaleAuthEntries();

const container = document.getElementById('root');
if (container === null) throw new Error('index.html must contain <div id="root">');

// The first render waits for the remembered language's texts (English is bundled; Hindi is one small chunk).
void startI18n().then(() => {
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
