import { useTranslation } from 'react-i18next';

import { focusRing } from '../../../components/ui-classes';
import { currentLanguage, setLanguage } from '../../../lib/i18n';
import { LANGUAGES } from '../../../lib/i18n-resources';

/**
 * The kiosk's two languages as two large buttons (a touch screen has no menu to open), each named in its own
 * script; the pressed one is the page's language.
 */
export function KioskLanguageSwitch() {
  const { t, i18n } = useTranslation('kiosk');
  const active = currentLanguage(i18n.language);
  return (
    <div role="group" aria-label={t('language')} className="flex gap-2">
      {LANGUAGES.map((language) => (
        <button
          key={language.code}
          type="button"
          lang={language.code}
          aria-pressed={active === language.code}
          onClick={() => setLanguage(language.code)}
          className={`${focusRing} rounded-lg border px-4 py-2 text-base font-semibold ${
            active === language.code
              ? 'border-emerald-700 bg-emerald-700 text-white'
              : 'border-slate-400 bg-white text-slate-900 hover:bg-slate-50'
          }`}
        >
          {language.name}
        </button>
      ))}
    </div>
  );
}
