// Must stay the first import: it configures zod before any schema module runs.
import './lib/zod-config';
// Before the first render: translations are bundled and ready synchronously.
import './lib/i18n';
import './index.css';

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from './app/app';
import { purgeStaleAuthEntries } from './lib/auth-storage';

// Before the first render (spec §2.1): drop 'undefined'/'null' user and session entries.
purgeStaleAuthEntries();

const container = document.getElementById('root');
if (container === null) throw new Error('index.html must contain <div id="root">');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
