import { POS_DEVICE_SPEC } from '@hasta/contracts/constants';
import { useTranslation } from 'react-i18next';

type SpecLabel = (typeof POS_DEVICE_SPEC)[number]['label'];

/** Each row's label in `marketing:pos.labels`; the values are technical and shown as they are. */
const LABEL_KEYS = {
  'Operating system': 'os',
  Screen: 'screen',
  Memory: 'memory',
  Battery: 'battery',
  Connectivity: 'connectivity',
} as const satisfies Record<SpecLabel, string>;

/** The POS device specification (spec §9): one label/value row each. */
export function PosSpecs() {
  const { t } = useTranslation('marketing');
  return (
    <div className="space-y-4">
      <p className="text-sm">{t('pos.intro')}</p>
      <table className="w-full text-left text-sm">
        <thead className="sr-only">
          <tr>
            <th scope="col">{t('pos.specLabel')}</th>
            <th scope="col">{t('pos.valueLabel')}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {POS_DEVICE_SPEC.map((row) => (
            <tr key={row.label}>
              <th scope="row" className="py-2 pr-4 font-medium text-slate-800">
                {t(`pos.labels.${LABEL_KEYS[row.label]}`)}
              </th>
              <td className="py-2 text-slate-900">{row.value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
