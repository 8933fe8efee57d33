import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { focusRing } from '../../../components/ui-classes';
import { useFormatters } from '../../../lib/i18n-format';
import { FAQ_TOPICS } from '../content';
import type { FaqTopic } from '../content';
import { decisionUnderSeconds } from '../figures';

function Chevron({ open }: { open: boolean }) {
  return (
    <svg
      className={`h-5 w-5 shrink-0 text-emerald-700 transition-transform ${open ? 'rotate-180' : ''}`}
      viewBox="0 0 20 20"
      fill="currentColor"
      aria-hidden="true"
    >
      <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4z" />
    </svg>
  );
}

/**
 * The technology FAQ (spec §2.4): an accordion (WAI-ARIA pattern: a heading holding a button that
 * controls its panel) where opening one question closes the one that was open.
 */
export function FaqAccordion() {
  const { t } = useTranslation('technology');
  const format = useFormatters();
  // The speed answer quotes the measured scan-to-decision figure, as the figure cards do.
  const figures = { seconds: format.number(decisionUnderSeconds()) };
  const idBase = useId();
  const [open, setOpen] = useState<FaqTopic | null>(null);

  return (
    <div className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
      {FAQ_TOPICS.map((topic) => {
        const expanded = open === topic;
        const buttonId = `${idBase}-${topic}-button`;
        const panelId = `${idBase}-${topic}-panel`;
        return (
          <div key={topic}>
            <h3>
              <button
                id={buttonId}
                type="button"
                aria-expanded={expanded}
                aria-controls={panelId}
                onClick={() => setOpen(expanded ? null : topic)}
                className={`${focusRing} flex w-full items-center justify-between gap-4 rounded-2xl px-5 py-4 text-left font-semibold text-slate-900 hover:bg-slate-50`}
              >
                {t(`faq.${topic}.question`)}
                <Chevron open={expanded} />
              </button>
            </h3>
            <div
              id={panelId}
              role="region"
              aria-labelledby={buttonId}
              hidden={!expanded}
              className="px-5 pb-5 text-slate-600"
            >
              <p>{t(`faq.${topic}.answer`, figures)}</p>
            </div>
          </div>
        );
      })}
    </div>
  );
}
