import { ToastBar, Toaster } from 'react-hot-toast';
import type { ToasterProps } from 'react-hot-toast';
import { useTranslation } from 'react-i18next';

import { translateMessage } from '../lib/server-message';

/**
 * react-hot-toast's container, each toast's text in the page's language: a toast raised with a catalogue
 * message (the spec's English, or a server answer) shows its translation (lib/server-message.ts).
 */
export function TranslatedToaster(props: ToasterProps) {
  // Re-renders the toasts on a language switch.
  useTranslation();
  return (
    <Toaster {...props}>
      {(toast) => (
        <ToastBar
          toast={
            typeof toast.message === 'string' ? { ...toast, message: translateMessage(toast.message) } : toast
          }
        />
      )}
    </Toaster>
  );
}
