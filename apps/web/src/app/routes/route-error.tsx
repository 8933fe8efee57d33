import { messages } from '@hasta/contracts/messages';
import { useTranslation } from 'react-i18next';

import { Logo } from '../../components/logo';
import { translateMessage } from '../../lib/server-message';

/**
 * Shown when a page fails to render. It stands alone (no router links, no layout) because the failure may
 * be in the layout itself; the link reloads the home page.
 */
export function RouteError() {
  // The shell's texts (common, messages) are loaded before the first render, in either language.
  const { t } = useTranslation();
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col items-start justify-center gap-4 px-6">
      <Logo className="h-10 w-10" />
      <h1 className="text-3xl font-bold text-slate-900">{t('routeError.title')}</h1>
      <p className="text-lg text-slate-600">{translateMessage(messages.internal)}</p>
      <a href="/" className="font-semibold text-emerald-700 underline underline-offset-4">
        {t('routeError.home')}
      </a>
    </main>
  );
}
